package fess

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"soko/level"
	"soko/search"
	"soko/solver"
)

// strategy is one row of the strategy table: a member of the portfolio.
type strategy struct {
	name string
	// share is its share of the budget in percent; the shares of the
	// default list add up to 100 (solver.Portfolio rescales any list).
	share     int
	focus     focus
	inDefault bool
	member    func(s *strategy, own map[string]string) solver.Member // its constructor
	doc       string                                                 // what it is for, in a few words

	// The FESS engine's switches: boxes on goals in any order count as
	// packed; the opener and connectivity advisors; the better of two
	// moves weighs 0; imagine's and park's openings (engine.open); the
	// clearing and connectivity advisors (Festival's, clearing.go); the
	// parking search's moving sink (parkSearch).
	onGoals, opener, pair, imagine, park, clear, moving bool
	// pullOrder orders the parking search as Festival's pull search
	// (parkSearch.pullOrder).
	pullOrder bool
	// back runs the backward search alone, greedily towards the start
	// (backward.greedy), until it reaches the start position.
	back bool
}

// focus says when a strategy's cell loop focuses (engine.focusing).
type focus uint8

const (
	focusNever  focus = iota
	focusAlways       // from the start
	focusLast         // on the last focusEnding of its budget
)

// focusEnding is the share of the budget at its end on which a focusLast
// strategy focuses (docs/fess.md, "The cell loop and focusing" and
// Measurements).
const focusEnding = 0.25

// strategies is the strategy table: the portfolio runs its rows in this
// order (solver.Portfolio), each with its share of the budget, as Festival
// runs its searches one after another (the FESS paper). docs/fess.md,
// "The strategies", says what each is for and which measurements chose its
// share.
var strategies = []strategy{
	{name: "greedy", share: 2, focus: focusNever, inDefault: true, member: greedyMember, doc: "greedy best-first over single pushes, first and short"},
	{name: "dive", share: 4, focus: focusAlways, inDefault: true, member: fessMember, doc: "plan FESS focusing from the start, on a tree of its own"},
	{name: "plan", share: 42, focus: focusLast, inDefault: true, member: fessMember, doc: "FESS along the packing plan, focusing on its last quarter"},
	{name: "goals", share: 2, focus: focusAlways, member: fessMember, onGoals: true, doc: "FESS counting boxes on goals in any order as packed"},
	{name: "imagine", share: 10, focus: focusNever, inDefault: true, member: fessMember, imagine: true, doc: "the backward search first, then FESS packing towards its most opened position"},
	{name: "opener", share: 5, focus: focusLast, member: fessMember, opener: true, doc: "plan FESS with the opener and connectivity advisors"},
	{name: "pair", share: 30, focus: focusLast, member: fessMember, pair: true, doc: "plan FESS where the better of two moves weighs 0"},
	{name: "back", share: 14, focus: focusNever, member: fessMember, inDefault: true, back: true, doc: "greedy best-first over pull macro-moves from the solved position to the start"},
	{name: "park", share: 14, focus: focusLast, inDefault: true, member: fessMember, park: true, clear: true, doc: "FESS along a parking plan from a backward search with a sink"},
	{name: "sink", share: 14, focus: focusLast, inDefault: true, member: fessMember, park: true, clear: true, moving: true, doc: "park with Festival's moving sink in its parking search"},
	{name: "pull", share: 7, focus: focusNever, member: fessMember, park: true, clear: true, moving: true, pullOrder: true, doc: "sink with its parking search ordered as Festival's pull search, never focusing"},
}

// fessMember runs s on the FESS engine with the portfolio's other
// parameters. Its end without a solution proves there is none: the FESS
// strategies search the whole graph of positions without deadlocks.
func fessMember(s *strategy, own map[string]string) solver.Member {
	return solver.Member{Solver: s, Params: own, Exhaustive: true}
}

// greedyMember runs package search's greedy best-first search, which
// solves nearly every small level at once; its end is no proof (its
// goal-room macro can lose solutions).
func greedyMember(*strategy, map[string]string) solver.Member {
	return solver.Member{Solver: search.Greedy{}}
}

var strategiesParam = solver.Param{Name: "strategies", Kind: solver.List,
	Default: strategyList(), Values: strategyNames(), Doc: strategiesDoc()}

// strategyNames returns the names of the table's rows.
func strategyNames() []string {
	var names []string
	for _, s := range strategies {
		names = append(names, s.name)
	}
	return names
}

// strategyList returns the default list, comma-separated.
func strategyList() string {
	var names []string
	for _, s := range strategies {
		if s.inDefault {
			names = append(names, s.name)
		}
	}
	return strings.Join(names, ",")
}

// strategiesDoc documents the parameter from the table.
func strategiesDoc() string {
	var rows []string
	for _, s := range strategies {
		rows = append(rows, fmt.Sprintf("%s %d %% (%s)", s.name, s.share, s.doc))
	}
	return "the portfolio's strategies, run in this order, each on its share of the budget: " + strings.Join(rows, ", ") +
		"; the default list's shares add up to 100 %, another list's are rescaled to its sum"
}

// Solve implements solver.Solver: one FESS search with strategy s.
func (s *strategy) Solve(ctx context.Context, l *level.Level, opts solver.Options) (solver.Result, error) {
	return solve(ctx, l, opts, s)
}

// portfolio runs the strategies of opts. Without a time or node limit only
// plan runs (or the first listed, when plan is not), to the end.
func portfolio(ctx context.Context, l *level.Level, opts solver.Options) (solver.Result, error) {
	list, err := opts.List(strategiesParam)
	if err != nil {
		return solver.Result{}, err
	}
	if _, err := opts.Bool(piCorralParam); err != nil {
		return solver.Result{}, err
	}
	if _, err := opts.Real(backwardParam); err != nil {
		return solver.Result{}, err
	}
	if _, err := opts.Bool(backPlanParam); err != nil {
		return solver.Result{}, err
	}
	var on []string
	for _, n := range strings.Split(list, ",") {
		on = append(on, strings.TrimSpace(n))
	}
	if opts.Budget.Time <= 0 && opts.Budget.Nodes <= 0 {
		if slices.Contains(on, "plan") {
			on = []string{"plan"}
		}
		on = on[:1]
	}
	own := map[string]string{}
	for k, v := range opts.Params {
		if k != strategiesParam.Name && k != roundsParam.Name {
			own[k] = v
		}
	}
	inRounds, err := opts.Bool(roundsParam)
	if err != nil {
		return solver.Result{}, err
	}
	inRounds = inRounds && (opts.Budget.Time > 0 || opts.Budget.Nodes > 0)
	members := make([]solver.Member, len(strategies))
	for i := range strategies {
		s := &strategies[i]
		members[i] = s.member(s, own)
		if inRounds && members[i].Solver == s {
			members[i] = solver.Member{Resumable: &member{s: s}, Opening: s.opening(), Params: own, Exhaustive: true}
		}
		members[i].Name = s.name
		if slices.Contains(on, s.name) {
			members[i].Share = float64(s.share)
		}
	}
	return solver.Portfolio{Members: members}.Solve(ctx, l, opts)
}

// roundsParam switches the rounds off: the strategies then run one after
// another, each to the end of its share.
var roundsParam = solver.Param{Name: "rounds", Kind: solver.Bool, Default: "1",
	Doc: "run the FESS strategies in slices of growing length, each resumed where it paused, a stalled one yielding its turns (solver.Portfolio's rounds); 0: one after another, each to the end of its share"}

// opening returns the part of its share a strategy's opening takes
// (openings.go), which its first slice in the rounds gets besides the
// first slice's own.
func (s *strategy) opening() float64 {
	switch {
	case s.imagine:
		return imagineShare
	case s.park:
		return parkShare
	case s.onGoals, s.back:
		return 0
	}
	return replanShare // where peeling finds no order
}

// solve runs one FESS search with strategy s.
func solve(ctx context.Context, l *level.Level, opts solver.Options, s *strategy) (solver.Result, error) {
	guard := solver.NewGuard(ctx, opts)
	e, st, err := newEngine(l, guard, opts, nil)
	if err != nil {
		return solver.Result{}, err
	}
	if e == nil {
		res := solver.Result{Status: st}
		guard.Finish(&res.Stats)
		return res, nil
	}
	e.use(s)
	return e.run()
}

// use sets the engine up for strategy s.
func (e *engine) use(s *strategy) {
	e.strat = s
	e.feat.onGoals = s.onGoals
	if s.clear {
		e.clearing = newClearing(e.b)
	}
}

// focusing reports whether the best cell's turns go to the best cell with
// nodes waiting when the best cell has none (next). A strategy following
// the pull ordering's parking plan never focuses, as the pull strategy:
// the plan's forward search needs long unfocused (XSokoban 50).
func (e *engine) focusing() bool {
	if e.pulled {
		return false
	}
	switch e.strat.focus {
	case focusAlways:
		return true
	case focusLast:
		// Under a time limit the clock decides, even with a node limit.
		b := e.budget
		if b.Time > 0 {
			b.Nodes = 0
		}
		return e.spent(b, 1-focusEnding)
	}
	return false
}
