package progress

import (
	"strings"
	"testing"
	"unicode/utf8"

	"soko/solver"
)

// drawn returns the line p draws now, without the terminal's controls.
func drawn(p *Line, out *strings.Builder) string {
	out.Reset()
	p.draw()
	return strings.TrimPrefix(out.String(), "\r\x1b[K")
}

// TestLineShowsDetail: with one run in flight the line names the portfolio
// member and gives the search's description of its best position; with two
// it leaves both out, to keep room for the runs.
func TestLineShowsDetail(t *testing.T) {
	var out strings.Builder
	p := &Line{w: &out, on: true, total: 3, running: map[int]*running{}}
	a := p.Begin("microban:1")
	ev := solver.Progress{Stats: solver.Stats{Expanded: 1234, Strategy: "greedy"}, Detail: "boxes on goals 3 of 6"}
	p.Update(a, ev)
	line := drawn(p, &out)
	if !strings.Contains(line, "| microban:1 ") || !strings.HasSuffix(line, " 1234 [greedy] boxes on goals 3 of 6") {
		t.Errorf("one run: %q", line)
	}
	b := p.Begin("microban:2")
	p.Update(b, ev)
	line = drawn(p, &out)
	if strings.Contains(line, "greedy") || strings.Contains(line, "boxes on goals") || !strings.Contains(line, "| microban:2 ") {
		t.Errorf("two runs: %q", line)
	}
	p.End(b, true)
	p.Update(a, solver.Progress{Detail: strings.Repeat("é", 200)})
	line = drawn(p, &out)
	if len(line) > maxWidth || !utf8.ValidString(line) || !strings.HasSuffix(line, "é...") {
		t.Errorf("a long detail: %d bytes, valid UTF-8 %v: %q", len(line), utf8.ValidString(line), line)
	}
}
