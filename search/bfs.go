package search

import (
	"context"

	"soko/level"
	"soko/sokoban"
	"soko/solver"
)

// BFS is breadth-first search over pushes. It finds a solution with the
// fewest pushes: states are expanded in order of push depth, and the first
// solved state generated is at the least depth of any. The store of visited
// states doubles as the FIFO queue, since ids are handed out in the order
// states are found. Its successors are the best-first searches' (candidates)
// with PI-corral pruning, which keeps a shortest solution, but without the
// tunnel macro: a move of several pushes would break the order by depth.
type BFS struct{}

// Solve implements solver.Solver.
func (BFS) Solve(ctx context.Context, l *level.Level, opts solver.Options) (solver.Result, error) {
	g, res, ok, err := startGraph(ctx, l, opts, defaultDetectors)
	if !ok {
		return res, err
	}
	if err := g.setUpMoves(opts, false, false, false); err != nil {
		return solver.Result{}, err
	}
	g.region = sokoban.NewRegion(g.board)
	if g.charge(g.region.Bytes()) {
		return g.stop(g.halt), nil
	}
	root := g.addRoot()
	if g.pos.Solved() {
		return g.solution(root)
	}
	pushes := make([]sokoban.Push, 0, 64)
	for id := uint32(0); int(id) < g.store.Len(); id++ {
		if st, stop := g.tick(0); stop {
			return g.stop(st), nil
		}
		g.pos.Unpack(g.store.Key(id))
		g.track()
		g.stats.Expanded++
		pushes = g.candidates(pushes[:0])
		for _, m := range pushes {
			if st, stop := g.pulse(); stop {
				return g.stop(st), nil
			}
			mv := g.pushMacro(m)
			if mv.steps == 0 {
				continue // deadlocked
			}
			child, fresh := g.addMove(id, mv)
			if fresh && g.pos.Solved() {
				return g.solution(child)
			}
			g.undoMacro(mv)
		}
	}
	return g.stop(solver.NoSolution), nil
}
