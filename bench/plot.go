package bench

import (
	"fmt"
	"image/color"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// plots writes the figures, each as PNG and SVG, into dir:
//
//	solved-COLLECTION     levels solved vs budget, a line per solver (002 Figs. 3/4)
//	unique-per-node       unique states per tree node vs budget (002 Table I)
//	time-SOLVER           solve-time histogram at the solver's largest budget (004 Fig. 6)
//	pushdiff-COLLECTION   per-level push-count difference of two solvers (000 Figs. 6.1/6.2)
func (d *dataset) plots(dir string, pds []pushDiff) error {
	save := func(p *plot.Plot, name string) error {
		for _, ext := range []string{".png", ".svg"} {
			if err := p.Save(6*vg.Inch, 4*vg.Inch, filepath.Join(dir, fileName(name)+ext)); err != nil {
				return fmt.Errorf("plot %s: %w", name, err)
			}
		}
		return nil
	}
	for _, c := range d.collections {
		p, err := d.solvedPlot(c)
		if err != nil {
			return err
		}
		if err := save(p, "solved-"+c); err != nil {
			return err
		}
	}
	if p, err := d.uniquePlot(); err != nil {
		return err
	} else if p != nil {
		if err := save(p, "unique-per-node"); err != nil {
			return err
		}
	}
	for _, s := range d.solvers {
		p, err := d.timePlot(s)
		if err != nil {
			return err
		}
		if p != nil {
			if err := save(p, "time-"+s); err != nil {
				return err
			}
		}
	}
	for _, pd := range pds {
		p, err := pushDiffPlot(pd)
		if err != nil {
			return err
		}
		if p != nil {
			if err := save(p, "pushdiff-"+pd.coll); err != nil {
				return err
			}
		}
	}
	return nil
}

// fileName keeps letters, digits, '-', '_', '.' and '=' and replaces the rest.
func fileName(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.', r == '=':
			return r
		}
		return '_'
	}, s)
}

// budgetAxis places budgets on an x axis: by iterations, nodes or seconds
// when only that limit varies (on a log scale when it spans a factor of ten
// or more), otherwise by position with the budgets as labels.
func budgetAxis(bs []Budget) (xs []float64, label string, logScale bool, names []string) {
	vary := func(f func(Budget) float64) bool {
		for _, b := range bs[1:] {
			if f(b) != f(bs[0]) {
				return true
			}
		}
		return false
	}
	axes := []struct {
		label string
		f     func(Budget) float64
	}{
		{"iterations", func(b Budget) float64 { return float64(b.Iterations) }},
		{"states expanded", func(b Budget) float64 { return float64(b.Nodes) }},
		{"seconds", func(b Budget) float64 { return b.Time.Seconds() }},
	}
	var varying []int
	for i, a := range axes {
		if len(bs) > 1 && vary(a.f) {
			varying = append(varying, i)
		}
	}
	if len(varying) == 1 {
		a := axes[varying[0]]
		lo, hi := math.Inf(1), 0.0
		ok := true
		for _, b := range bs {
			x := a.f(b)
			if x <= 0 {
				ok = false
			}
			xs = append(xs, x)
			lo, hi = min(lo, x), max(hi, x)
		}
		if ok {
			return xs, "budget (" + a.label + ")", hi/lo >= 10, nil
		}
		xs = nil
	}
	for i, b := range bs {
		xs = append(xs, float64(i))
		names = append(names, b.String())
	}
	return xs, "budget", false, names
}

func setBudgetAxis(p *plot.Plot, label string, logScale bool, names []string) {
	p.X.Label.Text = label
	if logScale {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	if names != nil {
		ticks := make([]plot.Tick, len(names))
		for i, n := range names {
			ticks[i] = plot.Tick{Value: float64(i), Label: n}
		}
		p.X.Tick.Marker = plot.ConstantTicks(ticks)
		p.X.Min, p.X.Max = -0.5, float64(len(names))-0.5
	}
}

func (d *dataset) solvedPlot(c string) (*plot.Plot, error) {
	bs := d.budgetsOf(c)
	xs, label, logScale, names := budgetAxis(bs)
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Levels solved: %s (%d levels)", c, len(d.levels[c]))
	p.Y.Label.Text = "levels solved"
	p.Y.Min, p.Y.Max = 0, float64(len(d.levels[c]))
	p.Y.Tick.Marker = plainTicks{}
	var lines []any
	for _, s := range d.solversOf(c) {
		var pts plotter.XYs
		for i, b := range bs {
			if cl, ok := d.cell(c, s, b); ok {
				pts = append(pts, plotter.XY{X: xs[i], Y: cl.solved})
			}
		}
		if len(pts) > 0 {
			lines = append(lines, s, pts)
		}
	}
	if err := plotutil.AddLinePoints(p, lines...); err != nil {
		return nil, err
	}
	setBudgetAxis(p, label, logScale, names)
	p.Add(plotter.NewGrid())
	return p, nil
}

func (d *dataset) uniquePlot() (*plot.Plot, error) {
	var bs []Budget
	for _, b := range d.budgets {
		for _, s := range d.solvers {
			if _, ok := d.uniqueRatio(s, b); ok {
				bs = append(bs, b)
				break
			}
		}
	}
	if len(bs) == 0 {
		return nil, nil
	}
	xs, label, logScale, names := budgetAxis(bs)
	p := plot.New()
	p.Title.Text = "Unique states per tree node"
	p.Y.Label.Text = "unique states / tree size"
	p.Y.Min = 0
	p.Legend.Top = true
	p.Y.Tick.Marker = plainTicks{}
	var lines []any
	lo, hi := math.Inf(1), 0.0
	for _, s := range d.solvers {
		var pts plotter.XYs
		for i, b := range bs {
			if v, ok := d.uniqueRatio(s, b); ok {
				pts = append(pts, plotter.XY{X: xs[i], Y: v})
				lo, hi = min(lo, v), max(hi, v)
			}
		}
		if len(pts) > 0 {
			lines = append(lines, s, pts)
		}
	}
	// Room above the lines for the legend; a log scale when the ratios
	// span a factor of ten (002 Table I: about 0.01 to 7).
	if lo > 0 && hi/lo >= 10 {
		p.Y.Scale, p.Y.Tick.Marker = plot.LogScale{}, plot.LogTicks{Prec: -1}
		p.Y.Min, p.Y.Max = lo/2, hi*4
	} else {
		p.Y.Max = hi * 1.3
	}
	if err := plotutil.AddLinePoints(p, lines...); err != nil {
		return nil, err
	}
	setBudgetAxis(p, label, logScale, names)
	p.Add(plotter.NewGrid())
	return p, nil
}

// timePlot is the histogram of solve times of solver s at its largest
// budget over all collections, in 20 bins. Under a time limit the bins span
// the limit and unsolved runs are counted in the last bin, as 004 Fig. 6
// does; otherwise only solved runs are counted.
func (d *dataset) timePlot(s string) (*plot.Plot, error) {
	var budget Budget
	var runs []*Record
	for _, timed := range []bool{true, false} {
		for i := len(d.budgets) - 1; i >= 0 && runs == nil; i-- {
			if timed && d.budgets[i].Time == 0 {
				continue
			}
			for _, c := range d.collections {
				runs = append(runs, d.groups[gkey{c, s, d.budgets[i].String()}]...)
			}
			budget = d.budgets[i]
		}
	}
	if len(runs) == 0 {
		return nil, nil
	}
	const nbins = 20
	hi := budget.Time.Seconds()
	if hi == 0 {
		for _, r := range runs {
			if r.Solved() {
				hi = max(hi, r.WallS)
			}
		}
	}
	if hi == 0 {
		hi = 1
	}
	width := hi / nbins
	bins := make([]plotter.HistogramBin, nbins)
	for i := range bins {
		bins[i] = plotter.HistogramBin{Min: float64(i) * width, Max: float64(i+1) * width}
	}
	solved, failed := 0, 0
	for _, r := range runs {
		switch {
		case r.Solved():
			solved++
			i := min(int(r.WallS/width), nbins-1)
			bins[i].Weight++
		case budget.Time > 0:
			failed++
			bins[nbins-1].Weight++
		}
	}
	h := &plotter.Histogram{Bins: bins, Width: width, FillColor: color.Gray{Y: 160}, LineStyle: plotter.DefaultLineStyle}
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Solve times: %s at %s (%d solved", s, budget, solved)
	if budget.Time > 0 {
		p.Title.Text += fmt.Sprintf(", %d unsolved in the last bar", failed)
	}
	p.Title.Text += ")"
	p.X.Label.Text = "wall time (s)"
	p.Y.Label.Text = "runs"
	p.X.Min, p.X.Max, p.Y.Min = 0, hi, 0
	p.X.Tick.Marker, p.Y.Tick.Marker = plainTicks{}, plainTicks{}
	p.Add(h)
	return p, nil
}

// pushDiffPlot draws one bar per level at the level's number: pushes of a
// minus pushes of b, for the levels both solve.
func pushDiffPlot(pd pushDiff) (*plot.Plot, error) {
	if len(pd.diffs) == 0 {
		return nil, nil
	}
	numbered := true
	maxN := 0
	for _, id := range pd.levels {
		_, n := splitLevelID(id)
		if n <= 0 {
			numbered = false
		}
		maxN = max(maxN, n)
	}
	var vals plotter.Values
	xmin := 0.0
	if numbered {
		vals = make(plotter.Values, maxN)
		for i, id := range pd.levels {
			_, n := splitLevelID(id)
			vals[n-1] = pd.diffs[i]
		}
		xmin = 1
	} else {
		vals = append(vals, pd.diffs...)
	}
	bw := max(vg.Length(1), 5*vg.Inch/vg.Length(len(vals)+1)*0.5)
	bar, err := plotter.NewBarChart(vals, bw)
	if err != nil {
		return nil, err
	}
	bar.XMin = xmin
	bar.Color = color.RGBA{R: 60, G: 90, B: 170, A: 255}
	bar.LineStyle.Width = 0
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Pushes %s − %s per level: %s at %s (mean %.2f over %d levels)", pd.a, pd.b, pd.coll, pd.budget, mean(pd.diffs), len(pd.diffs))
	p.Title.TextStyle.Font.Size = vg.Points(10)
	if numbered {
		p.X.Label.Text = "level"
	} else {
		p.X.Label.Text = "level (in collection order, solved by both)"
	}
	p.Y.Label.Text = "push-count difference"
	lo, hi := 0.0, 0.0
	for _, x := range pd.diffs {
		lo, hi = min(lo, x), max(hi, x)
	}
	p.Y.Min, p.Y.Max = lo-0.5, hi+0.5
	p.X.Tick.Marker, p.Y.Tick.Marker = plainTicks{}, plainTicks{}
	p.Add(bar, plotter.NewGrid())
	return p, nil
}

// plainTicks are gonum's default ticks labelled without trailing zeros
// ("50", not "50.00").
type plainTicks struct{}

func (plainTicks) Ticks(lo, hi float64) []plot.Tick {
	ts := plot.DefaultTicks{}.Ticks(lo, hi)
	for i := range ts {
		if ts[i].Label != "" {
			ts[i].Label = strconv.FormatFloat(ts[i].Value, 'g', 6, 64)
		}
	}
	return ts
}
