package search

import (
	"context"

	"soko/deadlock"
	"soko/heuristic"
	"soko/internal/bucketq"
	"soko/level"
	"soko/sokoban"
	"soko/solver"
)

// BiGreedy is a greedy best-first search over pushes from the start and
// over pulls from the solved position at once, for small dense levels: the
// two searches store their states in one table, keyed alike (the sorted
// boxes and the canonical square of the player's region), so a state one
// reaches that the other stored is where they meet, and the solution is
// the forward path to it followed by the backward path reversed into
// pushes (YASS's and Festival's meeting in the middle; research notes on
// YASS). The forward search is greedy's (push graph with PI-corral
// pruning, the tunnel and goal-room macros and the deadlock detectors), on
// the matching bound or the simple one (each box's pushes to its nearest
// goal, YASS's choice). The backward search pulls single boxes from one
// root per player region around the packed goals, never onto a square no
// lone box can be pushed to from a start square, on the matching of boxes
// to start squares or the simple bound towards them, deeper states first
// among equals. Expansions alternate by a share parameter.
type BiGreedy struct{}

// The parameters of bigreedy besides the push graph's switches. The
// defaults are those that solved the most small dense levels: there the
// backward search solves most of what the forward searches miss, and the
// forward search's tenth of the expansions the few it does not.
var (
	biBackParam = solver.Param{Name: "back", Kind: solver.Real, Default: "0.9", Min: 0, Max: 1,
		Doc: "share of the expansions that go to the backward search over pulls (0: forward only, 1: backward only)"}
	biFrozenGoalsParam  = switchParam("frozengoals", false, "prune frozen-goal deadlocks in the forward search")
	biBackMatchingParam = switchParam("backmatching", true, "backward bound: the matching of boxes to start squares (1) or each box's pushes from its nearest start square (0)")
	biBackDeepParam     = switchParam("backdeep", true, "backward ties to the deeper state (0: to the shallower)")
	biBackTableParam    = switchParam("backtable", true, "the backward search drops states the start table proves the start cannot reach (with the table detector on)")
	biMatchingParam     = switchParam("matching", true,
		"forward bound: the matching of boxes to goals (1) or each box's pushes to its nearest goal (0)")
)

// Solve implements solver.Solver.
func (BiGreedy) Solve(ctx context.Context, l *level.Level, opts solver.Options) (solver.Result, error) {
	s, res, ok, err := newBiSearch(ctx, l, opts)
	if !ok {
		return res, err
	}
	res, _, err = s.run(solver.Budget{}, nil)
	return res, err
}

// Sides of a stored state: which search stored it.
const (
	biForward uint8 = iota
	biBackward
)

// biSearch is one run of bigreedy: the push graph, whose store and links
// both searches share (a backward state's link is the push that takes it to
// its parent, one pull nearer the goals), per state which search stored
// it and its depth there, and an open list per search.
type biSearch struct {
	g    *pushGraph
	side []uint8
	// depth is the pushes (pulls) from the start (a goal root): the
	// tie-break among equal bounds (backTie says which first).
	depth     []uint16
	fwd, back bucketq.Queue
	backShare float64
	// lb is the matching bound, nil for the simple one (nearGoal).
	lb       *heuristic.PushMatching
	nearGoal []int32
	// backDeep: the backward search's ties go to the deeper state.
	backDeep bool
	// backLB, when set, is the backward search's bound instead of the
	// sum of nearStart (startMatching).
	backLB *heuristic.PushMatching
	// startLater, when set, are the limits of the start table
	// (deadlock.NewStartTable) the backward search builds once it has
	// expanded tableAfter states, as the forward search its table;
	// startTable is that table once built, nil before or when it did not
	// fit.
	startLater *deadlock.TableLimits
	startTable *deadlock.Table
	// nearStart is per square the least pushes that take a lone box from
	// a start square there, or Unreachable: the backward bound, and where
	// a pulled box may not stop.
	nearStart []int32
	pushes    []sokoban.Push
	pulls     []sokoban.Push // the backward expansion's pulls: box square and direction of the box's move
	// pulled is per pull of the backward expansion its child's canonical
	// player square and hash, worked out before any is interned so that
	// the store's slots for all of them are loaded at once (Store.Touch).
	pulled                    []pulledChild
	pullHashes                []uint64
	fwdExpanded, backExpanded int64
	// fwdOpen and backOpen: the search still has states to expand.
	// fwdCut and backCut: a move was dropped for passing maxDepth.
	fwdOpen, backOpen bool
	fwdCut, backCut   bool
	// best is per search (forward, backward) the least bound of a state
	// it expanded, −1 before any, and slicedBest its value when the
	// running slice began (Pause.Improved).
	best, slicedBest [2]int32
	// meet and meetBack are the pushes of the forward path and of the
	// backward path of the solution (meet −1 until they met), for count.
	meet, meetBack int
	// unreachable counts the pulls the start table dropped.
	unreachable int64
}

// newBiSearch prepares a bigreedy search of l: the push graph and its
// moves, the bounds, the roots of both searches. When it cannot start, ok
// is false and res and err are what the search returns.
func newBiSearch(ctx context.Context, l *level.Level, opts solver.Options) (s *biSearch, res solver.Result, ok bool, err error) {
	g, res, ok, err := startGraph(ctx, l, opts, defaultDetectors)
	if !ok {
		return nil, res, false, err
	}
	if g.pos.Solved() {
		res, err := g.finish(nil)
		return nil, res, false, err
	}
	s = &biSearch{g: g, best: [2]int32{-1, -1}, slicedBest: [2]int32{-1, -1}, meet: -1}
	if err := s.setUp(opts); err != nil {
		return nil, solver.Result{}, false, err
	}
	if st, ok := g.ready(); !ok { // the budget ran out building the tables
		return nil, g.stop(st), false, nil
	}
	if !s.roots() {
		return nil, g.stop(solver.NoSolution), false, nil
	}
	return s, solver.Result{}, true, nil
}

// setUp reads the parameters and builds what they turn on: the macros'
// tables, the frozen-goal pruning (on boards where it is cheap enough,
// maxFrozenGoalsWork), the forward and backward bounds. It returns early,
// without an error, when the budget runs out (g.ready then says so).
func (s *biSearch) setUp(opts solver.Options) error {
	g := s.g
	var matching, frozen, backMatching, backTable bool
	var err error
	if s.backShare, err = opts.Real(biBackParam); err != nil {
		return err
	}
	for _, sw := range []struct {
		p  solver.Param
		on *bool
	}{{biMatchingParam, &matching}, {biFrozenGoalsParam, &frozen}, {biBackMatchingParam, &backMatching}, {biBackDeepParam, &s.backDeep}, {biBackTableParam, &backTable}} {
		if *sw.on, err = opts.Bool(sw.p); err != nil {
			return err
		}
	}
	if err := g.setUpMoves(opts, true, true, true); err != nil {
		return err
	}
	if backTable && s.backShare > 0 && g.tableLater != nil {
		limits := *g.tableLater
		s.startLater = &limits
	}
	if n := int64(g.board.N); frozen && int64(len(g.board.Goals()))*n*n <= maxFrozenGoalsWork {
		g.frozen = deadlock.NewFrozenGoals(g.board, g.dead)
	}
	if matching {
		if s.lb, err = g.matching(); err != nil || s.lb == nil {
			return err // without the bound the budget ran out: ready says so
		}
	} else if s.nearGoal = g.board.NearestGoal(); g.charge(4 * int64(g.board.N)) {
		return nil
	}
	s.nearStart = pushFrom(g.board, g.board.Start().BoxSquares())
	if backMatching {
		s.backLB = startMatching(g.board)
		if g.charge(s.backLB.Bytes()) {
			return nil
		}
	}
	g.region = sokoban.NewRegion(g.board)
	g.charge(g.region.Bytes() + 4*int64(g.board.N))
	return nil
}

// roots stores the start, queued for the forward search, and the solved
// positions, one per region of the free squares around the packed goals,
// queued for the backward one. It reports false when the start's bound
// says it is unsolvable.
func (s *biSearch) roots() bool {
	g := s.g
	start := g.addRoot()
	s.side, s.depth = append(s.side, biForward), append(s.depth, 0)
	h, ok := s.forwardBound(start)
	if !ok {
		return false
	}
	s.fwd.Push(queued(int(h)), 0, start)
	s.fwdOpen = s.backShare < 1
	p := g.board.PositionOf(g.board.Goals(), g.board.Start().Player())
	covered := make([]bool, g.board.N)
	for _, t := range g.board.Goals() {
		covered[t] = true
	}
	for sq := sokoban.Square(0); int(sq) < g.board.N; sq++ {
		if covered[sq] {
			continue
		}
		p.SetPlayer(sq)
		for t := sokoban.Square(0); int(t) < g.board.N; t++ {
			covered[t] = covered[t] || p.Reachable(t)
		}
		g.key = p.Pack(g.key[:0])
		id, fresh := g.store.Intern(g.key, p.Hash())
		if !fresh { // the start is solved
			continue
		}
		g.links.Append(link{noParent, 0})
		g.stats.Stored++
		s.side, s.depth = append(s.side, biBackward), append(s.depth, 0)
		if h, ok := s.backwardBound(p); ok {
			s.back.Push(queued(int(h)), 0, id)
			s.backOpen = s.backShare > 0
		}
	}
	return true
}

// forwardBound rates the working position, state id, for the forward
// search: false when the matching finds no assignment of boxes to goals.
func (s *biSearch) forwardBound(id uint32) (int32, bool) {
	if s.lb != nil {
		return s.lb.SetBase(s.g.pos, id)
	}
	return s.simpleBound(s.g.pos, s.nearGoal)
}

// backwardBound rates position p for the backward search: the pushes that
// take each box there from its nearest start square, alone; false when a
// box stands where none can come from.
func (s *biSearch) backwardBound(p *sokoban.Position) (int32, bool) {
	if s.backLB != nil {
		return s.backLB.Bound(p)
	}
	return s.simpleBound(p, s.nearStart)
}

// startMatching returns the backward search's matching bound: boxes
// matched to distinct start squares, each pair costing the relaxed pushes
// (pushFrom) from the start square to the box. A position with no such
// matching cannot be reached from the start.
func startMatching(b *sokoban.Board) *heuristic.PushMatching {
	var rows [][]int32
	for _, s := range b.Start().BoxSquares() {
		rows = append(rows, pushFrom(b, []sokoban.Square{s}))
	}
	return heuristic.NewPushMatching(b, rows)
}

// simpleBound sums dist over the boxes of p; false when one is
// Unreachable.
func (s *biSearch) simpleBound(p *sokoban.Position, dist []int32) (int32, bool) {
	h := int32(0)
	for _, b := range p.BoxSquares() {
		d := dist[b]
		if d == sokoban.Unreachable {
			return 0, false
		}
		h += d
	}
	return h, true
}

// run expands states, by turns of the two searches, until a solution, a
// proof that there is none, the budget's end, or the end of a slice (until:
// expansions of the whole search, and own time by own; zero: none), where
// it pauses (paused true) and can be run on.
func (s *biSearch) run(until solver.Budget, own func() bool) (res solver.Result, paused bool, err error) {
	g := s.g
	for {
		if until.Nodes > 0 && g.stats.Expanded >= until.Nodes || own != nil && g.stats.Expanded%64 == 0 && own() {
			return solver.Result{}, true, nil
		}
		if !s.fwdOpen && !s.backOpen || s.proved() {
			s.count()
			return g.stop(s.exhausted()), false, nil
		}
		if st, stop := g.tick(s.bytes()); stop {
			s.count()
			return g.stop(st), false, nil
		}
		var met bool
		var pushes []sokoban.Push
		if s.backward() {
			met, pushes, err = s.expandBackward()
		} else {
			met, pushes, err = s.expandForward()
		}
		switch {
		case err != nil:
			return solver.Result{}, false, err
		case met:
			s.count()
			res, err := g.finish(pushes)
			return res, false, err
		case g.halt != solver.Solved:
			s.count()
			return g.stop(g.halt), false, nil
		}
	}
}

// The counts of bigreedy (solver.Stats.Counts): each search's expansions,
// and in a solution the pushes of the forward path and of the backward
// path at the meeting.
const (
	biForwardCount     = "bigreedy.forward"
	biBackwardCount    = "bigreedy.backward"
	biMeetForwardCount = "bigreedy.meet.forward"
	biMeetBackCount    = "bigreedy.meet.backward"
	biUnreachableCount = "bigreedy.dead.starttable"
)

// count writes each search's expansions into the statistics.
func (s *biSearch) count() {
	if s.g.stats.Counts == nil {
		s.g.stats.Counts = map[string]int64{}
	}
	s.g.stats.Counts[biForwardCount] = s.fwdExpanded
	s.g.stats.Counts[biBackwardCount] = s.backExpanded
	if s.startTable != nil {
		s.g.stats.Counts[biUnreachableCount] = s.unreachable
	}
	if s.meet >= 0 {
		s.g.stats.Counts[biMeetForwardCount] = int64(s.meet)
		s.g.stats.Counts[biMeetBackCount] = int64(s.meetBack)
	}
}

// backward reports whether the next expansion is the backward search's:
// by the share, while both have states to expand.
func (s *biSearch) backward() bool {
	switch {
	case !s.backOpen:
		return false
	case !s.fwdOpen:
		return true
	}
	return float64(s.backExpanded) < s.backShare*float64(s.fwdExpanded+s.backExpanded+1)
}

// exhausted is the status once neither search has states left, or one
// has and that proves there is no solution (proved).
func (s *biSearch) exhausted() solver.Status {
	switch {
	case s.proved():
		return solver.NoSolution
	case s.fwdCut || s.backCut:
		return solver.DepthLimit
	}
	return solver.GaveUp
}

// proved reports whether a search with no states left proves that there
// is no solution, which it does when it pruned soundly only: the forward
// search unless a goal-room macro moved a box (it fixes a packing order)
// or a path passed maxDepth; the backward search, which pulls every box
// that can be pulled, dropping only states the start cannot reach, unless
// a path passed maxDepth, and only if it ran (a share above 0). Either
// one's proof ends the run: the other has nothing left to find.
func (s *biSearch) proved() bool {
	return !s.fwdOpen && s.backShare < 1 && !s.g.roomMoved && !s.fwdCut ||
		!s.backOpen && s.backShare > 0 && !s.backCut
}

// bytes returns the memory the search holds beyond the graph's.
func (s *biSearch) bytes() int64 {
	return int64(cap(s.side)) + 2*int64(cap(s.depth)) + s.fwd.Bytes() + s.back.Bytes()
}

// expandForward expands the forward search's next state: every push (with
// the macros) to a state not stored before is stored and queued on its
// bound; one to a state the backward search stored is the meeting, and
// pushes is then the whole solution.
func (s *biSearch) expandForward() (met bool, pushes []sokoban.Push, err error) {
	g := s.g
	id, h, ok := s.fwd.Pop()
	if !ok {
		s.fwdOpen = false
		return false, nil, nil
	}
	g.pos.Unpack(g.store.Key(id))
	g.track()
	g.stats.Expanded++
	s.fwdExpanded++
	s.expanded(biForward, h)
	if s.lb != nil {
		s.lb.SetBase(g.pos, id)
	}
	s.pushes = g.candidates(s.pushes[:0])
	for _, m := range s.pushes {
		if st, stop := g.pulse(); stop {
			g.halt = st
			return false, nil, nil
		}
		mv := g.pushMacro(m)
		if mv.steps == 0 {
			continue
		}
		depth := int(s.depth[id]) + mv.pushes()
		if depth > maxDepth {
			s.fwdCut = true
			g.undoMacro(mv)
			continue
		}
		child, fresh := g.addMove(id, mv)
		if !fresh {
			if s.side[child] == biBackward {
				last := g.appendPushes(nil, mv) // before pathTo's replay reuses the macro's scratch
				pushes, err = g.pathTo(id)
				pushes = append(pushes, last...)
				return true, s.backPath(pushes, child), err
			}
			g.undoMacro(mv)
			continue
		}
		s.side, s.depth = append(s.side, biForward), append(s.depth, uint16(depth))
		if g.pos.Solved() { // every solved state is a backward root: a guard only
			pushes, err = g.pathTo(child)
			return true, pushes, err
		}
		var ch int32
		if s.lb != nil {
			if ch, ok = s.lb.Child(g.pos); ok {
				s.lb.Keep(child)
			}
		} else {
			ch, ok = s.simpleBound(g.pos, s.nearGoal)
		}
		if ok {
			s.fwd.Push(queued(int(ch)), depth, child)
		}
		g.undoMacro(mv)
	}
	return false, nil, nil
}

// backPath appends to pushes the pushes that take backward state id to
// the solved position: the link of each state on the way to its root.
func (s *biSearch) backPath(pushes []sokoban.Push, id uint32) []sokoban.Push {
	s.meet = len(pushes)
	pushes = s.tail(pushes, id)
	s.meetBack = len(pushes) - s.meet
	return pushes
}

// tail appends to pushes the pushes from the position of backward state id
// to the solved position its pulls came from.
func (s *biSearch) tail(pushes []sokoban.Push, id uint32) []sokoban.Push {
	for ln := s.g.links.At(int(id)); ln.parent != noParent; ln = s.g.links.At(int(ln.parent)) {
		pushes = append(pushes, sokoban.Push{Box: sokoban.Square(ln.via >> 2 & 0xffff), Dir: sokoban.Dir(ln.via & 3)})
	}
	return pushes
}

// pushFrom returns per square the least pushes that take a lone box there
// from the nearest of the squares in from, with the player anywhere behind
// it (a relaxation: the player's way round is not checked), or
// Unreachable: a square no box can reach.
func pushFrom(b *sokoban.Board, from []sokoban.Square) []int32 {
	dist := make([]int32, b.N)
	for i := range dist {
		dist[i] = sokoban.Unreachable
	}
	queue := make([]sokoban.Square, 0, b.N)
	for _, sq := range from {
		if dist[sq] != 0 {
			dist[sq] = 0
			queue = append(queue, sq)
		}
	}
	for head := 0; head < len(queue); head++ {
		sq := queue[head]
		for d := range sokoban.Dirs {
			to, behind := b.Next(sq, d), b.Next(sq, d^1)
			if to < 0 || behind < 0 || dist[to] != sokoban.Unreachable {
				continue
			}
			dist[to] = dist[sq] + 1
			queue = append(queue, to)
		}
	}
	return dist
}

// bigreedyParams are bigreedy's parameters.
func bigreedyParams() []solver.Param {
	return []solver.Param{biBackParam, biMatchingParam, deadlocksParam(defaultDetectors), piCorralParam, tunnelsParam, roomsParam(true), biFrozenGoalsParam, biBackMatchingParam, biBackDeepParam, biBackTableParam}
}

// expanded notes that the search on side expanded a state of bound h.
func (s *biSearch) expanded(side uint8, h int) {
	if b := &s.best[side]; *b < 0 || int32(h) < *b {
		*b = int32(h)
	}
}

// improved reports whether either search expanded a state of a bound
// lower than its least when the running slice began (or the slice is the
// first), and starts the next slice's count.
func (s *biSearch) improved() bool {
	better := s.slicedBest == [2]int32{-1, -1}
	for i, b := range s.best {
		better = better || b >= 0 && (s.slicedBest[i] < 0 || b < s.slicedBest[i])
	}
	s.slicedBest = s.best
	return better
}
