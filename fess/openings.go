package fess

import (
	"soko/solver"
)

// The openings: what a strategy runs before its forward search, each on
// its share of the budget (engine.left), or without a time or node limit
// for at most its number of expansions.
const (
	// imagine gives its backward search a third of its budget, as
	// Festival gives the backward phase of its strategies (the FESS paper).
	imagineShare = 1.0 / 3
	imagineNodes = 20_000
	// replan's backward search gets a tenth (docs/fess.md, Thresholds).
	replanShare = 0.1
	replanNodes = 5_000
	// park's parking search gets a third, as imagine's (docs/fess.md,
	// Thresholds); parkNodes bounds ParkPlan too.
	parkShare = 1.0 / 3
	parkNodes = 20_000
)

// The openings, each a value a row of the strategy table names.
var (
	// replanning, for the strategies that follow the packing plan: a new
	// plan from the backward search where peeling found no order (or
	// always, with backplan).
	replanning opening = replanOpening{}
	// goalsPacked counts boxes on goals in any order as packed, with no
	// plan: it runs nothing.
	goalsPacked opening = goalsOpening{}
	// imagining is imagine's imagined board.
	imagining opening = imagineOpening{}
	// The parking plans: park's sink fixed at the start; sink's moving
	// sink, ordered as Festival's pull search where its own ordering
	// finds no position to start from on the first half of its budget;
	// pull's moving sink ordered as the pull search only (parkOrders).
	fixedSink  opening = parkOpening{name: "parking plan, fixed sink", orders: parkOrders(false, false)}
	movingSink opening = parkOpening{name: "parking plan, moving sink", moving: true, orders: parkOrders(true, false)}
	pulledSink opening = parkOpening{name: "parking plan, moving sink, pull ordering", moving: true, orders: parkOrders(true, true)}
	// noOpening, for searches that run none.
	noOpening opening = noneOpening{}
)

type replanOpening struct{}

func (replanOpening) open(e *engine) (solver.Result, bool, error) {
	if !e.plan.peeled || e.par.backPlan {
		return e.replan()
	}
	return solver.Result{}, false, nil
}

func (replanOpening) share() float64 { return replanShare } // where peeling finds no order
func (replanOpening) String() string { return "plan, replanned where peeling fails" }

type goalsOpening struct{}

func (goalsOpening) open(e *engine) (solver.Result, bool, error) {
	e.feat.onGoals = true
	return solver.Result{}, false, nil
}

func (goalsOpening) share() float64 { return 0 }
func (goalsOpening) String() string { return "boxes on goals" }

type noneOpening struct{}

func (noneOpening) open(*engine) (solver.Result, bool, error) { return solver.Result{}, false, nil }
func (noneOpening) share() float64                            { return 0 }
func (noneOpening) String() string                            { return "—" }

type imagineOpening struct{}

func (imagineOpening) open(e *engine) (solver.Result, bool, error) { return e.imagineBoard() }
func (imagineOpening) share() float64                              { return imagineShare }
func (imagineOpening) String() string                              { return "imagined board" }

// parkOpening runs the parking search with its sink (moving: Festival's
// moving sink, else a region fixed at the start) in orders (parkOrders).
type parkOpening struct {
	name   string
	moving bool
	orders []parkOrder
}

func (o parkOpening) open(e *engine) (solver.Result, bool, error) {
	return e.parkPlan(o.moving, o.orders)
}
func (parkOpening) share() float64   { return parkShare }
func (o parkOpening) String() string { return o.name }

// imagineBoard runs the backward search alone on its share of the budget
// and takes the position with the fewest boxes left on goals other than
// start squares (backward.off) as the imagined board the forward search
// then packs towards, with the backward store kept for meeting it
// (Festival's HF strategy). It stops early once it has pulled back to
// the start, which plant then meets at the forward root, and ends the search
// where it meets another member's tree. done is set when the search ends.
func (e *engine) imagineBoard() (res solver.Result, done bool, err error) {
	// The forward store is still empty, so the halves cannot meet yet:
	// plant checks the start against the backward store afterwards.
	bk, err := e.startBackward(false)
	if err != nil {
		return e.stopped(err)
	}
	e.back = bk
	if res, done, err := e.pullBack(bk, imagineShare, imagineNodes, func() bool { return true }); done {
		return res, done, err
	}
	q := e.b.Start()
	q.Unpack(bk.store.Key(bk.off))
	target := make([]bool, e.b.N)
	for _, s := range q.BoxSquares() {
		target[s] = true
	}
	e.feat.target, e.feat.targetDist = target, e.b.PullFrom(q.BoxSquares())
	return solver.Result{}, false, nil
}

// pullBack runs an opening's backward search bk on share of the budget
// and at most nodes expansions, while more holds, until it has pulled
// back to the start (plant then meets it at the forward root) or ends.
// done is set when the search ends: the budget ran out, or bk met another
// member's tree, whose solution res is.
func (e *engine) pullBack(bk *backward, share float64, nodes int64, more func() bool) (res solver.Result, done bool, err error) {
	for e.left(share, bk.expanded, nodes) && more() && !e.start.in(bk.store) {
		if st, stop := e.tick(); stop {
			return e.stop(st), true, nil
		}
		met, open := bk.step(e.halt(share))
		if met {
			res, err := e.met()
			return res, true, err
		}
		if !open {
			break
		}
		e.stats.Expanded++
	}
	return solver.Result{}, false, nil
}

// replan replaces a plan whose goals could not all be peeled in turn (plan
// peeled false) by the order in which the backward search fills the goals
// on its way to the position with the fewest boxes left on goals, as
// Festival takes its parking plan from its backward search (the FESS
// paper). Peeling pulls each box from its goal straight to a start square
// with the other goals' boxes as walls; the backward search moves boxes
// more than once, so it finds orders such as XSokoban 44's, whose goal
// room fills only if boxes pass over goals filled later. It stops at the
// first position with no box on a goal but start squares, or earlier as
// imagineBoard's; when its share of the budget runs out before, the plan
// stays as it was. Either way its store stays for the forward search to
// meet. done is set when the search ends.
func (e *engine) replan() (res solver.Result, done bool, err error) {
	bk, err := e.startBackward(false)
	if err != nil {
		return e.stopped(err)
	}
	e.back = bk
	if res, done, err := e.pullBack(bk, replanShare, replanNodes, func() bool { return bk.offRank>>32 > 0 }); done {
		return res, done, err
	}
	if e.start.in(bk.store) {
		return solver.Result{}, false, nil // plant meets the start in the backward store
	}
	if bk.offRank>>32 > 0 {
		// Boxes left on goals: the order would take those goals first
		// whatever it costs (docs/measurements.md: XSokoban 87).
		return solver.Result{}, false, nil
	}
	setUp, cancel := e.guard.SetUp()
	defer cancel()
	pl, err := orderedPlan(setUp, e.b, newMacroGen(e.b, nil), bk.fillOrder(bk.off, e.plan.order), 0)
	if err != nil {
		return e.stopped(err)
	}
	e.plan = pl
	e.feat.setPlan(pl)
	e.replanned = true
	return solver.Result{}, false, nil
}

// parkPlan runs the parking search on its share of the budget and makes its
// plan the one the features follow: from the position it ended at, or
// where it found none, from its best (parkSearch.entries). The sink
// strategy tries the pull ordering on the second half of the budget where
// its own finds no position to start from on the first (parkOrders). done
// is set when the whole budget runs out.
func (e *engine) parkPlan(moving bool, orders []parkOrder) (res solver.Result, done bool, err error) {
	setUp, cancel := e.guard.SetUp()
	defer cancel()
	defer func() { e.parking = nil }()
	var plan []parkEntry
	expanded, part := int64(0), 0.0
	for i, o := range orders {
		ps, err := newParkSearch(setUp, e.b, e.near, moving, o.pull)
		if err != nil {
			return e.stopped(err)
		}
		e.parking = ps // counted in e.bytes while it runs
		part += o.part
		share, most := parkShare*part, int64(parkNodes*part)
		ps.stop = func() bool {
			_, stop := e.guard.Check(&e.stats)
			return stop || !e.left(share, expanded, most)
		}
		for ; e.left(share, expanded, most); expanded++ {
			if st, stop := e.tick(); stop {
				return e.stop(st), true, nil
			}
			if !ps.step() {
				break
			}
			e.stats.Expanded++
		}
		if st, stop := e.tick(); stop {
			return e.stop(st), true, nil
		}
		if i == 0 || ps.done >= 0 {
			plan, e.pulled = ps.entries(ps.end()), i > 0
		}
		if e.parked = ps.done >= 0; e.parked {
			break
		}
	}
	pk, err := newParking(setUp, e.b, newMacroGen(e.b, nil), plan)
	if err != nil {
		return e.stopped(err)
	}
	if st, stop := e.charge(pk.bytes()); stop {
		return e.stop(st), true, nil
	}
	e.feat.park = pk
	return solver.Result{}, false, nil
}

// parkOrders returns the orderings of the parking search a strategy tries
// in turn until one finds a position to start from, each on its part of
// the search's budget. The sink strategy tries the pull ordering after its
// own, each on half: where its own finds no position to start from, the
// pull ordering finds one on 54 of 120 levels of XSokoban and the dev set;
// the halves leave sink alone as strong as its own ordering on the whole
// budget and the pull ordering on half as much again (203 and 202 of 470
// at 16,000 expansions) and give the forward search on XSokoban 50 the
// time it needs at 60 s (docs/measurements.md, "the pull ordering
// where sink's fails" and "half each, and no focus on the pull plan").
func parkOrders(moving, pullOrder bool) []parkOrder {
	if moving && !pullOrder {
		return []parkOrder{{pull: false, part: 0.5}, {pull: true, part: 0.5}}
	}
	return []parkOrder{{pull: pullOrder, part: 1}}
}

// parkOrder is one ordering of the parking search: Festival's pull
// ordering or not, on part of the search's budget.
type parkOrder struct {
	pull bool
	part float64
}

// startBackward sets up the backward search under the guard's set-up
// context (greedy: the back strategy's ordering): its tables take about a
// second on the largest boards.
func (e *engine) startBackward(greedy bool) (*backward, error) {
	setUp, cancel := e.guard.SetUp()
	defer cancel()
	return newBackward(setUp, e, greedy)
}

// stopped ends the search on err from set-up work done under the guard's
// set-up context: with the budget's status when the budget ran out, else
// with the error.
func (e *engine) stopped(err error) (res solver.Result, done bool, _ error) {
	if st, ok := solver.Stopped(err); ok {
		return e.stop(st), true, nil
	}
	return solver.Result{}, true, err
}

// halt returns the stop of one step of the backward search: the guard's
// deadline has passed or its context is done, or with share above 0, that
// share of the budget is spent. Expansions are counted between steps, so
// within one only the clock can spend the share.
func (e *engine) halt(share float64) func() bool {
	return func() bool {
		_, stop := e.guard.Check(&e.stats)
		return stop || share > 0 && e.spent(e.budget, share)
	}
}
