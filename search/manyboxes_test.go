package search_test

import (
	"context"
	"strings"
	"testing"

	"soko/level"
	"soko/sokoban"
	"soko/solver"
	"soko/verify"
)

// manyBoxes is a closed level of 300 boxes, more than a byte indexes: 296
// on goals in rows the player walks around (so none is turned into a wall)
// and 4 one push from their goals.
func manyBoxes(t *testing.T) *level.Level {
	t.Helper()
	const perRow, rows = 20, 15
	width := 2*perRow + 3
	var b strings.Builder
	wall := strings.Repeat("#", width) + "\n"
	free := "#" + strings.Repeat(" ", width-2) + "#\n"
	b.WriteString(wall + "#@" + strings.Repeat(" ", width-3) + "#\n")
	for range rows - 1 {
		b.WriteString("# " + strings.Repeat("* ", perRow) + "#\n" + free)
	}
	b.WriteString("# " + strings.Repeat("* ", perRow-4*2) + strings.Repeat("$.  ", 4) + "#\n" + free)
	b.WriteString("# " + strings.Repeat("* ", 4) + strings.Repeat("  ", perRow-4) + "#\n" + free + wall)
	ls, err := level.ParseString(b.String(), "many.xsb")
	if err != nil {
		t.Fatal(err)
	}
	if n := ls[0].Boxes(); n != 300 {
		t.Fatalf("%d boxes, want 300", n)
	}
	if b, err := sokoban.NewBoard(ls[0]); err != nil || b.Boxes() != 300 || b.Fixed != 0 {
		t.Fatalf("the core sees %d movable boxes and %d fixed (%v), want 300 and 0", b.Boxes(), b.Fixed, err)
	}
	return ls[0]
}

// A level of 300 boxes is solved by fess and greedy, and the solutions
// replay on the level. The budget is in expansions, not time, so that a
// slow machine or the race detector does not change what the portfolio
// runs: greedy, fess's first member, solves it within its share.
func TestManyBoxesSolve(t *testing.T) {
	l := manyBoxes(t)
	for _, name := range []string{"fess", "greedy"} {
		e, _ := solver.Lookup(name)
		res, err := solver.Run(context.Background(), e.New(), l, solver.Options{Budget: solver.Budget{Nodes: 1000}})
		if err != nil || res.Status != solver.Solved {
			t.Errorf("%s: %v, %v", name, res.Status, err)
			continue
		}
		if r := verify.Replay(l, res.Moves); !r.Solved || res.Pushes < 4 {
			t.Errorf("%s: %d pushes, replay %+v", name, res.Pushes, r)
		}
	}
}
