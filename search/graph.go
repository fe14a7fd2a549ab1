package search

import (
	"context"
	"fmt"
	"slices"

	"soko/deadlock"
	"soko/level"
	"soko/sokoban"
	"soko/solver"
)

// pushGraph is the plumbing every search over pushes shares: the board and a
// working position, the static deadlock tables, the store of visited states
// and, per stored state, the state it was first reached from and by which
// push.
type pushGraph struct {
	board *sokoban.Board
	pos   *sokoban.Position
	dist  [][]int32 // pull distances, goal × square
	dead  []bool
	// checker runs the dynamic deadlock detectors after each push.
	checker *deadlock.Checker
	store   *sokoban.Store
	parent  []uint32
	via     []uint32 // packed push: box square << 2 | direction
	key     []byte   // scratch for packing
	stats   solver.Stats
	guard   *solver.Guard

	// The expanded state with the most boxes on goals, which progress
	// events draw (see track).
	bestOnGoal int
	bestKey    []byte
}

const noParent = ^uint32(0)

// defaultDetectors are the dynamic deadlock detectors the push searches run
// unless the "deadlocks" parameter names others (deadlock.ParseDetectors).
const defaultDetectors = "freeze,wallsegment"

// newPushGraph prepares a search of l and starts its budget's clock. The
// deadlock detectors are those of the "deadlocks" parameter, or detectors.
func newPushGraph(ctx context.Context, l *level.Level, opts solver.Options, detectors string) (*pushGraph, error) {
	on, err := deadlock.ParseDetectors(opts.Text("deadlocks", detectors))
	if err != nil {
		return nil, err
	}
	b, err := sokoban.NewBoard(l)
	if err != nil {
		return nil, err
	}
	g := &pushGraph{board: b, pos: b.Start(), store: sokoban.NewStore(b.KeySize()), guard: solver.NewGuard(ctx, opts)}
	g.dist = b.PullDistances()
	g.dead = deadlock.DeadFromDistances(b, g.dist)
	g.checker = deadlock.NewChecker(b, g.dead, on)
	g.bestOnGoal = -1
	g.guard.Best(g.drawBest)
	return g, nil
}

// track notes the working position as the most promising so far when it
// has more boxes on goals than any before. Searches call it on each state
// they expand.
func (g *pushGraph) track() {
	if n := g.pos.OnGoal(); n > g.bestOnGoal {
		g.bestOnGoal, g.bestKey = n, g.pos.Pack(g.bestKey[:0])
	}
}

// drawBest draws the position track kept, for progress events.
func (g *pushGraph) drawBest() []string {
	if g.bestKey == nil {
		return nil
	}
	q := g.board.Start()
	q.Unpack(g.bestKey)
	return q.Rows()
}

// addRoot stores the start position.
func (g *pushGraph) addRoot() uint32 {
	g.key = g.pos.Pack(g.key[:0])
	id, _ := g.store.Intern(g.key, g.pos.Hash())
	g.parent = append(g.parent, noParent)
	g.via = append(g.via, 0)
	g.stats.Stored = 1
	return id
}

// add stores the working position, reached from parent by push m.
func (g *pushGraph) add(parent uint32, m sokoban.Push) (uint32, bool) {
	g.key = g.pos.Pack(g.key[:0])
	id, fresh := g.store.Intern(g.key, g.pos.Hash())
	if fresh {
		g.parent = append(g.parent, parent)
		g.via = append(g.via, uint32(m.Box)<<2|uint32(m.Dir))
		g.stats.Stored++
	}
	return id, fresh
}

// push applies m to the working position and reports whether the result
// is a frozen-box deadlock (the push is then already undone).
func (g *pushGraph) push(m sokoban.Push) (deadlocked bool) {
	to := g.pos.Apply(m)
	g.stats.Generated++
	if g.checker.Deadlocked(g.pos, to) {
		g.pos.Undo(m)
		return true
	}
	return false
}

// tick checks the budget; extra is memory the caller holds beyond the graph.
func (g *pushGraph) tick(extra int64) (solver.Status, bool) {
	g.stats.Bytes = g.bytes() + extra
	return g.guard.Tick(&g.stats)
}

// bytes returns the memory held by the graph's tables.
func (g *pushGraph) bytes() int64 {
	return g.store.Bytes() + 4*int64(cap(g.parent)) + 4*int64(cap(g.via))
}

// solution rebuilds the pushes leading to id and expands them into moves.
func (g *pushGraph) solution(id uint32) (solver.Result, error) {
	var pushes []sokoban.Push
	for ; g.parent[id] != noParent; id = g.parent[id] {
		v := g.via[id]
		pushes = append(pushes, sokoban.Push{Box: sokoban.Square(v >> 2), Dir: sokoban.Dir(v & 3)})
	}
	slices.Reverse(pushes)
	return g.finish(pushes)
}

// finish expands a solution's pushes into moves and stamps the statistics.
func (g *pushGraph) finish(pushes []sokoban.Push) (solver.Result, error) {
	g.stats.Bytes = max(g.stats.Bytes, g.bytes())
	g.guard.Finish(&g.stats)
	moves, err := g.board.Expand(pushes)
	if err != nil {
		return solver.Result{}, fmt.Errorf("%s: %w", g.board.Level.Name(), err)
	}
	return solver.Result{Status: solver.Solved, Moves: moves, Pushes: len(pushes), Stats: g.stats}, nil
}

// stop ends a search with a status other than Solved.
func (g *pushGraph) stop(st solver.Status) solver.Result {
	g.stats.Bytes = max(g.stats.Bytes, g.bytes())
	g.guard.Finish(&g.stats)
	return solver.Result{Status: st, Stats: g.stats}
}
