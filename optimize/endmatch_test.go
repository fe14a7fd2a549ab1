package optimize

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"soko/internal/testlevel"
	"soko/sokoban"
)

// fewestPushes returns the fewest pushes that take p's boxes onto ends'
// squares (the player anywhere), by breadth-first search over every legal
// push, or -1 when there is no such path within limit pushes.
func fewestPushes(p *sokoban.Position, ends []sokoban.Square, limit int) int {
	onEnds := func(q *sokoban.Position) bool {
		for _, s := range ends {
			if !q.HasBox(s) {
				return false
			}
		}
		return true
	}
	seen := map[string]bool{string(p.Pack(nil)): true}
	layer := []*sokoban.Position{p.Clone()}
	for depth := 0; depth <= limit && len(layer) > 0; depth++ {
		var next []*sokoban.Position
		for _, q := range layer {
			if onEnds(q) {
				return depth
			}
			for _, m := range q.Pushes(nil, nil) {
				c := q.Clone()
				c.Apply(m)
				if k := string(c.Pack(nil)); !seen[k] {
					seen[k] = true
					next = append(next, c)
				}
			}
		}
		layer = next
	}
	return -1
}

// The matching bound never exceeds the fewest pushes that take a position's
// boxes to a stretch's end, found by breadth-first search, from positions
// along greedy's Microban solutions and their children; it is never below
// the sum of each box's nearest end square (boundOf), and it is above it on
// some, or it would bound nothing more.
func TestEndMatchIsABound(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	tried, above := 0, 0
	for _, l := range testlevel.Resolve(t, "microban:3,12,25,40,77") {
		b, pushes := greedyPushes(t, l)
		o := newOptimizer(context.Background(), b, Pushes, DefaultRadii, DefaultMemory, nil)
		for range 6 {
			i := rng.IntN(len(pushes))
			j := min(len(pushes), i+1+rng.IntN(8))
			start := b.Start()
			for _, m := range pushes[:i] {
				start.Apply(m)
			}
			end := start.Clone()
			for _, m := range pushes[i:j] {
				end.Apply(m)
			}
			ends := slices.Clone(end.BoxSquares())
			em := o.newEndMatch(ends)
			toGo := b.PullFrom(ends)
			positions := []*sokoban.Position{start}
			for _, m := range start.Pushes(nil, nil) {
				c := start.Clone()
				c.Apply(m)
				positions = append(positions, c)
			}
			for _, p := range positions {
				want := fewestPushes(p, ends, j-i+2)
				h, ok := em.Bound(p)
				if want >= 0 && (!ok || int(h) > want) {
					t.Fatalf("%s pushes %d–%d: bound %d (feasible %v), the fewest pushes %d", l.Name(), i, j, h, ok, want)
				}
				if !ok {
					continue
				}
				sum := boundOf(toGo, p)
				if int64(h) < sum {
					t.Fatalf("%s pushes %d–%d: matching %d below the sum %d", l.Name(), i, j, h, sum)
				}
				tried++
				if int64(h) > sum {
					above++
				}
			}
		}
	}
	t.Logf("%d positions, the matching above the sum on %d", tried, above)
	if above == 0 {
		t.Fatalf("the matching was never above the sum on %d positions", tried)
	}
}

// pullsTo's tables stay within their part of the memory budget, and a
// table asked for again after they were let go is the same.
func TestPullCacheStaysInBudget(t *testing.T) {
	b, err := sokoban.NewBoard(testlevel.Open(20, 20, 3))
	if err != nil {
		t.Fatal(err)
	}
	row := 4 * int64(b.N)
	memory := 10 * row * pullCachePart // room for 10 tables
	o := newOptimizer(context.Background(), b, Pushes, DefaultRadii, memory, nil)
	first := slices.Clone(o.pullsTo(0))
	kept := 0
	for s := range sokoban.Square(b.N) {
		o.pullsTo(s)
		if o.pullBytes > memory/pullCachePart {
			t.Fatalf("after square %d the tables take %d bytes, more than %d", s, o.pullBytes, memory/pullCachePart)
		}
		kept = max(kept, int(o.pullBytes/row))
	}
	if kept != 10 {
		t.Errorf("at most %d tables kept at once, want 10", kept)
	}
	if got := o.pullsTo(0); !slices.Equal(got, first) {
		t.Errorf("square 0's table computed again differs")
	}
}
