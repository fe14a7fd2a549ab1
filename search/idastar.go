package search

import (
	"context"
	"slices"

	"soko/heuristic"
	"soko/level"
	"soko/sokoban"
	"soko/solver"
)

// IDAStar is iterative-deepening A* over pushes (Korf 1985; the family 000 §1
// and 003 §1.2 name as the state of the art, after Junghanns & Schaeffer's
// Rolling Stone). Each iteration is a depth-first search cut off where
// g + h exceeds the threshold; the next threshold is the least f that was
// cut. h is the push-distance matching bound (admissible, so the first
// solution found has the fewest pushes). Enhancements:
//
//   - a transposition table over the state store: a state met again in the
//     same iteration with no fewer pushes is not searched again (its subtree
//     was already searched with at least as much threshold left), which also
//     cuts cycles;
//   - move ordering: the children of a state are searched in increasing
//     order of their bound, so the first solution is met early in the last
//     iteration;
//   - the best-first searches' successors (candidates, pushMacro):
//     PI-corral pruning and the tunnel macro, both of which keep an
//     optimal solution; a macro costs its pushes;
//   - the children's bounds repaired from the parent's matching
//     (heuristic.PushMatching.Child).
type IDAStar struct{}

type idaChild struct {
	move macroMove
	h    int32
}

type ida struct {
	g         *pushGraph
	lb        *heuristic.PushMatching
	threshold int
	iteration uint32
	seen      []uint32 // per stored state: the last iteration it was searched in
	depthAt   []uint16 // per stored state: the fewest pushes it was met with in that iteration
	path      []sokoban.Push
	children  [][]idaChild // per depth, reused
	stopped   solver.Status
	stop      bool
}

// unbounded is the next threshold when nothing was cut.
const unbounded = 1 << 30

// Solve implements solver.Solver.
func (IDAStar) Solve(ctx context.Context, l *level.Level, opts solver.Options) (solver.Result, error) {
	g, res, ok, err := startGraph(ctx, l, opts, defaultDetectors)
	if !ok {
		return res, err
	}
	lb, err := g.matching()
	if err != nil {
		return solver.Result{}, err
	}
	if st, ok := g.ready(); !ok {
		return g.stop(st), nil
	}
	if err := g.setUpMoves(opts, true, false, false); err != nil {
		return solver.Result{}, err
	}
	if st, ok := g.ready(); !ok {
		return g.stop(st), nil
	}
	s := &ida{g: g, lb: lb}
	h0, ok := s.lb.Bound(g.pos)
	if !ok {
		return g.stop(solver.NoSolution), nil
	}
	for s.threshold = int(h0); ; {
		s.iteration++
		g.stats.Bound = s.threshold
		found, next := s.search(0, int(h0))
		switch {
		case found:
			return g.finish(s.path)
		case s.stop:
			return g.stop(s.stopped), nil
		case next >= unbounded:
			return g.stop(solver.NoSolution), nil
		}
		s.threshold = next
	}
}

// search explores below the working position, reached after depth pushes,
// whose bound is h. It returns whether a solution was found (its pushes are
// then in s.path) and otherwise the least f beyond the threshold.
func (s *ida) search(depth, h int) (bool, int) {
	g := s.g
	if f := depth + h; f > s.threshold {
		return false, f
	}
	if g.pos.Solved() {
		return true, depth
	}
	g.key = g.pos.Pack(g.key[:0])
	id, fresh := g.store.Intern(g.key, g.pos.Hash())
	if fresh {
		s.seen = append(s.seen, 0)
		s.depthAt = append(s.depthAt, 0)
		g.stats.Stored++
	} else if s.seen[id] == s.iteration && int(s.depthAt[id]) <= depth {
		return false, unbounded
	}
	s.seen[id], s.depthAt[id] = s.iteration, uint16(min(depth, maxDepth))
	if st, stop := g.tick(6 * int64(cap(s.seen))); stop {
		s.stopped, s.stop = st, true
		return false, unbounded
	}
	g.track()
	g.stats.Expanded++

	for len(s.children) <= depth {
		s.children = append(s.children, nil)
	}
	kids := s.children[depth][:0]
	var pushes [64]sokoban.Push
	s.lb.SetBase(g.pos, noParent) // nothing is kept: the children are searched depth-first
	for _, m := range g.candidates(pushes[:0]) {
		if st, stop := g.pulse(); stop {
			s.stopped, s.stop = st, true
			return false, unbounded
		}
		mv := g.pushMacro(m)
		if mv.steps == 0 {
			continue // deadlocked
		}
		if ch, ok := s.lb.Child(g.pos); ok {
			kids = append(kids, idaChild{mv, ch})
		}
		g.undoMacro(mv)
	}
	slices.SortStableFunc(kids, func(a, b idaChild) int { return int(a.h - b.h) })
	s.children[depth] = kids

	next := unbounded
	for _, k := range kids {
		g.redoMacro(k.move)
		np := len(s.path)
		s.path = g.appendPushes(s.path, k.move)
		found, n := s.search(depth+k.move.pushes(), int(k.h))
		if found {
			return true, n
		}
		s.path = s.path[:np]
		g.undoMacro(k.move)
		if s.stop {
			return false, unbounded
		}
		next = min(next, n)
	}
	return false, next
}
