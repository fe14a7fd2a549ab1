package report

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
	"gonum.org/v1/plot/vg/vgsvg"

	"soko/bench"
	"soko/internal/english"
)

// plots puts the figures in files, each as PNG, SVG and PDF:
//
//	solved-COLLECTION     levels solved per solver: bars at one budget, else
//	                      a line per solver against the budget (002 Figs. 3/4)
//	cactus-COLLECTION     levels solved within a time, a curve per solver
//	unique-per-node       unique states per tree node vs budget (002 Table I)
//	time-SOLVER           solve-time histogram in log-spaced bins (004 Fig. 6)
//	pushdiff-COLLECTION   per-level push-count difference of two solvers (000 Figs. 6.1/6.2)
//	sweep-SOLVER-PARAM    time against a parameter's value (001 Figs. 4–7; see sweep.go)
func (d *dataset) plots(files *reportFiles, pds []pushDiff) error {
	if err := d.sweepPlots(files); err != nil {
		return err
	}
	for _, c := range d.collections {
		p, err := d.solvedPlot(c)
		if err != nil {
			return err
		}
		if err := addPlot(p, files, "solved-"+c); err != nil {
			return err
		}
		if p, err = d.cactusPlot(c); err != nil {
			return err
		} else if p != nil {
			if err := addPlot(p, files, "cactus-"+c); err != nil {
				return err
			}
		}
	}
	if p, err := d.uniquePlot(); err != nil {
		return err
	} else if p != nil {
		if err := addPlot(p, files, "unique-per-node"); err != nil {
			return err
		}
	}
	for _, s := range d.solvers {
		p, err := d.timePlot(s)
		if err != nil {
			return err
		}
		if p != nil {
			if err := addPlot(p, files, "time-"+s); err != nil {
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
			if err := addPlot(p, files, "pushdiff-"+pd.coll); err != nil {
				return err
			}
		}
	}
	return nil
}

// The figures fit one column of a two-column paper: 3.3 in wide (IEEE's
// column is 3.5 in, ACM's 3.33 in), so that they go in at their own size
// with text of 7 to 9 points, like a caption's. A legend goes below the
// plot and adds to the height. PNGs are drawn at 300 dots per inch, the
// usual for print.
const (
	plotWidth  = 3.3 * vg.Inch
	plotHeight = 2.4 * vg.Inch
	pngDPI     = 300
)

// plotFormats are the files written for each figure: PNG to look at, SVG
// and PDF to put in a paper.
var plotFormats = []string{"png", "svg", "pdf"}

// newCanvas makes an empty canvas of the given format and size.
func newCanvas(format string, w, h vg.Length) vg.CanvasWriterTo {
	switch format {
	case "png":
		return vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(pngDPI))}
	case "svg":
		return vgsvg.New(w, h)
	}
	return vgpdf.New(w, h)
}

// svgFontFallbacks gives the SVG's text fonts to fall back on where
// Liberation Serif, which the plot was laid out in, is not installed:
// Times New Roman and Times, of the same widths, then any serif font. A
// viewer's default font instead is often a wider sans-serif, and the
// title then runs past the figure's edge.
func svgFontFallbacks(svg []byte) []byte {
	return bytes.ReplaceAll(svg, []byte("font-family:Liberation Serif;"), []byte("font-family:'Liberation Serif','Times New Roman',Times,serif;"))
}

// addPlot puts p in files as name.png, name.svg and name.pdf, with the
// column's font sizes, its title wrapped and shrunk to fit the width, and
// its legend (if it has entries) centred below the plot.
func addPlot(p *plot.Plot, files *reportFiles, name string) error {
	columnFonts(p)
	legend := p.Legend
	p.Legend = plot.NewLegend()
	legend.Top, legend.Left = true, true
	var legendW, legendH vg.Length
	if r := legend.Rectangle(draw.Canvas{}); r.Size().Y > 0 {
		legendW, legendH = r.Size().X, r.Size().Y+vg.Points(8)
	}
	height := plotHeight + legendH
	fitTitle(p, plotWidth-vg.Points(8))
	for _, format := range plotFormats {
		c := newCanvas(format, plotWidth, height)
		dc := draw.New(c)
		dc.SetColor(color.White)
		dc.Fill(dc.Rectangle.Path())
		p.Draw(draw.Crop(dc, vg.Points(2), -vg.Points(4), legendH, 0))
		if legendH > 0 {
			indent := max(0, (plotWidth-legendW)/2)
			legend.Draw(draw.Crop(dc, indent, 0, vg.Points(2), -plotHeight))
		}
		var buf bytes.Buffer
		if _, err := c.WriteTo(&buf); err != nil {
			return fmt.Errorf("plot %s: %w", name, err)
		}
		data := buf.Bytes()
		if format == "svg" {
			data = svgFontFallbacks(data)
		}
		files.add(fileName(name)+"."+format, data)
	}
	return nil
}

// columnFonts sets the text sizes for a figure a column wide: 9 points for
// the title, 8 for the axes' labels, 7 for ticks and the legend.
func columnFonts(p *plot.Plot) {
	p.Title.TextStyle.Font.Size = vg.Points(9)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font.Size = vg.Points(8)
		a.Tick.Label.Font.Size = vg.Points(7)
	}
	p.Legend.TextStyle.Font.Size = vg.Points(7)
	p.Legend.ThumbnailWidth = vg.Points(16)
}

// fitTitle wraps the title's lines at spaces where they are wider than w,
// then makes its font smaller, down to 7 points, until its widest line
// fits.
func fitTitle(p *plot.Plot, w vg.Length) {
	var lines []string
	for line := range strings.SplitSeq(p.Title.Text, "\n") {
		cur := ""
		for _, word := range strings.Fields(line) {
			if cur != "" && p.Title.TextStyle.Width(cur+" "+word) > w {
				lines = append(lines, cur)
				cur = ""
			}
			if cur != "" {
				cur += " "
			}
			cur += word
		}
		lines = append(lines, cur)
	}
	p.Title.Text = strings.Join(lines, "\n")
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
func budgetAxis(bs []bench.Budget) (xs []float64, label string, logScale bool, names []string) {
	vary := func(f func(bench.Budget) float64) bool {
		for _, b := range bs[1:] {
			if f(b) != f(bs[0]) {
				return true
			}
		}
		return false
	}
	axes := []struct {
		label string
		f     func(bench.Budget) float64
	}{
		{"iterations", func(b bench.Budget) float64 { return float64(b.Iterations) }},
		{"states expanded", func(b bench.Budget) float64 { return float64(b.Nodes) }},
		{"seconds", func(b bench.Budget) float64 { return b.Time.Seconds() }},
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

// solvedPlot draws the levels of collection c solved per solver: bars when
// the collection was run at one budget, else a line per solver across the
// budgets.
func (d *dataset) solvedPlot(c string) (*plot.Plot, error) {
	bs := d.budgetsOf(c)
	if len(bs) == 1 {
		return d.solvedBars(c, bs[0])
	}
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

// barColor fills the bars of levels solved and of push differences.
var barColor = color.RGBA{R: 60, G: 90, B: 170, A: 255}

// solvedBars draws the levels of collection c each solver solved at budget
// b as horizontal bars, the solvers top to bottom in the tables' order,
// each bar with its count (a * where runs are missing). The x axis ends at
// the number of levels, so a full bar is the whole collection.
func (d *dataset) solvedBars(c string, b bench.Budget) (*plot.Plot, error) {
	solvers := d.solversOf(c)
	n := len(solvers)
	levels := float64(len(d.levels[c]))
	vals := make(plotter.Values, n)
	// A count sits inside its bar's end, in white, where the bar is long
	// enough to hold it, else just after the bar.
	var inside, outside plotter.XYLabels
	ticks := make([]plot.Tick, n)
	for i, s := range solvers {
		y := float64(n - 1 - i)
		cl, _ := d.cell(c, s, b)
		vals[n-1-i] = cl.solved
		text := formatCount(cl.solved)
		if !cl.complete {
			text += "*"
		}
		at := &outside
		if cl.solved >= 0.15*levels {
			at = &inside
		}
		at.XYs = append(at.XYs, plotter.XY{X: cl.solved, Y: y})
		at.Labels = append(at.Labels, text)
		ticks[i] = plot.Tick{Value: y, Label: s}
	}
	bar, err := newBars(vals, min(vg.Points(14), plotHeight*0.5/vg.Length(n)))
	if err != nil {
		return nil, err
	}
	bar.Horizontal = true
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Levels solved at %s: %s (%s)", b, c, english.Count(len(d.levels[c]), "level", "levels"))
	if seeds := d.seeds[c]; seeds > 1 {
		p.Title.Text += fmt.Sprintf("\nmean over %d seeds", seeds)
	}
	grid := plotter.NewGrid()
	grid.Horizontal.Color = nil // a line through each bar's middle
	p.Add(grid, bar)
	for _, l := range []struct {
		xy     plotter.XYLabels
		align  draw.XAlignment
		offset vg.Length
		color  color.Color
	}{{inside, draw.XRight, -vg.Points(2), color.White}, {outside, draw.XLeft, vg.Points(2), color.Black}} {
		if len(l.xy.XYs) == 0 {
			continue
		}
		labels, err := plotter.NewLabels(l.xy)
		if err != nil {
			return nil, err
		}
		for i := range labels.TextStyle {
			labels.TextStyle[i].XAlign, labels.TextStyle[i].YAlign, labels.TextStyle[i].Color = l.align, draw.YCenter, l.color
			labels.TextStyle[i].Font.Size = vg.Points(7)
		}
		labels.Offset.X = l.offset
		p.Add(labels)
	}
	p.X.Label.Text = "levels solved"
	p.X.Min, p.X.Max = 0, max(levels, 1)
	p.X.Tick.Marker = linearTicks{integer: true}
	p.Y.Min, p.Y.Max = -0.5, float64(n)-0.5
	p.Y.Tick.Marker = plot.ConstantTicks(ticks)
	return p, nil
}

// largestBudget picks, of budgets bs in increasing order, the largest with
// a time limit for which runs gives any runs, else the largest that has
// runs: the one that shows most of the solver.
func largestBudget(bs []bench.Budget, runs func(bench.Budget) []*bench.Record) (bench.Budget, []*bench.Record) {
	for _, timed := range []bool{true, false} {
		for i := len(bs) - 1; i >= 0; i-- {
			if timed && bs[i].Time == 0 {
				continue
			}
			if rs := runs(bs[i]); len(rs) > 0 {
				return bs[i], rs
			}
		}
	}
	return bench.Budget{}, nil
}

// cactusPlot draws, for each solver, how many levels of collection c it
// solved within a time t, against t on a log scale: the cactus plot of
// solver competitions, turned so that higher and further left is better.
// Each solver is at its largest budget (see largestBudget), and its curve
// runs on to that budget's time limit, or else its slowest solve; with
// several seeds a count is the mean over them. Nil when no run of c was
// solved.
func (d *dataset) cactusPlot(c string) (*plot.Plot, error) {
	type curve struct {
		solver string
		budget bench.Budget
		times  []float64 // of the solved runs, in increasing order
		end    float64
	}
	var curves []curve
	lo, hi := math.Inf(1), 0.0
	for _, s := range d.solversOf(c) {
		b, rs := largestBudget(d.budgetsOf(c), func(b bench.Budget) []*bench.Record { return d.groups[gkey{c, s, b.String()}] })
		cv := curve{solver: s, budget: b, end: b.Time.Seconds()}
		for _, r := range rs {
			if r.Solved() {
				t := max(r.WallS, 1e-6) // a log axis has no zero
				cv.times = append(cv.times, t)
				lo = min(lo, t)
				cv.end = max(cv.end, t)
			}
		}
		slices.Sort(cv.times)
		hi = max(hi, cv.end)
		curves = append(curves, cv)
	}
	if math.IsInf(lo, 1) {
		return nil, nil
	}
	sameBudget := !slices.ContainsFunc(curves, func(cv curve) bool { return cv.budget != curves[0].budget })
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Levels solved within a time: %s (%s)", c, english.Count(len(d.levels[c]), "level", "levels"))
	if sameBudget {
		p.Title.Text += "\nat " + curves[0].budget.String()
	}
	if seeds := d.seeds[c]; seeds > 1 {
		p.Title.Text += fmt.Sprintf(", mean over %d seeds", seeds)
	}
	seeds := float64(d.seeds[c])
	for i, cv := range curves {
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
		entry := fmt.Sprintf("%s: %s solved", cv.solver, formatCount(solved))
		if !sameBudget {
			entry += " at " + cv.budget.String()
		}
		p.Legend.Add(entry, line)
	}
	p.Add(plotter.NewGrid())
	p.X.Label.Text = "time per level (log scale)"
	p.X.Tick.Marker = log10SecondsTicks{}
	p.X.Min, p.X.Max = math.Log10(lo/2), math.Log10(hi*1.1)
	p.Y.Label.Text = "levels solved"
	p.Y.Min, p.Y.Max = 0, float64(len(d.levels[c]))
	p.Y.Tick.Marker = linearTicks{integer: true}
	return p, nil
}

func (d *dataset) uniquePlot() (*plot.Plot, error) {
	var bs []bench.Budget
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

// binsPerDecade is the number of the solve-time histogram's bins for each
// factor of ten in time.
const binsPerDecade = 5

// timePlot is the histogram of solve times of solver s at its largest
// budget (see largestBudget) over all collections. Its bins are of equal
// width on a log scale, binsPerDecade to a factor of ten, from the power of
// ten below the fastest solve to the time limit, or else the slowest solve:
// solve times span several factors of ten, and bins of equal width in
// seconds put nearly every run in the first. The runs not solved within the
// budget are one more bar after them, in red, labelled "N unsolved" (004
// Fig. 6 counts them in its last bar).
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
	var times []float64
	for _, r := range runs {
		if r.Solved() {
			times = append(times, max(r.WallS, 1e-6)) // a log axis has no zero
		}
	}
	unsolved := len(runs) - len(times)
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
	p.Title.Text = fmt.Sprintf("Solve times: %s at %s\n%d solved", s, budget, len(times))
	p.X.Label.Text = fmt.Sprintf("wall time (log scale, %d bins to a factor of 10)", binsPerDecade)
	p.Y.Label.Text = "runs"
	p.X.Tick.Marker, p.Y.Tick.Marker = log10SecondsTicks{}, linearTicks{integer: true}
	p.Add(hist)
	p.X.Min, p.X.Max, p.Y.Min = edge(0), edge(nbins), 0
	top := 0.0
	for _, b := range bins {
		top = max(top, b.Weight)
	}
	if unsolved > 0 || budget.Time > 0 {
		p.Title.Text += fmt.Sprintf(", %d not solved within %s (the red bar)", unsolved, budget)
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

// pushDiffPlot draws one bar per level at the level's number: pushes of a
// minus pushes of b, for the levels both solve, below zero where a's
// solution is shorter. The x axis spans the collection's levels in the
// results (those both solve when the collection's are not known), with
// ticks only at levels there are; the y axis spans the differences.
func pushDiffPlot(pd pushDiff) (*plot.Plot, error) {
	if len(pd.diffs) == 0 {
		return nil, nil
	}
	span := pd.all
	if len(span) == 0 {
		span = pd.levels
	}
	numbered := true
	exists := map[int]bool{}
	minN, maxN := math.MaxInt, 0
	for _, id := range append(slices.Clone(span), pd.levels...) {
		_, n := bench.SplitLevelID(id)
		if n <= 0 {
			numbered = false
		}
		exists[n] = true
		minN, maxN = min(minN, n), max(maxN, n)
	}
	var vals plotter.Values
	xmin := 0.0
	// pos is where the i-th level both solve stands on the x axis.
	pos := func(i int) float64 { return float64(i) }
	if numbered {
		vals = make(plotter.Values, maxN-minN+1)
		for i, id := range pd.levels {
			_, n := bench.SplitLevelID(id)
			vals[n-minN] = pd.diffs[i]
		}
		xmin = float64(minN)
		pos = func(i int) float64 { _, n := bench.SplitLevelID(pd.levels[i]); return float64(n) }
	} else {
		vals = append(vals, pd.diffs...)
	}
	// About 70% of each level's share of the width, between half a point
	// and 12 points.
	bw := max(vg.Points(0.5), min((plotWidth-vg.Points(40))/vg.Length(len(vals))*0.7, vg.Points(12)))
	bar, err := newBars(vals, bw)
	if err != nil {
		return nil, err
	}
	bar.XMin = xmin
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Pushes of %s minus pushes of %s, per level\nbelow zero: %s's solution is shorter (shorter is better)\n%s at %s: mean %s over the %s both solve",
		pd.a, pd.b, pd.a, pd.coll, pd.budget, fmtF(mean(pd.diffs), 2), english.Count(len(pd.diffs), "level", "levels"))
	if numbered {
		p.X.Label.Text = "level"
		p.X.Tick.Marker = levelTicks(exists)
	} else {
		p.X.Label.Text = "level (in collection order, solved by both)"
		p.X.Tick.Marker = linearTicks{integer: true}
	}
	p.Y.Label.Text = "pushes " + pd.a + " − " + pd.b
	p.Y.Tick.Marker = linearTicks{integer: true}
	p.Add(plotter.NewGrid(), bar)
	// The levels both solve in as many pushes: a dot on the zero line.
	var equal plotter.XYs
	for i, x := range pd.diffs {
		if x == 0 {
			equal = append(equal, plotter.XY{X: pos(i), Y: 0})
		}
	}
	if len(equal) > 0 {
		dots, err := plotter.NewScatter(equal)
		if err != nil {
			return nil, err
		}
		dots.GlyphStyle = draw.GlyphStyle{Color: color.Gray{Y: 90}, Radius: vg.Points(1.2), Shape: draw.CircleGlyph{}}
		p.Add(dots)
		what := "dots"
		if len(equal) == 1 {
			what = "a dot"
		}
		p.Title.Text += fmt.Sprintf("\n%s solved in as many pushes (%s)", english.Count(len(equal), "level", "levels"), what)
	}
	lo, hi := min(0, slices.Min(pd.diffs)), max(0, slices.Max(pd.diffs))
	pad := max((hi-lo)*0.05, 0.5)
	p.Y.Min, p.Y.Max = lo-pad, hi+pad
	p.X.Min, p.X.Max = xmin-0.5, xmin+float64(len(vals))-0.5
	return p, nil
}

// levelTicks are linearTicks{integer: true} at the levels that exist only.
type levelTicks map[int]bool

func (t levelTicks) Ticks(lo, hi float64) []plot.Tick {
	var out []plot.Tick
	for _, tk := range (linearTicks{integer: true}).Ticks(lo, hi) {
		if t[int(tk.Value)] {
			out = append(out, tk)
		}
	}
	return out
}

// secondsTicks are linearTicks for an axis of seconds, labelled in the
// unit that suits the axis's largest value: "0.5 ms", "3 ms" rather than
// "0.0005", "0.003".
type secondsTicks struct{}

func (secondsTicks) Ticks(lo, hi float64) []plot.Tick {
	scale, unit := 1.0, " s"
	switch top := max(math.Abs(lo), math.Abs(hi)); {
	case top < 1e-3:
		scale, unit = 1e-6, " µs"
	case top < 1:
		scale, unit = 1e-3, " ms"
	}
	ticks := linearTicks{}.Ticks(lo, hi)
	for i := range ticks {
		ticks[i].Label = strconv.FormatFloat(math.Round(ticks[i].Value/scale*1e6)/1e6, 'g', 6, 64) + unit
	}
	return ticks
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
// every power only when the range spans more than four, or for seconds more
// than two, as their labels are wider), every one labelled; seconds labels
// them as times ("500 µs", "20 ms", "1 s").
type logTicks struct{ seconds bool }

func (t logTicks) Ticks(lo, hi float64) []plot.Tick {
	mults := []float64{1, 2, 5}
	if hi/lo > 1e4 || (t.seconds && hi/lo > 100) {
		mults = []float64{1}
	}
	var ticks []plot.Tick
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		for _, m := range mults {
			v := m * math.Pow(10, e)
			if v >= lo*(1-1e-9) && v <= hi*(1+1e-9) {
				label := strconv.FormatFloat(v, 'g', 6, 64)
				if t.seconds {
					label = secondsLabel(v)
				}
				ticks = append(ticks, plot.Tick{Value: v, Label: label})
			}
		}
	}
	return ticks
}

// log10SecondsTicks are logTicks{seconds: true} for an axis whose values
// are the log10 of seconds. The time axes are drawn so, rather than on
// plot.LogScale, because gonum/plot places an axis label by the linear
// midpoint of its range, which on a log scale narrows the plot to keep
// the label in.
type log10SecondsTicks struct{}

func (log10SecondsTicks) Ticks(lo, hi float64) []plot.Tick {
	ticks := logTicks{seconds: true}.Ticks(math.Pow(10, lo), math.Pow(10, hi))
	for i := range ticks {
		ticks[i].Value = math.Log10(ticks[i].Value)
	}
	return ticks
}

// secondsLabel writes a round time in seconds in the unit that suits it:
// "500 µs", "20 ms", "1 s", "100 s".
func secondsLabel(v float64) string {
	switch {
	case v < 1e-3*(1-1e-9):
		return strconv.FormatFloat(math.Round(v*1e9)/1e3, 'g', -1, 64) + " µs"
	case v < 1-1e-9:
		return strconv.FormatFloat(math.Round(v*1e6)/1e3, 'g', -1, 64) + " ms"
	}
	return strconv.FormatFloat(v, 'g', -1, 64) + " s"
}

// newBars is a bar chart of vals in the report's bar colour, bars width
// wide, without outlines.
func newBars(vals plotter.Values, width vg.Length) (*plotter.BarChart, error) {
	bar, err := plotter.NewBarChart(vals, width)
	if err != nil {
		return nil, err
	}
	bar.Color = barColor
	bar.LineStyle.Width = 0
	return bar, nil
}
