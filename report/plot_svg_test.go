package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot"
)

// An SVG figure names fonts of Liberation Serif's widths to fall back on,
// so that a viewer without it lays the text out as the figure was drawn.
func TestPlotSVGFontFallbacks(t *testing.T) {
	p := plot.New()
	p.Title.Text = "Levels solved within a time: xsokoban90 (5 levels) at t=1s"
	p.X.Label.Text = "time per level (log scale)"
	dir := t.TempDir()
	if err := savePlot(p, dir, "fonts"); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "fonts.svg"))
	if err != nil {
		t.Fatal(err)
	}
	svg := string(data)
	if n := strings.Count(svg, "font-family:'Liberation Serif','Times New Roman',Times,serif;"); n == 0 || strings.Contains(svg, "font-family:Liberation Serif;") {
		t.Errorf("the SVG's fonts (%d with fallbacks):\n%s", n, svg)
	}
	for _, format := range []string{"png", "pdf"} {
		if fi, err := os.Stat(filepath.Join(dir, "fonts."+format)); err != nil || fi.Size() == 0 {
			t.Errorf("fonts.%s: %v", format, err)
		}
	}
}
