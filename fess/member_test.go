package fess

import (
	"context"
	"testing"
	"time"

	"soko/internal/testlevel"
	"soko/solver"
)

// TestResumeIsSeamless: a strategy run in slices of a few expansions,
// each resumed where the last paused, searches exactly as it does in one
// go: dive solves XSokoban 35 after the same expansions, with the same
// solution length, differential against the one-go run.
func TestResumeIsSeamless(t *testing.T) {
	l := testlevel.Resolve(t, "xsokoban90:35")[0]
	whole := solver.Options{Budget: solver.Budget{Nodes: 3000}}
	want, err := solve(context.Background(), l, whole, row("dive"))
	if err != nil || want.Status != solver.Solved {
		t.Fatalf("in one go: %v, %v", want.Status, err)
	}
	r := &runner{s: row("dive"), whole: whole.Budget}
	slices := 0
	var got solver.Result
	for {
		r.until.Nodes += 97
		got, err = solver.Run(context.Background(), r, l, whole)
		if err != nil {
			t.Fatal(err)
		}
		slices++
		if r.e == nil || !r.e.paused {
			break
		}
		if got.Status != solver.NodeLimit || got.Stats.Expanded != max(r.until.Nodes, r.e.stats.Expanded) {
			t.Fatalf("slice %d paused with %v after %d expansions, want at %d", slices, got.Status, got.Stats.Expanded, r.until.Nodes)
		}
		r.until.Nodes = got.Stats.Expanded
	}
	if slices < 10 {
		t.Fatalf("%d slices: the test wants many", slices)
	}
	if got.Status != want.Status || got.Stats.Expanded != want.Stats.Expanded || got.Stats.Generated != want.Stats.Generated || got.Pushes != want.Pushes {
		t.Errorf("in %d slices: %v after %d expansions, %d generated, %d pushes; in one go %v after %d, %d, %d",
			slices, got.Status, got.Stats.Expanded, got.Stats.Generated, got.Pushes, want.Status, want.Stats.Expanded, want.Stats.Generated, want.Pushes)
	}
}

// TestFirstSliceBegins: a slice never ends before the forward search has
// its root: set-up and opening (imagine's backward search here, on a third
// of the share) run whole in the first slice however short, which then
// ends at once, and the strategy resumes from there.
func TestFirstSliceBegins(t *testing.T) {
	l := testlevel.Resolve(t, "xsokoban90:29")[0]
	whole := solver.Options{Budget: solver.Budget{Nodes: 3000}}
	r := &runner{s: row("imagine"), whole: whole.Budget, until: solver.Budget{Time: time.Nanosecond}}
	res, err := solver.Run(context.Background(), r, l, whole)
	if err != nil || r.e == nil || !r.e.begun || !r.e.paused || res.Status != solver.TimeLimit || res.Stats.Expanded < 1000 {
		t.Fatalf("first slice: %v, %v, after %d expansions; want paused on its time once begun, after the opening's 1,000", res.Status, err, res.Stats.Expanded)
	}
	first := res.Stats.Expanded
	r.until = solver.Budget{Nodes: first + 50}
	res, err = solver.Run(context.Background(), r, l, whole)
	if err != nil || !r.e.paused || res.Stats.Expanded != first+50 {
		t.Errorf("second slice: %v, %v after %d expansions, want paused at %d", res.Status, err, res.Stats.Expanded, first+50)
	}
}

// TestRoundsYield: under a node limit every strategy of the default list
// runs, in several slices, and none has more than its share and what the
// stalled ones yielded; a strategy stalled in slice after slice ends with
// less than its share.
func TestRoundsYield(t *testing.T) {
	l := testlevel.Resolve(t, "xsokoban90:29")[0]
	const nodes = 40_000
	res, recs := traced(t, l, nodes, nil, true)
	if res.Status != solver.NodeLimit {
		t.Fatalf("%v: the test wants a level the budget leaves unsolved", res.Status)
	}
	if res.Stats.Expanded > nodes {
		t.Errorf("%d expansions in all, over the limit of %d", res.Stats.Expanded, nodes)
	}
	slicesOf := map[string]int{}
	stalled := map[string]bool{}
	for _, r := range recs {
		if r["event"] == "slice" {
			s := r["strategy"].(string)
			slicesOf[s]++
			if r["stalled"] == true {
				stalled[s] = true
			}
		}
	}
	for _, s := range []string{"dive", "plan", "imagine", "park"} {
		if slicesOf[s] < 2 {
			t.Errorf("%s ran %d slices, want several", s, slicesOf[s])
		}
	}
	if len(stalled) == 0 {
		t.Errorf("no strategy stalled on a level none solves")
	}
	if res.Stats.Counts["plan.expanded"] >= nodes*64/100 && stalled["plan"] {
		t.Errorf("plan stalled and still had %d expansions, its whole share", res.Stats.Counts["plan.expanded"])
	}
}

// TestMemoryGoesToLive: the memory limit is shared among the strategies
// still in the rounds, so that one that ended (dropped, its engine let go)
// hands its part to the others; the bytes reported stay the most held.
func TestMemoryGoesToLive(t *testing.T) {
	rs := &rounds{opts: solver.Options{Budget: solver.Budget{Nodes: 1000, Memory: 1200}}}
	for range 4 {
		rs.runners = append(rs.runners, &runner{s: row("plan"), weight: 1, e: &engine{}, ran: true, stats: solver.Stats{Bytes: 100}})
	}
	if b := rs.sum().Bytes; b != 400 {
		t.Errorf("four engines of 100 bytes: %d bytes summed", b)
	}
	sb, _ := rs.slice(rs.runners[0], time.Time{}, 0)
	if sb.Memory != 300 {
		t.Errorf("four strategies in: a slice's memory %d, want 300", sb.Memory)
	}
	for _, r := range rs.runners[2:] {
		r.weight = 0
		r.drop()
	}
	sb, _ = rs.slice(rs.runners[0], time.Time{}, 0)
	if sb.Memory != 600 {
		t.Errorf("two left: a slice's memory %d, want 600", sb.Memory)
	}
	rs.runners[0].stats.Bytes = 500
	if sum := rs.sum(); rs.runners[2].e != nil || sum.Bytes != 600 {
		t.Errorf("dropped engine kept (%v), bytes summed %d, want the two left's 600", rs.runners[2].e != nil, sum.Bytes)
	}
	rs.runners[0].stats.Bytes = 100
	if b := rs.sum().Bytes; b != 600 {
		t.Errorf("bytes reported %d after the engines shrank, want the most held, 600", b)
	}
	// A slice ends with runner 1 grown to 1,000 bytes and it is dropped
	// (ended on its memory) before anything sums: the loop notes the
	// peak after each slice, so the end still reports it.
	rs.runners[1].stats.Bytes = 1000
	rs.notePeak()
	rs.runners[1].weight = 0
	rs.runners[1].drop()
	if b := rs.sum().Bytes; b != 1100 {
		t.Errorf("bytes reported %d after an engine that grew was dropped, want 1,100", b)
	}
}
