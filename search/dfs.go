package search

import (
	"context"
	"unsafe"

	"soko/internal/chunked"
	"soko/level"
	"soko/sokoban"
	"soko/solver"
)

// DFS is depth-first search over pushes with a set of visited states, the
// uninformed baseline of 000 §1 and 001 §2. Pushes are tried in the order
// they are generated. Parameter depth (default 0: none) limits the number of
// pushes; with a limit, a state met again by a shorter path is searched again
// so that nothing within the limit is missed, and when the limit cut the
// search the status is "depth limit" rather than "no solution". Solutions
// are far from optimal. Its successors are the best-first searches'
// (candidates, pushMacro): PI-corral pruning and the tunnel macro, which
// both keep a solution of any given length, so nothing within the limit is
// lost; a macro's pushes count towards the limit.
type DFS struct{}

type dfs struct {
	g       *pushGraph
	limit   int
	limited bool
	depthAt []uint16 // per stored state: the fewest pushes it was met with
	path    []sokoban.Push
	// lists holds the candidate pushes of each recursion level, reused:
	// a list allocated per expansion was garbage the size of the tables.
	lists     chunked.Slice[[]sokoban.Push]
	listBytes int64 // what the lists hold
	level     int   // the recursion's current level
	cut       bool
	stopped   solver.Status
	stop      bool
}

// Solve implements solver.Solver.
func (DFS) Solve(ctx context.Context, l *level.Level, opts solver.Options) (solver.Result, error) {
	limit, err := opts.Int(dfsDepthParam)
	if err != nil {
		return solver.Result{}, err
	}
	g, res, ok, err := startGraph(ctx, l, opts, defaultDetectors)
	if !ok {
		return res, err
	}
	if err := g.setUpMoves(opts, true, false, false); err != nil {
		return solver.Result{}, err
	}
	if st, ok := g.ready(); !ok {
		return g.stop(st), nil
	}
	s := &dfs{g: g, limit: limit, limited: limit > 0}
	if !s.limited {
		s.limit = maxDepth
	}
	switch {
	case s.search(0):
		return g.finish(s.path)
	case s.stop:
		return g.stop(s.stopped), nil
	case s.cut:
		return g.stop(solver.DepthLimit), nil
	}
	return g.stop(solver.NoSolution), nil
}

// frameBytes is what one level of the recursion holds on the goroutine's
// stack: search's frame, about 350 bytes with go1.26 on amd64, the stack being
// a power of two that is copied whole as it doubles.
const frameBytes = 1024

// bytes returns the memory the search holds: the graph's tables and its
// own, the recursion's candidate lists and stack included.
func (s *dfs) bytes() int64 {
	return s.heapBytes() + frameBytes*int64(s.lists.Len())
}

// heapBytes is bytes less the stack.
func (s *dfs) heapBytes() int64 {
	return s.g.bytes() + 2*int64(cap(s.depthAt)) + int64(cap(s.path))*int64(unsafe.Sizeof(sokoban.Push{})) +
		s.listBytes + s.lists.Bytes()
}

// up leaves a level of the recursion.
func (s *dfs) up() { s.level-- }

func (s *dfs) search(depth int) bool {
	g := s.g
	if g.pos.Solved() {
		return true
	}
	g.key = g.pos.Pack(g.key[:0])
	id, fresh := g.store.Intern(g.key, g.pos.Hash())
	if fresh {
		s.depthAt = append(s.depthAt, uint16(depth))
		g.stats.Stored++
	} else if !s.limited || int(s.depthAt[id]) <= depth {
		return false // without a limit, a visited state is never searched again
	}
	s.depthAt[id] = uint16(depth)
	if depth >= s.limit {
		s.cut = true
		return false
	}
	if st, stop := g.tick(s.bytes() - g.bytes()); stop {
		s.stopped, s.stop = st, true
		return false
	}
	g.track()
	g.stats.Expanded++
	if s.level == s.lists.Len() {
		s.lists.Append(nil)
	}
	list := s.lists.At(s.level)
	pushes := g.candidates((*list)[:0])
	s.listBytes += int64(cap(pushes)-cap(*list)) * int64(unsafe.Sizeof(sokoban.Push{}))
	*list = pushes
	s.level++
	defer s.up()
	for _, m := range pushes {
		mv := g.pushMacro(m)
		if mv.steps == 0 {
			continue // deadlocked
		}
		n := len(s.path)
		s.path = g.appendPushes(s.path, mv)
		if s.search(depth + mv.pushes()) {
			return true
		}
		s.path = s.path[:n]
		g.undoMacro(mv)
		if s.stop {
			return false
		}
	}
	return false
}
