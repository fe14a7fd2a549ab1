package sokoban_test

import (
	"math/rand/v2"
	"testing"

	"soko/sokoban"
)

// TestCutsMatchFloodFill: on boards with boxes scattered at random, the
// parts that Cuts's numbering gives the free neighbours of each free square
// s, with a box on s (Part: a child's subtree that reaches no higher than
// s, or the rest of s's tree; and Links, the least side of each part), are
// the parts a flood fill around s finds; each square's Last and SubMin
// describe its subtree, and Tree its root's label.
func TestCutsMatchFloodFill(t *testing.T) {
	checked := 0
	for _, b := range append(boards(t, "xsokoban90:1-12"), boards(t, "microban:100-110")...) {
		rng := rand.New(rand.NewPCG(uint64(b.N), 3))
		cuts := sokoban.NewCuts(b.N)
		for range 4 {
			occ := make([]bool, b.N)
			for s := range occ {
				occ[s] = rng.IntN(5) == 0
			}
			free := func(s sokoban.Square) bool { return s != sokoban.None && !occ[s] }
			cuts.Visit.Clear()
			cuts.Met = cuts.Met[:0]
			count, tree := int32(0), int32(0)
			for root := sokoban.Square(0); int(root) < b.N; root++ {
				if free(root) && !cuts.Visit.Has(int32(root)) {
					tree++
					first := len(cuts.Met)
					count = cuts.Number(b, occ, root, count, tree)
					for _, s := range cuts.Met[first:] {
						if cuts.Tree[s] != tree {
							t.Fatalf("square %d of the tree from %d has tree %d, want %d", s, root, cuts.Tree[s], tree)
						}
					}
				}
			}
			for _, s := range cuts.Met {
				checkSubtree(t, cuts, s)
				label := cutLabels(b, cuts, free, s)
				links := cuts.Links(b, occ, s)
				for d := range sokoban.Dirs {
					for e := range sokoban.Dirs {
						nd, ne := b.Next(s, d), b.Next(s, e)
						if d >= e || !free(nd) || !free(ne) {
							continue
						}
						want := joined(b, free, s, nd, ne)
						if got := label[d] == label[e]; got != want {
							t.Fatalf("board of %d squares, neighbours %d and %d of square %d: joined %v by the numbering, %v by a flood fill", b.N, nd, ne, s, got, want)
						}
						if got := links[d] == links[e]; got != want || links[d] < 0 || links[d] > int8(d) {
							t.Fatalf("board of %d squares, square %d: links %v, sides %d and %d joined %v by a flood fill", b.N, s, links, d, e, want)
						}
						checked++
					}
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no pair of neighbours was checked")
	}
}

// cutLabels gives each free neighbour of s the part it lies in with a box
// on s (Cuts.Part): the child of s whose subtree holds it when that
// subtree reaches no higher than s, else None (the rest of s's tree).
func cutLabels(b *sokoban.Board, c sokoban.Cuts, free func(sokoban.Square) bool, s sokoban.Square) [4]sokoban.Square {
	var label [4]sokoban.Square
	for d := range sokoban.Dirs {
		if n := b.Next(s, d); free(n) {
			label[d] = c.Part(b, s, n)
		}
	}
	return label
}

// joined reports whether a flood fill from a over the free squares but s
// reaches z.
func joined(b *sokoban.Board, free func(sokoban.Square) bool, s, a, z sokoban.Square) bool {
	seen := map[sokoban.Square]bool{s: true, a: true}
	stack := []sokoban.Square{a}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if x == z {
			return true
		}
		for d := range sokoban.Dirs {
			if n := b.Next(x, d); free(n) && !seen[n] {
				seen[n] = true
				stack = append(stack, n)
			}
		}
	}
	return false
}

// checkSubtree: the squares numbered from s's number to Last[s] are s's
// subtree (each one's parent chain reaches s), and SubMin[s] is the
// smallest of them.
func checkSubtree(t *testing.T, c sokoban.Cuts, s sokoban.Square) {
	t.Helper()
	least := s
	for _, x := range c.Met {
		if c.Tree[x] != c.Tree[s] || c.Num[x] < c.Num[s] || c.Num[x] > c.Last[s] {
			continue
		}
		least = min(least, x)
		a := x
		for a != s && a != sokoban.None {
			a = c.Parent[a]
		}
		if a != s {
			t.Fatalf("square %d, numbered %d within %d..%d, is not below %d", x, c.Num[x], c.Num[s], c.Last[s], s)
		}
	}
	if c.SubMin[s] != least {
		t.Fatalf("SubMin of %d is %d, want %d", s, c.SubMin[s], least)
	}
}
