package bench

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"soko/levels"
)

// TestResumeThreads: threads are part of a run's key. Resuming a results
// file with another --threads runs everything again beside the old runs;
// with the same threads it runs nothing. A record without threads is a
// one-thread run (its key is the one soko bench wrote before threads
// existed), and one written with threads but an older key without them is
// read as the run it was.
func TestResumeThreads(t *testing.T) {
	lvls, err := levels.Resolve("microban:1-3", nil)
	if err != nil {
		t.Fatal(err)
	}
	jobsWith := func(threads int) []Job {
		return planJobs(t, []SolverSpec{{Name: "astar", Threads: threads}}, lvls, Budgets(nil, []int64{5000}, nil), []uint64{1})
	}
	one, two := jobsWith(1), jobsWith(2)
	if k := one[0].Key(); k != "astar|microban:1|"+LevelHash(lvls[0])+"|n=5000|1" {
		t.Errorf("one thread's key %q is not the key of files written before threads", k)
	}
	if k := two[0].Key(); k != "astar(threads=2)|microban:1|"+LevelHash(lvls[0])+"|n=5000|1" {
		t.Errorf("two threads' key %q", k)
	}

	path := filepath.Join(t.TempDir(), "results.jsonl")
	ctx := context.Background()
	if sum, todo, err := runInto(t, ctx, path, one, 1, nil); err != nil || todo != 3 || sum.Run != 3 {
		t.Fatalf("one thread: %+v of %d, %v", sum, todo, err)
	}
	if sum, todo, err := runInto(t, ctx, path, two, 1, nil); err != nil || todo != 3 || sum.Run != 3 {
		t.Fatalf("resumed with two threads: %d pending, %+v, %v; want all 3 run again", todo, sum, err)
	}
	for _, jobs := range [][]Job{one, two} {
		if _, todo, err := runInto(t, ctx, path, jobs, 1, nil); err != nil || todo != 0 {
			t.Fatalf("resumed with %d threads again: %d pending, %v", jobs[0].Solver.Threads, todo, err)
		}
	}
	recs, err := ReadFiles(nil, path)
	if err != nil {
		t.Fatal(err)
	}
	labels := map[string]int{}
	for _, r := range recs {
		labels[r.SolverLabel()]++
		if want := map[string]int{"astar": 0, "astar(threads=2)": 2}[r.SolverLabel()]; r.Threads != want || !r.Solved() {
			t.Errorf("%s on %s: threads %d, %s; want %d, solved", r.SolverLabel(), r.Level, r.Threads, r.Status, want)
		}
	}
	if labels["astar"] != 3 || labels["astar(threads=2)"] != 3 {
		t.Errorf("runs by label %v; want 3 of astar and 3 of astar(threads=2)", labels)
	}

	// A file written while threads were recorded but not in the key.
	old := filepath.Join(t.TempDir(), "old.jsonl")
	var lines []string
	for _, r := range recs {
		line := `{"key":"astar|` + r.Level + `|` + r.LevelHash + `|n=5000|1","solver":"astar","level":"` + r.Level +
			`","level_hash":"` + r.LevelHash + `","budget":{"nodes":5000},"seed":1,"status":"solved","verified":true`
		if r.Threads == 2 {
			line += `,"threads":2`
		}
		lines = append(lines, line+"}\n")
	}
	if err := os.WriteFile(old, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, jobs := range [][]Job{one, two} {
		if _, todo, err := runInto(t, ctx, old, jobs, 1, nil); err != nil || todo != 0 {
			t.Errorf("an older file resumed with %d threads: %d pending, %v; want 0", jobs[0].Solver.Threads, todo, err)
		}
	}
}
