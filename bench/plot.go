package bench

import (
	"fmt"
	"image/color"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"soko/internal/english"
	"soko/internal/outfile"
)

// plots writes the figures, each as PNG and SVG, into dir:
//
//	solved-COLLECTION     levels solved vs budget, a line per solver (002 Figs. 3/4)
//	unique-per-node       unique states per tree node vs budget (002 Table I)
//	time-SOLVER           solve-time histogram at the solver's largest budget (004 Fig. 6)
//	pushdiff-COLLECTION   per-level push-count difference of two solvers (000 Figs. 6.1/6.2)
//	sweep-SOLVER-PARAM    time against a parameter's value (001 Figs. 4–7; see sweep.go)
func (d *dataset) plots(dir string, pds []pushDiff) error {
	if err := d.sweepPlots(dir); err != nil {
		return err
	}
	for _, c := range d.collections {
		p, err := d.solvedPlot(c)
		if err != nil {
			return err
		}
		if err := savePlot(p, dir, "solved-"+c); err != nil {
			return err
		}
	}
	if p, err := d.uniquePlot(); err != nil {
		return err
	} else if p != nil {
		if err := savePlot(p, dir, "unique-per-node"); err != nil {
			return err
		}
	}
	for _, s := range d.solvers {
		p, err := d.timePlot(s)
		if err != nil {
			return err
		}
		if p != nil {
			if err := savePlot(p, dir, "time-"+s); err != nil {
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
			if err := savePlot(p, dir, "pushdiff-"+pd.coll); err != nil {
				return err
			}
		}
	}
	return nil
}

// The plots' size: the plot itself; a legend is put to its right, outside
// the data, and widens the image.
const (
	plotWidth  = 6 * vg.Inch
	plotHeight = 4 * vg.Inch
)

// savePlot writes p as name.png and name.svg in dir, with its legend (if
// it has entries) to the right of the plot, and its title shrunk until it
// fits the width.
func savePlot(p *plot.Plot, dir, name string) error {
	legend := p.Legend
	p.Legend = plot.NewLegend()
	legend.Top, legend.Left = true, true
	var legendW vg.Length
	if r := legend.Rectangle(draw.Canvas{}); r.Size().X > 0 {
		legendW = r.Size().X + vg.Points(12)
	}
	width := plotWidth + legendW
	fitTitle(p, plotWidth-vg.Points(8))
	for _, ext := range []string{"png", "svg"} {
		c, err := draw.NewFormattedCanvas(width, plotHeight, ext)
		if err != nil {
			return fmt.Errorf("plot %s: %w", name, err)
		}
		dc := draw.New(c)
		p.Draw(draw.Crop(dc, 0, -legendW, 0, -vg.Points(3)))
		if legendW > 0 {
			// Below the title, from the left of the legend's column.
			top := vg.Points(7)
			if p.Title.Text != "" {
				top += p.Title.TextStyle.Rectangle(p.Title.Text).Size().Y + p.Title.Padding
			}
			legend.Draw(draw.Crop(dc, width-legendW+vg.Points(6), 0, 0, -top))
		}
		f, err := outfile.Create(filepath.Join(dir, fileName(name)+"."+ext))
		if err != nil {
			return err
		}
		_, err = c.WriteTo(f)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("plot %s: %w", name, err)
		}
	}
	return nil
}

// fitTitle makes the title's font smaller, down to 7 points, until its
// widest line fits in w.
func fitTitle(p *plot.Plot, w vg.Length) {
	for p.Title.TextStyle.Font.Size > vg.Points(7) && titleWidth(p) > w {
		p.Title.TextStyle.Font.Size -= vg.Points(0.5)
	}
}

// titleWidth is the width of the title's widest line.
func titleWidth(p *plot.Plot) vg.Length {
	var w vg.Length
	for line := range strings.SplitSeq(p.Title.Text, "\n") {
		w = max(w, p.Title.TextStyle.Width(line))
	}
	return w
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

// setBudgetAxis puts the budgets on p's x axis, one labelled tick at each.
func setBudgetAxis(p *plot.Plot, xs []float64, label string, logScale bool, names []string) {
	p.X.Label.Text = label
	if names != nil {
		ticks := make([]plot.Tick, len(names))
		for i, n := range names {
			ticks[i] = plot.Tick{Value: float64(i), Label: n}
		}
		p.X.Tick.Marker = plot.ConstantTicks(ticks)
		p.X.Min, p.X.Max = -0.5, float64(len(names))-0.5
		return
	}
	ticks := make([]plot.Tick, len(xs))
	for i, x := range xs {
		ticks[i] = plot.Tick{Value: x, Label: compactNumber(x)}
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	lo, hi := slices.Min(xs), slices.Max(xs)
	if logScale {
		p.X.Scale = plot.LogScale{}
		p.X.Min, p.X.Max = lo/1.4, hi*1.4
	} else {
		pad := max((hi-lo)*0.05, math.Abs(hi)*0.05, 0.5)
		p.X.Min, p.X.Max = lo-pad, hi+pad
	}
}

// compactNumber writes 100000 as "100k", 2000000 as "2M", 0.1 as "0.1".
func compactNumber(x float64) string {
	switch {
	case x >= 1e6 && math.Mod(x, 1e6) == 0:
		return strconv.FormatFloat(x/1e6, 'g', -1, 64) + "M"
	case x >= 1e3 && math.Mod(x, 1e3) == 0:
		return strconv.FormatFloat(x/1e3, 'g', -1, 64) + "k"
	}
	return strconv.FormatFloat(x, 'g', 6, 64)
}

func (d *dataset) solvedPlot(c string) (*plot.Plot, error) {
	bs := d.budgetsOf(c)
	xs, label, logScale, names := budgetAxis(bs)
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Levels solved: %s (%s)", c, english.Count(len(d.levels[c]), "level", "levels"))
	p.Y.Label.Text = "levels solved"
	p.Y.Min, p.Y.Max = 0, float64(len(d.levels[c]))
	p.Y.Tick.Marker = linearTicks{integer: true}
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
	setBudgetAxis(p, xs, label, logScale, names)
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
	// A log scale when the ratios span a factor of ten (002 Table I: about
	// 0.01 to 7).
	if lo > 0 && hi/lo >= 10 {
		p.Y.Scale, p.Y.Tick.Marker = plot.LogScale{}, logTicks{}
		p.Y.Min, p.Y.Max = lo/1.5, hi*1.5
	} else {
		p.Y.Tick.Marker = linearTicks{}
		p.Y.Min, p.Y.Max = 0, hi*1.1
	}
	if err := plotutil.AddLinePoints(p, lines...); err != nil {
		return nil, err
	}
	setBudgetAxis(p, xs, label, logScale, names)
	p.Add(plotter.NewGrid())
	return p, nil
}

// unsolvedColor fills the histogram's bar of unsolved runs.
var unsolvedColor = color.RGBA{R: 200, G: 70, B: 50, A: 255}

// timePlot is the histogram of solve times of solver s at its largest
// budget (a time limit if it has one) over all collections, in 20 bins that
// span the time limit, or else the longest solve. The runs not solved within
// the budget are one more bar after them, in another colour and labelled
// "unsolved" (004 Fig. 6 counts them in its last bar).
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
	solved, unsolved := 0, 0
	for _, r := range runs {
		switch {
		case r.Solved():
			solved++
			i := min(int(r.WallS/width), nbins-1)
			bins[i].Weight++
		default:
			unsolved++
		}
	}
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Solve times: %s at %s\n%d solved", s, budget, solved)
	p.X.Label.Text = "wall time (s)"
	p.Y.Label.Text = "runs"
	p.X.Min, p.Y.Min = 0, 0
	p.X.Max = hi
	p.X.Tick.Marker, p.Y.Tick.Marker = linearTicks{}, linearTicks{integer: true}
	p.Add(&plotter.Histogram{Bins: bins, Width: width, FillColor: color.Gray{Y: 160}, LineStyle: plotter.DefaultLineStyle})
	top := 0.0
	for _, b := range bins {
		top = max(top, b.Weight)
	}
	if unsolved > 0 || budget.Time > 0 {
		p.Title.Text += fmt.Sprintf(", %d not solved within %s (the red bar)", unsolved, budget)
		// The unsolved bar stands apart, after a gap of one bin.
		x0 := hi + width
		p.Add(&plotter.Histogram{Bins: []plotter.HistogramBin{{Min: x0, Max: x0 + 2*width, Weight: float64(unsolved)}}, Width: 2 * width,
			FillColor: unsolvedColor, LineStyle: plotter.DefaultLineStyle})
		p.X.Max = x0 + 2*width
		top = max(top, float64(unsolved))
		lbl, err := plotter.NewLabels(plotter.XYLabels{XYs: plotter.XYs{{X: x0 + width, Y: float64(unsolved)}}, Labels: []string{strconv.Itoa(unsolved)}})
		if err != nil {
			return nil, err
		}
		lbl.TextStyle[0].XAlign = draw.XCenter
		lbl.TextStyle[0].Color = unsolvedColor
		lbl.Offset.Y = vg.Points(2)
		p.Add(lbl)
		ticks := linearTicks{}.Ticks(0, hi)
		p.X.Tick.Marker = plot.ConstantTicks(append(ticks, plot.Tick{Value: x0 + width, Label: "unsolved"}))
	}
	p.Y.Max = top * 1.08
	return p, nil
}

// pushDiffPlot draws one bar per level at the level's number: pushes of a
// minus pushes of b, for the levels both solve. The x axis spans the levels
// shown, the y axis their differences.
func pushDiffPlot(pd pushDiff) (*plot.Plot, error) {
	if len(pd.diffs) == 0 {
		return nil, nil
	}
	numbered := true
	minN, maxN := math.MaxInt, 0
	for _, id := range pd.levels {
		_, n := splitLevelID(id)
		if n <= 0 {
			numbered = false
		}
		minN, maxN = min(minN, n), max(maxN, n)
	}
	var vals plotter.Values
	xmin := 0.0
	if numbered {
		vals = make(plotter.Values, maxN-minN+1)
		for i, id := range pd.levels {
			_, n := splitLevelID(id)
			vals[n-minN] = pd.diffs[i]
		}
		xmin = float64(minN)
	} else {
		vals = append(vals, pd.diffs...)
	}
	bw := max(vg.Length(1), min(5*vg.Inch/vg.Length(len(vals)+1)*0.6, vg.Points(20)))
	bar, err := plotter.NewBarChart(vals, bw)
	if err != nil {
		return nil, err
	}
	bar.XMin = xmin
	bar.Color = color.RGBA{R: 60, G: 90, B: 170, A: 255}
	bar.LineStyle.Width = 0
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Pushes %s − %s per level\n%s at %s: mean %s over %s both solve",
		pd.a, pd.b, pd.coll, pd.budget, fmtF(mean(pd.diffs), 2), english.Count(len(pd.diffs), "level", "levels"))
	if numbered {
		p.X.Label.Text = "level"
		p.X.Tick.Marker = linearTicks{integer: true}
	} else {
		p.X.Label.Text = "level (in collection order, solved by both)"
		p.X.Tick.Marker = linearTicks{integer: true}
	}
	p.Y.Label.Text = "push-count difference"
	p.Y.Tick.Marker = linearTicks{integer: true}
	p.Add(plotter.NewGrid(), bar)
	// The levels both solve in as many pushes: a dot on the zero line.
	var equal plotter.XYs
	for i, x := range pd.diffs {
		if x == 0 {
			pos := float64(i)
			if numbered {
				_, n := splitLevelID(pd.levels[i])
				pos = float64(n)
			}
			equal = append(equal, plotter.XY{X: pos, Y: 0})
		}
	}
	if len(equal) > 0 {
		dots, err := plotter.NewScatter(equal)
		if err != nil {
			return nil, err
		}
		dots.GlyphStyle = draw.GlyphStyle{Color: color.Gray{Y: 90}, Radius: vg.Points(1.5), Shape: draw.CircleGlyph{}}
		p.Add(dots)
		p.Title.Text += fmt.Sprintf(" (%d equal: dots)", len(equal))
	}
	lo, hi := min(0, slices.Min(pd.diffs)), max(0, slices.Max(pd.diffs))
	pad := max((hi-lo)*0.05, 0.5)
	p.Y.Min, p.Y.Max = lo-pad, hi+pad
	p.X.Min, p.X.Max = xmin-1, xmin+float64(len(vals))
	return p, nil
}

// linearTicks are ticks at the round step (1, 2 or 5 times a power of ten)
// that gives closest to six of them, every one labelled; integer keeps the
// step at least 1.
type linearTicks struct{ integer bool }

func (t linearTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) {
		return []plot.Tick{{Value: lo, Label: strconv.FormatFloat(lo, 'g', 6, 64)}}
	}
	mag := math.Pow(10, math.Floor(math.Log10((hi-lo)/6)))
	step := mag
	for _, m := range []float64{2, 5, 10} {
		if math.Abs((hi-lo)/(m*mag)-6) < math.Abs((hi-lo)/step-6) {
			step = m * mag
		}
	}
	if t.integer {
		step = max(step, 1)
	}
	var ticks []plot.Tick
	for i := math.Ceil(lo / step); i*step <= hi+step*1e-9; i++ {
		v := i * step
		if math.Abs(v) < step*1e-9 {
			v = 0
		}
		ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'g', 6, 64)})
	}
	return ticks
}

// logTicks are ticks at 1, 2 and 5 times each power of ten in range (at
// every power only when the range spans more than four), every one
// labelled.
type logTicks struct{}

func (logTicks) Ticks(lo, hi float64) []plot.Tick {
	mults := []float64{1, 2, 5}
	if hi/lo > 1e4 {
		mults = []float64{1}
	}
	var ticks []plot.Tick
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		for _, m := range mults {
			v := m * math.Pow(10, e)
			if v >= lo*(1-1e-9) && v <= hi*(1+1e-9) {
				ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'g', 6, 64)})
			}
		}
	}
	return ticks
}
