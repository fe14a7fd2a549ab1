package progress

import (
	"strings"
	"testing"
	"time"
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

// TestETA: the time left is the mean of the runs done times the runs
// left, rounded up (never "0s" while runs remain); once a run in flight
// has taken more than twice that mean, as when the quick levels are done
// and the slow ones run to their time limits, an estimate from the median
// run ("~") while runs are still to start, else unknown ("—").
func TestETA(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	p := &Line{start: start, total: 10, running: map[int]*running{}}
	if got := p.eta(start.Add(time.Second)); got != "" {
		t.Errorf("no run done: %q, want none", got)
	}
	p.done = 5 // five quick runs in 1 s: 0.2 s each
	if got := p.eta(start.Add(time.Second)); got != "1s" {
		t.Errorf("five of ten done in 1s: %q, want 1s", got)
	}
	p.done = 9
	if got := p.eta(start.Add(time.Second)); got != "1s" {
		t.Errorf("nine of ten done in 1s, 0.11s left: %q, want 1s (rounded up)", got)
	}
	p.running[1] = &running{name: "slow", start: start.Add(500 * time.Millisecond)}
	if got := p.eta(start.Add(time.Second)); got != "—" {
		t.Errorf("a run in flight for 0.5s, the mean 0.11s: %q, want —", got)
	}
	p.done = 10
	if got := p.eta(start.Add(time.Second)); got != "" {
		t.Errorf("all done: %q, want none", got)
	}

	// Runs still to start behind a slow one: the median run's time times
	// those runs, over the runs at once, marked as an estimate.
	p = &Line{start: start, total: 20, done: 5, most: 2, running: map[int]*running{}}
	for _, ms := range []int{100, 100, 200, 200, 300} {
		p.took = append(p.took, time.Duration(ms)*time.Millisecond)
	}
	p.running[1] = &running{name: "slow", start: start}
	p.running[2] = &running{name: "quick", start: start.Add(1400 * time.Millisecond)}
	// At 1.5 s: times 0.1 0.1 0.1 0.2 0.2 0.3 1.5, median 0.2 s; 13 runs
	// not started, 2 at once: 1.3 s, rounded up.
	if got := p.eta(start.Add(1500 * time.Millisecond)); got != "~2s" {
		t.Errorf("a slow run with 13 to start: %q, want ~2s", got)
	}
}
