package search

import (
	"context"

	"soko/heuristic"
	"soko/internal/bucketq"
	"soko/level"
	"soko/sokoban"
	"soko/solver"
)

// AStar is A* over pushes with the minimum-cost perfect matching of boxes
// to goals on pull distances as its lower bound. The bound is admissible
// (each box needs at least its own pushes to its goal), so the first solved
// state expanded has the fewest pushes. It is not always consistent, so a
// state reached again by a shorter path is reopened, even after expansion.
// The open list is a bucket queue on f with ties broken by smaller h, deeper
// first.
type AStar struct{}

// maxDepth keeps g and h within their 16-bit fields; deadEnd marks a state
// whose bound proved it unsolvable.
const (
	maxDepth = 1<<16 - 2
	deadEnd  = 1<<16 - 1
)

// Solve implements solver.Solver.
func (AStar) Solve(ctx context.Context, l *level.Level, opts solver.Options) (solver.Result, error) {
	g, err := newPushGraph(ctx, l, opts)
	if err != nil {
		return solver.Result{}, err
	}
	if g.board.Impossible != "" {
		return g.stop(solver.NoSolution), nil
	}
	lb := heuristic.NewPushMatching(g.board, g.dist)
	root := g.addRoot()
	h0, ok := lb.Bound(g.pos)
	if !ok {
		return g.stop(solver.NoSolution), nil
	}
	var (
		cost   = []uint16{0}          // g: pushes from the start
		est    = []uint16{uint16(h0)} // h: lower bound to the goal
		closed = []bool{false}        // expanded, or a deadlock
		open   bucketq.Queue
		pushes = make([]sokoban.Push, 0, 64)
	)
	open.Push(int(h0), int(h0), root)
	for {
		id, f, ok := open.Pop()
		if !ok {
			return g.stop(solver.NoSolution), nil
		}
		if closed[id] || f != int(cost[id])+int(est[id]) {
			continue // expanded already, or a stale entry for a since-improved state
		}
		closed[id] = true
		if st, stop := g.tick(5*int64(cap(cost)) + open.Bytes()); stop {
			return g.stop(st), nil
		}
		g.pos.Unpack(g.store.Key(id))
		if g.pos.Solved() {
			return g.solution(id)
		}
		g.stats.Expanded++
		g.stats.Bound = f
		depth := cost[id] + 1
		if depth > maxDepth {
			continue
		}
		pushes = g.pos.Pushes(pushes[:0], g.dead)
		for _, m := range pushes {
			if g.push(m) {
				continue
			}
			child, fresh := g.add(id, m)
			if fresh {
				h, ok := lb.Bound(g.pos)
				cost = append(cost, depth)
				closed = append(closed, !ok)
				if ok {
					est = append(est, uint16(min(h, maxDepth)))
					open.Push(int(depth)+int(h), int(h), child)
				} else {
					est = append(est, deadEnd)
				}
			} else if depth < cost[child] && est[child] != deadEnd {
				// A shorter path. The bound is admissible but not always
				// consistent (pull distances take the best side of a box,
				// which the player may not reach), so an expanded state
				// can be reached more cheaply later: reopen it.
				closed[child] = false
				cost[child] = depth
				g.parent[child] = id
				g.via[child] = uint32(m.Box)<<2 | uint32(m.Dir)
				open.Push(int(depth)+int(est[child]), int(est[child]), child)
			}
			g.pos.Undo(m)
		}
	}
}
