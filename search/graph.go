package search

import (
	"context"
	"fmt"
	"slices"

	"soko/deadlock"
	"soko/heuristic"
	"soko/internal/chunked"
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
	dead  []bool
	// checker runs the dynamic deadlock detectors after each push.
	checker *deadlock.Checker
	// frozen, when set, prunes positions that boxes frozen on goals make
	// unsolvable, after the checker, and tells A*'s scorer which boxes
	// must leave their goals.
	frozen *deadlock.FrozenGoals
	// moved is the square the box of the move being scored ended on, and
	// parkedTie what each parked box that must leave its goal adds to a
	// state's tie value (parkedLastParam).
	moved     sokoban.Square
	parkedTie int
	// groups, when set, raises A*'s bound (heuristic.GroupBound).
	groups *heuristic.GroupBound
	// macros holds the tables of pushMacro, which follows a box through
	// tunnels when tunnels is set and into goal rooms when rooms is set.
	macros *deadlock.Macros
	// region, when set, is the player's region of the state being
	// expanded, which gives the canonical player square of most children
	// without a flood fill (see add).
	region *sokoban.Region
	// piCorrals, tunnels and rooms say which of PI-corral pruning, the
	// tunnel macro and the goal-room macro the successors use
	// (setUpMoves); barrier is scratch for the PI-corral.
	piCorrals bool
	tunnels   bool
	rooms     bool
	barrier   []sokoban.Square
	// roomMoved is set once a goal-room macro moved a box: it drops the
	// box's other pushes in the room, which is not proved to keep a
	// solution, so an exhausted search has then proved nothing (exhausted).
	roomMoved bool
	// sym, when set, stores each position as one image under the board's
	// symmetries (see symmetry); a move is then in the frame of the image
	// stored for the state it was made from.
	sym   *symmetry
	store *sokoban.Store
	links chunked.Slice[link] // per stored state: its parent and the move that reached it
	key   []byte              // scratch for packing
	stats solver.Stats
	guard *solver.Guard

	// static is the memory of the tables built before the search (the
	// board's, the pull distances, the detectors', the macros'), counted
	// against the budget with the rest; halt is the budget's status when it
	// ran out while they were built (see ready).
	static int64
	halt   solver.Status
	pulses int // calls of pulse

	// The expanded state with the most boxes on goals, which progress
	// events draw (see track).
	best *sokoban.MostOnGoal

	// tableLater, when set, are the limits of the deadlock table the
	// checker gets once tableAfter states were expanded (track).
	tableLater *deadlock.TableLimits
	// tables builds the deadlock table, or hands over one built for the
	// level already (BiGreedyMember.Tables); nil: deadlock.NewTable.
	tables TableSource
}

// TableSource gives a search the deadlock table of b under limits, as
// deadlock.NewTable builds it: a portfolio's members may share one.
type TableSource func(ctx context.Context, b *sokoban.Board, limits deadlock.TableLimits) (*deadlock.Table, error)

// tableAfter is how many states a push search expands before it builds the
// deadlock table: most small levels are solved sooner than the table
// takes to build (Microban's median time doubled with the table built at
// set-up; docs/measurements.md, "small boards").
const tableAfter = 2000

const noParent = ^uint32(0)

// link is how a stored state was reached: the state it was reached from
// (noParent for the start) and the move, packed by its search
// (macroMove.via for pushes).
type link struct{ parent, via uint32 }

// defaultDetectors are the dynamic deadlock detectors the push searches run
// unless the "deadlocks" parameter names others (deadlock.ParseDetectors).
const defaultDetectors = "freeze,wallsegment,table"

// newPushGraph prepares a search of l and starts its budget's clock. The
// deadlock detectors are those of the "deadlocks" parameter, or detectors.
// Building the tables counts against the budget: when it runs out first,
// the graph is returned without them and ready says so.
func newPushGraph(ctx context.Context, l *level.Level, opts solver.Options, detectors string) (*pushGraph, error) {
	list, err := opts.List(deadlocksParam(detectors))
	if err != nil {
		return nil, err
	}
	on, err := deadlock.ParseDetectors(list)
	if err != nil {
		return nil, err
	}
	b, err := sokoban.NewBoard(l)
	if err != nil {
		return nil, err
	}
	g := &pushGraph{board: b, pos: b.Start(), store: sokoban.NewStore(b.KeySize())}
	g.best = sokoban.NewMostOnGoal(b)
	g.watch(solver.NewGuard(ctx, opts))
	if b.Impossible != "" || g.charge(b.Bytes()) {
		return g, nil
	}
	g.dead = deadlock.DeadSquares(b)
	if on.Table {
		limits := deadlock.LimitsWithin(opts.Budget.TablesLeft(g.static), opts.Budget.Time)
		g.tableLater, on.Table = &limits, false
	}
	g.checker = deadlock.NewChecker(b, g.dead, on)
	g.checker.On.Table = g.tableLater != nil
	g.charge(g.checker.Bytes())
	return g, nil
}

// buildTable builds the deadlock table the checker waits for.
func (g *pushGraph) buildTable() {
	limits := *g.tableLater
	g.tableLater = nil
	build := g.tables
	if build == nil {
		build = deadlock.NewTable
	}
	if t := g.newTable(build, limits); t != nil {
		g.checker.SetTable(t)
	}
}

// newTable builds a table with build (deadlock.NewTable or NewStartTable)
// under limits and the budget's set-up context, and charges it; a table
// that does not fit its limits or time is nil, and a search whose context
// ended stops at its next pulse.
func (g *pushGraph) newTable(build TableSource, limits deadlock.TableLimits) *deadlock.Table {
	setUp, cancel := g.guard.SetUp()
	defer cancel()
	t, err := build(setUp, g.board, limits)
	if err != nil || t == nil {
		return nil
	}
	g.static += t.Bytes()
	return t
}

// watch makes guard the graph's budget guard, which draws the position
// track kept in its progress events.
func (g *pushGraph) watch(guard *solver.Guard) {
	g.guard = guard
	g.guard.Best(g.best.Rows)
	g.guard.Describe(g.best.Caption)
}

// matching builds the lower bound of the informed push searches under the
// budget: the matching on pull distances with the player's side
// (heuristic.NewSidedPushMatching). The distances by side, the biggest
// table (4 bytes per goal, square and side), are charged before they are
// built and dropped once the bound has copied them. When the budget runs
// out first it returns nil, and ready says so.
func (g *pushGraph) matching() (*heuristic.PushMatching, error) {
	rows := 4 * g.board.PullBytes()
	if g.halt != solver.Solved || g.charge(rows) {
		return nil, nil
	}
	setUp, cancel := g.guard.SetUp()
	defer cancel()
	dist, err := g.board.PullDistancesBySide(setUp)
	if err != nil {
		g.static -= rows // not built after all
		g.stats.Bytes = g.bytes()
		return nil, g.stopped(err)
	}
	sides := g.board.NewSides()
	lb, err := heuristic.NewSidedPushMatching(setUp, g.board, sides, dist)
	if err != nil {
		g.static -= rows
		g.stats.Bytes = g.bytes()
		return nil, g.stopped(err)
	}
	stop := g.charge(lb.Bytes() + sides.Bytes())
	g.static -= rows
	if stop {
		return nil, nil
	}
	return lb, nil
}

// charge counts n more bytes of static tables and checks the budget. It
// reports whether the search must stop; the status is kept for ready.
func (g *pushGraph) charge(n int64) bool {
	g.static += n
	st, stop := g.tick(0)
	if stop {
		g.halt = st
	}
	return stop
}

// stopped keeps the status for an error from set-up work done under the
// guard's SetUp context, for ready; an error that is not the budget's is
// returned.
func (g *pushGraph) stopped(err error) error {
	st, ok := solver.Stopped(err)
	if !ok {
		return err
	}
	g.halt = st
	return nil
}

// startGraph is newPushGraph for a search about to start: ok is false
// when it cannot, and res and err are then what the search returns (the
// error, or the status ready gives).
func startGraph(ctx context.Context, l *level.Level, opts solver.Options, detectors string) (g *pushGraph, res solver.Result, ok bool, err error) {
	g, err = newPushGraph(ctx, l, opts, detectors)
	if err != nil {
		return nil, solver.Result{}, false, err
	}
	if st, ready := g.ready(); !ready {
		return nil, g.stop(st), false, nil
	}
	return g, solver.Result{}, true, nil
}

// ready reports whether the search can start: it cannot when the budget
// ran out while the tables were built (the status says which limit) or
// when the level is unsolvable from the start (NoSolution).
func (g *pushGraph) ready() (solver.Status, bool) {
	switch {
	case g.halt != solver.Solved:
		return g.halt, false
	case g.board.Impossible != "":
		return solver.NoSolution, false
	}
	return solver.Solved, true
}

// setUpMoves reads which successor-generation features the search uses:
// PI-corral pruning always, the tunnel macro when tunnels is set (searches
// whose guarantees it keeps) and the goal-room macro when rooms is set
// (searches that give up optimality), with default roomsOn; and builds the
// macros' tables under the budget. When the budget runs out first, ready
// says so.
func (g *pushGraph) setUpMoves(opts solver.Options, tunnels, rooms, roomsOn bool) error {
	var err error
	if g.piCorrals, err = opts.Bool(piCorralParam); err != nil {
		return err
	}
	if tunnels {
		if g.tunnels, err = opts.Bool(tunnelsParam); err != nil {
			return err
		}
	}
	if rooms {
		if g.rooms, err = opts.Bool(roomsParam(roomsOn)); err != nil {
			return err
		}
	}
	if !g.tunnels && !g.rooms || g.halt != solver.Solved {
		return nil
	}
	setUp, cancel := g.guard.SetUp()
	defer cancel()
	m, err := deadlock.NewMacros(setUp, g.board)
	if err != nil {
		return g.stopped(err)
	}
	g.macros = m
	g.charge(m.Bytes())
	return nil
}

// candidates appends to dst the pushes every search over pushes tries from
// the working position: the legal pushes not onto dead squares, and with
// PI-corral pruning on, when there is a PI-corral, only the pushes of the
// boxes around it (deadlock.Corrals.PICorral says why that keeps an optimal
// solution, and a solution of any given length). For addMove it takes the
// position's region first: with symmetry on (g.sym), the tree of
// symmetry.expand, else g.region when that is set.
func (g *pushGraph) candidates(dst []sokoban.Push) []sokoban.Push {
	size := -1 // the squares of the player's region, when taken
	if g.sym != nil {
		size = g.sym.expand(g.pos)
	} else if g.region != nil {
		g.region.Of(g.pos)
		size = g.region.Size()
	}
	start := len(dst)
	dst = g.pos.Pushes(dst, g.dead)
	if !g.piCorrals || size+g.board.Boxes() == g.board.N {
		return dst // off, or the player reaches every free square: no corral
	}
	if g.barrier = g.checker.Corrals().PICorral(g.pos, g.barrier[:0]); len(g.barrier) > 0 {
		kept := slices.DeleteFunc(dst[start:], func(m sokoban.Push) bool { return !slices.Contains(g.barrier, m.Box) })
		dst = dst[:start+len(kept)]
	}
	return dst
}

// redoMacro makes again a move pushMacro made and undoMacro undid.
func (g *pushGraph) redoMacro(mv macroMove) {
	box := g.pos.Apply(mv.push)
	for range mv.steps - 1 {
		box = g.pos.Apply(sokoban.Push{Box: box, Dir: mv.push.Dir})
	}
	for _, q := range mv.room {
		g.pos.Apply(q)
	}
}

// appendPushes appends the pushes of move mv to dst.
func (g *pushGraph) appendPushes(dst []sokoban.Push, mv macroMove) []sokoban.Push {
	box := mv.push.Box
	for range mv.steps {
		dst = append(dst, sokoban.Push{Box: box, Dir: mv.push.Dir})
		box = g.board.Next(box, mv.push.Dir)
	}
	return append(dst, mv.room...)
}

// track notes the working position as the most promising so far when it
// has more boxes on goals than any before. Searches call it on each state
// they expand.
func (g *pushGraph) track() {
	if g.tableLater != nil && g.stats.Expanded >= tableAfter {
		g.buildTable()
	}
	g.best.Offer(g.pos)
}

// addRoot stores the start position.
func (g *pushGraph) addRoot() uint32 {
	h := uint64(0)
	if g.sym != nil {
		g.key, h, _ = g.sym.canon(g.key[:0], g.pos)
	} else {
		g.key, h = g.pos.Pack(g.key[:0]), g.pos.Hash()
	}
	id, _ := g.store.Intern(g.key, h)
	g.links.Append(link{noParent, 0})
	g.stats.Stored = 1
	return id
}

// add stores the working position, reached from parent by push m.
func (g *pushGraph) add(parent uint32, m sokoban.Push) (uint32, bool) {
	g.key = g.pos.Pack(g.key[:0])
	return g.intern(parent, m, g.pos.Hash())
}

// addMove stores the working position, reached from parent by move mv.
// When the region of the parent was taken (g.region) and the move pushes
// one box in a line (no goal-room macro), the region gives the canonical
// player square; with symmetry on, the tree symmetry.expand made of it
// gives the least images of the player's region.
func (g *pushGraph) addMove(parent uint32, mv macroMove) (uint32, bool) {
	id, fresh := uint32(0), false
	if g.sym != nil {
		var h uint64
		if mv.room == nil { // one box pushed in a line from the expanded state
			g.key, h, _ = g.sym.canonChild(g.key[:0], g.pos, mv.push.Box, mv.to)
		} else {
			g.key, h, _ = g.sym.canon(g.key[:0], g.pos)
		}
		id, fresh = g.intern(parent, mv.push, h)
	} else if canon, ok := g.canonAfter(mv); ok {
		g.key = g.pos.PackAt(g.key[:0], canon)
		id, fresh = g.intern(parent, mv.push, g.pos.HashAt(canon))
	} else {
		id, fresh = g.add(parent, mv.push)
	}
	if fresh {
		g.links.At(int(id)).via = mv.via()
	}
	return id, fresh
}

// canonAfter returns the canonical player square after move mv from the
// state whose region was taken, when the region can tell.
func (g *pushGraph) canonAfter(mv macroMove) (sokoban.Square, bool) {
	if g.region == nil || mv.room != nil {
		return sokoban.None, false
	}
	return g.region.After(g.pos, mv.push.Box, mv.to)
}

// intern stores the packed g.key with hash h, reached from parent by push m.
func (g *pushGraph) intern(parent uint32, m sokoban.Push, h uint64) (uint32, bool) {
	id, fresh := g.store.Intern(g.key, h)
	if fresh {
		g.links.Append(link{parent, viaOf(m, 1)})
		g.stats.Stored++
	}
	return id, fresh
}

// push applies m to the working position and reports whether the result
// is a deadlock (the push is then already undone), for bfs-moves.
func (g *pushGraph) push(m sokoban.Push) (deadlocked bool) {
	to := g.pos.Apply(m)
	g.stats.Generated++
	if g.checker.Deadlocked(g.pos, to) {
		g.pos.Undo(m)
		return true
	}
	return false
}

// pulseEvery is how many calls of pulse pass between looks at the clock
// and the context.
const pulseEvery = 16

// pulse looks at the clock and the context every pulseEvery calls. The
// searches call it once per push they generate: Tick comes once per
// expansion, and on the largest boards with many boxes one expansion can
// take a second (a flood fill for the canonical player square and a
// matching for the bound per child).
func (g *pushGraph) pulse() (solver.Status, bool) {
	if g.pulses++; g.pulses%pulseEvery != 0 {
		return solver.Solved, false
	}
	return g.guard.Check(&g.stats)
}

// tick checks the budget; extra is memory the caller holds beyond the graph.
func (g *pushGraph) tick(extra int64) (solver.Status, bool) {
	g.stats.Bytes = g.bytes() + extra
	return g.guard.Tick(&g.stats)
}

// macroMove is a push as the best-first searches make it: the push, the
// tunnel macro's further pushes in the same direction, and the goal-room
// macro's pushes after those.
type macroMove struct {
	push  sokoban.Push
	to    sokoban.Square // the box's square after the straight pushes
	steps int            // straight pushes, the first included; 0: deadlocked, undone
	room  []sokoban.Push // the goal-room macro's pushes, or nil
}

// pushes returns the number of pushes the move makes.
func (mv macroMove) pushes() int { return mv.steps + len(mv.room) }

// via packs the move for the via table: the box square in bits 2–17, the
// direction in bits 0–1, steps − 1 in bits 18–30, and in bit 31 whether
// the goal-room macro followed (solution replays it).
func (mv macroMove) via() uint32 {
	v := viaOf(mv.push, mv.steps)
	if mv.room != nil {
		v |= viaRoom
	}
	return v
}

const viaRoom = 1 << 31

// pushMacro applies push m followed, when macros are on, by the tunnel
// macro of 001 §2.1.2 (deadlock.Macros.CarriesOn): while the box stands in a one-wide tunnel along the
// push, off any goal, on a square that splits the board (Board.Splits), and
// the square ahead is such a square too, free and not dead, the box is
// pushed on. Then, when goal-room macros are on too and the box stands on
// the entrance of a goal room, pushed towards it, it is pushed on to the
// room's next goal (deadlock.Macros.RoomPath). The move is undone, and
// reported with steps 0, when it ends in a deadlock.
//
// The tunnel macro keeps optimal solutions. Where the box's square splits
// the board, the player, who is behind it, can never reach the squares in
// front while it is there: the box can only move on, pushed from behind,
// and nothing else can move in front of it. So in any solution the pushes
// that carry it on through such squares can be made at once without
// changing any other push. (Without the split condition this is false: in
// Microban 11 and 117 the player walks round to the far end and pushes the
// box back.) The goal-room macro gives that up: it fixes which goal the box
// goes to and when, which can lengthen the solution or, rarely, lose it.
func (g *pushGraph) pushMacro(m sokoban.Push) macroMove {
	mv := macroMove{push: m, to: g.pos.Apply(m), steps: 1}
	g.stats.Generated++
	b := g.board
	for g.tunnels && g.macros.CarriesOn(mv.to, m.Dir) {
		next := b.Next(mv.to, m.Dir)
		if next < 0 || g.pos.HasBox(next) || g.dead[next] || !g.macros.CarriesOn(next, m.Dir) {
			break
		}
		mv.to = g.pos.Apply(sokoban.Push{Box: mv.to, Dir: m.Dir})
		mv.steps++
	}
	if g.rooms {
		mv.room = g.macros.RoomPath(g.pos, mv.to, m.Dir)
		g.roomMoved = g.roomMoved || len(mv.room) > 0
		for _, q := range mv.room {
			g.pos.Apply(q)
		}
		g.stats.Generated += int64(len(mv.room))
	}
	return g.checkMacro(mv)
}

// checkMacro runs the deadlock detectors on the box a move left, and undoes
// the move if they find one.
func (g *pushGraph) checkMacro(mv macroMove) macroMove {
	box := mv.to
	if n := len(mv.room); n > 0 {
		box = g.board.Next(mv.room[n-1].Box, mv.room[n-1].Dir)
	}
	if g.checker.Deadlocked(g.pos, box) || g.frozen != nil && g.frozen.Dead(g.pos) {
		g.undoMacro(mv)
		mv.steps = 0
	}
	return mv
}

// undoMacro undoes a move made by pushMacro.
func (g *pushGraph) undoMacro(mv macroMove) {
	for i := len(mv.room) - 1; i >= 0; i-- {
		g.pos.Undo(mv.room[i])
	}
	to, d := mv.to, mv.push.Dir
	for range mv.steps {
		from := g.board.Next(to, d^1)
		g.pos.Undo(sokoban.Push{Box: from, Dir: d})
		to = from
	}
}

// viaOf packs a push of steps squares for the via table: the box square in
// bits 2–17, the direction in bits 0–1, steps − 1 in bits 18–30 (bit 31 is
// viaRoom).
func viaOf(m sokoban.Push, steps int) uint32 {
	return uint32(m.Box)<<2 | uint32(m.Dir) | uint32(steps-1)<<18
}

// bytes returns the memory held by the graph's tables.
func (g *pushGraph) bytes() int64 {
	return g.static + g.store.Bytes() + g.links.Bytes()
}

// solution rebuilds the pushes leading to id and expands them into moves.
// The path is replayed from the start, since a goal-room macro's pushes
// depend on the position it was made in, and a move stored under symmetry
// is in the frame of the image stored for its position.
func (g *pushGraph) solution(id uint32) (solver.Result, error) {
	pushes, err := g.pathTo(id)
	if err != nil {
		return solver.Result{}, err
	}
	return g.finish(pushes)
}

// pathTo rebuilds the pushes that lead from the start to state id, as
// solution says.
func (g *pushGraph) pathTo(id uint32) ([]sokoban.Push, error) {
	var vias []uint32
	for ln := g.links.At(int(id)); ln.parent != noParent; ln = g.links.At(int(ln.parent)) {
		vias = append(vias, ln.via)
	}
	slices.Reverse(vias)
	var pushes []sokoban.Push
	p := g.board.Start()
	for _, v := range vias {
		box, d, steps := sokoban.Square(v>>2&0xffff), sokoban.Dir(v&3), int(v>>18&0x1fff)+1
		if g.sym != nil { // v is a move of the stored image of p
			_, _, t := g.sym.canon(g.key[:0], p)
			m := g.sym.push(sokoban.Push{Box: box, Dir: d}, t)
			box, d = m.Box, m.Dir
		}
		for range steps {
			m := sokoban.Push{Box: box, Dir: d}
			pushes = append(pushes, m)
			box = p.Apply(m)
		}
		if v&viaRoom != 0 {
			room := g.macros.RoomPath(p, box, d)
			if room == nil {
				return nil, fmt.Errorf("%s: goal-room macro lost on replay", g.board.Level.Name())
			}
			for _, m := range room {
				p.Apply(m)
			}
			pushes = append(pushes, room...)
		}
	}
	return pushes, nil
}

// finish expands a solution's pushes into moves and stamps the statistics.
func (g *pushGraph) finish(pushes []sokoban.Push) (solver.Result, error) {
	g.countGroups()
	g.countDeadlocks()
	g.stats.Bytes = max(g.stats.Bytes, g.bytes())
	g.guard.Finish(&g.stats)
	moves, err := g.board.Expand(pushes)
	if err != nil {
		return solver.Result{}, err
	}
	return solver.Result{Status: solver.Solved, Moves: moves, Pushes: len(pushes), Stats: g.stats}, nil
}

// stop ends a search with a status other than Solved.
func (g *pushGraph) stop(st solver.Status) solver.Result {
	g.countGroups()
	g.countDeadlocks()
	g.stats.Bytes = max(g.stats.Bytes, g.bytes())
	g.guard.Finish(&g.stats)
	return solver.Result{Status: st, Stats: g.stats}
}

// setUpGroups sets the group bound up (heuristic.NewGroupBound) for the start
// position, whose bound is h, under the budget; g.groups stays nil where it
// would not raise the bound. It reports whether the budget ran out first
// (g.halt says how).
func (g *pushGraph) setUpGroups(h int32) bool {
	setUp, cancel := g.guard.SetUp()
	defer cancel()
	dist, err := g.board.PullDistances(setUp)
	if err != nil {
		g.halt, _ = solver.Stopped(err)
		return true
	}
	g.groups = heuristic.NewGroupBound(g.board.Start(), g.dead, dist, h)
	if g.groups != nil {
		g.groups.Stop = func() bool {
			st, stop := g.guard.Check(&g.stats)
			if stop {
				g.halt = st
			}
			return stop
		}
	}
	return false
}

// countGroups copies the group bound's counts into the statistics.
func (g *pushGraph) countGroups() {
	if g.groups == nil {
		return
	}
	if g.stats.Counts == nil {
		g.stats.Counts = map[string]int64{}
	}
	g.stats.Counts["groups.searches"] = g.groups.Searches
	g.stats.Counts["groups.nodes"] = g.groups.Nodes
	g.stats.Counts["groups.hits"] = g.groups.Hits
	g.stats.Counts["groups.misses"] = g.groups.Misses
	g.stats.Counts["groups.states"] = int64(g.groups.States())
}

// countDeadlocks copies into the statistics how many positions each
// switched-on deadlock detector found ("dead.freeze", ...), and the size
// of the deadlock table where it was built.
func (g *pushGraph) countDeadlocks() {
	if g.checker == nil {
		return
	}
	if g.stats.Counts == nil {
		g.stats.Counts = map[string]int64{}
	}
	for k := deadlock.Kind(0); k < deadlock.NumKinds; k++ {
		if g.checker.On.On(k) {
			g.stats.Counts["dead."+k.String()] = int64(g.checker.Fired[k])
		}
	}
	if t := g.checker.Table(); t != nil {
		g.stats.Counts["table.boxes"] = int64(t.Boxes())
		g.stats.Counts["table.bytes"] = t.Bytes()
	}
}
