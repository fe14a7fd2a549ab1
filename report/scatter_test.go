package report

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"

	"soko/bench"
)

// The scatter's points: a level both solve at their times, one only a
// solves with b's on the border at the time limit, one only b solves, one
// neither (the corner); with three seeds a level's time is the median run,
// a run not solved slower than any: one unsolved seed of three keeps the
// level solved, two put it on the border.
func TestTimePairBorder(t *testing.T) {
	var recs []bench.Record
	add := func(s string, lv int, seed uint64, solve float64) {
		r := timedRun(s, lv, solve, max(solve, 0)+0.5, 0.1)
		r.Seed = seed
		r.Key = r.RunKey()
		recs = append(recs, r)
	}
	for seed := uint64(1); seed <= 3; seed++ {
		add("a", 1, seed, 0.01*float64(seed)) // both: a 0.02, b 0.2
		add("b", 1, seed, 0.1*float64(seed))
		add("a", 2, seed, 0.05) // a only
		add("b", 2, seed, -1)
		add("a", 3, seed, -1) // b only
		add("b", 3, seed, 0.3)
		add("a", 4, seed, -1) // neither
		add("b", 4, seed, -1)
		add("a", 5, seed, map[uint64]float64{1: 0.4, 2: -1, 3: 0.6}[seed]) // one seed unsolved: 0.6
		add("b", 5, seed, map[uint64]float64{1: 0.4, 2: -1, 3: -1}[seed])  // two: the border
	}
	d := newDataset(recs)
	tps := d.timePairs("a", "b")
	if len(tps) != 1 {
		t.Fatalf("%d time pairs, want 1", len(tps))
	}
	tp := tps[0]
	want := map[string][2]float64{
		"microban:1": {0.02, 0.2}, "microban:2": {0.05, 1}, "microban:3": {1, 0.3}, "microban:4": {1, 1}, "microban:5": {0.6, 1},
	}
	if tp.border != 1 || len(tp.levels) != len(want) {
		t.Fatalf("border %g, levels %v", tp.border, tp.levels)
	}
	for i, id := range tp.levels {
		w := want[id]
		if math.Abs(tp.ta[i]-w[0]) > 1e-9 || math.Abs(tp.tb[i]-w[1]) > 1e-9 {
			t.Errorf("%s at (%g, %g), want (%g, %g)", id, tp.ta[i], tp.tb[i], w[0], w[1])
		}
	}
	p, err := scatterPlot(tp)
	if err != nil || p == nil {
		t.Fatalf("scatter %v, %v", p, err)
	}
	// The axes hold the border and the fastest time, the same on both.
	if p.X.Min != p.Y.Min || p.X.Max != p.Y.Max || p.X.Max <= 0 || p.X.Min > math.Log10(0.02) {
		t.Errorf("axes x %g..%g, y %g..%g (log10 s)", p.X.Min, p.X.Max, p.Y.Min, p.Y.Max)
	}
	got := strings.Join(legendTexts(p), "; ")
	for _, w := range []string{"solved by both: 1", "solved by one (on the border): 3", "by neither (the corner): 1", "the border: the time limit"} {
		if !strings.Contains(got, w) {
			t.Errorf("legend %q lacks %q", got, w)
		}
	}
	if !strings.Contains(p.Title.Text, "faster: a on 3 levels, b on 1") || !strings.Contains(got, "below it, b faster") {
		t.Errorf("title %q", p.Title.Text)
	}
	var md bytes.Buffer
	timePairTable(tps).markdown(&md)
	if want := "| microban | t=1s | 5 | 3 | 1 | 2 | 1 | 1 | 0.10 |"; !strings.Contains(md.String(), want) {
		t.Errorf("the table lacks %q:\n%s", want, md.String())
	}
	for _, want := range []string{"Only a solved: microban:2 (50.0 ms), microban:5 (600 ms).", "Only b solved: microban:3 (300 ms)."} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("the notes do not name the levels one solved, %q:\n%s", want, md.String())
		}
	}
	if err := savePlot(p, t.TempDir(), "scatter"); err != nil {
		t.Fatal(err)
	}
}

// Without a time limit the border is at twice the slowest solve; a level
// whose solved run has no CPU time is left out of a CPU scatter, and said.
func TestTimePairNoLimit(t *testing.T) {
	var recs []bench.Record
	for lv := 1; lv <= 3; lv++ {
		for _, s := range []string{"a", "b"} {
			r := bench.Record{Solver: s, Level: fmt.Sprintf("microban:%d", lv), Budget: bench.Budget{Nodes: 1000}, Seed: 1,
				Status: "solved", Verified: true, Pushes: 3, SolveS: 0.1 * float64(lv), WallS: 0.1 * float64(lv), CPUS: 0.1, CPUScope: bench.CPUThread}
			if lv == 3 && s == "b" {
				r.Status, r.Verified = "node limit", false
			}
			if lv == 2 && s == "a" {
				r.CPUScope, r.CPUS = bench.CPUNone, 0
			}
			r.Key = r.RunKey()
			recs = append(recs, r)
		}
	}
	d := newDataset(recs)
	tp := d.timePairs("a", "b")[0]
	if math.Abs(tp.border-0.6) > 1e-9 || tp.tb[2] != tp.border || tp.solvedB[2] || !tp.solvedA[2] {
		t.Errorf("border %g, b on level 3 at %g; want 0.6 (twice a's 0.3 s)", tp.border, tp.tb[2])
	}
	d.time = CPUTime
	tp = d.timePairs("a", "b")[0]
	if tp.without != 1 || len(tp.levels) != 2 {
		t.Errorf("CPU time: %d levels, %d without; want 2 and 1", len(tp.levels), tp.without)
	}
	p, err := scatterPlot(tp)
	if err != nil || !strings.Contains(p.Title.Text, "1 level without CPU time left out") {
		t.Errorf("title %q, %v", p.Title.Text, err)
	}
	var md bytes.Buffer
	timePairTable([]timePair{tp}).markdown(&md)
	if !strings.Contains(md.String(), "Left out: 1 level with a solved run without CPU time.") {
		t.Errorf("the table does not say what it left out:\n%s", md.String())
	}
}

// legendTexts are the texts of p's legend, as drawn.
func legendTexts(p *plot.Plot) []string {
	var rec recorder.Canvas
	p.Legend.Draw(draw.Canvas{Canvas: &rec, Rectangle: vg.Rectangle{Max: vg.Point{X: plotWidth, Y: plotHeight}}})
	var out []string
	for _, a := range rec.Actions {
		if s, ok := a.(*recorder.FillString); ok {
			out = append(out, s.String)
		}
	}
	return out
}

// A solved run whose time is past the limit (a wall time with the
// optimizer's last step) is solved, past the border, not on it.
func TestTimePairPastLimit(t *testing.T) {
	recs := []bench.Record{timedRun("a", 1, 0.3, 1.2, 0.3), timedRun("b", 1, 0.1, 0.4, 0.1)}
	d := newDataset(recs)
	d.time = WallTime
	tp := d.timePairs("a", "b")[0]
	if !tp.solvedA[0] || tp.ta[0] != 1.2 || tp.border != 1 {
		t.Fatalf("a at %g (solved %v), border %g; want 1.2 s, solved, past the border at 1 s", tp.ta[0], tp.solvedA[0], tp.border)
	}
	p, err := scatterPlot(tp)
	if err != nil || p.X.Max < math.Log10(1.2) || !strings.Contains(strings.Join(legendTexts(p), "; "), "solved by both: 1") {
		t.Errorf("x axis to %g (log10 s), legend %v, %v", p.X.Max, legendTexts(p), err)
	}
}
