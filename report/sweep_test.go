package report

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"soko/bench"
)

// A sweep of wastar's w (001 Fig. 5): three values, one of them the
// default given implicitly, with known mean times; unsolved runs count at
// the time limit. astar, run with one setting, makes no sweep.
func TestSweeps(t *testing.T) {
	var recs []bench.Record
	add := func(solver string, params map[string]string, lvl string, status string, wall float64) {
		r := bench.Record{Solver: solver, Params: params, Level: lvl, LevelHash: "h" + lvl, Budget: bench.Budget{Time: 2 * time.Second},
			Seed: 1, Status: status, Verified: status == "solved", WallS: wall}
		r.Key = r.RunKey()
		recs = append(recs, r)
	}
	add("wastar", map[string]string{"w": "1"}, "microban:1", "solved", 1.0)
	add("wastar", map[string]string{"w": "1"}, "microban:2", "time limit", 2.1) // counts as 2
	add("wastar", map[string]string{"w": "5"}, "microban:1", "solved", 0.5)
	add("wastar", map[string]string{"w": "5"}, "microban:2", "solved", 0.5)
	add("wastar", nil, "microban:1", "solved", 0.25) // the default, w=200
	add("wastar", map[string]string{"w": "200"}, "microban:2", "solved", 0.75)
	add("astar", nil, "microban:1", "solved", 0.1)
	d := newDataset(recs)
	sws := d.sweeps()
	if len(sws) != 1 || sws[0].solver != "wastar" || sws[0].param != "w" {
		t.Fatalf("sweeps %+v, want one of wastar over w", sws)
	}
	want := []struct {
		value        float64
		runs, solved int
		mean, ci     float64
	}{{1, 2, 1, 1.5, 1.96 * 0.5}, {5, 2, 2, 0.5, 0}, {200, 2, 2, 0.5, 1.96 * 0.25}}
	for i, pt := range sws[0].points {
		w := want[i]
		if pt.value != w.value || pt.runs != w.runs || pt.solved != w.solved || math.Abs(pt.mean-w.mean) > 1e-9 || math.Abs(pt.ci-w.ci) > 1e-9 {
			t.Errorf("point %d = %+v, want %+v", i, pt, w)
		}
	}
	dir := t.TempDir()
	var md bytes.Buffer
	if err := Write(&md, recs, Options{OutDir: dir}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "Parameter sweep: wastar over w at t=2s") {
		t.Errorf("the report has no sweep table:\n%s", md.String())
	}
	for _, ext := range []string{"png", "svg"} {
		if _, err := os.Stat(filepath.Join(dir, "sweep-wastar-w."+ext)); err != nil {
			t.Error(err)
		}
	}
}

// A sweep's point is timed by the report's time: a solved run at its
// solve time (not the optimizer's wall time after it), a run not solved at
// the time limit whatever the kind.
func TestSweepPointTime(t *testing.T) {
	solved := bench.Record{Status: "solved", Verified: true, Budget: bench.Budget{Time: 2 * time.Second}, SolveS: 0.1, OptimizeS: 0.9, WallS: 1.0}
	unsolved := bench.Record{Status: "time limit", Budget: bench.Budget{Time: 2 * time.Second}, SolveS: 2.0, WallS: 2.0}
	for kind, want := range map[Time]float64{SolveTime: 1.05, WallTime: 1.5} {
		pt := sweepPointOf(1, "1", []*bench.Record{&solved, &unsolved}, kind)
		if math.Abs(pt.mean-want) > 1e-9 || pt.solved != 1 {
			t.Errorf("%s time: mean %g, %d solved; want %g, 1", kind, pt.mean, pt.solved, want)
		}
	}
}
