package fess

import (
	"bytes"
	"context"
	"encoding/json"
	"runtime"
	"sync"
	"testing"
	"time"

	"soko/internal/testlevel"
	"soko/solver"
)

// TestThreadsCancelEndsEveryMember: three threads, progress events and
// a trace, cancelled mid-slice: the run ends cancelled, no goroutine is
// left, and every member that started has an end in the trace (an "end"
// record, a "member" record, or a last slice that is not "paused").
func TestThreadsCancelEndsEveryMember(t *testing.T) {
	l := testlevel.Resolve(t, "xsokoban90:50")[0] // no strategy solves it in seconds
	for _, threads := range []int{1, 3} {
		before := runtime.NumGoroutine()
		var buf bytes.Buffer
		var mu sync.Mutex
		events := 0
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(2500*time.Millisecond, cancel)
		opts := solver.Options{Threads: threads, Budget: solver.Budget{Time: 20 * time.Second, Memory: 256 << 20},
			Trace: solver.NewTrace(&buf).Level("x"),
			Progress: func(p solver.Progress) {
				mu.Lock()
				events++
				mu.Unlock()
			}}
		res, err := solver.Run(ctx, FESS{}, l, opts)
		if err != nil || res.Status != solver.Cancelled {
			t.Fatalf("threads %d: %v, %v; want cancelled", threads, res.Status, err)
		}
		time.Sleep(50 * time.Millisecond)
		if n := runtime.NumGoroutine(); n > before {
			t.Errorf("threads %d: %d goroutines after, %d before", threads, n, before)
		}
		last := map[string]map[string]any{}
		for _, line := range bytes.Split(bytes.TrimSpace(buf.Bytes()), []byte("\n")) {
			var rec map[string]any
			if err := json.Unmarshal(line, &rec); err != nil {
				t.Fatal(err)
			}
			last[rec["strategy"].(string)] = rec
		}
		if len(last) < 3 || events == 0 { // greedy, dive and plan at least start within the 2.5 s
			t.Fatalf("threads %d: %d members traced, %d progress events", threads, len(last), events)
		}
		for name, rec := range last {
			if rec["event"] == "slice" && rec["status"] == "paused" {
				t.Errorf("threads %d: %s's trace ends paused: %v", threads, name, rec)
			}
		}
		t.Logf("threads %d: %d progress events, %d members traced, expanded %d", threads, events, len(last), res.Stats.Expanded)
	}
}

// TestNodeLimitKeptWithProgress: with one thread and progress events on (as soko
// solve and the web page run it) the default portfolio stops at its node
// limit exactly: a progress event's statistics are never taken for a
// slice's start (that overran the limit by a different amount each run).
func TestNodeLimitKeptWithProgress(t *testing.T) {
	for _, l := range testlevel.Resolve(t, "xsokoban90:8,10") {
		res, err := solver.Run(context.Background(), FESS{}, l, solver.Options{Budget: solver.Budget{Nodes: 3000},
			Progress: func(solver.Progress) {}})
		if err != nil || res.Stats.Expanded > 3000 {
			t.Errorf("%s: %v after %d expansions, %v; want at most 3,000", l.Name(), res.Status, res.Stats.Expanded, err)
		}
	}
}

// TestRunOnceRowAfterResumable: a run-once search kind added as a row after
// the resumable ones (here greedy after plan) gets about its share, not
// all the budget left after plan's first slice, nor nothing.
func TestRunOnceRowAfterResumable(t *testing.T) {
	var table []strategy
	total := 0.0
	for _, name := range []string{"plan", "greedy"} {
		for _, s := range strategies {
			if s.name == name {
				table = append(table, s)
				total += float64(s.share)
			}
		}
	}
	p := solver.Portfolio{Members: membersOf(table, []string{"plan", "greedy"}, nil, true, &levelTables{})}
	res, err := solver.Run(context.Background(), p, testlevel.Resolve(t, "xsokoban90:29")[0], solver.Options{Budget: solver.Budget{Nodes: 20_000}})
	if err != nil {
		t.Fatal(err)
	}
	plan, greedy := res.Stats.Counts["plan.expanded"], res.Stats.Counts["greedy.expanded"]
	want := 20_000 * float64(table[1].share) / total
	t.Logf("%v: plan %d, greedy %d of 20,000 (its share %.0f)", res.Status, plan, greedy, want)
	if float64(greedy) > 2.5*want || float64(greedy) < want/4 {
		t.Errorf("greedy (share %v of %v) expanded %d of 20,000 nodes, plan %d", table[1].share, total, greedy, plan)
	}
}
