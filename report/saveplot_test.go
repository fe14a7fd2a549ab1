package report

import (
	"context"

	"gonum.org/v1/plot"
)

// savePlot writes p as name.png, name.svg and name.pdf in dir, as Write
// does.
func savePlot(p *plot.Plot, dir, name string) error {
	files := &reportFiles{dir: dir, ctx: context.Background()}
	if err := addPlot(p, files, name); err != nil {
		return err
	}
	return files.write()
}
