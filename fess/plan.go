package fess

import (
	"context"
	"slices"
	"time"

	"soko/sokoban"
	"soko/solver"
)

// plan is the packing plan (the FESS paper's packing order): the order in which the goals are
// filled, worked out backwards from the solved position. With every goal
// filled, the goal filled last must be one whose box can be pulled off it,
// the other goals' boxes standing as walls, out to a square where a box
// starts (peelable); it is taken away and the rest ordered the same way. A
// depth-first search over these choices, trying the goals fewest pulls
// from a start square first and remembering the sets of goals left that
// cannot be ordered, finds an order in which every goal is peelable when
// there is one. Where there is none (or the search runs out of work), the
// order is chosen greedily: a peelable goal if there is one, else one
// whose box can leave the goals at all, else the first left, so every
// level gets a complete order.
type plan struct {
	order []sokoban.Square // goals, first filled first
	rank  []int16          // square -> index in order, or -1
	// zone[s] is how many of the plan's steps a box on s is in line with:
	// a lone box on s can still be pushed onto one of the goals
	// order[k:], the boxes on order[:k] standing as walls, exactly when
	// k < zone[s] (the zones shrink as k grows). A box outside the zone
	// of the step the position has reached is out of plan (outOfPlan).
	zone []int16
	// peeled is set when every goal of the order was peelable in its
	// turn; otherwise the order was taken greedily, and the engine may
	// replace it by one from the backward search (engine.replan).
	peeled bool
}

// planWork bounds the states the plan's pull searches may visit in all:
// the largest boards (255 goals on 15,876 squares) would need some 10^10.
// Past it the goals left are taken greedily, and past twice it in index
// order.
const planWork = 20_000_000

// planner holds the state of the plan's searches. The goals left stand as
// boxes in g.occ.
type planner struct {
	ctx      context.Context
	b        *sokoban.Board
	g        *macroGen
	start    []bool
	goalIdx  []int32 // square -> index in Goals, or -1
	left     []sokoban.Square
	reversed []sokoban.Square // goals taken away, filled last first
	failed   map[string]bool  // sets of goals left that cannot be ordered
	work     int
}

// newPlan works out the packing plan of b. It returns ctx.Err() when ctx is
// done before the plan is complete.
func newPlan(ctx context.Context, b *sokoban.Board, g *macroGen) (*plan, error) {
	pr := &planner{ctx: ctx, b: b, g: g, start: make([]bool, b.N), goalIdx: make([]int32, b.N), failed: map[string]bool{}}
	for _, s := range b.Start().BoxSquares() {
		pr.start[s] = true
	}
	for i := range pr.goalIdx {
		pr.goalIdx[i] = -1
	}
	for i, s := range b.Goals() {
		pr.goalIdx[s] = int32(i)
	}
	pr.left = slices.Clone(b.Goals())
	g.place(pr.left)
	ok, err := pr.peel()
	if err == nil && !ok {
		err = pr.greedy()
	}
	g.lift(pr.left)
	if err != nil {
		return nil, err
	}
	slices.Reverse(pr.reversed)
	pl, err := orderedPlan(ctx, b, g, pr.reversed, pr.work)
	if err != nil {
		return nil, err
	}
	pl.peeled = ok
	return pl, nil
}

// orderedPlan returns the plan that fills the goals in order (every goal
// once), with its zones, work states of the plan's searches done before.
func orderedPlan(ctx context.Context, b *sokoban.Board, g *macroGen, order []sokoban.Square, work int) (*plan, error) {
	pl := &plan{order: order, rank: make([]int16, b.N)}
	for i := range pl.rank {
		pl.rank[i] = -1
	}
	for i, s := range pl.order {
		pl.rank[s] = int16(i)
	}
	if err := pl.zones(&planner{ctx: ctx, b: b, g: g, work: work}); err != nil {
		return nil, err
	}
	return pl, nil
}

// zones works out zone: for each step k, pulls from every goal of
// order[k:] with the goals of order[:k] as walls. Past the planner's work
// bound the zones left stay whole (every square in line).
func (pl *plan) zones(pr *planner) error {
	b, g := pr.b, pr.g
	pl.zone = make([]int16, b.N)
	n := int16(len(pl.order))
	for s := range pl.zone {
		pl.zone[s] = n
	}
	in := make([]bool, b.N)
	anywhere := func(sokoban.Square) bool { return true }
	for k := range pl.order {
		clear(in)
		for _, goal := range pl.order[k:] {
			if pr.work > 3*planWork {
				return nil
			}
			if err := pr.ctx.Err(); err != nil {
				g.lift(pl.order[:k])
				return err
			}
			g.split(goal)
			g.search(goal, anywhere, true)
			pr.work += len(g.queue) + len(g.Met)
			for _, st := range g.queue {
				in[st/4] = true
			}
		}
		for s, ok := range in {
			if !ok && pl.zone[s] == n {
				pl.zone[s] = int16(k)
			}
		}
		g.occ[pl.order[k]] = true
	}
	g.lift(pl.order)
	return nil
}

// outOfPlan counts the boxes of p, packed along the first packed goals of
// the order, that stand outside the zone of that step and off those goals.
func (pl *plan) outOfPlan(p *sokoban.Position, packed int) int {
	n := 0
	for _, s := range p.BoxSquares() {
		if r := pl.rank[s]; (r < 0 || int(r) >= packed) && int(pl.zone[s]) <= packed {
			n++
		}
	}
	return n
}

// kinds of goals, by how far their box gets when pulled off (try)
const (
	peelable = iota // to a start square
	leaves          // off the goals
	stuck
)

// try pulls the box off goal, the goals left but it standing as walls, and
// says how far it gets, with the fewest pulls to a start square when it is
// peelable.
func (pr *planner) try(goal sokoban.Square) (kind int, dist int32) {
	g := pr.g
	g.split(goal)
	g.search(goal, func(sokoban.Square) bool { return true }, true)
	pr.work += len(g.queue) + len(g.Met)
	kind = stuck
	for _, st := range g.queue {
		s := sokoban.Square(st / 4)
		switch {
		case pr.start[s] && !g.occ[s] && (kind > peelable || g.dist[st] < dist):
			kind, dist = peelable, g.dist[st]
		case kind > leaves && !pr.b.IsGoal(s):
			kind = leaves
		}
	}
	return kind, dist
}

// take moves goal i of the goals left to the order.
func (pr *planner) take(i int) {
	goal := pr.left[i]
	pr.g.occ[goal] = false
	pr.reversed = append(pr.reversed, goal)
	pr.left = slices.Delete(pr.left, i, i+1)
}

// untake undoes take(i).
func (pr *planner) untake(i int) {
	goal := pr.reversed[len(pr.reversed)-1]
	pr.reversed = pr.reversed[:len(pr.reversed)-1]
	pr.left = slices.Insert(pr.left, i, goal)
	pr.g.occ[goal] = true
}

// peel searches depth first for an order of the goals left in which each
// is peelable when its turn comes. It reports false when there is none or
// the work ran out.
func (pr *planner) peel() (bool, error) {
	if len(pr.left) == 0 {
		return true, nil
	}
	set := make([]byte, (len(pr.b.Goals())+7)/8)
	for _, s := range pr.left {
		i := pr.goalIdx[s]
		set[i/8] |= 1 << (i % 8)
	}
	if pr.failed[string(set)] {
		return false, nil
	}
	type cand struct {
		goal sokoban.Square
		dist int32
	}
	var cands []cand
	for _, goal := range pr.left {
		if pr.work > planWork {
			return false, nil
		}
		if err := pr.ctx.Err(); err != nil {
			return false, err
		}
		if kind, dist := pr.try(goal); kind == peelable {
			cands = append(cands, cand{goal, dist})
		}
	}
	slices.SortStableFunc(cands, func(a, b cand) int { return int(a.dist - b.dist) })
	for _, c := range cands {
		i := slices.Index(pr.left, c.goal)
		pr.take(i)
		if ok, err := pr.peel(); ok || err != nil {
			return ok, err
		}
		pr.untake(i)
	}
	pr.failed[string(set)] = true
	return false, nil
}

// greedy orders the goals left one by one: the best by kind, then by
// pulls, without going back.
func (pr *planner) greedy() error {
	for len(pr.left) > 0 {
		best, bestKind, bestDist := 0, stuck, int32(0)
		for i, goal := range pr.left {
			if pr.work > 2*planWork {
				break
			}
			if err := pr.ctx.Err(); err != nil {
				return err
			}
			kind, dist := pr.try(goal)
			if kind < bestKind || (kind == peelable && bestKind == peelable && dist < bestDist) {
				best, bestKind, bestDist = i, kind, dist
			}
		}
		pr.take(best)
	}
	return nil
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
func (pl *plan) bytes() int64 { return 4*int64(len(pl.order)) + 4*int64(len(pl.rank)) }

// PlanOrder returns the goals of board b in the order the packing plan
// fills them, for people (soko analyze, the web page): the order peeling
// finds, or where it finds none, the one the plan strategy takes from the
// backward search (engine.replan), given replanShare of planOrderTime. It
// returns ctx.Err() when ctx is done first.
func PlanOrder(ctx context.Context, b *sokoban.Board) ([]sokoban.Square, error) {
	pl, err := newPlan(ctx, b, newMacroGen(b, nil))
	if err != nil || pl.peeled {
		return pl.orderOrNil(), err
	}
	opts := solver.Options{Budget: solver.Budget{Time: planOrderTime}}
	e, _, err := newEngine(b.Level, solver.NewGuard(ctx, opts), opts, pl, nil)
	if err != nil || e == nil {
		return pl.order, err
	}
	if _, done, err := e.replan(); done {
		if err == nil {
			err = ctx.Err()
		}
		if err != nil {
			return nil, err
		}
	}
	return e.plan.order, nil
}

// planOrderTime is the budget PlanOrder searches under: a 128×128 board
// with 255 boxes takes seconds a backward expansion.
const planOrderTime = 10 * time.Second

// orderOrNil returns pl's order, nil for a nil plan.
func (pl *plan) orderOrNil() []sokoban.Square {
	if pl == nil {
		return nil
	}
	return pl.order
}
