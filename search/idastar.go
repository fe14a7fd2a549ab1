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
//     iteration.
type IDAStar struct{}

type idaChild struct {
	push sokoban.Push
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
	g, err := newPushGraph(ctx, l, opts, defaultDetectors)
	if err != nil {
		return solver.Result{}, err
	}
	if st, ok := g.ready(); !ok {
		return g.stop(st), nil
	}
	if err := g.distances(); err != nil {
		return solver.Result{}, err
	}
	if st, ok := g.ready(); !ok {
		return g.stop(st), nil
	}
	s := &ida{g: g, lb: heuristic.NewPushMatching(g.board, g.dist)}
	if g.charge(s.lb.Bytes()) {
		return g.stop(g.halt), nil
	}
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
	for _, m := range g.pos.Pushes(pushes[:0], g.dead) {
		if st, stop := g.pulse(); stop {
			s.stopped, s.stop = st, true
			return false, unbounded
		}
		if g.push(m) {
			continue
		}
		if ch, ok := s.lb.Bound(g.pos); ok {
			kids = append(kids, idaChild{m, ch})
		}
		g.pos.Undo(m)
	}
	slices.SortStableFunc(kids, func(a, b idaChild) int { return int(a.h - b.h) })
	s.children[depth] = kids

	next := unbounded
	for _, k := range kids {
		g.pos.Apply(k.push)
		s.path = append(s.path, k.push)
		found, n := s.search(depth+1, int(k.h))
		if found {
			return true, n
		}
		s.path = s.path[:len(s.path)-1]
		g.pos.Undo(k.push)
		if s.stop {
			return false, unbounded
		}
		next = min(next, n)
	}
	return false, next
}
