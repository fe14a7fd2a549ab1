// Package plotfile writes the line plots of soko's commands (the loss
// curve of soko train, the pushes of soko generate --plot) to the files
// their flags name.
package plotfile

import (
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"soko/internal/outfile"
)

// Width and Height are the size of a plot.
const (
	Width  = 8 * vg.Inch
	Height = 5 * vg.Inch
)

// Write writes p to path in the image format path's extension names (png,
// svg, pdf and the others of plot.Plot.WriterTo, in any letter case),
// through outfile.WriteTo, which refuses a target that exists and is not a
// regular file.
func Write(p *plot.Plot, path string) error {
	wt, err := p.WriterTo(Width, Height, strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), "."))
	if err != nil {
		return err
	}
	return outfile.WriteTo(path, wt)
}
