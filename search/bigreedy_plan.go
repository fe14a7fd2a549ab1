package search

import (
	"soko/sokoban"
)

// packingPlan is an order in which to fill the goals, worked out backwards
// from the solved position as YASS's packing order is (research notes on
// YASS): the goal filled last is one whose box can be pulled from it, the
// other goals' boxes standing, to a start square off the goals, in the
// fewest pulls (pullsTo; peelOut and peelStarted say which come after);
// it is taken off, and so on. The pulls are relaxed (a lone box moves when the two squares ahead
// of it are free; the player's way there is not checked), so the plan
// guides and proves nothing. With it the forward search rates a position
// first by the goals of the plan's order filled from its first on
// (packed), then by each other box's pushes to the nearest goal not yet
// packed (dist[packed]).
type packingPlan struct {
	order []sokoban.Square // the goals, first filled first
	dist  [][]int32        // dist[k]: pushes to the nearest of order[k:], per square
	rank  []int            // per square: its goal's place in order, or −1
}

// newPackingPlan peels the goals of b off one by one. It returns nil when at some point no goal's box can get out.
func newPackingPlan(b *sokoban.Board) *packingPlan {
	goals := b.Goals()
	filled := make([]bool, b.N)
	for _, g := range goals {
		filled[g] = true
	}
	start, out := make([]bool, b.N), make([]bool, b.N)
	for _, s := range b.Start().BoxSquares() {
		start[s] = !b.IsGoal(s)
	}
	for s := range out {
		out[s] = !b.IsGoal(sokoban.Square(s))
	}
	var peeled []sokoban.Square
	dist := make([]int32, b.N)
	queue := make([]sokoban.Square, 0, b.N)
	for len(peeled) < len(goals) {
		best, bestDist := sokoban.None, int32(-1)
		for _, g := range goals {
			if !filled[g] {
				continue
			}
			filled[g] = false
			d := pullsTo(b, g, filled, start, dist, queue)
			if d < 0 {
				if d = pullsTo(b, g, filled, out, dist, queue); d >= 0 {
					d += peelOut
				}
			}
			if d >= 0 && b.Start().HasBox(g) {
				d += peelStarted
			}
			if d >= 0 && (bestDist < 0 || d < bestDist) {
				best, bestDist = g, d
			}
			filled[g] = true
		}
		if best == sokoban.None {
			return nil
		}
		filled[best] = false
		peeled = append(peeled, best)
	}
	p := &packingPlan{rank: make([]int, b.N)}
	for i := range p.rank {
		p.rank[i] = -1
	}
	for i := len(peeled) - 1; i >= 0; i-- {
		p.rank[peeled[i]] = len(p.order)
		p.order = append(p.order, peeled[i])
	}
	for k := range p.order {
		p.dist = append(p.dist, b.PullFrom(p.order[k:]))
	}
	return p
}

// What peeling a goal costs besides its box's pulls: where its box can
// reach no start square off the goals but only some other square off them
// (peelOut), and where a box stands on it at the start (peelStarted), so
// that such goals are peeled last, to be filled first, as they are.
const (
	peelOut     = 1 << 16
	peelStarted = 1 << 20
)

// pullsTo returns the fewest relaxed pulls that take a lone box from g to
// a square marked in to, the squares in blocked standing in the way, or −1.
func pullsTo(b *sokoban.Board, g sokoban.Square, blocked, to []bool, dist []int32, queue []sokoban.Square) int32 {
	for i := range dist {
		dist[i] = -1
	}
	dist[g] = 0
	queue = append(queue[:0], g)
	for head := 0; head < len(queue); head++ {
		s := queue[head]
		if to[s] {
			return dist[s]
		}
		for d := range sokoban.Dirs {
			to := b.Next(s, d)
			if to < 0 || blocked[to] || dist[to] >= 0 {
				continue
			}
			if back := b.Next(to, d); back < 0 || blocked[back] {
				continue
			}
			dist[to] = dist[s] + 1
			queue = append(queue, to)
		}
	}
	return -1
}

// planScale is what one goal less packed weighs against the pushes of the
// other boxes: more than they can add up to on a small board, so that
// packing comes first.
const planScale = 1 << 10

// bound rates p on the plan: the goals not packed, by planScale, and the
// pushes of the other boxes to the nearest goal not packed, or planScale
// for a box that can reach none of them: it never prunes, the plan being a
// guess.
func (pl *packingPlan) bound(p *sokoban.Position) (int32, bool) {
	packed := 0
	for packed < len(pl.order) && p.HasBox(pl.order[packed]) {
		packed++
	}
	if packed == len(pl.order) {
		return 0, true
	}
	dist := pl.dist[packed]
	h := int32(len(pl.order)-packed) * planScale
	for _, s := range p.BoxSquares() {
		if r := pl.rank[s]; r >= 0 && r < packed {
			continue
		}
		h += min(dist[s], planScale)
	}
	return h, true
}
