package fess

import (
	"fmt"
	"time"

	"soko/deadlock"
	"soko/guide"
	"soko/heuristic"
	"soko/level"
	"soko/sokoban"
	"soko/solver"
)

// engine is one FESS search of one level (docs/fess.md, "The engine"): the
// board and its static tables, the macro-move generator, the packing plan
// and the features it defines, the deadlock tier, the search tree and its
// cell queue, the strategy it runs, and the guard over its budget.
type engine struct {
	b     *sokoban.Board
	near  []int32 // pushes from each square to the nearest goal
	gen   *macroGen
	plan  *plan
	feat  *featurer
	tier  tier      // the deadlock tier (deadlocks.go)
	tree  tree      // the nodes and their positions (tree.go)
	queue cellQueue // the cells and their waiting nodes (queue.go)
	strat *strategy // its row of the strategy table (portfolio.go)
	// pulled is set when its parking plan came from the pull ordering,
	// tried after its own ordering found no position to start from
	// (parkOrders); it then never focuses (focusing).
	pulled bool
	// clearing is the clearing advisor of strategies that have it (nil:
	// none).
	clearing *clearing
	par      params
	pos      *sokoban.Position // the position being expanded
	exp      expansion         // the scratch of one expansion (expand.go)

	// The backward search (backward.go), nil when none ran, and where it
	// met the forward one; replanned is set when the plan came from it
	// (replan).
	back      *backward
	meeting   meeting
	replanned bool
	// start is the start position's key, the forward root's: an
	// opening's backward search that stores it has a solution, which plant
	// splices once the root is planted.
	start positionKey
	// shared is what the other members of the rounds let it meet
	// (member.Share), and meets how far the searches looked for each
	// other's positions (catchup.go).
	shared knowledge
	meets  meets
	// metTail is set when the solution came from a position bigreedy's
	// backward search stored (knowledge.tails).
	metTail bool
	// The parking search (parksearch.go) while it runs, counted in bytes;
	// parked is set when it found a position to start from.
	parking *parkSearch
	parked  bool

	// guide is the learned guide's model (guide.go), nil when it is off;
	// guideScratch the rows of one move, guideProbs the probabilities of
	// one node's children.
	guide        *guide.Model
	guideScratch []uint32
	guideProbs   []float64

	guard  *solver.Guard
	tr     *tracer // nil: tracing off (trace.go)
	budget solver.Budget
	stats  solver.Stats
	static int64 // bytes of the static tables
	// clock returns the search's own time, which its openings and
	// focusing go by against budget, its share; nil: its guard's. A
	// member run in slices counts it over its slices (member.go).
	clock func() time.Duration
}

// params are the engine's parameters besides the strategy (solver.go).
type params struct {
	piCorral bool
	// The interleaved backward search gets backShare of the expansions
	// while it holds less than backMemory bytes; backPlan replans every
	// level, not only where peeling failed.
	backShare  float64
	backMemory int64
	backPlan   bool
}

// backMemoryPart: the interleaved backward search may hold a third of the
// memory budget, so that the forward search keeps the larger part.
const backMemoryPart = 3

// Bytes per square of the static tables newEngine charges besides those
// that count themselves: the dead squares and the distances to the nearest
// goal, rounded up (staticBoard), and the keyer's two Zobrist keys
// (staticKeys).
const (
	staticBoard = 8
	staticKeys  = 16
)

// newEngine builds the static tables of a search of l under the guard; pl,
// when not nil, is l's packing plan worked out already (PlanOrder), which
// takes seconds on the largest boards. A nil engine with a status means
// the budget ran out (or the level is impossible) before the search could
// start.
func newEngine(l *level.Level, guard *solver.Guard, opts solver.Options, pl *plan, lt *levelTables) (*engine, solver.Status, error) {
	b, err := sokoban.NewBoard(l)
	if err != nil {
		return nil, 0, err
	}
	e := &engine{b: b, guard: guard, tree: newTree(b), queue: cellQueue{cellOf: map[cellKey]int32{}}}
	if e.par.piCorral, err = opts.Bool(piCorralParam); err != nil {
		return nil, 0, err
	}
	if e.par.backShare, err = opts.Real(backwardParam); err != nil {
		return nil, 0, err
	}
	if e.par.backPlan, err = opts.Bool(backPlanParam); err != nil {
		return nil, 0, err
	}
	if err := e.openGuide(opts); err != nil {
		return nil, 0, err
	}
	e.par.backMemory = opts.Budget.Memory / backMemoryPart
	e.budget = opts.Budget
	e.tr = newTracer(opts.Trace)
	if b.Impossible != "" {
		return nil, solver.NoSolution, nil
	}
	if st, stop := e.charge(b.Bytes() + b.PullBytes()); stop {
		return nil, st, nil
	}
	setUp, cancel := guard.SetUp()
	defer cancel()
	dist, err := b.PullDistances(setUp)
	if err != nil {
		return e.setUpFailed(err)
	}
	dead := deadlock.DeadFromDistances(b, dist)
	e.near = nearestGoal(dist, b.N)
	limits := deadlock.LimitsWithin(opts.Budget.TablesLeft(e.static), lt.tableTime(opts.Budget.Time))
	if e.tier, err = newTier(setUp, b, dead, heuristic.NewPushMatching(b, dist), lt, limits); err != nil {
		return e.setUpFailed(err)
	}
	// YASS's deadlock sets, before the search learns its own patterns
	// (docs/fess.md, Deadlocks in two tiers).
	e.tier.patterns.Seed(dead, func() bool { return setUp.Err() != nil })
	e.gen = newMacroGen(b, dead)
	if e.gen.macros, err = deadlock.NewMacros(setUp, b); err != nil {
		return e.setUpFailed(err)
	}
	if st, stop := e.charge(e.tier.matching.Bytes() + e.tier.checker.Bytes() + e.gen.bytes() + e.gen.macros.Bytes() + staticBoard*int64(b.N)); stop {
		return nil, st, nil
	}
	if e.plan = pl; pl == nil {
		if e.plan, err = lt.planOf(setUp, b); err != nil {
			return e.setUpFailed(err)
		}
	}
	e.feat = newFeaturer(b, e.plan, dist, e.near)
	if e.feat.hot, err = lt.hotspotsOf(setUp, b); err != nil {
		return e.setUpFailed(err)
	}
	if st, stop := e.charge(e.plan.bytes() + e.feat.bytes() + e.feat.hot.bytes() + staticKeys*int64(b.N)); stop {
		return nil, st, nil
	}
	e.pos = b.Start()
	return e, solver.Solved, nil
}

func (e *engine) setUpFailed(err error) (*engine, solver.Status, error) {
	if st, ok := solver.Stopped(err); ok {
		return nil, st, nil
	}
	return nil, 0, err
}

// charge counts n more bytes of static tables and checks the budget.
func (e *engine) charge(n int64) (solver.Status, bool) {
	e.static += n
	return e.tick()
}

func (e *engine) tick() (solver.Status, bool) {
	e.stats.Bytes = e.bytes()
	return e.guard.Tick(&e.stats)
}

func (e *engine) bytes() int64 {
	n := e.static + e.tree.bytes() + e.queue.bytes() + e.tier.bytes()
	if e.back != nil {
		n += e.back.bytes()
	}
	if e.parking != nil {
		n += e.parking.bytes()
	}
	if e.clearing != nil {
		n += e.clearing.bytes()
	}
	return n
}

// spent reports whether share of budget b is spent: of its time or of its
// expansions, whichever limits b sets; false when it sets neither. It
// compares with share·limit rather than a quotient with share, so that the
// expansion a share ends at is the same as it has always been.
func (e *engine) spent(b solver.Budget, share float64) bool {
	return b.Time > 0 && e.elapsed() >= time.Duration(float64(b.Time)*share) ||
		b.Nodes > 0 && float64(e.stats.Expanded) >= float64(b.Nodes)*share
}

// elapsed returns the engine's own time (clock).
func (e *engine) elapsed() time.Duration {
	if e.clock != nil {
		return e.clock()
	}
	return e.guard.Elapsed()
}

// left reports whether a search run before the forward one (openings.go),
// steps expansions in, may go on: share of the budget is not spent yet,
// or, with neither a time nor a node limit, it is short of most steps.
func (e *engine) left(share float64, steps, most int64) bool {
	if e.budget.Time <= 0 && e.budget.Nodes <= 0 {
		return steps < most
	}
	return !e.spent(e.budget, share)
}

// begin runs the forward search up to its loop: what every search on the
// engine runs first (plant), the interleaved backward search's set-up, and
// the root's expansion. done is set when the search ended there.
func (e *engine) begin() (res solver.Result, done bool, err error) {
	root, res, done, err := e.plant()
	if done {
		return res, done, err
	}
	if e.par.backShare > 0 && e.back == nil {
		bk, err := e.startBackward(false)
		if err != nil {
			return e.stopped(err)
		}
		e.back = bk
	}
	if st, stop := e.tick(); stop { // the root's expansion counts against the budget too
		return e.stop(st), true, nil
	}
	return e.expand(root)
}

// plant runs what every search on the engine runs first: the start's
// checks, the strategy's opening, and the root of the forward tree, which
// ends the search where it is solved or in the backward store already.
func (e *engine) plant() (root uint32, res solver.Result, done bool, err error) {
	if e.tr != nil {
		e.tr.start(e)
	}
	if _, isDead := e.tier.checker.CheckPosition(e.pos); isDead || !e.tier.feasible(e.pos) {
		return 0, e.stop(solver.NoSolution), true, nil
	}
	_, canon := e.feat.regions(e.pos)
	e.tree.sortBoxes(e.pos)
	key, hash := e.tree.keys.pack(nil, e.tree.sorted, sokoban.None, sokoban.None, canon)
	e.start = positionKey{key, hash}
	if res, done, err := e.strat.opening.open(e); done {
		return 0, res, done, err
	}
	f, _ := e.feat.of(e.pos)
	root, _ = e.tree.store.Intern(e.start.key, e.start.hash)
	e.tree.nodes.Append(node{parent: noParent, feat: f, cell: e.queue.cellFor(f.cell())})
	e.queue.best, e.queue.first = e.tree.at(root).cell, root
	e.stats.Stored = 1
	if e.tr != nil {
		e.tr.root(e, root)
	}
	e.watch()
	if e.pos.Solved() {
		res, err := e.solution(root, nil)
		return root, res, true, err
	}
	if e.back != nil {
		if bid, ok := e.start.find(e.back.store); ok {
			e.meeting = meeting{forward: root, backward: bid, ok: true}
			res, err := e.met()
			return root, res, true, err
		}
	}
	return root, solver.Result{}, false, nil
}

// watch hands the guard the drawing and description of the best cell for
// progress events.
func (e *engine) watch() {
	e.guard.Best(e.drawBest)
	e.guard.Describe(func() string {
		k := e.queue.cells[e.queue.best].key
		return fmt.Sprintf("packed %d of %d, regions %d, out of plan %d, hotspots %d",
			k.packed, len(e.b.Goals()), k.conn, k.oop, k.hot)
	})
}

// mark returns the best cell, where the forward search stands.
func (e *engine) mark() int32 { return e.queue.best }

// progress reports whether the best cell changed from before (-1: none
// yet), and if not, whether it has no node left waiting: the search is
// stalled there.
func (e *engine) progress(before int32) (improved, stalled bool) {
	improved = before < 0 || e.queue.best != before
	return improved, !improved && len(e.queue.cells[before].wait) == 0
}

// step is one turn of the FESS loop: pick a node from the cell queue, run
// the expensive deadlock tier on it, expand it. done is set when the
// search ended.
func (e *engine) step() (res solver.Result, done bool, err error) {
	if st, stop := e.tick(); stop {
		return e.stop(st), true, nil
	}
	if e.back != nil {
		if e.backward() {
			res, err := e.met()
			return res, true, err
		}
		if st, stop := e.tick(); stop { // its steps may have spent the budget
			return e.stop(st), true, nil
		}
	}
	id, ok := e.next()
	if !ok {
		if !e.strat.moves.exhaustive() {
			return e.stop(solver.GaveUp), true, nil // a part of the graph, searched
		}
		return e.stop(solver.NoSolution), true, nil
	}
	e.pos.Unpack(e.tree.store.Key(id))
	if !e.tier.alive(&e.tree, e.pos, id) {
		e.tree.at(id).state = dead
		return solver.Result{}, false, nil
	}
	return e.expand(id)
}
