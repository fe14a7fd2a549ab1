package generate

import (
	"fmt"
	"image/color"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"soko/internal/outfile"

	"soko/solver"
)

// Set is a named set of measured levels, for PlotPushes.
type Set struct {
	Name    string
	Samples []Sample
}

// setColors tell up to six sets apart; more reuse them.
var setColors = []color.RGBA{
	{R: 200, A: 255}, {B: 200, A: 255}, {G: 150, A: 255},
	{R: 200, G: 120, A: 255}, {R: 140, B: 160, A: 255}, {G: 140, B: 160, A: 255},
}

// PlotPushes writes, as a PNG image at path, the distribution of the
// optimal pushes of each set: the share of its solved levels at each push
// count, a line per set, so that generated levels can be set beside
// Boxoban's.
func PlotPushes(sets []Set, path string) error {
	p := plot.New()
	p.Title.Text = "optimal pushes"
	p.X.Label.Text = "pushes of a push-optimal solution"
	p.Y.Label.Text = "share of the levels (%)"
	p.Add(plotter.NewGrid())
	for i, s := range sets {
		counts := map[int]int{}
		top, solved := 0, 0
		for _, m := range s.Samples {
			if m.Status == solver.Solved {
				counts[m.Optimal]++
				top = max(top, m.Optimal)
				solved++
			}
		}
		if solved == 0 {
			continue
		}
		var pts plotter.XYs
		for n := 0; n <= top; n++ {
			pts = append(pts, plotter.XY{X: float64(n), Y: 100 * float64(counts[n]) / float64(solved)})
		}
		l, err := plotter.NewLine(pts)
		if err != nil {
			return fmt.Errorf("pushes plot: %w", err)
		}
		l.Color = setColors[i%len(setColors)]
		l.Width = vg.Points(1.5)
		p.Add(l)
		d := Summarize(s.Samples).Pushes
		p.Legend.Add(fmt.Sprintf("%s (%d levels, mean %.2f, median %g)", s.Name, solved, d.Mean, d.Median), l)
	}
	p.Legend.Top = true
	wt, err := p.WriterTo(8*vg.Inch, 5*vg.Inch, strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), "."))
	if err == nil {
		err = outfile.WriteTo(path, wt)
	}
	if err != nil {
		return fmt.Errorf("pushes plot: %w", err)
	}
	return nil
}
