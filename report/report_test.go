package report

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"

	"soko/bench"
	"soko/internal/golden"
)

// syntheticRecords are made-up results covering every part of a report:
// two MCTS solvers on cbc60 at thesis budgets with two seeds, two search
// solvers on microban with a time limit, runs that ended at each limit, an
// error and a missing run, and an external program with a failed run.
func syntheticRecords() []bench.Record {
	var recs []bench.Record
	add := func(solver, lvl string, b bench.Budget, seed uint64, status string, pushes int, wall float64) {
		r := bench.Record{Solver: solver, Level: lvl, LevelHash: "h" + lvl, Budget: b, Seed: seed, Status: status,
			Verified: status == "solved", WallS: wall, CPUS: wall * 0.9, PeakBytes: 1 << 20}
		if status == "solved" {
			r.Pushes, r.Moves = pushes, 3*pushes
		}
		if b.Iterations > 0 {
			r.Iterations = b.Iterations
			r.TreeSize = b.Iterations * 3
			r.UniqueStates = b.Iterations * 2
			if solver == "vanillaban" {
				r.UniqueStates = b.Iterations
			}
		} else {
			r.Expanded = int64(pushes) * 100
		}
		if status == bench.StatusError {
			r.Error = "solver returned an invalid solution"
		}
		r.Key = r.RunKey()
		recs = append(recs, r)
	}
	for _, it := range []int64{25, 100000} {
		for lv := 1; lv <= 6; lv++ {
			for seed := uint64(1); seed <= 2; seed++ {
				id := fmt.Sprintf("cbc60:%d", lv)
				// schokoban solves more levels, with fewer pushes.
				if it == 100000 || lv <= 2 || (lv == 3 && seed == 1) {
					add("schokoban", id, bench.Budget{Iterations: it}, seed, "solved", 10+lv-int(seed), 0.01*float64(lv))
				} else {
					add("schokoban", id, bench.Budget{Iterations: it}, seed, "iteration limit", 0, 0.05)
				}
				if (it == 100000 && lv <= 5) || lv == 1 {
					add("vanillaban", id, bench.Budget{Iterations: it}, seed, "solved", 12+lv, 0.02*float64(lv))
				} else {
					add("vanillaban", id, bench.Budget{Iterations: it}, seed, "iteration limit", 0, 0.1)
				}
			}
		}
	}
	// Solve times from microseconds to seconds, so that the tables' times
	// need each unit.
	for lv, wall := range []float64{0.00042, 0.0123, 1.5} {
		id := fmt.Sprintf("microban:%d", lv+1)
		add("astar", id, bench.Budget{Time: 2 * time.Second}, 1, "solved", 5*(lv+1), wall)
		switch lv + 1 {
		case 1:
			add("bfs", id, bench.Budget{Time: 2 * time.Second}, 1, "solved", 5, 0.3)
		case 2:
			add("bfs", id, bench.Budget{Time: 2 * time.Second}, 1, "time limit", 0, 1.0)
		}
	}
	add("astar", "microban:1", bench.Budget{Time: 10 * time.Second}, 1, bench.StatusError, 0, 0.5)
	add("astar", "microban:2", bench.Budget{Time: 10 * time.Second}, 1, "memory limit", 0, 3)
	add("astar", "microban:3", bench.Budget{Time: 10 * time.Second}, 1, "node limit", 0, 4)
	// An external program: solves one level, crashes on one, runs out of
	// time on the third.
	add("fake", "microban:1", bench.Budget{Time: 2 * time.Second}, 1, "solved", 6, 0.2)
	add("fake", "microban:2", bench.Budget{Time: 2 * time.Second}, 1, bench.StatusFailed, 0, 0.01)
	add("fake", "microban:3", bench.Budget{Time: 2 * time.Second}, 1, "time limit", 0, 2.0)
	recs[len(recs)-2].Error = "signal: segmentation fault"
	return recs
}

func TestReportGolden(t *testing.T) {
	recs := syntheticRecords()
	dir := t.TempDir()
	if d := os.Getenv("SOKO_REPORT_DIR"); d != "" {
		dir = d // keep the plots to look at them
	}
	var md bytes.Buffer
	if err := Write(&md, recs, Options{OutDir: dir}); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "report.md.golden", md.String())
	for _, name := range []string{"levels.md", "summary.csv", "pushdiff.csv", "benchstat.txt", "runs.csv"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		golden.Check(t, name+".golden", string(b))
	}
	rep, _ := os.ReadFile(filepath.Join(dir, "report.md"))
	if string(rep) != md.String() {
		t.Error("report.md differs from the printed report")
	}
	for _, name := range []string{"solved-cbc60", "solved-microban", "cactus-cbc60", "cactus-microban", "unique-per-node",
		"time-schokoban", "time-astar", "time-fake", "pushdiff-cbc60"} {
		checkFigure(t, dir, name)
	}
	// Every figure is in all three formats.
	pngs, _ := filepath.Glob(filepath.Join(dir, "*.png"))
	for _, f := range pngs {
		checkFigure(t, dir, strings.TrimSuffix(filepath.Base(f), ".png"))
	}
	// Writes names every file written, and only those: a caller refuses
	// an input of those names before any work.
	opts := Options{OutDir: dir}
	written, _ := os.ReadDir(dir)
	for _, e := range written {
		if !opts.Writes(e.Name()) {
			t.Errorf("Write wrote %s, and Writes says it does not", e.Name())
		}
	}
	noPlots := Options{OutDir: dir, NoPlots: true}
	for name, want := range map[string][2]bool{
		"runs.csv": {true, true}, "benchstat.txt": {true, true}, "cactus-cbc60.png": {true, false},
		"x.pdf": {true, false}, "results.jsonl": {false, false}, "runs.csv.gz": {false, false},
	} {
		if got := [2]bool{opts.Writes(name), noPlots.Writes(name)}; got != want {
			t.Errorf("Writes(%q) = %v with plots, %v without, want %v", name, got[0], got[1], want)
		}
	}
	if (Options{}).Writes("runs.csv") {
		t.Error("Writes without OutDir says runs.csv is written")
	}
}

// checkFigure checks that dir holds the figure name as a PNG a column wide
// at 300 dots per inch, an SVG and a PDF.
func checkFigure(t *testing.T, dir, name string) {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, name+".png"))
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(f)
	f.Close()
	if err != nil {
		t.Fatalf("%s.png: %v", name, err)
	}
	if b := img.Bounds(); b.Dx() != 990 || b.Dy() < 600 {
		t.Errorf("%s.png is %v, want 990 pixels (3.3 in) wide", name, b)
	}
	for ext, magic := range map[string]string{"svg": "<svg", "pdf": "%PDF-"} {
		b, err := os.ReadFile(filepath.Join(dir, name+"."+ext))
		if err != nil || !bytes.Contains(b[:min(len(b), 200)], []byte(magic)) {
			t.Errorf("%s.%s: %v, or it does not start as one", name, ext, err)
		}
	}
}

// The report's order does not depend on the order of the records, and a run
// given twice counts once.
func TestReportOrderIndependent(t *testing.T) {
	recs := syntheticRecords()
	var a, b bytes.Buffer
	if err := Write(&a, recs, Options{}); err != nil {
		t.Fatal(err)
	}
	rev := make([]bench.Record, 0, 2*len(recs))
	for i := len(recs) - 1; i >= 0; i-- {
		rev = append(rev, recs[i])
	}
	rev = append(rev, recs...)
	if err := Write(&b, rev, Options{}); err != nil {
		t.Fatal(err)
	}
	if a.Len() == 0 || a.String() != b.String() {
		t.Fatalf("report depends on record order or duplicates (%d bytes against %d)", a.Len(), b.Len())
	}
}

// The benchstat text parses as Go benchmark lines: name, iterations, then
// value-unit pairs, with no '=' in the budget or level parts.
func TestBenchstatFormat(t *testing.T) {
	var b bytes.Buffer
	if err := WriteBenchstat(&b, syntheticRecords(), SolveTime); err != nil {
		t.Fatal(err)
	}
	n := 0
	for line := range strings.SplitSeq(strings.TrimSpace(b.String()), "\n") {
		if !strings.HasPrefix(line, "Benchmark") {
			if !strings.Contains(line, ": ") {
				t.Errorf("neither a benchmark nor a config line: %q", line)
			}
			continue
		}
		n++
		f := strings.Fields(line)
		if len(f) < 4 || len(f)%2 != 0 || f[1] != "1" {
			t.Errorf("bad benchmark line %q", line)
		}
		for _, part := range strings.Split(f[0], "/")[1:] {
			if k, v, ok := strings.Cut(part, "="); !ok || k == "" || strings.Contains(v, "=") {
				t.Errorf("bad name part %q in %q", part, line)
			}
		}
	}
	if n == 0 {
		t.Fatal("no benchmark lines")
	}
}

func TestComparePairDefault(t *testing.T) {
	for _, tc := range []struct {
		solved map[string]int // solver → levels solved (of 3)
		opt    [2]string
		a, b   string
		ok     bool
	}{
		{map[string]int{"mcts": 0, "mcts-n": 0, "mcts-nd": 1, "mcts-r": 0}, [2]string{}, "mcts-r", "mcts-nd", true},
		{map[string]int{"schokoban": 1, "vanillaban(cycles=1)": 1}, [2]string{}, "schokoban", "vanillaban(cycles=1)", true},
		{map[string]int{"schokoban": 1, "vanillaban": 1}, [2]string{}, "schokoban", "vanillaban", true},
		{map[string]int{"astar": 1, "bfs": 1}, [2]string{}, "astar", "bfs", true},
		// No preset pair: the two that solved the most, not the first two
		// names.
		{map[string]int{"aaa": 0, "astar": 1, "bfs": 3, "dfs": 2}, [2]string{}, "bfs", "dfs", true},
		{map[string]int{"aaa": 0, "astar": 2, "bfs": 0}, [2]string{}, "", "", false},
		{map[string]int{"astar": 1, "bfs": 1}, [2]string{"bfs", "greedy"}, "bfs", "greedy", false},
		{map[string]int{"astar": 1}, [2]string{}, "", "", false},
	} {
		var recs []bench.Record
		for s, n := range tc.solved {
			name, params, _ := strings.Cut(strings.TrimSuffix(s, ")"), "(")
			var pm map[string]string
			if params != "" {
				k, v, _ := strings.Cut(params, "=")
				pm = map[string]string{k: v}
			}
			for lv := 1; lv <= 3; lv++ {
				r := bench.Record{Solver: name, Params: pm, Level: fmt.Sprintf("microban:%d", lv), Status: "time limit"}
				if lv <= n {
					r.Status, r.Verified, r.Pushes = "solved", true, 5
				}
				r.Key = r.RunKey()
				recs = append(recs, r)
			}
		}
		d := newDataset(recs)
		a, b, ok := d.comparePair(tc.opt)
		if a != tc.a || b != tc.b || ok != tc.ok {
			t.Errorf("comparePair(%v, %v) = %q, %q, %v; want %q, %q, %v", tc.solved, tc.opt, a, b, ok, tc.a, tc.b, tc.ok)
		}
		if !ok && tc.opt[0] == "" && len(tc.solved) > 1 {
			var md bytes.Buffer
			if err := Write(&md, recs, Options{}); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(md.String(), "fewer than two solvers solved a level") {
				t.Errorf("%v: the report does not say why there is no comparison:\n%s", tc.solved, md.String())
			}
		}
	}
}

// Every way a run ended is counted in the report's header and its runs
// table (time limits too, not only failed and error runs, which are also
// named by solver); without an output directory the report does not point
// at files it did not write.
func TestReportFailedRuns(t *testing.T) {
	var recs []bench.Record
	add := func(solver, lvl, status, errMsg string) {
		r := bench.Record{Solver: solver, Level: lvl, Budget: bench.Budget{Time: time.Second}, Seed: 1, Status: status, Verified: status == "solved", Pushes: 3, Error: errMsg}
		r.Key = r.RunKey()
		recs = append(recs, r)
	}
	add("crashy", "/home/me/sets/mine.xsb:1", bench.StatusFailed, "signal: segmentation fault")
	add("crashy", "/home/me/sets/mine.xsb:2", bench.StatusFailed, "exit status 1")
	add("crashy", "/home/me/sets/mine.xsb:3", "time limit", "")
	add("wrong", "/home/me/sets/mine.xsb:1", bench.StatusError, "invalid solution: a box on a wall")
	add("astar", "/home/me/sets/mine.xsb:1", "solved", "")
	for _, outDir := range []string{"", t.TempDir()} {
		var md bytes.Buffer
		if err := Write(&md, recs, Options{OutDir: outDir, NoPlots: true}); err != nil {
			t.Fatal(err)
		}
		out := md.String()
		for _, want := range []string{"2 runs failed", "crashy 2", "1 run ended in an error", "wrong 1",
			"How they ended: 1 solved, 1 time limit, 2 failed, 1 error.",
			"| runs | solved | time limit | failed | error |",
			"| mine.xsb | crashy | t=1s | 3 | 0 | 1 | 2 | 0 |", "| mine.xsb | wrong | t=1s | 1 | 0 | 0 | 0 | 1 |"} {
			if !strings.Contains(out, want) {
				t.Errorf("out-dir %q: the report lacks %q:\n%s", outDir, want, out)
			}
		}
		if strings.Contains(out, "/home/me") {
			t.Errorf("out-dir %q: the report shows the whole path:\n%s", outDir, out)
		}
		if mentions := strings.Contains(out, "runs.csv"); mentions != (outDir != "") {
			t.Errorf("out-dir %q: mentions runs.csv: %v\n%s", outDir, mentions, out)
		}
	}
}

// TestReportRefutesNoSolution: a "no solution" for a level that another
// run solved is false (greedy-dist once said it of 12 Microban levels), and
// the report counts it as refuted, never as a proof; a "no solution" on a
// level no run solved, and a new status such as "gave up", count as they
// are.
func TestReportRefutesNoSolution(t *testing.T) {
	var recs []bench.Record
	add := func(solver, lvl, hash, status string) {
		r := bench.Record{Solver: solver, Level: lvl, LevelHash: hash, Budget: bench.Budget{Time: time.Second}, Seed: 1, Status: status, Verified: status == "solved", Pushes: 3}
		r.Key = r.RunKey()
		recs = append(recs, r)
	}
	add("astar", "microban:84", "h84", "solved")
	add("greedy-dist", "microban:84", "h84", "no solution")
	add("astar", "microban:85", "h85", "time limit")
	add("greedy-dist", "microban:85", "h85", "no solution")
	add("greedy", "microban:85", "h85", "gave up")
	var md bytes.Buffer
	if err := Write(&md, recs, Options{NoPlots: true}); err != nil {
		t.Fatal(err)
	}
	out := md.String()
	for _, want := range []string{
		"How they ended: 1 solved, 1 no solution, 1 time limit, 1 gave up, 1 no solution, refuted.",
		`1 run said "no solution" for a level another run solved (no solution, refuted): greedy-dist 1`,
		"| microban | greedy-dist | t=1s | 2 | 0 | 1 | 0 | 0 | 1 |",
		"| microban | greedy | t=1s | 1 | 0 | 0 | 0 | 1 | 0 |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
	if recs[1].Status != "no solution" {
		t.Errorf("the report changed its caller's record: %q", recs[1].Status)
	}
}

func TestCollectionNames(t *testing.T) {
	recs := []bench.Record{{Level: "microban:1"}, {Level: "a/x.xsb:1"}, {Level: "b/x.xsb:2"}, {Level: "/tmp/sets/y.xsb:1"}, {Level: "-:1"}}
	got := collectionNames(recs)
	want := map[string]string{"microban": "microban", "a/x.xsb": "a/x.xsb", "b/x.xsb": "b/x.xsb", "/tmp/sets/y.xsb": "y.xsb", "-": "-"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("collectionNames = %v, want %v", got, want)
	}
}

// Every tick of the plots' axes is labelled, the log ones included, and
// an axis of seconds in one unit that suits it.
func TestTicksLabelled(t *testing.T) {
	for _, r := range [][2]float64{{0.007, 12}, {0.5, 3}, {25, 100000}, {1, 1e7}} {
		ts := logTicks{}.Ticks(r[0], r[1])
		if len(ts) < 2 {
			t.Errorf("log ticks over %v: %v", r, ts)
		}
		for _, tk := range ts {
			if tk.Label == "" || tk.Value < r[0] || tk.Value > r[1] {
				t.Errorf("log ticks over %v: %+v", r, tk)
			}
		}
	}
	for r, want := range map[[2]float64]string{{0, 0.0032}: "0 ms,0.5 ms,1 ms,1.5 ms,2 ms,2.5 ms,3 ms", {0, 0.00012}: "0 µs,20 µs,40 µs,60 µs,80 µs,100 µs,120 µs", {0, 25}: "0 s,5 s,10 s,15 s,20 s,25 s"} {
		var labels []string
		for _, tk := range (secondsTicks{}).Ticks(r[0], r[1]) {
			labels = append(labels, tk.Label)
		}
		if got := strings.Join(labels, ","); got != want {
			t.Errorf("seconds ticks over %v: %s, want %s", r, got, want)
		}
	}
	for _, r := range [][2]float64{{0, 155}, {-30.5, 7}, {0, 12.8}, {0, 1}} {
		ts := linearTicks{}.Ticks(r[0], r[1])
		if len(ts) < 4 || len(ts) > 11 {
			t.Errorf("linear ticks over %v: %d of them", r, len(ts))
		}
		for _, tk := range ts {
			if tk.Label == "" {
				t.Errorf("linear ticks over %v: %+v", r, tk)
			}
		}
	}
}

// The push-difference plot spans the levels it shows, and a long title is
// made to fit.
func TestPushDiffPlotFitted(t *testing.T) {
	pd := pushDiff{coll: "some-long-collection-name", a: "mcts-nd(eliminate=1,c=0.5)", b: "vanillaban(cycles=1,depth=300)", budget: bench.Budget{Iterations: 100000}}
	for n := 150; n <= 155; n++ {
		pd.levels = append(pd.levels, fmt.Sprintf("microban:%d", n))
		pd.diffs = append(pd.diffs, float64(n-153))
	}
	p, err := pushDiffPlot(pd)
	if err != nil {
		t.Fatal(err)
	}
	if p.X.Min < 148 || p.X.Max > 157 || p.Y.Min > -3 || p.Y.Min < -4 || p.Y.Max < 2 || p.Y.Max > 3 {
		t.Errorf("axes x %g..%g, y %g..%g for levels 150-155 and differences -3..2", p.X.Min, p.X.Max, p.Y.Min, p.Y.Max)
	}
	if err := savePlot(p, t.TempDir(), "pushdiff"); err != nil {
		t.Fatal(err)
	}
	if w := titleWidth(p); w > plotWidth {
		t.Errorf("title %q is %v wide, the plot %v", p.Title.Text, w, plotWidth)
	}
}

// The push-difference plot says which way is better, and its x axis spans
// the collection's levels in the results with ticks only at levels there
// are: here levels 3-12 and 40-49, of which both solve four.
func TestPushDiffPlotAxis(t *testing.T) {
	pd := pushDiff{coll: "microban", a: "fess", b: "astar", budget: bench.Budget{Time: time.Second}}
	exists := map[float64]bool{}
	for _, first := range []int{3, 40} {
		for n := first; n < first+10; n++ {
			pd.all = append(pd.all, fmt.Sprintf("microban:%d", n))
			exists[float64(n)] = true
		}
	}
	for _, n := range []int{4, 7, 41, 44} {
		pd.levels = append(pd.levels, fmt.Sprintf("microban:%d", n))
		pd.diffs = append(pd.diffs, float64(n%3-1))
	}
	p, err := pushDiffPlot(pd)
	if err != nil {
		t.Fatal(err)
	}
	if p.X.Min != 2.5 || p.X.Max != 49.5 {
		t.Errorf("x axis %g..%g, want 2.5..49.5", p.X.Min, p.X.Max)
	}
	ticks := p.X.Tick.Marker.Ticks(p.X.Min, p.X.Max)
	if len(ticks) < 2 {
		t.Errorf("x ticks %v", ticks)
	}
	for _, tk := range ticks {
		if !exists[tk.Value] {
			t.Errorf("a tick at level %g, which is not in the results", tk.Value)
		}
	}
	if !strings.Contains(p.Title.Text, "below zero: fess's solution is shorter (shorter is better)") {
		t.Errorf("the title does not say which way is better: %q", p.Title.Text)
	}
}

// Times in the tables have three significant digits in the unit that suits
// them.
func TestFmtSeconds(t *testing.T) {
	for _, tc := range []struct {
		s    float64
		want string
	}{
		{0.00042, "420 µs"}, {3e-7, "0.300 µs"}, {0.0009996, "1.00 ms"}, {0.0123, "12.3 ms"}, {0.2, "200 ms"},
		{0.99996, "1.00 s"}, {1.5, "1.50 s"}, {125.4, "125 s"}, {0, "0 s"}, {math.NaN(), "—"},
	} {
		if got := fmtSeconds(tc.s); got != tc.want {
			t.Errorf("fmtSeconds(%g) = %q, want %q", tc.s, got, tc.want)
		}
	}
}

// barFills counts the rectangles p fills in the colour of the solved bars.
func barFills(t *testing.T, p *plot.Plot) int {
	t.Helper()
	return fills(t, p, barColor)
}

// fills counts the shapes p fills in colour c.
func fills(t *testing.T, p *plot.Plot, c color.Color) int {
	t.Helper()
	var rec recorder.Canvas
	p.Draw(draw.Canvas{Canvas: &rec, Rectangle: vg.Rectangle{Max: vg.Point{X: plotWidth, Y: plotHeight}}})
	var cur color.Color
	n := 0
	for _, a := range rec.Actions {
		switch a := a.(type) {
		case *recorder.SetColor:
			cur = a.Color
		case *recorder.Fill:
			if cur == c {
				n++
			}
		}
	}
	return n
}

// With one budget, levels solved is a bar per solver, named on the y axis;
// with several, a line per solver and no bars.
func TestSolvedPlotBars(t *testing.T) {
	var one []bench.Record
	for _, r := range syntheticRecords() {
		if r.Collection() == "microban" && r.Budget.Time == 2*time.Second {
			one = append(one, r)
		}
	}
	d := newDataset(one)
	p, err := d.solvedPlot("microban")
	if err != nil {
		t.Fatal(err)
	}
	if n := barFills(t, p); n != 3 {
		t.Errorf("%d bars for three solvers at one budget", n)
	}
	var names []string
	for _, tk := range p.Y.Tick.Marker.Ticks(p.Y.Min, p.Y.Max) {
		names = append(names, fmt.Sprintf("%s@%g", tk.Label, tk.Value))
	}
	if got := strings.Join(names, ","); got != "astar@2,bfs@1,fake@0" {
		t.Errorf("y ticks %s, want the solvers top to bottom", got)
	}
	if p.X.Max != 3 {
		t.Errorf("the bars' axis ends at %g, not at the 3 levels", p.X.Max)
	}
	p, err = newDataset(syntheticRecords()).solvedPlot("microban")
	if err != nil {
		t.Fatal(err)
	}
	if n := barFills(t, p); n != 0 {
		t.Errorf("%d bars at two budgets", n)
	}
}

// The cactus plot and the time histogram put time on a log axis labelled
// in units: here solves from 420 µs to 1.5 s at a 2 s limit.
func TestTimeAxes(t *testing.T) {
	var recs []bench.Record
	for _, r := range syntheticRecords() {
		if r.Budget.Time == 2*time.Second {
			recs = append(recs, r)
		}
	}
	d := newDataset(recs)
	cactus, err := d.cactusPlot("microban")
	if err != nil || cactus == nil {
		t.Fatalf("cactus plot %v, %v", cactus, err)
	}
	hist, err := d.timePlot("astar")
	if err != nil || hist == nil {
		t.Fatalf("time plot %v, %v", hist, err)
	}
	for name, p := range map[string]*plot.Plot{"cactus": cactus, "histogram": hist} {
		var labels []string
		for _, tk := range p.X.Tick.Marker.Ticks(p.X.Min, p.X.Max) {
			labels = append(labels, tk.Label)
		}
		if got := strings.Join(labels, ","); !strings.Contains(got, "1 ms,10 ms,100 ms,1 s") {
			t.Errorf("%s: x ticks %s", name, got)
		}
	}
	if cactus.Y.Max != 3 {
		t.Errorf("cactus y axis ends at %g, not at the 3 levels", cactus.Y.Max)
	}
}

// A count of one reads in the singular everywhere in the report and plots.
func TestReportSingular(t *testing.T) {
	r := bench.Record{Solver: "wrong", Level: "mine.xsb:1", Budget: bench.Budget{Time: time.Second}, Seed: 1, Status: bench.StatusError, Error: "invalid solution"}
	r.Key = r.RunKey()
	var md bytes.Buffer
	if err := Write(&md, []bench.Record{r}, Options{NoPlots: true}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"1 run: 1 solver, 1 collection, 1 budget.", "1 run ended in an error", "### Levels solved: mine.xsb (1 level)"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, md.String())
		}
	}
	p, err := newDataset([]bench.Record{r}).solvedPlot("mine.xsb")
	if err != nil || !strings.HasSuffix(p.Title.Text, "(1 level)") {
		t.Errorf("solved plot title %q, %v", p.Title.Text, err)
	}
	p, err = pushDiffPlot(pushDiff{coll: "mine.xsb", a: "a", b: "b", budget: r.Budget, levels: []string{"mine.xsb:1"}, diffs: []float64{2}})
	if err != nil || !strings.HasSuffix(p.Title.Text, "over the 1 level both solve") {
		t.Errorf("push-difference plot title %q, %v", p.Title.Text, err)
	}
}

// A solver that solved nothing, at a budget with no time limit, is a flat
// line at zero across the cactus plot.
func TestCactusUnsolvedSolver(t *testing.T) {
	var recs []bench.Record
	for lv := 1; lv <= 3; lv++ {
		for _, s := range []string{"schokoban", "vanillaban"} {
			r := bench.Record{Solver: s, Level: fmt.Sprintf("cbc60:%d", lv), Budget: bench.Budget{Iterations: 25}, Seed: 1, Status: "iteration limit", WallS: 0.01}
			if s == "schokoban" {
				r.Status, r.Verified, r.WallS = "solved", true, 0.001*float64(lv)
			}
			r.Key = r.RunKey()
			recs = append(recs, r)
		}
	}
	p, err := newDataset(recs).cactusPlot("cbc60")
	if err != nil || p == nil {
		t.Fatalf("cactus plot %v, %v", p, err)
	}
	var rec recorder.Canvas
	p.Draw(draw.Canvas{Canvas: &rec, Rectangle: vg.Rectangle{Max: vg.Point{X: plotWidth, Y: plotHeight}}})
	for _, a := range rec.Actions {
		if s, ok := a.(*recorder.Stroke); ok {
			for _, c := range s.Path {
				if math.IsNaN(float64(c.Pos.X)) || math.IsInf(float64(c.Pos.X), 0) {
					t.Fatalf("a line through %v", c.Pos)
				}
			}
		}
	}
}

// TestSolvedPerSolverSeeds: each solver's count is the mean over its own
// seeds: a solver run on one seed beside another run on four solves as
// many levels as it solved, and the title says the means differ.
func TestSolvedPerSolverSeeds(t *testing.T) {
	var recs []bench.Record
	second := bench.Budget{Time: time.Second}
	for _, lvl := range []string{"microban:1", "microban:2"} {
		recs = append(recs, runOf("astar", lvl, "h"+lvl, second, 1, "solved"))
		for seed := uint64(1); seed <= 4; seed++ {
			recs = append(recs, runOf("fess", lvl, "h"+lvl, second, seed, "solved"))
		}
	}
	reportHas(t, recs, "mean over each solver's seeds", "| astar | 2 |", "| fess | 2 |")
}

// runOf is a record of one run, keyed as bench keys it.
func runOf(solver, lvl, hash string, b bench.Budget, seed uint64, status string) bench.Record {
	r := bench.Record{Solver: solver, Level: lvl, LevelHash: hash, Budget: b, Seed: seed, Status: status, Verified: status == "solved", Pushes: 3}
	r.Key = r.RunKey()
	return r
}

// reportHas writes the report of recs (no plots) and checks it holds each
// of wants.
func reportHas(t *testing.T, recs []bench.Record, wants ...string) {
	t.Helper()
	var md bytes.Buffer
	if err := Write(&md, recs, Options{NoPlots: true}); err != nil {
		t.Fatal(err)
	}
	for _, want := range wants {
		if !strings.Contains(md.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, md.String())
		}
	}
}

// TestReportEditedLevel: where a level's runs name two boards (the file was
// edited between runs), the report names the level and says its counts mix
// them: the records cannot tell which board is the level's now.
func TestReportEditedLevel(t *testing.T) {
	second := bench.Budget{Time: time.Second}
	recs := []bench.Record{
		runOf("astar", "mine.xsb:1", "old", second, 1, "solved"),
		runOf("astar", "mine.xsb:2", "h2", second, 1, "solved"),
		runOf("astar", "mine.xsb:1", "new", second, 1, "time limit"),
	}
	reportHas(t, recs, "3 runs:", "1 level has runs on more than one board", "mix the boards: mine.xsb:1; run them again")
}

// TestReportStalePlots: plots in the folder that the report does not make
// (an earlier report's) are named in report.md, so that no one takes them
// for this report's.
func TestReportStalePlots(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "time-bfs.svg"), []byte("<svg/>"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runOf("astar", "microban:1", "h1", bench.Budget{Time: time.Second}, 1, "solved")
	var md bytes.Buffer
	if err := Write(&md, []bench.Record{r}, Options{OutDir: dir, NoPlots: true}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "report.md"))
	const want = "The folder also holds 1 plot this report did not make (an earlier report's): time-bfs.svg."
	if err != nil || !strings.Contains(string(b), want) || !strings.Contains(md.String(), want) {
		t.Errorf("report.md (%v) and the output lack %q:\n%s", err, want, b)
	}
}

// TestPAR2LargestTime: the PAR-2 column is at each solver's largest time
// limit, whatever its other limits.
func TestPAR2LargestTime(t *testing.T) {
	recs := []bench.Record{
		runOf("astar", "microban:1", "h1", bench.Budget{Time: 5 * time.Second}, 1, "solved"),
		runOf("astar", "microban:1", "h1", bench.Budget{Time: time.Minute, Nodes: 1_000_000}, 1, "solved"),
	}
	reportHas(t, recs, "PAR-2 (solve time) at n=1000000,t=1m0s |")
}

// Names that map to one file name or benchmark name stay two.
func TestDistinctNames(t *testing.T) {
	if a, b := fileName("other/ok.xsb"), fileName("other_ok.xsb"); a == b || b != "other_ok.xsb" || a != "other_ok.xsb-2d6750" {
		t.Errorf("file names %q and %q", a, b)
	}
	if a, b := benchName("a b.xsb:1"), benchName("a_b.xsb:1"); a == b || b != "a_b.xsb:1" {
		t.Errorf("benchmark names %q and %q", a, b)
	}
}

// A report whose context has ended writes nothing and says why.
func TestReportCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	dir := filepath.Join(t.TempDir(), "out")
	var md bytes.Buffer
	if err := WriteContext(ctx, &md, syntheticRecords(), Options{OutDir: dir}); !errors.Is(err, context.Canceled) || md.Len() > 0 {
		t.Errorf("cancelled: %v, %d bytes written", err, md.Len())
	}
	if entries, _ := os.ReadDir(dir); len(entries) > 0 {
		t.Errorf("cancelled, the folder got %d files", len(entries))
	}
}
