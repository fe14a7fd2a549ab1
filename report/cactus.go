package report

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"soko/bench"
	"soko/internal/english"
)

// cactusPlot draws, for each solver, how many levels of collection c it
// solved within a time t, against t on a log scale: the cactus plot of
// solver competitions, turned so that higher and further left is better.
// Each solver is at its largest budget (see largestBudget), and its curve
// runs on to that budget's time limit, or else its slowest solve; with
// several seeds a count is the mean over them. t is the report's time
// (d.time, named on the axis); a solved run without one (CPU time not
// measured) is not drawn, and the legend says how many. Nil when no run
// of c was solved.
func (d *dataset) cactusPlot(c string) (*plot.Plot, error) {
	curves, lo, hi := d.cactusCurves(c)
	if math.IsInf(lo, 1) {
		return nil, nil
	}
	sameBudget := !slices.ContainsFunc(curves, func(cv cactusCurve) bool { return cv.budget != curves[0].budget })
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Levels solved within a time: %s (%s)", c, english.Count(len(d.levels[c]), "level", "levels"))
	if sameBudget {
		p.Title.Text += "\nat " + curves[0].budget.String()
	}
	if note := d.seedsNote(c); note != "" {
		p.Title.Text += ", " + note
	}
	for i, cv := range curves {
		seeds := float64(d.groupSeeds[gkey{c, cv.solver, cv.budget.String()}])
		// A step up at each solve time, from zero at the left edge to the
		// count at the curve's end.
		pts := plotter.XYs{{X: math.Log10(lo / 2), Y: 0}}
		for j, t := range cv.times {
			pts = append(pts, plotter.XY{X: math.Log10(t), Y: float64(j+1) / seeds})
		}
		solved := float64(len(cv.times)) / seeds
		if cv.end == 0 { // no time limit and no solve: flat across the plot
			cv.end = hi
		}
		pts = append(pts, plotter.XY{X: math.Log10(cv.end), Y: solved})
		line, err := plotter.NewLine(pts)
		if err != nil {
			return nil, err
		}
		line.StepStyle = plotter.PostStep
		line.Color = plotutil.Color(i)
		line.Dashes = plotutil.Dashes(i)
		line.Width = vg.Points(1.2)
		p.Add(line)
		entry := fmt.Sprintf("%s: %s solved", cv.solver, formatCount(float64(cv.solved)/seeds))
		if n := cv.solved - len(cv.times); n > 0 {
			entry += fmt.Sprintf(" (%d without %s, not drawn)", n, d.time.name())
		}
		if !sameBudget {
			entry += " at " + cv.budget.String()
		}
		p.Legend.Add(entry, line)
	}
	p.Add(plotter.NewGrid())
	p.X.Label.Text = d.time.axis() + " per level, log scale"
	p.X.Tick.Marker = log10SecondsTicks{}
	p.X.Min, p.X.Max = math.Log10(lo/2), math.Log10(hi*1.1)
	p.Y.Label.Text = "levels solved"
	p.Y.Min, p.Y.Max = 0, float64(len(d.levels[c]))
	p.Y.Tick.Marker = linearTicks{integer: true}
	return p, nil
}

// cactusCurve is one solver's curve of a cactus plot.
type cactusCurve struct {
	solver string
	budget bench.Budget
	times  []float64 // of the solved runs, in increasing order
	end    float64
	solved int // solved runs, those without a time included
}

// cactusCurves are the curves of collection c's cactus plot, and the
// fastest time (+Inf when none) and the rightmost end among them.
func (d *dataset) cactusCurves(c string) (curves []cactusCurve, lo, hi float64) {
	lo = math.Inf(1)
	for _, s := range d.solversOf(c) {
		b, rs := largestBudget(d.budgetsOf(c), func(b bench.Budget) []*bench.Record { return d.groups[gkey{c, s, b.String()}] })
		cv := cactusCurve{solver: s, budget: b, end: b.Time.Seconds()}
		for _, r := range rs {
			if r.Solved() {
				cv.solved++
			}
		}
		times, _ := d.time.solvedTimes(rs)
		for _, t := range times {
			t = max(t, 1e-6) // a log axis has no zero
			cv.times = append(cv.times, t)
			lo = min(lo, t)
			cv.end = max(cv.end, t)
		}
		slices.Sort(cv.times)
		hi = max(hi, cv.end)
		curves = append(curves, cv)
	}
	return curves, lo, hi
}
