package search

import (
	"context"
	"slices"

	"soko/level"
	"soko/sokoban"
	"soko/solver"
)

// BFS is breadth-first search over pushes. It finds a solution with the
// fewest pushes: states are expanded in order of push depth, and the first
// solved state generated is at the least depth of any. Its successors are
// the best-first searches' (candidates) with PI-corral pruning, which keeps
// a shortest solution, but without the tunnel macro: a move of several
// pushes would break the order by depth.
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
	child, st := g.breadthFirst(func(id uint32) (uint32, solver.Status, bool) {
		pushes = g.candidates(pushes[:0])
		for _, m := range pushes {
			if st, stop := g.pulse(); stop {
				return 0, st, true
			}
			mv := g.pushMacro(m)
			if mv.steps == 0 {
				continue // deadlocked
			}
			child, fresh := g.addMove(id, mv)
			if fresh && g.pos.Solved() {
				return child, solver.Solved, true
			}
			g.undoMacro(mv)
		}
		return 0, solver.Solved, false
	})
	if st != solver.Solved {
		return g.stop(st), nil
	}
	return g.solution(child)
}

// breadthFirst expands the stored states in the order they were stored:
// the store doubles as the FIFO queue, since ids are handed out in the
// order states are found. It unpacks each into the working position and
// calls expand, which stores the state's children and ends the search
// (done) with a solved child (status Solved) or a status to stop with.
// It returns that child and status, or NoSolution when the queue runs dry.
func (g *pushGraph) breadthFirst(expand func(id uint32) (child uint32, st solver.Status, done bool)) (uint32, solver.Status) {
	for id := uint32(0); int(id) < g.store.Len(); id++ {
		if st, stop := g.tick(0); stop {
			return 0, st
		}
		g.pos.Unpack(g.store.Key(id))
		g.track()
		g.stats.Expanded++
		if child, st, done := expand(id); done {
			return child, st
		}
	}
	return 0, solver.NoSolution
}

// BFSMoves is breadth-first search over single player moves, the
// move-level baseline of 001 §2: a state is the boxes plus the player's own
// square, so it finds a solution with the fewest moves. It prunes pushes onto
// dead squares and pushes that freeze a box off its goal, which never cuts a
// solution. Its state space is the push space times the floor size, so it is
// for tiny levels.
type BFSMoves struct{}

// Solve implements solver.Solver.
func (BFSMoves) Solve(ctx context.Context, l *level.Level, opts solver.Options) (solver.Result, error) {
	g, res, ok, err := startGraph(ctx, l, opts, defaultDetectors)
	if !ok {
		return res, err
	}
	add := func(parent uint32, d sokoban.Dir, push bool) (uint32, bool) {
		g.key = g.pos.PackExact(g.key[:0])
		id, fresh := g.store.Intern(g.key, g.pos.HashExact())
		if fresh {
			v := uint32(d)
			if push {
				v |= 4
			}
			g.links.Append(link{parent, v})
			g.stats.Stored++
		}
		return id, fresh
	}
	root, _ := add(noParent, 0, false)
	if g.pos.Solved() {
		return movesSolution(g, root), nil
	}
	b := g.board
	child, st := g.breadthFirst(func(id uint32) (uint32, solver.Status, bool) {
		from := g.pos.Player()
		for d := range sokoban.Dirs {
			to, push, ok := g.pos.Step(d)
			if !ok {
				continue
			}
			if !push {
				g.pos.SetPlayer(to)
				add(id, d, false)
				g.pos.SetPlayer(from)
				continue
			}
			m := sokoban.Push{Box: to, Dir: d}
			if g.dead[b.Next(to, d)] || g.push(m) {
				continue
			}
			child, fresh := add(id, d, true)
			if fresh && g.pos.Solved() {
				return child, solver.Solved, true
			}
			g.pos.Undo(m)
			g.pos.SetPlayer(from)
		}
		return 0, solver.Solved, false
	})
	if st != solver.Solved {
		return g.stop(st), nil
	}
	return movesSolution(g, child), nil
}

// movesSolution rebuilds the moves leading to id from the parent links of a
// move-level search, where via holds the direction in bits 0–1, whether the
// move pushed in bit 2, and the number of steps of a macro move (0 or 1 for
// a single step) from bit 3.
func movesSolution(g *pushGraph, id uint32) solver.Result {
	var moves []level.Move
	pushes := 0
	for ln := g.links.At(int(id)); ln.parent != noParent; ln = g.links.At(int(ln.parent)) {
		v := ln.via
		for range max(1, v>>3) {
			moves = append(moves, level.Move{Dir: level.Dir(v & 3), Push: v&4 != 0})
		}
		if v&4 != 0 {
			pushes++
		}
	}
	slices.Reverse(moves)
	g.stats.Bytes = max(g.stats.Bytes, g.bytes())
	g.guard.Finish(&g.stats)
	return solver.Result{Status: solver.Solved, Moves: moves, Pushes: pushes, Stats: g.stats}
}
