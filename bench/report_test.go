package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"soko/internal/golden"
	"strings"
	"testing"
	"time"
)

// syntheticRecords are made-up results covering every part of a report:
// two MCTS solvers on cbc60 at thesis budgets with two seeds, and two search
// solvers on microban with a time limit, an error and a missing run.
func syntheticRecords() []Record {
	var recs []Record
	add := func(solver, lvl string, b Budget, seed uint64, status string, pushes int, wall float64) {
		r := Record{Solver: solver, Level: lvl, LevelHash: "h" + lvl, Budget: b, Seed: seed, Status: status,
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
		if status == StatusError {
			r.Error = "solver returned an invalid solution"
		}
		r.Key = runKey(r.Solver, r.Params, r.Level, r.LevelHash, r.Budget, r.Seed)
		recs = append(recs, r)
	}
	for _, it := range []int64{25, 100000} {
		for lv := 1; lv <= 6; lv++ {
			for seed := uint64(1); seed <= 2; seed++ {
				id := fmt.Sprintf("cbc60:%d", lv)
				// schokoban solves more levels, with fewer pushes.
				if it == 100000 || lv <= 2 || (lv == 3 && seed == 1) {
					add("schokoban", id, Budget{Iterations: it}, seed, "solved", 10+lv-int(seed), 0.01*float64(lv))
				} else {
					add("schokoban", id, Budget{Iterations: it}, seed, "iteration limit", 0, 0.05)
				}
				if (it == 100000 && lv <= 5) || lv == 1 {
					add("vanillaban", id, Budget{Iterations: it}, seed, "solved", 12+lv, 0.02*float64(lv))
				} else {
					add("vanillaban", id, Budget{Iterations: it}, seed, "iteration limit", 0, 0.1)
				}
			}
		}
	}
	for lv := 1; lv <= 3; lv++ {
		id := fmt.Sprintf("microban:%d", lv)
		add("astar", id, Budget{Time: time.Second}, 1, "solved", 5*lv, 0.1*float64(lv))
		switch lv {
		case 1:
			add("bfs", id, Budget{Time: time.Second}, 1, "solved", 5, 0.3)
		case 2:
			add("bfs", id, Budget{Time: time.Second}, 1, "time limit", 0, 1.0)
		}
	}
	add("astar", "microban:1", Budget{Time: 10 * time.Second}, 1, StatusError, 0, 0.5)
	return recs
}

func TestReportGolden(t *testing.T) {
	recs := syntheticRecords()
	dir := t.TempDir()
	if d := os.Getenv("SOKO_REPORT_DIR"); d != "" {
		dir = d // keep the plots to look at them
	}
	var md bytes.Buffer
	if err := Report(&md, recs, ReportOptions{OutDir: dir}); err != nil {
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
	for _, name := range []string{"solved-cbc60", "solved-microban", "unique-per-node", "time-schokoban", "time-astar", "pushdiff-cbc60"} {
		f, err := os.Open(filepath.Join(dir, name+".png"))
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s.png: %v", name, err)
		}
		if b := img.Bounds(); b.Dx() < 300 || b.Dy() < 200 {
			t.Errorf("%s.png is %v", name, b)
		}
		svg, err := os.ReadFile(filepath.Join(dir, name+".svg"))
		if err != nil || !bytes.Contains(svg, []byte("<svg")) {
			t.Errorf("%s.svg: %v", name, err)
		}
	}
}

// The report's order does not depend on the order of the records, and a run
// given twice counts once.
func TestReportOrderIndependent(t *testing.T) {
	recs := syntheticRecords()
	var a, b bytes.Buffer
	if err := Report(&a, recs, ReportOptions{}); err != nil {
		t.Fatal(err)
	}
	rev := make([]Record, 0, 2*len(recs))
	for i := len(recs) - 1; i >= 0; i-- {
		rev = append(rev, recs[i])
	}
	rev = append(rev, recs...)
	if err := Report(&b, rev, ReportOptions{}); err != nil {
		t.Fatal(err)
	}
	if a.String() != b.String() {
		t.Fatal("report depends on record order or duplicates")
	}
}

// The benchstat text parses as Go benchmark lines: name, iterations, then
// value-unit pairs, with no '=' in the budget or level parts.
func TestBenchstatFormat(t *testing.T) {
	var b bytes.Buffer
	if err := WriteBenchstat(&b, syntheticRecords()); err != nil {
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

func TestRecordJSON(t *testing.T) {
	r := syntheticRecords()[0]
	r.Budget = Budget{Time: 1500 * time.Millisecond, Nodes: 7}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"budget":{"time_s":1.5,"nodes":7}`) {
		t.Fatalf("budget on disk: %s", b)
	}
	var back Record
	if err := json.Unmarshal(b, &back); err != nil || back.Budget != r.Budget || back.Key != r.Key {
		t.Fatalf("round trip: %+v %v", back.Budget, err)
	}
}

func TestComparePairDefault(t *testing.T) {
	for _, tc := range []struct {
		solvers []string
		opt     [2]string
		a, b    string
		ok      bool
	}{
		{[]string{"mcts", "mcts-n", "mcts-nd", "mcts-r"}, [2]string{}, "mcts-r", "mcts-nd", true},
		{[]string{"schokoban", "vanillaban(cycles=1)"}, [2]string{}, "schokoban", "vanillaban(cycles=1)", true},
		{[]string{"schokoban", "vanillaban"}, [2]string{}, "schokoban", "vanillaban", true},
		{[]string{"astar", "bfs"}, [2]string{}, "astar", "bfs", true},
		{[]string{"astar", "bfs"}, [2]string{"bfs", "greedy"}, "bfs", "greedy", false},
		{[]string{"astar"}, [2]string{}, "", "", false},
	} {
		d := &dataset{solvers: tc.solvers}
		a, b, ok := d.comparePair(tc.opt)
		if a != tc.a || b != tc.b || ok != tc.ok {
			t.Errorf("comparePair(%v, %v) = %q, %q, %v; want %q, %q, %v", tc.solvers, tc.opt, a, b, ok, tc.a, tc.b, tc.ok)
		}
	}
}
