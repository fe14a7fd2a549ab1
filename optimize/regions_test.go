package optimize

import (
	"context"
	"math/rand/v2"
	"testing"

	"soko/internal/testlevel"
	"soko/sokoban"
)

// On random stretches of greedy's solutions, the search keyed by the
// player's region finds a path exactly when the search over exact squares
// finds one of fewer pushes, with as many pushes and no fewer moves (the
// exact search's moves are the fewest at that count); and its path is
// legal, ends on the stretch's boxes, and leaves the player a walk to the
// next push (or solves the level), with the moves it claims.
func TestRegionSearchMatchesExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	gains, none := 0, 0
	for _, l := range testlevel.Resolve(t, "microban:5,10,30,60,90,120") {
		b, pushes := greedyPushes(t, l)
		for _, radii := range [][]int{{6}, {8, 3}, {20, 10}} {
			for range 8 {
				o := newOptimizer(context.Background(), b, Pushes, radii, DefaultMemory, nil)
				i := rng.IntN(len(pushes))
				j := min(len(pushes), i+1+rng.IntN(24))
				start := b.Start()
				for _, m := range pushes[:i] {
					start.Apply(m)
				}
				seg := pushes[i:j]
				var next *sokoban.Push
				if j < len(pushes) {
					next = &pushes[j]
				}
				_, want, wantOK := o.search(start, seg, next, radii)
				wantOK = wantOK && want.Pushes > 0
				o.regions = true
				path, got, ok := o.search(start, seg, next, radii)
				o.regions = false
				if o.stopped || o.outgrown || o.slow {
					t.Fatalf("%s: a search stopped early", l.Name())
				}
				if ok != wantOK || ok && (got.Pushes != want.Pushes || got.Moves > want.Moves) {
					t.Fatalf("%s pushes %d–%d radii %v: by regions %v saving %+v, exact %v saving %+v of %d pushes",
						l.Name(), i, j, radii, ok, got, wantOK, want, len(seg))
				}
				if !ok {
					none++
					continue
				}
				gains++
				p, end := start.Clone(), start.Clone()
				segMoves := o.walkCost(end, seg)
				if next != nil {
					segMoves += o.walk.distance(end, b.Next(next.Box, next.Dir^1))
				}
				moves := 0
				for k, m := range path {
					behind, front := b.Next(m.Box, m.Dir^1), b.Next(m.Box, m.Dir)
					if !p.HasBox(m.Box) || front == sokoban.None || p.HasBox(front) || !p.Reachable(behind) {
						t.Fatalf("%s pushes %d–%d: push %d of the path is not legal", l.Name(), i, j, k)
					}
					moves += o.walk.distance(p, behind) + 1
					p.Apply(m)
				}
				if next == nil {
					if !p.Solved() {
						t.Fatalf("%s pushes %d–%d: the last stretch's path does not solve", l.Name(), i, j)
					}
				} else {
					for _, s := range end.BoxSquares() {
						if !p.HasBox(s) {
							t.Fatalf("%s pushes %d–%d: the path ends off the stretch's boxes", l.Name(), i, j)
						}
					}
					behind := b.Next(next.Box, next.Dir^1)
					if !p.Reachable(behind) {
						t.Fatalf("%s pushes %d–%d: the path leaves the next push out of reach", l.Name(), i, j)
					}
					moves += o.walk.distance(p, behind)
				}
				if moves != segMoves-got.Moves {
					t.Fatalf("%s pushes %d–%d: the path takes %d moves, the search says %d", l.Name(), i, j, moves, segMoves-got.Moves)
				}
			}
		}
	}
	t.Logf("%d stretches with a gain, %d without", gains, none)
	if gains == 0 || none == 0 {
		t.Fatalf("%d stretches with a gain, %d without: the test needs both", gains, none)
	}
}
