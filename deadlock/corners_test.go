package deadlock

import (
	"strings"
	"testing"

	"soko/internal/testlevel"
	"soko/sokoban"
)

func TestCornerSquares(t *testing.T) {
	// Corners (Alg. 1) and squares between corners along a wall without a
	// door (Alg. 2): the top and left walls. The right wall has a door, the
	// bottom wall a goal, so only their corners are dangerous.
	b := board(t,
		"########",
		"#      #",
		"#      ##",
		"#  $@   #",
		"#      ##",
		"#    . #",
		"########",
	)
	got := strings.Join(overlay(b, CornerSquares(b)), "\n")
	want := strings.Join([]string{
		"########",
		"#xxxxxx#",
		"#x     ##",
		"#x $@  x#",
		"#x     ##",
		"#x   .x#",
		"########",
	}, "\n")
	if got != want {
		t.Fatalf("dangerous cells:\n%s\nwant:\n%s", got, want)
	}
}

// TestCornerSquaresAreDead checks that 001's dangerous cells are dead
// squares on every Microban level: the document's rules are a special case
// of DeadSquares.
func TestCornerSquaresAreDead(t *testing.T) {
	for _, l := range testlevel.Resolve(t, "microban:1-155") {
		b, err := sokoban.NewBoard(l)
		if err != nil {
			t.Fatal(err)
		}
		dead := DeadSquares(b)
		for s, ok := range CornerSquares(b) {
			if ok && !dead[s] {
				x, y := b.XY(sokoban.Square(s))
				t.Fatalf("%s: row %d, column %d is dangerous but not dead", l.Name(), y+1, x+1)
			}
		}
	}
}
