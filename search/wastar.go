package search

import (
	"context"
	"math/rand/v2"
	"slices"

	"soko/deadlock"
	"soko/internal/bucketq"
	"soko/internal/minkowski"
	"soko/level"
	"soko/sokoban"
	"soko/solver"
)

// WAStar is the weighted A* of seed 001 §2.1–2.2 (Alg. 5, 6, 8, 9): a search
// over single player moves with f = g + W·h, where g counts moves and
// h = h1 + h2 (Eq. 8):
//
//   - h1 (Eq. 6, Alg. 8): the Minkowski-p distance from the player to the
//     nearest box not on a goal;
//   - h2 (Eq. 7, Alg. 9): the average over boxes of the summed Minkowski-p
//     distances from the box to every goal.
//
// h is not admissible (001 §2.2.3), so solutions are not optimal. Pruning,
// as in the document:
//
//   - looping cells: a move that leaves the state unchanged (into a wall, or
//     pushing a box into a wall or a box) is not made;
//   - dangerous cells: a box is never pushed into a corner (Alg. 1) or onto a
//     square between corners along a wall without a door (Alg. 2, 3;
//     deadlock.CornerSquares);
//   - dead-end aisles (Alg. 4): before the search, empty squares with three
//     walls around are walled up, repeatedly, so aisles that end in a dead
//     end disappear;
//   - tunnel macros (§2.1.2): a player step into a one-wide corridor goes on
//     through it in one macro move while nothing but floor lies ahead;
//   - a visited set on (player square, boxes).
//
// Rapid random restarts (§2.2.4): with parameter restart=T > 0, the search
// starts over every T expansions with a fresh random tie-break among states
// of equal f, drawn from the seed.
//
// Two guards the document leaves implicit, without which levels whose goals
// lie in corners or along walls would be unsolvable: a goal square is never
// dangerous, and a wall stretch with a goal on it is not a deadlock.
type WAStar struct{}

// wastarScale turns f into the bucket queue's integer priority.
const wastarScale = 4

type wastar struct {
	b         *sokoban.Board
	target    int // the search ends when this many boxes stand on goals
	pos       *sokoban.Position
	w         float64
	dist      *minkowski.Heuristic // h = h1 + h2
	dangerous []bool
	tunnel    [2][]bool // tunnel[axis][s]: walls on both sides across axis
}

// Solve implements solver.Solver.
func (WAStar) Solve(ctx context.Context, l *level.Level, opts solver.Options) (solver.Result, error) {
	return waStarTo(ctx, l, opts, 0)
}

// waStarTo runs the search until every box is on a goal, or, with more > 0,
// until more boxes stand on goals than at the start (SubGoal).
func waStarTo(ctx context.Context, l *level.Level, opts solver.Options, more int) (solver.Result, error) {
	w, err := opts.Real(MoveWParam)
	if err != nil {
		return solver.Result{}, err
	}
	p, err := opts.Real(MinkowskiParam)
	if err != nil {
		return solver.Result{}, err
	}
	restart, err := opts.Int(restartParam)
	if err != nil {
		return solver.Result{}, err
	}
	pruned := pruneAisles(l)
	g, res, ok, err := startGraph(ctx, pruned, opts, "none")
	if !ok {
		return res, err
	}
	s := newWAStar(g.board, w, p)
	s.pos = g.pos
	if more > 0 {
		s.target = min(s.target, g.pos.OnGoal()+more)
	}
	if g.charge(s.bytes()) {
		return g.stop(g.halt), nil
	}
	rng := rand.New(rand.NewPCG(opts.Seed, 0x77a57a4))
	for {
		// Moves on the pruned board are moves on the level itself: pruning
		// only adds walls.
		res, again := s.search(g, int64(restart), rng)
		if !again {
			return res, nil
		}
		g.store = sokoban.NewStore(g.board.KeySize())
		g.links.Reset()
	}
}

func newWAStar(b *sokoban.Board, w, p float64) *wastar {
	s := &wastar{b: b, w: w, dist: minkowski.New(b, p), target: b.Boxes()}
	wall := func(t sokoban.Square, d sokoban.Dir) bool { return b.Next(t, d) < 0 }
	s.dangerous = deadlock.CornerSquares(b)
	s.tunnel = [2][]bool{make([]bool, b.N), make([]bool, b.N)}
	for t := sokoban.Square(0); int(t) < b.N; t++ {
		s.tunnel[0][t] = wall(t, level.Left) && wall(t, level.Right) // a vertical corridor
		s.tunnel[1][t] = wall(t, level.Up) && wall(t, level.Down)    // a horizontal one
	}
	return s
}

// bytes returns the memory of the search's static tables.
func (s *wastar) bytes() int64 { return int64(s.b.N)*(1+2) + s.dist.Bytes() }

// h is 001 Eq. 8: h1 + h2.
func (s *wastar) h(pos *sokoban.Position) float64 { return s.dist.Of(pos) }

// search runs one weighted A* from the start. again is true when a rapid
// random restart is due.
func (s *wastar) search(g *pushGraph, restartEvery int64, rng *rand.Rand) (res solver.Result, again bool) {
	pos := s.pos
	add := func(parent uint32, via uint32) (uint32, bool) {
		g.key = pos.PackExact(g.key[:0])
		id, fresh := g.store.Intern(g.key, pos.HashExact())
		if fresh {
			g.links.Append(link{parent, via})
			g.stats.Stored++
		}
		return id, fresh
	}
	var open bucketq.Queue
	cost := []int32{0}
	closed := []bool{false}
	jitter := func() int {
		if restartEvery > 0 {
			return rng.IntN(bucketq.MaxTie)
		}
		return 0
	}
	start := pos.Clone()
	root, _ := add(noParent, 0)
	open.Push(queued(int(s.w*s.h(pos)*wastarScale)), jitter(), root)
	var expandedHere int64
	for {
		id, _, ok := open.Pop()
		if !ok {
			return g.stop(solver.NoSolution), false
		}
		if closed[id] {
			continue
		}
		closed[id] = true
		if st, stop := g.tick(5*int64(cap(cost)) + open.Bytes()); stop {
			return g.stop(st), false
		}
		pos.Unpack(g.store.Key(id))
		if pos.OnGoal() >= s.target { // before a restart, which would throw it away
			return movesSolution(g, id), false
		}
		if restartEvery > 0 && expandedHere >= restartEvery {
			pos.Unpack(start.PackExact(nil))
			return solver.Result{}, true
		}
		g.track()
		g.stats.Expanded++
		expandedHere++
		for d := range sokoban.Dirs {
			steps, push, ok := s.step(pos, d)
			if !ok {
				continue
			}
			child, fresh := add(id, uint32(d)|boolBit(push)<<2|uint32(steps)<<3)
			if fresh {
				c := cost[id] + int32(steps)
				cost = append(cost, c)
				closed = append(closed, false)
				f := float64(c) + s.w*s.h(pos)
				open.Push(queued(int(f*wastarScale)), jitter(), child)
			}
			pos.Unpack(g.store.Key(id))
		}
	}
}

// step makes the move in direction d, followed through a tunnel if it
// enters one, and reports the number of steps, whether the first step
// pushed a box, and false for a looping or dangerous move (the position is
// then unchanged).
func (s *wastar) step(pos *sokoban.Position, d sokoban.Dir) (int, bool, bool) {
	b := s.b
	to, push, ok := pos.Step(d)
	if !ok {
		return 0, false, false // into a wall, or a box that cannot move: a looping cell
	}
	if push {
		if s.dangerous[b.Next(to, d)] {
			return 0, false, false
		}
		pos.Apply(sokoban.Push{Box: to, Dir: d})
		return 1, true, true
	}
	steps := 1
	axis := 0
	if d == level.Left || d == level.Right {
		axis = 1
	}
	for s.tunnel[axis][to] {
		n := b.Next(to, d)
		if n < 0 || pos.HasBox(n) {
			break
		}
		to = n
		steps++
	}
	pos.SetPlayer(to)
	return steps, false, true
}

func boolBit(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

// pruneAisles is 001 Alg. 4: empty squares (no box, goal or player) with at
// least three walls around are walled up, until none is left. The result is
// a copy of l.
//
// Walls are only ever added, so the squares walled up do not depend on the
// order: after one sweep over the board, only the neighbours of a square
// just walled up are looked at again, which takes O(width·height) in all
// where sweeping until nothing changes took a sweep per square of the
// longest dead-end aisle.
func pruneAisles(l *level.Level) *level.Level {
	rows := make([][]byte, l.Height)
	for y, r := range l.Rows {
		rows[y] = []byte(r)
	}
	wall := func(x, y int) bool {
		return y < 0 || y >= l.Height || x < 0 || x >= l.Width || rows[y][x] == level.Wall
	}
	around := [4][2]int{{0, -1}, {0, 1}, {-1, 0}, {1, 0}}
	var todo [][2]int
	for y := range rows {
		for x := range rows[y] {
			todo = append(todo, [2]int{x, y})
		}
	}
	for len(todo) > 0 {
		x, y := todo[len(todo)-1][0], todo[len(todo)-1][1]
		todo = todo[:len(todo)-1]
		if wall(x, y) || rows[y][x] != level.Floor {
			continue
		}
		n := 0
		for _, d := range around {
			if wall(x+d[0], y+d[1]) {
				n++
			}
		}
		if n >= 3 {
			rows[y][x] = level.Wall
			for _, d := range around {
				todo = append(todo, [2]int{x + d[0], y + d[1]})
			}
		}
	}
	out := *l
	out.Rows = make([]string, l.Height)
	for y, r := range rows {
		out.Rows[y] = string(r)
	}
	out.Comments = slices.Clone(l.Comments)
	return &out
}
