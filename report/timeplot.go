package report

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"soko/bench"
	"soko/internal/english"
)

// capitalize puts the first letter of s in upper case.
func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// unsolvedColor fills the histogram's bar of unsolved runs.
var unsolvedColor = color.RGBA{R: 200, G: 70, B: 50, A: 255}

// binsPerDecade is the number of the solve-time histogram's bins for each
// factor of ten in time.
const binsPerDecade = 5

// timePlot is the histogram of the times (of d.time) of solver s's solved
// runs at its largest budget (see largestBudget) over all collections. Its
// bins are of equal width on a log scale, binsPerDecade to a factor of
// ten, from the power of ten below the fastest solve to the time limit, or
// else the slowest solve: solve times span several factors of ten, and
// bins of equal width in seconds put nearly every run in the first. The
// runs not solved within the budget, when there are any, are one more bar
// after them, in red, labelled "N unsolved" (004 Fig. 6 counts them in its
// last bar). Solved runs without a time of the kind (CPU time not
// measured) are not drawn, and the title says how many.
func (d *dataset) timePlot(s string) (*plot.Plot, error) {
	budget, runs := largestBudget(d.budgets, func(b bench.Budget) []*bench.Record {
		var rs []*bench.Record
		for _, c := range d.collections {
			rs = append(rs, d.groups[gkey{c, s, b.String()}]...)
		}
		return rs
	})
	if len(runs) == 0 {
		return nil, nil
	}
	times, without := d.time.solvedTimes(runs)
	for i := range times {
		times[i] = max(times[i], 1e-6) // a log axis has no zero
	}
	unsolved := len(runs) - len(times) - without
	hi := budget.Time.Seconds()
	if len(times) > 0 {
		hi = max(hi, slices.Max(times))
	}
	lo := hi / 1000
	if len(times) > 0 {
		lo = math.Pow(10, math.Floor(math.Log10(slices.Min(times))))
	}
	if hi == 0 {
		lo, hi = 1e-3, 1
	}
	// edge is the left edge of bin i, counted from lo, as log10 of seconds.
	edge := func(i int) float64 { return math.Log10(lo) + float64(i)/binsPerDecade }
	nbins := max(1, int(math.Ceil(math.Log10(hi/lo)*binsPerDecade-1e-9)))
	bins := make([]plotter.HistogramBin, nbins)
	for i := range bins {
		bins[i] = plotter.HistogramBin{Min: edge(i), Max: edge(i + 1)}
	}
	for _, t := range times {
		bins[min(max(int(math.Floor(math.Log10(t/lo)*binsPerDecade)), 0), nbins-1)].Weight++
	}
	hist := &plotter.Histogram{Bins: bins, FillColor: color.Gray{Y: 160}, LineStyle: plotter.DefaultLineStyle}
	hist.LineStyle.Width = vg.Points(0.5)
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s of solved runs: %s at %s\n%d solved", capitalize(d.time.name()), s, budget, len(times)+without)
	if without > 0 {
		p.Title.Text += fmt.Sprintf(" (%d without %s, not drawn)", without, d.time.name())
	}
	p.X.Label.Text = fmt.Sprintf("%s, log scale, %d bins to a factor of 10", d.time.axis(), binsPerDecade)
	p.Y.Label.Text = "runs"
	p.X.Tick.Marker, p.Y.Tick.Marker = log10SecondsTicks{}, linearTicks{integer: true}
	p.Add(hist)
	p.X.Min, p.X.Max, p.Y.Min = edge(0), edge(nbins), 0
	top := 0.0
	for _, b := range bins {
		top = max(top, b.Weight)
	}
	switch {
	case unsolved == 0 && budget.Time > 0:
		p.Title.Text += ", all within " + budget.String()
	case unsolved == 0:
		p.Title.Text += fmt.Sprintf(" of %s", english.Count(len(runs), "run", "runs"))
	default:
		p.Title.Text += fmt.Sprintf(", %d not solved within %s (the red bar at the right)", unsolved, budget)
		// The unsolved bar stands apart, after a gap of one bin, two bins
		// wide, and says what it is above it (a tick label there would
		// run into the time limit's).
		x0, x1 := edge(nbins+1), edge(nbins+3)
		red := &plotter.Histogram{Bins: []plotter.HistogramBin{{Min: x0, Max: x1, Weight: float64(unsolved)}}, FillColor: unsolvedColor, LineStyle: hist.LineStyle}
		p.Add(red)
		p.X.Max = x1
		top = max(top, float64(unsolved))
		mid := edge(nbins + 2)
		lbl, err := plotter.NewLabels(plotter.XYLabels{XYs: plotter.XYs{{X: mid, Y: float64(unsolved)}}, Labels: []string{fmt.Sprintf("%d unsolved", unsolved)}})
		if err != nil {
			return nil, err
		}
		lbl.TextStyle[0].XAlign = draw.XCenter
		lbl.TextStyle[0].Color = unsolvedColor
		lbl.TextStyle[0].Font.Size = vg.Points(7)
		lbl.Offset.Y = vg.Points(2)
		p.Add(lbl)
	}
	p.Y.Max = max(top, 1) * 1.1
	return p, nil
}
