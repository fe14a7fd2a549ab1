package report

import (
	"reflect"
	"testing"
	"time"

	"soko/bench"
)

// TestThreadsTable: a run with N threads at T is counted beside the same
// solver's one-thread run of the level at N·T only: not beside one at T,
// another solver's, another seed's, or a level it lacks.
func TestThreadsTable(t *testing.T) {
	at := func(s int) bench.Budget { return bench.Budget{Time: time.Duration(s) * time.Second} }
	run := func(level string, threads, secs int, solved bool) bench.Record {
		r := bench.Record{Solver: "fess", Level: level, LevelHash: "h" + level, Budget: at(secs), Seed: 1, Threads: threads, Status: "time limit"}
		if solved {
			r.Status, r.Verified, r.Pushes = "solved", true, 10
		}
		return r
	}
	recs := []bench.Record{
		run("x:1", 2, 10, true), run("x:1", 1, 20, true), run("x:1", 1, 10, false),
		run("x:2", 2, 10, true), run("x:2", 1, 20, false),
		run("x:3", 2, 10, false), run("x:3", 1, 20, true),
		run("x:4", 2, 10, true), run("x:4", 1, 10, false), // no one-thread run at 20 s
		run("x:5", 4, 10, true), run("x:5", 1, 40, true),
	}
	other := run("x:4", 1, 20, true)
	other.Seed = 2 // another seed is not x:4's counterpart
	recs = append(recs, other)
	for i := range recs {
		recs[i].Key = recs[i].SolverLabel() + "|" + recs[i].Level + "|" + recs[i].Budget.String() + "|" + string(rune('0'+recs[i].Seed))
	}
	got := newDataset(recs).threadsTable()
	if got == nil {
		t.Fatal("no threads table")
	}
	want := [][]string{
		{"fess", "2", "t=10s", "3", "2", "2", "1", "1"},
		{"fess", "4", "t=10s", "1", "1", "1", "0", "0"},
	}
	if !reflect.DeepEqual(got.rows, want) {
		t.Errorf("rows %v, want %v", got.rows, want)
	}
	if newDataset(recs[1:3]).threadsTable() != nil {
		t.Error("a table without threaded runs")
	}
}
