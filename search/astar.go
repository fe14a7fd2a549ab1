package search

import (
	"context"

	"soko/heuristic"
	"soko/level"
	"soko/sokoban"
	"soko/solver"
)

// AStar is A* over pushes with the minimum-cost perfect matching of boxes
// to goals on pull distances as its lower bound. The bound is admissible
// (each box needs at least its own pushes to its goal), so the first solved
// state expanded has the fewest pushes. It is not always consistent, so a
// state reached again by a shorter path is reopened, even after expansion.
// Ties on f go to the smaller bound, that is, the deeper state.
type AStar struct{}

// Solve implements solver.Solver.
func (AStar) Solve(ctx context.Context, l *level.Level, opts solver.Options) (solver.Result, error) {
	return bestFirst(ctx, l, opts, bestFirstConfig{score: matchingScore(1, 1), reopen: true, bound: true, symmetry: true, frozen: true, expandCorrals: true, groups: true})
}

// WeightedAStar is weighted A* over pushes: f = g + W·h with the matching
// bound h. With W > 1 it gives up optimality (solutions are at most W times
// longer than optimal) for speed. Parameter w, default 3. Goal-room macros
// are on.
type WeightedAStar struct{}

// Solve implements solver.Solver.
func (WeightedAStar) Solve(ctx context.Context, l *level.Level, opts solver.Options) (solver.Result, error) {
	w, err := opts.Real(pushWParam)
	if err != nil {
		return solver.Result{}, err
	}
	return bestFirst(ctx, l, opts, bestFirstConfig{score: matchingScore(1, w), rooms: true})
}

// Greedy is greedy best-first search over pushes on the matching bound
// alone: f = h, ties to the shallower state. Fast and far from optimal.
// Goal-room macros are on.
type Greedy struct{}

// Solve implements solver.Solver.
func (Greedy) Solve(ctx context.Context, l *level.Level, opts solver.Options) (solver.Result, error) {
	return bestFirst(ctx, l, opts, bestFirstConfig{score: matchingScore(0, 1), rooms: true})
}

// matchingScore scores states by gw·g + hw·h, where h is the push-distance
// matching bound with the player's side (pushGraph.matching), raised for
// boxes that must leave their goals when g.frozen is set (leaveBound).
// Ties go to smaller h, except for pure greedy search (gw = 0), where they
// go to smaller g; with g.parkedTie, states with parked boxes that must
// leave their goals come after the others (see parkedLastParam).
func matchingScore(gw int, hw float64) func(g *pushGraph) (scorer, error) {
	return func(g *pushGraph) (scorer, error) {
		lb, err := g.matching()
		if err != nil || lb == nil {
			return scorer{}, err // without the bound the budget ran out: ready stops the search
		}
		leave := g.leaveBound(lb)
		rate := func(p *sokoban.Position, h int32, ok bool, depth int) (int, int, bool) {
			if !ok {
				return 0, 0, false
			}
			h, parked := leave(p, h)
			f := gw*depth + int(hw*float64(h)+0.5)
			if gw == 0 {
				return f, depth, true
			}
			return f, int(h) + g.parkedTie*parked, true
		}
		return scorer{
			score: func(p *sokoban.Position, depth int) (int, int, bool) {
				h, ok := lb.Bound(p)
				return rate(p, h, ok, depth)
			},
			parent: func(p *sokoban.Position, id uint32) { lb.SetBase(p, id) },
			child: func(p *sokoban.Position, depth int, id uint32) (int, int, bool) {
				h, ok := lb.Child(p)
				if ok {
					lb.Keep(id)
				}
				return rate(p, h, ok, depth)
			},
		}, nil
	}
}

// leaveBound returns what raises the bound h of position p, which lb
// matched last, when g.frozen is set: boxes on goals that must move again
// (deadlock.FrozenGoals.MustLeave) cost what PushMatching.Leave says. It
// also returns how many of those boxes are parked: not the box of the move
// being scored (g.moved). Without g.frozen it returns h as it is, and 0.
func (g *pushGraph) leaveBound(lb *heuristic.PushMatching) func(p *sokoban.Position, h int32) (int32, int) {
	if g.frozen == nil {
		return func(_ *sokoban.Position, h int32) (int32, int) { return h, 0 }
	}
	goal := make([]int, g.board.N)
	for s := range goal {
		goal[s] = -1
	}
	for j, s := range g.board.Goals() {
		goal[s] = j
	}
	var leaving, goals []int
	return func(p *sokoban.Position, h int32) (int32, int) {
		leaving, goals = leaving[:0], goals[:0]
		parked := 0
		for i, s := range p.BoxSquares() {
			// A box whose leaving would raise no bound is not asked about,
			// unless parked boxes are counted for the tie-break.
			if goal[s] < 0 || g.parkedTie == 0 && lb.LeaveCost(i, goal[s]) == 0 {
				continue
			}
			if g.frozen.MustLeave(p, sokoban.Square(s)) {
				leaving, goals = append(leaving, i), append(goals, goal[s])
				if s != g.moved {
					parked++
				}
			}
		}
		if len(leaving) == 0 {
			return h, 0
		}
		return max(h, lb.Leave(leaving, goals)), parked
	}
}
