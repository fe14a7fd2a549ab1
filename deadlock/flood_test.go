package deadlock

import (
	"math/rand/v2"
	"slices"
	"testing"

	"soko/levels"
	"soko/sokoban"
)

// floodLeast is the plain flood fill that grid.flood must agree with: the
// squares reachable from s on b without crossing a square of occ, and the
// smallest two of them (None for the second when there is one).
func floodLeast(b *sokoban.Board, occ []bool, s sokoban.Square) (least, second sokoban.Square) {
	least, second, _ = floodRegion(b, occ, s)
	return least, second
}

// floodRegion is floodLeast that returns the region too.
func floodRegion(b *sokoban.Board, occ []bool, s sokoban.Square) (least, second sokoban.Square, seen []bool) {
	seen = make([]bool, b.N)
	seen[s] = true
	stack := []sokoban.Square{s}
	var region []sokoban.Square
	for len(stack) > 0 {
		t := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		region = append(region, t)
		for d := range sokoban.Dirs {
			if n := b.Next(t, d); n != sokoban.None && !occ[n] && !seen[n] {
				seen[n] = true
				stack = append(stack, n)
			}
		}
	}
	slices.Sort(region)
	if len(region) == 1 {
		return region[0], sokoban.None, seen
	}
	return region[0], region[1], seen
}

// TestGridFlood checks grid.flood, in both layouts (a word per row, and
// square by square as on levels over 64 columns wide), against floodLeast
// on random boxes of Microban, XSokoban and Microban III levels (some over
// 34 columns wide, so not narrow): the same region, the same two smallest
// squares.
func TestGridFlood(t *testing.T) {
	ls, err := levels.Resolve("microban:1-155", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, more := range []string{"xsokoban90:1-90", "microban3"} {
		xs, err := levels.Resolve(more, nil)
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, xs...)
	}
	rng := rand.New(rand.NewPCG(3, 64))
	checked, wide := 0, 0 // wide: floods on rows over 32 squares long
	for _, l := range ls {
		b, err := sokoban.NewBoard(l)
		if err != nil {
			t.Fatal(err)
		}
		for _, rows := range []bool{true, false} {
			g := newGrid(b)
			if !rows {
				g = newGridLayout(b, false)
			}
			occ := make([]bool, b.N)
			occBits := make([]uint64, g.words)
			out := make([]uint64, g.words)
			var stack []sokoban.Square
			tries := 30
			if !g.narrow {
				tries = 600
			}
			for range tries {
				clear(occ)
				clear(occBits)
				for range rng.IntN(b.N/2 + 1) {
					s := sokoban.Square(rng.IntN(b.N))
					occ[s] = true
					g.put(occBits, s, true)
				}
				player := sokoban.Square(rng.IntN(b.N))
				if occ[player] {
					continue
				}
				var least, second sokoban.Square
				least, second, stack = g.flood(player, occBits, out, stack)
				wl, ws, region := floodRegion(b, occ, player)
				if least != wl || second != ws {
					t.Fatalf("%s (rows %v): flood from %d: least %d %d, want %d %d", l.Name(), rows, player, least, second, wl, ws)
				}
				scratch := make([]uint64, g.words)
				if least, _ := g.floodLeast(player, occBits, scratch, nil, sokoban.None); least != wl {
					t.Fatalf("%s (rows %v): floodLeast from %d: %d, want %d", l.Name(), rows, player, least, wl)
				}
				// With the smallest square of the region but the player
				// as the bound.
				if bound := ws; bound != sokoban.None {
					if wl != player {
						bound = wl
					}
					if least, _ := g.floodLeast(player, occBits, scratch, nil, bound); least != wl {
						t.Fatalf("%s (rows %v): floodLeast from %d bound %d: %d, want %d", l.Name(), rows, player, bound, least, wl)
					}
				}
				for s := range sokoban.Square(b.N) {
					if g.has(out, s) != region[s] {
						t.Fatalf("%s (rows %v): flood from %d: square %d in region %v, want %v", l.Name(), rows, player, s, g.has(out, s), region[s])
					}
				}
				checked++
				if rows && !g.narrow {
					wide++
				}
			}
		}
	}
	if checked < 5000 || wide < 300 {
		t.Fatalf("only %d floods checked, %d of them wide", checked, wide)
	}
}

// BenchmarkGridFlood floods the empty XSokoban 1 from its start square.
func BenchmarkGridFlood(b *testing.B) {
	ls, err := levels.Resolve("xsokoban90:1", nil)
	if err != nil {
		b.Fatal(err)
	}
	bd, err := sokoban.NewBoard(ls[0])
	if err != nil {
		b.Fatal(err)
	}
	for _, rows := range []bool{true, false} {
		name := "rows"
		if !rows {
			name = "squares"
		}
		b.Run(name, func(b *testing.B) {
			g := newGridLayout(bd, rows)
			occ, out := make([]uint64, g.words), make([]uint64, g.words)
			var stack []sokoban.Square
			player := bd.Start().Player()
			n := 0
			for b.Loop() {
				_, _, stack = g.flood(player, occ, out, stack)
				n++
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n), "ns/flood")
		})
	}
}
