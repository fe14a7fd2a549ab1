package fess

import (
	"context"
	"testing"
	"time"

	"soko/internal/testlevel"
	"soko/level"
	"soko/solver"
)

// sliceOf runs one slice of a member as a solver.Solver, so that
// solver.Run verifies its solution, as the rounds run it.
type sliceOf struct {
	m     *member
	sl    solver.Slice
	pause solver.Pause
}

func (x *sliceOf) Solve(ctx context.Context, l *level.Level, opts solver.Options) (solver.Result, error) {
	res, p, err := x.m.Slice(ctx, l, opts, x.sl)
	x.pause = p
	return res, err
}

// TestResumeIsSeamless: a strategy run in slices of a few expansions,
// each resumed where the last paused, searches exactly as it does in one
// go: dive solves XSokoban 35 after the same expansions, with the same
// solution length, differential against the one-go run; its turns by
// features come on halfway through its budget, dozens of slices in.
func TestResumeIsSeamless(t *testing.T) {
	l := testlevel.Resolve(t, "xsokoban90:35")[0]
	whole := solver.Options{Budget: solver.Budget{Nodes: 6500}}
	want, err := row("dive").Solve(context.Background(), l, whole)
	if err != nil || want.Status != solver.Solved {
		t.Fatalf("in one go: %v, %v", want.Status, err)
	}
	x := &sliceOf{m: newMember(row("dive")), sl: solver.Slice{Whole: whole.Budget}}
	slices := 0
	var got solver.Result
	for {
		x.sl.Until.Nodes += 97
		got, err = solver.Run(context.Background(), x, l, whole)
		if err != nil {
			t.Fatal(err)
		}
		slices++
		if !x.pause.Paused {
			break
		}
		if got.Status != solver.NodeLimit || got.Stats.Expanded != max(x.sl.Until.Nodes, x.m.e.stats.Expanded) {
			t.Fatalf("slice %d paused with %v after %d expansions, want at %d", slices, got.Status, got.Stats.Expanded, x.sl.Until.Nodes)
		}
		x.sl.Until.Nodes = got.Stats.Expanded
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
	x := &sliceOf{m: newMember(row("imagine")), sl: solver.Slice{Whole: whole.Budget, Until: solver.Budget{Time: time.Nanosecond}}}
	res, err := solver.Run(context.Background(), x, l, whole)
	if err != nil || x.m.run == nil || !x.pause.Paused || res.Status != solver.TimeLimit || res.Stats.Expanded < 1000 {
		t.Fatalf("first slice: %v, %v, after %d expansions; want paused on its time once begun, after the opening's 1,000", res.Status, err, res.Stats.Expanded)
	}
	first := res.Stats.Expanded
	x.sl.Until = solver.Budget{Nodes: first + 50}
	res, err = solver.Run(context.Background(), x, l, whole)
	if err != nil || !x.pause.Paused || res.Stats.Expanded != first+50 {
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

// TestThreads: with two threads the rounds run two strategies' slices at
// once: they solve small levels (each solution verified by solver.Run),
// and on a level the budget leaves unsolved they end on the node limit,
// every strategy having run.
func TestThreads(t *testing.T) {
	for _, l := range testlevel.Resolve(t, "microban:1-5") {
		res, err := solver.Run(context.Background(), FESS{}, l, solver.Options{Threads: 2, Budget: solver.Budget{Nodes: 5000, Time: time.Minute}})
		if err != nil || res.Status != solver.Solved {
			t.Errorf("%s: %v, %v", l.Name(), res.Status, err)
		}
	}
	l := testlevel.Resolve(t, "xsokoban90:29")[0]
	res, err := solver.Run(context.Background(), FESS{}, l, solver.Options{Threads: 2, Budget: solver.Budget{Nodes: 3000}})
	if err != nil || res.Status != solver.NodeLimit {
		t.Fatalf("%v, %v; want the node limit", res.Status, err)
	}
	for _, s := range []string{"greedy", "dive", "plan", "imagine", "back", "park", "sink"} {
		if _, ok := res.Stats.Counts[s+".expanded"]; !ok {
			t.Errorf("%s did not run: counts %v", s, res.Stats.Counts)
		}
	}
}

// runEngine runs the search of e's strategy on e in one go, as its member
// runs it in one slice without an end.
func runEngine(e *engine) (solver.Result, error) {
	run := newMember(e.strat).newLoop(e)
	res, done, err := run.begin()
	for !done {
		res, done, err = run.step()
	}
	return res, err
}

// newMember returns strategy s as a member of the rounds.
func newMember(s *strategy) *member {
	return s.search.member(s, nil, true).Resumable.(*member)
}
