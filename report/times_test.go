package report

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"soko/bench"
)

// timedRun is a solved run of solver s on microban:lv at 1 s whose solve,
// wall and CPU times differ (the optimizer took wall − solve), or, with
// solve < 0, a run that hit the time limit.
func timedRun(s string, lv int, solve, wall, cpu float64) bench.Record {
	r := bench.Record{Solver: s, Level: fmt.Sprintf("microban:%d", lv), LevelHash: fmt.Sprint("h", lv), Budget: bench.Budget{Time: time.Second}, Seed: 1,
		Status: "time limit", WallS: wall, CPUS: cpu, CPUScope: bench.CPUThread, Expanded: 100}
	if solve >= 0 {
		r.Status, r.Verified, r.Pushes, r.Moves = "solved", true, 10, 30
		r.SolveS, r.OptimizeS = solve, wall-solve
	} else {
		r.SolveS = wall
	}
	r.Key = r.RunKey()
	return r
}

// parRecords: solver a solves two levels of three at 1 s, in 0.1 and 0.3 s
// of search and 0.6 and 0.8 s with the optimizer, and runs out of time on
// the third; b solves all three.
func parRecords() []bench.Record {
	return []bench.Record{
		timedRun("a", 1, 0.1, 0.6, 0.5), timedRun("a", 2, 0.3, 0.8, 0.7), timedRun("a", 3, -1, 1.0, 1.0),
		timedRun("b", 1, 0.2, 0.2, 0.2), timedRun("b", 2, 0.2, 0.2, 0.2), timedRun("b", 3, 0.5, 0.5, 0.5),
	}
}

// PAR-2 is the mean of the solved runs' times and twice the limit for
// each run not solved, of the time --time chooses, in the solved table,
// the runs table and summary.csv.
func TestPAR2(t *testing.T) {
	for _, tc := range []struct {
		kind       Time
		par2, csvA string
		meanA      string
	}{
		{SolveTime, "800 ms", "0.800000", "200 ms"}, // (0.1 + 0.3 + 2) / 3
		{WallTime, "1.13 s", "1.133333", "700 ms"},  // (0.6 + 0.8 + 2) / 3
		{CPUTime, "1.07 s", "1.066667", "600 ms"},   // (0.5 + 0.7 + 2) / 3
	} {
		var md bytes.Buffer
		if err := Write(&md, parRecords(), Options{Time: tc.kind}); err != nil {
			t.Fatal(err)
		}
		out := md.String()
		name := tc.kind.name()
		for _, want := range []string{
			"| solver | t=1s | PAR-2 (" + name + ") at t=1s |",
			"| a | 2 | " + tc.par2 + " |",
			"| mean " + name + " | median " + name + " | PAR-2 (" + name + ") |",
			"| microban | a | t=1s | 3 | 2 | 1 | " + tc.meanA + " | " + tc.meanA + " | " + tc.par2 + " |",
			"Times are the " + name,
		} {
			if !strings.Contains(out, want) {
				t.Errorf("--time %s: the report lacks %q:\n%s", tc.kind, want, out)
			}
		}
		d := newDataset(parRecords())
		d.time = tc.kind
		var sum bytes.Buffer
		if err := d.summaryCSV(&sum); err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(&sum).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		col := slices.Index(rows[0], "par2_"+string(tc.kind)+"_s")
		if col < 0 || rows[1][1] != "a" || rows[1][col] != tc.csvA {
			t.Errorf("--time %s: summary.csv %v; want a's PAR-2 %s", tc.kind, rows, tc.csvA)
		}
	}
	// Without a time limit there is no PAR-2.
	if _, ok := SolveTime.par2([]*bench.Record{{Status: "solved", Verified: true}}, bench.Budget{Nodes: 100}); ok {
		t.Error("a PAR-2 without a time limit")
	}
}

// The kind of time picks the record's field: solve_s (or, in a record
// without it, wall_s − optimize_s), wall_s, or cpu_s where measured.
func TestTimeOf(t *testing.T) {
	r := timedRun("a", 1, 0.1, 0.6, 0.5)
	old := r
	old.SolveS = 0 // written before solve_s
	unmeasured := r
	unmeasured.CPUScope = bench.CPUNone
	for _, tc := range []struct {
		kind Time
		r    bench.Record
		want float64
		ok   bool
	}{
		{SolveTime, r, 0.1, true}, {"", r, 0.1, true}, {WallTime, r, 0.6, true}, {CPUTime, r, 0.5, true},
		{SolveTime, old, 0.1, true}, {CPUTime, unmeasured, 0, false},
	} {
		got, ok := tc.kind.of(&tc.r)
		if ok != tc.ok || (ok && math.Abs(got-tc.want) > 1e-12) {
			t.Errorf("%q.of(solve_s %g, wall_s %g, optimize_s %g, cpu_scope %q) = %g, %v; want %g, %v",
				tc.kind, tc.r.SolveS, tc.r.WallS, tc.r.OptimizeS, tc.r.CPUScope, got, ok, tc.want, tc.ok)
		}
	}
	for _, s := range []string{"solve", "wall", "cpu"} {
		if k, err := ParseTime(s); err != nil || string(k) != s {
			t.Errorf("ParseTime(%q) = %q, %v", s, k, err)
		}
	}
	if _, err := ParseTime("user"); err == nil {
		t.Error(`ParseTime("user") accepted`)
	}
}

// The plots put the chosen time on their axes and say which it is: the
// cactus plot's steps are at a's solve times (0.1 and 0.3 s), not its wall
// times; levels.md and benchstat follow too.
func TestTimeChoosesPlots(t *testing.T) {
	for _, tc := range []struct {
		kind         Time
		label, title string // the axes' labels begin with label; the histogram's title holds title
		steps        []float64
		cell         string
		ns           string
	}{
		{SolveTime, "solve time", "Solve time", []float64{0.1, 0.3}, "10 (100 ms)", "100000000 ns/op"},
		{WallTime, "wall time", "Wall time", []float64{0.6, 0.8}, "10 (600 ms)", "600000000 ns/op"},
	} {
		d := newDataset(parRecords())
		d.time = tc.kind
		p, err := d.cactusPlot("microban")
		if err != nil || p == nil {
			t.Fatalf("cactus: %v", err)
		}
		if !strings.HasPrefix(p.X.Label.Text, tc.label) {
			t.Errorf("--time %s: cactus x axis %q", tc.kind, p.X.Label.Text)
		}
		if curves, _, _ := d.cactusCurves("microban"); curves[0].solver != "a" || !slices.Equal(curves[0].times, tc.steps) {
			t.Errorf("--time %s: a's cactus steps at %v s, want %v", tc.kind, curves[0].times, tc.steps)
		}
		h, err := d.timePlot("a")
		if err != nil || !strings.HasPrefix(h.X.Label.Text, tc.label) || !strings.Contains(h.Title.Text, tc.title) {
			t.Errorf("--time %s: histogram %q / %q, %v", tc.kind, h.Title.Text, h.X.Label.Text, err)
		}
		if cell := d.levelCell("microban", "a", bench.Budget{Time: time.Second}, "microban:1"); cell != tc.cell {
			t.Errorf("--time %s: levels.md cell %q, want %q", tc.kind, cell, tc.cell)
		}
		var bs bytes.Buffer
		if err := WriteBenchstat(&bs, parRecords(), tc.kind); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(bs.String(), "level=microban:1\t1\t"+tc.ns+"\t") {
			t.Errorf("--time %s: benchstat\n%s", tc.kind, bs.String())
		}
	}
}

// The histogram's title speaks of a red bar only when one is drawn: with
// every run solved it says so, and draws nothing red.
func TestTimePlotRedBar(t *testing.T) {
	for _, tc := range []struct {
		solver   string
		unsolved bool
	}{{"a", true}, {"b", false}} {
		p, err := newDataset(parRecords()).timePlot(tc.solver)
		if err != nil || p == nil {
			t.Fatalf("%s: %v, %v", tc.solver, p, err)
		}
		says := strings.Contains(p.Title.Text, "red bar")
		if says != tc.unsolved || tc.unsolved != (fills(t, p, unsolvedColor) > 0) {
			t.Errorf("%s: title %q, %d red fills; want a red bar: %v", tc.solver, p.Title.Text, fills(t, p, unsolvedColor), tc.unsolved)
		}
		if !tc.unsolved && !strings.Contains(p.Title.Text, "3 solved, all within t=1s") {
			t.Errorf("%s: title %q", tc.solver, p.Title.Text)
		}
	}
}

// A counter no run of a group has is "—" in the runs table, not a mean of
// zeros: a search has no iterations.
func TestRunsTableNoCounter(t *testing.T) {
	var md bytes.Buffer
	if err := Write(&md, parRecords(), Options{}); err != nil {
		t.Fatal(err)
	}
	// mean pushes, mean nodes, mean iterations, max peak MiB
	if !strings.Contains(md.String(), "| 10.0 | 100 | — | 0.0 |") {
		t.Errorf("the runs table shows iterations a search does not have:\n%s", md.String())
	}
}
