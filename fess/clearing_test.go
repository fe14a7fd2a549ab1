package fess

import (
	"context"
	"slices"
	"testing"
	"time"

	"soko/internal/testlevel"
	"soko/sokoban"
	"soko/solver"
)

// TestClearingAdvice: the clearing advisor gives weight 0 to the move of
// the box nearest the next square (a walk on the empty board) that does not
// bring it nearer, the farthest of those on ties, and skips moves that pack
// fewer boxes or leave more player regions; where any move packs a box it
// proposes nothing.
func TestClearingAdvice(t *testing.T) {
	l := testlevel.Parse(t, "########\n#.    @#\n#      #\n#$  ...#\n#$$$   #\n########\n")
	b, err := sokoban.NewBoard(l)
	if err != nil {
		t.Fatal(err)
	}
	c := newClearing(b)
	next := b.At(1, 1)
	parent := features{packed: 2, conn: 1}
	kid := func(fx, fy, tx, ty int, packed, conn int16) child {
		f := features{packed: packed, conn: conn}
		return child{move: Macro{From: b.At(fx, fy), To: b.At(tx, ty)}, feat: f, order: f.order(false), weight: 1}
	}
	for _, tc := range []struct {
		name string
		kids []child
		want int // the kid given weight 0, -1: none
	}{
		{"nearest box, farthest square", []child{
			kid(3, 1, 4, 1, 2, 1), // 2 → 3
			kid(3, 1, 5, 1, 2, 1), // 2 → 4: taken
			kid(2, 2, 2, 1, 2, 1), // 2 → 1: nearer, never
			kid(4, 2, 6, 2, 2, 1), // 4 → 6: not the nearest
		}, 1},
		{"fewer packed or more regions skipped", []child{
			kid(2, 1, 4, 1, 1, 1), // 1 → 3, packs fewer
			kid(1, 2, 3, 2, 2, 2), // 1 → 3, more regions
			kid(3, 2, 5, 2, 2, 1), // 3 → 5: taken
		}, 2},
		{"a move packs", []child{
			kid(3, 1, 5, 1, 2, 1),
			kid(4, 2, 1, 1, 3, 1),
		}, -1},
	} {
		c.advise(tc.kids, parent, next)
		for i, k := range tc.kids {
			if free := k.weight == 0; free != (i == tc.want) {
				t.Errorf("%s: kid %d weight %d, want the free one to be %d", tc.name, i, k.weight, tc.want)
			}
		}
	}
	if got, want := c.bytes(), int64(4*b.N+2*b.N); got != want {
		t.Errorf("bytes %d with one row and the explorer's scratch, want %d", got, want)
	}
}

// TestClearingSolves: park with the clearing advisor solves XSokoban 52,
// which park without it (and every strategy of the portfolio before it)
// left unsolved at 60 s, within 2,000 expansions; without it park does
// not.
func TestClearingSolves(t *testing.T) {
	l := testlevel.Resolve(t, "xsokoban90:52")[0]
	without := *row("park")
	without.advisors = planAdvisors
	for _, tc := range []struct {
		name string
		s    *strategy
		want solver.Status
	}{
		{"park", row("park"), solver.Solved},
		{"park without clearing", &without, solver.NodeLimit},
	} {
		res, err := tc.s.Solve(context.Background(), l, solver.Options{Budget: solver.Budget{Nodes: 2000, Time: 5 * time.Minute}})
		if err != nil || res.Status != tc.want {
			t.Errorf("%s: %v, %v after %d expansions, want %v", tc.name, res.Status, err, res.Stats.Expanded, tc.want)
		}
	}
}

// TestExplorer: the explorer gives weight 0 to the best move, by the
// features, of those that pack no fewer boxes, can be pushed back and let
// the player reach a box he could not push before. Pushing the top box
// two squares right opens the way down to the lower box; one square opens
// nothing new; into the corner it opens the way too but cannot be undone.
func TestExplorer(t *testing.T) {
	l := testlevel.Parse(t, "#########\n#@  $   #\n#####.# #\n#.  $   #\n#########\n")
	b, err := sokoban.NewBoard(l)
	if err != nil {
		t.Fatal(err)
	}
	c := newClearing(b)
	p := b.Start()
	parent := features{packed: 1, conn: 2}
	right := func(to int, packed, conn int16) child {
		f := features{packed: packed, conn: conn}
		return child{move: Macro{From: b.At(4, 1), To: b.At(to, 1), Side: 2}, feat: f, order: f.order(false), weight: 1}
	}
	kids := []child{
		right(6, 0, 1), // opens, but packs fewer
		right(6, 1, 2), // opens: taken
		right(5, 1, 1), // better features, opens nothing
		right(7, 1, 1), // opens, better features, but into a corner
	}
	c.explore(p, kids, parent)
	for i, k := range kids {
		if free := k.weight == 0; free != (i == 1) {
			t.Errorf("kid %d weight %d, want only kid 1 free", i, k.weight)
		}
	}
	if !slices.Equal(p.BoxSquares(), b.Start().BoxSquares()) || p.Player() != b.Start().Player() {
		t.Errorf("explore left the position changed")
	}
}
