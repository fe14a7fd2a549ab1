package search

import (
	"cmp"
	"context"

	"soko/deadlock"
	"soko/internal/bucketq"
	"soko/level"
	"soko/sokoban"
	"soko/solver"
)

// scorer rates positions for a best-first search.
type scorer struct {
	// score rates a position reached after g pushes: its priority in the
	// open list (smaller first), a tie-break (smaller first), and false if
	// the position is known to be unsolvable.
	score func(p *sokoban.Position, g int) (priority, tie int, ok bool)
	// parent, when set, scores the position of state id about to be
	// expanded, and child then rates each position one move from it (its
	// boxes in the same order), state id reached after g pushes, reusing
	// the parent's work (PushMatching.Child, Keep).
	parent func(p *sokoban.Position, id uint32)
	child  func(p *sokoban.Position, g int, id uint32) (priority, tie int, ok bool)
}

// bestFirstConfig says how a best-first search over pushes behaves.
type bestFirstConfig struct {
	// score builds the scorer for a prepared graph.
	score func(g *pushGraph) (scorer, error)
	// reopen: a state reached again by a shorter path is updated and put
	// back on the open list, even after it was expanded. A* needs this for
	// optimality when its bound is not consistent; greedy searches do not.
	reopen bool
	// bound: the priority of an expanded state is a lower bound on the
	// solution length (A*), reported in Stats.Bound.
	bound bool
	// offset is added to every priority so that it is not negative.
	offset int
	// detectors are the default dynamic deadlock detectors.
	detectors string
	// rooms is the default of the "rooms" parameter: true turns goal-room
	// macros on. They can lengthen solutions, so optimal searches leave
	// them off.
	rooms bool
	// symmetry: the "symmetry" parameter is read, and when it is on and the
	// goal-room macro off (its packing order is not symmetric), positions
	// are stored up to the board's symmetries.
	symmetry bool
	// frozen: the "frozengoals" parameter is read, and when it is on,
	// positions that boxes frozen on goals make unsolvable are pruned
	// (deadlock.FrozenGoals) and the scorer learns which boxes must leave
	// their goals (leaveBound).
	frozen bool
	// expandCorrals: the "expandcorrals" parameter is read, and when it is
	// on, a state whose position has a corral that can never be solved
	// (deadlock.Corrals.Dead, 000 §4.2.2) is dropped when it is taken off
	// the open list instead of being expanded. A* generates some five
	// children per expansion and expands few of them, so this checks far
	// fewer positions than the corral detector run on every push (the
	// "corral" of the deadlocks list), and each on a position whose player
	// region candidates has just taken; on XSokoban 83 that detector made
	// each expansion several times dearer.
	expandCorrals bool
	// groups: the "groups" parameter is read, and when it is on, a search
	// still running after groupsAfter expansions tries the group bound
	// (heuristic.GroupBound), which raises the bound of the states scored after.
	groups bool
}

// groupsAfter is how many states A* expands before it sets the group bound
// up: levels it solves sooner never pay for the set-up's sub-searches.
var groupsAfter int64 = 20000

// maxFrozenGoalsWork bounds goals × squares² on the boards where the
// frozen-goal detector is used: each set of walls it meets costs a search
// over (box, player) squares from every free goal, which does not look at
// the clock (some 10 ms at this size; Microban and XSokoban boards are far
// smaller, the largest boards far larger).
const maxFrozenGoalsWork = 8 << 20

// expandCorralNodes is the first budget of the corral searches of
// bestFirstConfig.expandCorrals (deadlock.Corrals.FirstNodes; corrals that
// come back get larger ones). On XSokoban 83 almost every corral found dead
// was proved within 10 states, while nine in ten searches ran out of a
// budget of 50: with 8, astar expands 300,000 states of it in about 1.2
// times the time it takes without the corral checks, instead of 3.3 times.
const expandCorralNodes = 8

// corralDeadCount names the count of states that expandCorrals dropped
// (solver.Stats.Counts).
const corralDeadCount = "corral.dead"

// maxDepth keeps g within its 16-bit field.
const maxDepth = 1<<16 - 2

// deadPriority is the priority of a state known to be unsolvable.
const deadPriority = -1

// bestFirst runs a best-first search over pushes: the open list is a bucket
// queue on priority, with ties broken by the scorer's tie value and then
// last-in first-out. Per state it keeps g (pushes from the start), the
// priority it was last queued with (older queue entries are stale), and
// whether it was expanded; the goal test is made when a state is expanded.
func bestFirst(ctx context.Context, l *level.Level, opts solver.Options, cfg bestFirstConfig) (solver.Result, error) {
	g, res, ok, err := startGraph(ctx, l, opts, cmp.Or(cfg.detectors, defaultDetectors))
	if !ok {
		return res, err
	}
	s := &bestFirstSearch{g: g, cfg: cfg}
	if err := s.setUp(opts); err != nil {
		return solver.Result{}, err
	}
	if st, ok := g.ready(); !ok { // the budget ran out building the tables
		return g.stop(st), nil
	}
	return s.run()
}

// bestFirstSearch is one run of bestFirst: the push graph, what the
// configuration turned on, and per state its cost, queued priority,
// whether it was expanded, and its group bound.
type bestFirstSearch struct {
	g       *pushGraph
	cfg     bestFirstConfig
	sc      scorer
	corrals *deadlock.Corrals // expandCorrals' detector, or nil
	groups  bool              // the group bound is on and not set up yet

	cost   []uint16 // pushes from the start
	prio   []int32  // the priority last queued with, or deadPriority
	closed []bool   // expanded (and not reopened since)
	// grouped[id]: state id's group bound, once g.groups is set, or
	// -1 before it first comes off the open list.
	grouped []int32
	open    bucketq.Queue
	pushes  []sokoban.Push
	// cut is set once a push was dropped for passing maxDepth.
	cut bool
}

// exhausted is the status of a search whose open list ran empty: a proof
// of no solution only when nothing but sound pruning dropped a push.
func (s *bestFirstSearch) exhausted() solver.Status {
	switch {
	case s.g.roomMoved:
		return solver.GaveUp
	case s.cut:
		return solver.DepthLimit
	}
	return solver.NoSolution
}

// setUp reads the parameters the configuration asks for and builds the
// scorer, the detectors and the tables they turn on. It returns early,
// without an error, when the budget runs out (g.ready then says so).
func (s *bestFirstSearch) setUp(opts solver.Options) error {
	g, cfg := s.g, s.cfg
	if cfg.frozen {
		on, err := opts.Bool(frozenGoalsParam)
		if err != nil {
			return err
		}
		if n := int64(g.board.N); on && int64(len(g.board.Goals()))*n*n <= maxFrozenGoalsWork {
			g.frozen = deadlock.NewFrozenGoals(g.board, g.dead)
		}
		last, err := opts.Bool(parkedLastParam)
		if err != nil {
			return err
		}
		if last {
			g.parkedTie = bucketq.MaxTie / 4
		}
	}
	if cfg.expandCorrals {
		on, err := opts.Bool(expandCorralsParam)
		if err != nil {
			return err
		}
		if on {
			s.corrals = deadlock.NewCorrals(g.board, g.dead)
			s.corrals.FirstNodes = expandCorralNodes
		}
	}
	var err error
	if s.sc, err = cfg.score(g); err != nil {
		return err
	}
	if err := g.setUpMoves(opts, true, true, cfg.rooms); err != nil {
		return err
	}
	if _, ok := g.ready(); !ok {
		return nil
	}
	if cfg.symmetry && !g.rooms {
		on, err := opts.Bool(symmetryParam)
		if err != nil {
			return err
		}
		if g.sym = newSymmetry(g.board); !on || g.sym == nil {
			g.sym = nil
		} else if g.charge(g.sym.Bytes()) {
			return nil
		}
	}
	if g.sym == nil { // with symmetry, its own tree of the region serves
		g.region = sokoban.NewRegion(g.board)
		if g.charge(g.region.Bytes()) {
			return nil
		}
	}
	if cfg.groups {
		if s.groups, err = opts.Bool(groupsParam); err != nil {
			return err
		}
	}
	return nil
}

// run searches from the start until a solution, an empty open list or the
// budget's end.
func (s *bestFirstSearch) run() (solver.Result, error) {
	g, cfg := s.g, s.cfg
	root := g.addRoot()
	p0, t0, ok := s.sc.score(g.pos, 0)
	if !ok {
		return g.stop(solver.NoSolution), nil
	}
	s.cost, s.prio, s.closed = []uint16{0}, []int32{int32(queued(p0 + cfg.offset))}, []bool{false}
	s.pushes = make([]sokoban.Push, 0, 64)
	s.open.Push(int(s.prio[0]), t0, root)
	for {
		id, p, ok := s.open.Pop()
		if !ok {
			return g.stop(s.exhausted()), nil
		}
		if s.closed[id] || int32(p) != s.prio[id] {
			continue // expanded already, or a stale entry
		}
		s.closed[id] = true
		if st, stop := g.tick(7*int64(cap(s.cost)) + 4*int64(cap(s.grouped)) + s.open.Bytes() + g.groups.Bytes()); stop {
			return g.stop(st), nil
		}
		if s.groups && g.stats.Expanded == groupsAfter {
			s.groups = false
			if g.setUpGroups(int32(p0)) {
				return g.stop(g.halt), nil
			}
			if g.groups != nil {
				s.grouped = make([]int32, len(s.cost), cap(s.cost))
				for i := range s.grouped {
					s.grouped[i] = -1
				}
			}
		}
		g.pos.Unpack(g.store.Key(id))
		if g.groups != nil && s.grouped[id] < 0 && s.regroup(id, p) {
			continue
		}
		if g.pos.Solved() {
			return g.solution(id)
		}
		g.track()
		g.stats.Expanded++
		if cfg.bound {
			g.stats.Bound = p - cfg.offset
		}
		if s.corrals != nil && s.corrals.Dead(g.pos) {
			if g.stats.Counts == nil {
				g.stats.Counts = map[string]int64{}
			}
			g.stats.Counts[corralDeadCount]++
			s.prio[id] = deadPriority
			continue
		}
		if st, stop := s.expand(id); stop {
			return g.stop(st), nil
		}
	}
}

// regroup takes the group bound of state id, off the open list with
// priority p, when it first comes off: most states generated never do.
// It reports whether the state is not to be expanded now: unsolvable, or
// raised and put back on the list.
func (s *bestFirstSearch) regroup(id uint32, p int) bool {
	x, ok := s.g.groups.Bound(s.g.pos)
	if !ok {
		s.prio[id] = deadPriority
		return true
	}
	s.grouped[id] = x
	if f := queued(int(s.cost[id]) + int(x) + s.cfg.offset); f > p {
		s.closed[id], s.prio[id] = false, int32(f)
		s.open.Push(f, int(x), id)
		return true
	}
	return false
}

// expand generates the children of state id, whose position g.pos holds,
// and queues those that are new or, with reopen, reached by a shorter
// path. It reports whether the budget ran out.
func (s *bestFirstSearch) expand(id uint32) (solver.Status, bool) {
	g, cfg := s.g, s.cfg
	if s.sc.parent != nil {
		s.sc.parent(g.pos, id)
	}
	s.pushes = g.candidates(s.pushes[:0])
	for _, m := range s.pushes {
		if st, stop := g.pulse(); stop {
			return st, true
		}
		mv := g.pushMacro(m)
		if mv.steps == 0 {
			continue
		}
		if int(s.cost[id])+mv.pushes() > maxDepth {
			s.cut = true
			g.undoMacro(mv)
			continue
		}
		depth := s.cost[id] + uint16(mv.pushes())
		g.moved = mv.to
		child, fresh := g.addMove(id, mv)
		switch {
		case fresh:
			s.cost = append(s.cost, depth)
			if s.grouped != nil {
				s.grouped = append(s.grouped, -1)
			}
			cp, ct, ok := s.score(int(depth), child, id, mv)
			if ok {
				cp = queued(cp + cfg.offset)
				s.prio = append(s.prio, int32(cp))
				s.closed = append(s.closed, false)
				s.open.Push(cp, ct, child)
			} else {
				s.prio = append(s.prio, deadPriority)
				s.closed = append(s.closed, true)
			}
		case cfg.reopen && depth < s.cost[child] && s.prio[child] != deadPriority:
			cp, ct, _ := s.score(int(depth), child, id, mv)
			if s.grouped != nil {
				cp, ct = inherit(cp, ct, int(depth), int(s.grouped[child]), 0) // its own, if taken
			}
			cp = queued(cp + cfg.offset)
			s.closed[child] = false
			s.cost[child] = depth
			s.prio[child] = int32(cp)
			*g.links.At(int(child)) = link{id, mv.via()}
			s.open.Push(cp, ct, child)
		}
		g.undoMacro(mv)
	}
	return solver.Solved, false
}

// score rates state child, reached after depth pushes by move mv from
// state id, with the position in g.pos: its priority (before the offset)
// and tie-break, raised to what the parent's group bound leaves, and false
// when it is unsolvable.
func (s *bestFirstSearch) score(depth int, child, id uint32, mv macroMove) (int, int, bool) {
	var cp, ct int
	var ok bool
	if s.sc.child != nil {
		cp, ct, ok = s.sc.child(s.g.pos, depth, child)
	} else {
		cp, ct, ok = s.sc.score(s.g.pos, depth)
	}
	if s.grouped != nil {
		cp, ct = inherit(cp, ct, depth, int(s.grouped[id]), mv.pushes())
	}
	return cp, ct, ok
}

// inherit raises a child's priority p and tie-break t (its bound) to what
// its parent's group bound parentH, pushes pushes away, leaves of it: the
// parent is at most pushes further from the goal than the child, so the
// child is at least parentH − pushes from it (pathmax). Children whose
// priority that raises past the solution's never come off the open list,
// and so never cost a group bound of their own. parentH is −1 when the
// parent has none. Priorities are depth + bound, as in astar, the one
// search with groups.
func inherit(p, t, depth, parentH, pushes int) (int, int) {
	if h := parentH - pushes; h > p-depth {
		return depth + h, h
	}
	return p, t
}

// queued clamps a priority into the bucket queue's range. Only weighted
// searches on very large levels reach the top, where order among the
// clamped states is lost but nothing else.
func queued(p int) int {
	return min(max(p, 0), bucketq.MaxPriority)
}
