package fess

import (
	"context"
	"testing"

	"soko/internal/testlevel"
	"soko/solver"
)

// TestThreadsMeet: with two threads the back strategy and forward ones
// run side by side and still meet (solver.Sharer with threads): on
// Microban 146, where back alone needs 4,553 expansions, three strategies
// on two threads within 8,000 solve it by a meeting of back's store and a
// forward tree (not back reaching the start), each search reading the
// other's tables only while the other is paused (go test -race finds a
// read beside a write); solver.Run verifies the spliced solution.
func TestThreadsMeet(t *testing.T) {
	l := testlevel.Resolve(t, "microban:146")[0]
	opts := solver.Options{Threads: 2, Budget: solver.Budget{Nodes: 8000}, Params: map[string]string{"strategies": "dive,plan,back"}}
	res, err := solver.Run(context.Background(), FESS{}, l, opts)
	if err != nil {
		t.Fatal(err)
	}
	c := res.Stats.Counts
	if res.Status != solver.Solved || c["back.met.other"]+c["dive.met.back"]+c["plan.met.back"] != 1 {
		t.Errorf("%v after %d expansions, counts %v: want a meeting of back and a forward tree", res.Status, res.Stats.Expanded, c)
	}
}
