package fess

import (
	"context"
	"slices"

	"soko/sokoban"
)

// plan is the packing plan (issue 12 §2): the order in which the goals are
// filled, worked out backwards from the solved position. With every goal
// filled, the goal filled last is one whose box can be pulled off it, the
// other goals' boxes standing as walls, out to a square where a box starts;
// of those the one fewest pulls from such a square. It is taken away and
// the rest is ordered the same way. Where no goal's box can reach a start
// square, one that can leave the goals at all is taken, and failing that
// the first left, so every level gets a complete order.
type plan struct {
	order []sokoban.Square // goals, first filled first
	rank  []int16          // square -> index in order, or -1
}

// planWork bounds the states the plan's pull searches may visit in all:
// the largest boards (255 goals on 15,876 squares) would need some 10^10.
// Past it the goals left are taken in index order.
const planWork = 20_000_000

// newPlan works out the packing plan of b. It returns ctx.Err() when ctx is
// done before the plan is complete.
func newPlan(ctx context.Context, b *sokoban.Board, g *macroGen) (*plan, error) {
	start := make([]bool, b.N)
	for _, s := range b.Start().BoxSquares() {
		start[s] = true
	}
	left := slices.Clone(b.Goals())
	g.place(left)
	anywhere := func(sokoban.Square) bool { return true }
	work := 0
	var reversed []sokoban.Square
	for len(left) > 0 {
		best, bestKind, bestDist := 0, 2, int32(0)
		for i, goal := range left {
			if work > planWork {
				break
			}
			if err := ctx.Err(); err != nil {
				g.lift(left)
				return nil, err
			}
			g.split(goal)
			g.search(goal, anywhere, true)
			work += len(g.queue) + len(g.met)
			kind, dist := 2, int32(0) // 0: reaches a start square, 1: leaves the goals
			for _, st := range g.queue {
				s := sokoban.Square(st / 4)
				switch {
				case start[s] && !g.occ[s] && (kind > 0 || g.dist[st] < dist):
					kind, dist = 0, g.dist[st]
				case kind > 1 && !b.IsGoal(s):
					kind, dist = 1, g.dist[st]
				}
			}
			if kind < bestKind || (kind == bestKind && kind < 2 && dist < bestDist) {
				best, bestKind, bestDist = i, kind, dist
			}
		}
		goal := left[best]
		g.occ[goal] = false
		reversed = append(reversed, goal)
		left = slices.Delete(left, best, best+1)
	}
	slices.Reverse(reversed)
	pl := &plan{order: reversed, rank: make([]int16, b.N)}
	for i := range pl.rank {
		pl.rank[i] = -1
	}
	for i, s := range pl.order {
		pl.rank[s] = int16(i)
	}
	return pl, nil
}

// packed counts the goals filled in plan order: the longest prefix of the
// order whose goals all hold boxes.
func (pl *plan) packed(p *sokoban.Position) int {
	n := 0
	for _, s := range pl.order {
		if !p.HasBox(s) {
			break
		}
		n++
	}
	return n
}

// bytes returns the memory the plan takes.
func (pl *plan) bytes() int64 { return 4*int64(len(pl.order)) + 2*int64(len(pl.rank)) }
