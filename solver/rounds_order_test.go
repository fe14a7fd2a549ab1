package solver_test

import (
	"context"
	"testing"

	"soko/solver"
)

// TestRoundsRunOnceAfterResumable: a run-once member listed after a
// resumable one gets its share, not the whole budget: with shares 98 and
// 2 under a node limit, the run-once member should spend about 2 % of the
// nodes and the resumable one the rest, not the resumable member its
// first slice and the run-once member all that is left.
func TestRoundsRunOnceAfterResumable(t *testing.T) {
	var got solver.Options
	a := &stepper{}
	p := solver.Portfolio{Members: []solver.Member{
		{Name: "a", Resumable: a, Share: 98},
		{Name: "once", Solver: spender{1 << 40, solver.GaveUp, &got}, Share: 2},
	}}
	res, err := solver.Run(context.Background(), p, level1(t), solver.Options{Budget: solver.Budget{Nodes: 10_000}})
	if err != nil {
		t.Fatal(err)
	}
	once := res.Stats.Counts["once.expanded"]
	t.Logf("%v: a expanded %d in %d slices, once %d (its budget %d nodes)", res.Status, a.expanded, len(a.slices), once, got.Budget.Nodes)
	if once > 1000 || a.expanded < 9000 {
		t.Errorf("the run-once member (share 2 of 100) expanded %d of 10,000, the resumable one (98) %d", once, a.expanded)
	}
}
