package search

import (
	"context"
	"testing"

	"soko/internal/testlevel"
	"soko/solver"
)

// TestGroupBoundMicroban144 records what the group bound gives at the start
// of Microban 144 (matching 24, optimum 36): rooms of three boxes take 6
// pushes alone and two rooms joined by a tunnel 15 with the other boxes
// taken off, so the best family of pairs gives 30.
func TestGroupBoundMicroban144(t *testing.T) {
	l := testlevel.Resolve(t, "microban:144")[0]
	g, err := newPushGraph(context.Background(), l, solver.Options{}, defaultDetectors)
	if err != nil {
		t.Fatal(err)
	}
	dist, err := g.board.PullDistances(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	gb := newGroupBound(g.pos, g.dead, dist, 24)
	if gb == nil {
		t.Fatal("no group bound above the matching")
	}
	if h, ok := gb.bound(g.pos); !ok || h != 30 {
		t.Fatalf("group bound %d, %v at the start; want 30", h, ok)
	}
}
