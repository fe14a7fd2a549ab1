package sokoban_test

import (
	"context"
	"testing"

	"soko/sokoban"
)

// TestSidesMatchFloodFill checks Sides.Of against a flood fill from p
// around a lone box on s, for every pair of squares of Microban levels, and
// that PullDistancesBySide agrees with PullDistances at the player's best
// side and is never smaller at any side.
func TestSidesMatchFloodFill(t *testing.T) {
	for _, b := range boards(t, "microban:1-20,144,153") {
		l := b.Level
		sd := b.NewSides()
		seen := make([]bool, b.N)
		for s := sokoban.Square(0); int(s) < b.N; s++ {
			for p := sokoban.Square(0); int(p) < b.N; p++ {
				if p == s {
					continue
				}
				clear(seen)
				seen[s], seen[p] = true, true
				stack := []sokoban.Square{p}
				for len(stack) > 0 {
					v := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					for d := range sokoban.Dirs {
						if w := b.Next(v, d); w >= 0 && !seen[w] {
							seen[w] = true
							stack = append(stack, w)
						}
					}
				}
				want := -1
				for d := range sokoban.Dirs {
					if w := b.Next(s, d); w >= 0 && seen[w] {
						want = int(d)
						break
					}
				}
				if got := sd.Of(s, p); got != want {
					t.Fatalf("%s: box on %d, player on %d: side %d, flood fill %d", l.Name(), s, p, got, want)
				}
			}
		}
		plain, err := b.PullDistances(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		sided, err := b.PullDistancesBySide(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for g := range plain {
			for s := range b.N {
				best := sokoban.Unreachable
				for d := range 4 {
					best = min(best, sided[g][s*4+d])
				}
				if best != plain[g][s] {
					t.Fatalf("%s: goal %d, square %d: least by side %d, PullDistances %d", l.Name(), g, s, best, plain[g][s])
				}
			}
		}
	}
}
