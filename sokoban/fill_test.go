package sokoban_test

import (
	"slices"
	"testing"

	"soko/internal/testlevel"
	"soko/sokoban"
)

// TestFillLabelsAreas fills the areas of free squares (no box) at the start
// of Microban levels, one from each square no earlier fill reached, and
// checks them against a brute-force closure: each area holds its seed, is
// closed under free neighbours, and the one holding the player is the
// region Reach finds.
func TestFillLabelsAreas(t *testing.T) {
	for _, l := range testlevel.Resolve(t, "microban:1-155") {
		b, err := sokoban.NewBoard(l)
		if err != nil {
			t.Fatal(err)
		}
		p := b.Start()
		free := func(s sokoban.Square) bool { return !p.HasBox(s) }
		m := sokoban.NewMarks(b.N)
		seen := 0
		for s := range sokoban.Square(b.N) {
			if m.Has(s) || !free(s) {
				continue
			}
			m.Add(s)
			area := b.Fill([]sokoban.Square{s}, m, free)
			seen += len(area)
			for _, x := range area {
				for d := range sokoban.Dirs {
					if n := b.Next(x, d); n != sokoban.None && free(n) && !slices.Contains(area, n) {
						t.Fatalf("%s: area of square %d holds %d but not its free neighbour %d", l.Name(), s, x, n)
					}
				}
			}
			if slices.Contains(area, p.Player()) {
				for x := range sokoban.Square(b.N) {
					if slices.Contains(area, x) != p.Reachable(x) {
						t.Fatalf("%s: square %d: in the player's area %v, reachable %v", l.Name(), x, slices.Contains(area, x), p.Reachable(x))
					}
				}
			}
		}
		if seen != b.N-b.Boxes() {
			t.Fatalf("%s: %d squares in areas, %d free", l.Name(), seen, b.N-b.Boxes())
		}
	}
}
