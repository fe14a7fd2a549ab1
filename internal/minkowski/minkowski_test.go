package minkowski

import (
	"math"
	"testing"

	"soko/internal/testlevel"
	"soko/sokoban"
)

// TestOfByHand checks h on a level whose distances are worked out by hand,
// for the Manhattan, Euclidean and a general exponent.
func TestOfByHand(t *testing.T) {
	// The player at (1,1), boxes at (3,1) and (3,3) (on a goal), goals
	// at (3,3) and (5,3).
	b, err := sokoban.NewBoard(testlevel.Grid(
		"#######",
		"#@ $  #",
		"#     #",
		"#  * .#",
		"#######",
	))
	if err != nil {
		t.Fatal(err)
	}
	p := b.Start()
	for _, c := range []struct {
		p, want float64
	}{
		// h1: the box off its goal, (2, 0) away. h2: from (3,1) to the goals
		// (0, 2) and (2, 2); from (3,3) to them (0, 0) and (2, 0); halved.
		{1, 2 + (2+4+0+2)/2.0},
		{2, 2 + (2+math.Sqrt(8)+0+2)/2},
		{3, 2 + (2+math.Cbrt(16)+0+2)/2},
	} {
		if got := New(b, c.p).Of(p); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("p = %g: h = %g, want %g", c.p, got, c.want)
		}
	}
}

// TestOfSolved checks that h1 is 0 once every box is on a goal, and h2
// then the mean distance of the boxes to all goals.
func TestOfSolved(t *testing.T) {
	b, err := sokoban.NewBoard(testlevel.Grid(
		"#####",
		"#@**#",
		"#####",
	))
	if err != nil {
		t.Fatal(err)
	}
	if got := New(b, 1).Of(b.Start()); got != 1 {
		t.Errorf("h = %g, want 1 (each box 1 from the other goal)", got)
	}
}
