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
	whole := solver.Budget{Nodes: 3000}
	want, err := solve(context.Background(), l, solver.Options{Budget: whole}, row("dive"))
	if err != nil || want.Status != solver.Solved {
		t.Fatalf("in one go: %v, %v", want.Status, err)
	}
	r := &runner{s: row("dive"), whole: whole}
	next, slices := int64(500), 0 // the first slice holds the opening
	var got solver.Result
	for {
		got, err = solver.Run(context.Background(), r, l, solver.Options{Budget: solver.Budget{Nodes: next}})
		if err != nil {
			t.Fatal(err)
		}
		slices++
		if r.e == nil || !r.e.paused {
			break
		}
		if got.Status != solver.NodeLimit || got.Stats.Expanded != next {
			t.Fatalf("slice %d paused with %v after %d expansions, want a node limit at %d", slices, got.Status, got.Stats.Expanded, next)
		}
		next += 97
	}
	if slices < 10 {
		t.Fatalf("%d slices: the test wants many", slices)
	}
	if got.Status != want.Status || got.Stats.Expanded != want.Stats.Expanded || got.Stats.Generated != want.Stats.Generated || got.Pushes != want.Pushes {
		t.Errorf("in %d slices: %v after %d expansions, %d generated, %d pushes; in one go %v after %d, %d, %d",
			slices, got.Status, got.Stats.Expanded, got.Stats.Generated, got.Pushes, want.Status, want.Stats.Expanded, want.Stats.Generated, want.Pushes)
	}
}

// TestPauseInMidExpansion: a slice that ends in the middle of an
// expansion (its clock is looked at every checkBoxes boxes) pauses the
// search with the node queued again where it waited and not counted, and
// the search resumes from there.
func TestPauseInMidExpansion(t *testing.T) {
	l := testlevel.Resolve(t, "xsokoban90:39")[0] // 25 boxes: every box moves without PI-corral pruning
	opts := solver.Options{Budget: solver.Budget{Nodes: 100}, Params: map[string]string{"picorral": "0"}}
	e, _, err := newEngine(l, solver.NewGuard(context.Background(), opts), opts, nil)
	if err != nil || e == nil {
		t.Fatalf("no engine: %v", err)
	}
	e.use(row("plan"))
	e.slices = true
	if res, err := e.run(); err != nil || !e.paused || res.Stats.Expanded != 100 {
		t.Fatalf("first slice: %v, %v, paused %v, after %d expansions", res.Status, err, e.paused, res.Stats.Expanded)
	}

	over, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	e.guard, e.paused = solver.NewGuard(over, solver.Options{}), false
	id, ok := e.next()
	if !ok {
		t.Fatal("no node waiting")
	}
	e.pos.Unpack(e.tree.store.Key(id))
	res, done, err := e.expand(id)
	if err != nil || !done || !e.paused || res.Status != solver.TimeLimit || res.Stats.Expanded != 100 {
		t.Fatalf("expansion out of time: %v, %v, done %v, paused %v, %d expansions; want paused on a time limit after 100", res.Status, err, done, e.paused, res.Stats.Expanded)
	}
	nd := e.tree.at(id)
	queued := false
	for _, en := range e.queue.cells[nd.cell].wait {
		queued = queued || en.id == id && e.current(en, nd.cell)
	}
	if nd.state != generated || !queued {
		t.Fatalf("node %d: state %d, queued %v; want it waiting in its cell again", id, nd.state, queued)
	}

	res, err = e.resume(solver.NewGuard(context.Background(), solver.Options{Budget: solver.Budget{Nodes: 200}}))
	if err != nil || res.Status != solver.NodeLimit || res.Stats.Expanded != 200 {
		t.Errorf("resumed: %v, %v after %d expansions, want a node limit at 200", res.Status, err, res.Stats.Expanded)
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
