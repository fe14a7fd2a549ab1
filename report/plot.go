package report

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"image/color"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
	"gonum.org/v1/plot/vg/vgsvg"

	"soko/bench"
)

// plots puts the figures in files, each as PNG, SVG and PDF:
//
//	solved-COLLECTION     levels solved per solver: bars at one budget, else
//	                      a line per solver against the budget (002 Figs. 3/4)
//	cactus-COLLECTION     levels solved within a time, a curve per solver
//	unique-per-node       unique states per tree node vs budget (002 Table I)
//	time-SOLVER           solve-time histogram in log-spaced bins (004 Fig. 6)
//	pushdiff-COLLECTION   per-level push-count difference of two solvers (000 Figs. 6.1/6.2)
//	scatter-COLLECTION    per-level times of the same two solvers, log–log (see scatter.go)
//	sweep-SOLVER-PARAM    time against a parameter's value (001 Figs. 4–7; see sweep.go)
func (d *dataset) plots(files *reportFiles, pds []pushDiff, tps []timePair) error {
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
	for _, tp := range tps {
		p, err := scatterPlot(tp)
		if err != nil {
			return err
		}
		if p != nil {
			if err := addPlot(p, files, "scatter-"+tp.coll); err != nil {
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
	if err := files.ctx.Err(); err != nil { // Ctrl-C: no more plots
		return err
	}
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

// fileName keeps letters, digits, '-', '_', '.' and '=' and replaces the
// rest (distinctly).
func fileName(s string) string {
	return distinctly(s, strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.', r == '=':
			return r
		}
		return '_'
	}, s))
}

// distinctly returns mapped, the name s with characters replaced, with a
// short hash of s after it when the two differ: so that other/ok.xsb and
// other_ok.xsb, one name once mapped, stay two files and two benchmarks.
func distinctly(s, mapped string) string {
	if mapped == s {
		return s
	}
	sum := sha256.Sum256([]byte(s))
	return mapped + "-" + hex.EncodeToString(sum[:3])
}

// barColor fills the bars of levels solved and of push differences.
var barColor = color.RGBA{R: 60, G: 90, B: 170, A: 255}

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
