package alphazero

import (
	"fmt"
	"image/color"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"

	"soko/internal/plotfile"
)

// PlotLoss writes the loss curve of a training run, the value and policy
// losses per round against training steps, to path as an image in the
// format its extension names (plotfile.Write; soko train's default is PNG).
func PlotLoss(curve []Point, title, path string) error {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "training steps"
	p.Y.Label.Text = "loss (mean per round, log scale)"
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	p.X.Tick.Marker = wholeTicks{}
	var value, policy plotter.XYs
	for _, pt := range curve {
		// A log scale cannot show 0 (a round without policy targets).
		value = append(value, plotter.XY{X: float64(pt.Step), Y: max(pt.Value, 1e-6)})
		policy = append(policy, plotter.XY{X: float64(pt.Step), Y: max(pt.Policy, 1e-6)})
	}
	p.Add(plotter.NewGrid())
	for _, s := range []struct {
		name string
		pts  plotter.XYs
		c    color.RGBA
	}{
		{"value (squared error of steps/10)", value, color.RGBA{R: 200, A: 255}},
		{"policy (cross-entropy)", policy, color.RGBA{B: 200, A: 255}},
	} {
		if len(s.pts) == 0 {
			continue
		}
		l, err := plotter.NewLine(s.pts)
		if err != nil {
			return fmt.Errorf("loss plot: %w", err)
		}
		l.Color = s.c
		p.Add(l)
		p.Legend.Add(s.name, l)
	}
	p.Legend.Top = true
	if err := plotfile.Write(p, path); err != nil {
		return fmt.Errorf("loss plot: %w", err)
	}
	return nil
}

// wholeTicks are the default ticks labelled as whole numbers (steps).
type wholeTicks struct{}

func (wholeTicks) Ticks(min, max float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(min, max)
	for i := range ticks {
		if ticks[i].Label != "" {
			ticks[i].Label = strconv.FormatFloat(ticks[i].Value, 'f', -1, 64)
		}
	}
	return ticks
}
