package fess

import (
	"context"
	"time"

	"soko/level"
	"soko/search"
	"soko/solver"
)

// strategy is one row of the strategy table (portfolio.go): a member of
// the portfolio, made of behaviours. A strategy that mixes behaviours
// already written is one more row; a new behaviour is one more file with
// its value, and the row that names it.
type strategy struct {
	name string
	// share is its share of the budget in percent; the shares of the
	// default list add up to 100 (a list given is rescaled to its sum).
	share int
	// smallShare, when not 0, is its share on a small board, one of fewer
	// than smallBoard squares, where it is in the default list too
	// (smallBoard says why).
	smallShare int
	inDefault  bool
	// late, when not 0, is how much of their own time the other
	// strategies have together before this one joins the rounds
	// (solver.Member.Late); its share is then a percentage of theirs
	// together.
	late time.Duration
	// shareBefore, when not 0, is a late strategy's share until it joins,
	// a percentage of the others' together too (solver.Member.ShareBefore):
	// with one thread it runs from the start on that.
	shareBefore int
	// unlimited: without a time or node limit the portfolio runs this
	// strategy alone, to the end (the first listed where it is not on the
	// list).
	unlimited bool
	search    searchKind // the kind of search, and how it joins the portfolio
	opening   opening    // what it runs before its forward search (openings.go)
	moves     moveSet    // which of a box's macro-moves its forward search makes (moves.go)
	advisors  []advisor  // the moves that weigh 0 (advisors.go), in order
	focus     focus      // when its cell loop focuses
	// farFirst breaks the ties of a cell's nodes (equal weight and
	// features) towards the boxes farther from their nearest goals, as
	// Festival's forward search orders them, rather than nearer.
	farFirst bool
	taken    nodeTaken // which of a cell's nodes its cell loop takes
	doc      string    // what it is for, in a few words
}

// Solve implements solver.Solver: one search with strategy s, in one go.
func (s *strategy) Solve(ctx context.Context, l *level.Level, opts solver.Options) (solver.Result, error) {
	m := s.search.member(s, opts.Params, true)
	if m.Resumable == nil {
		return m.Solver.Solve(ctx, l, opts)
	}
	res, _, err := m.Resumable.Slice(ctx, l, opts, solver.Slice{Whole: opts.Budget})
	return res, err
}

// use sets the engine up for strategy s.
func (e *engine) use(s *strategy) {
	e.strat = s
	e.queue.featuresOn, e.queue.featuresLate = s.taken == takeTurns, s.taken == takeTurnsLate
	for _, a := range s.advisors {
		if p, ok := a.(preparer); ok {
			p.prepare(e)
		}
	}
}

// A searchKind is the kind of search a strategy runs and how it joins the
// portfolio: as a member the rounds resume slice after slice (inRounds),
// or as one that runs once, to the end of its share.
type searchKind interface {
	member(s *strategy, own map[string]string, inRounds bool) solver.Member
	String() string // for the strategy table in docs/fess.md
}

// A loop is a search on an engine as a member runs it (member.go): begin
// runs it up to its loop, step one turn of it; done says it ended, with
// res. watch hands the guard its progress drawing again when it resumes.
// mark is where it stands and progress says, of where it stood before a
// slice (-1: nowhere yet), whether it has improved since or is stalled
// (the rounds reweigh it by that). offer adds what it lets the other
// members' searches meet to k, and take hands it what it meets of theirs
// (member.Share).
type loop interface {
	begin() (res solver.Result, done bool, err error)
	step() (res solver.Result, done bool, err error)
	watch()
	mark() int32
	progress(before int32) (improved, stalled bool)
	offer(k *knowledge)
	take(k knowledge)
}

// engineMember returns the member that runs s with the loop newLoop makes
// on its engine: resumed slice after slice in the rounds, else in one go
// (strategy.Solve). Its NoSolution is a proof whatever moves it makes:
// with every macro-move the engine's searches cover the whole graph of
// positions without deadlocks, and with a part of them an empty queue is
// GaveUp (engine.step), so NoSolution is left for a start proved dead.
func engineMember(s *strategy, own map[string]string, inRounds bool, newLoop func(*engine) loop) solver.Member {
	if !inRounds {
		return solver.Member{Solver: s, Params: own, Exhaustive: true}
	}
	return solver.Member{Resumable: &member{s: s, newLoop: newLoop}, Opening: s.opening.share(), Params: own, Exhaustive: true}
}

// fessSearch is the FESS engine's forward search (engine.go).
type fessSearch struct{}

func (fessSearch) member(s *strategy, own map[string]string, inRounds bool) solver.Member {
	return engineMember(s, own, inRounds, func(e *engine) loop { return e })
}

func (fessSearch) String() string { return "FESS" }

// greedySearch is package search's greedy best-first search, which solves
// nearly every small level at once; it runs once, and its end is no proof
// (its goal-room macro can lose solutions).
type greedySearch struct{}

func (greedySearch) member(*strategy, map[string]string, bool) solver.Member {
	return solver.Member{Solver: search.Greedy{}}
}

func (greedySearch) String() string { return "greedy (package search)" }

// biGreedySearch is package search's bigreedy, the greedy searches over
// pushes from the start and over pulls from the goals meeting in one
// table, for small dense levels: resumed slice after slice in the rounds
// (search.BiGreedyMember), on its own defaults. It says no solution only
// when one of its searches exhausted its graph with sound pruning only,
// a proof.
type biGreedySearch struct{}

func (biGreedySearch) member(*strategy, map[string]string, bool) solver.Member {
	return solver.Member{Resumable: &search.BiGreedyMember{}, Exhaustive: true}
}

func (biGreedySearch) String() string { return "bigreedy (package search)" }

// focus says when a strategy's cell loop focuses (engine.focusing).
type focus uint8

const (
	focusNever  focus = iota
	focusAlways       // from the start
	focusLast         // on the last focusEnding of its budget
)

// focusEnding is the share of the budget at its end on which a focusLast
// strategy focuses (docs/fess.md, "The cell loop and focusing";
// docs/measurements.md).
const focusEnding = 0.25

func (f focus) String() string { return [...]string{"never", "always", "last quarter"}[f] }

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
		return e.spent(e.clockBudget(), 1-focusEnding)
	}
	return false
}

// nodeTaken says which of a cell's waiting nodes a strategy's cell loop
// takes (next).
type nodeTaken uint8

const (
	takeLightest  nodeTaken = iota
	takeTurns               // every other turn the one with the best features, its weight aside
	takeTurnsLate           // so from featuresLate of its budget on
)

// featuresLate is the share of its budget from which a takeTurnsLate
// strategy takes turns by features: the lightest order alone solves the
// levels it solves early (docs/fess.md, "Turns by features").
const featuresLate = 0.5

func (t nodeTaken) String() string {
	return [...]string{"lightest", "lightest, and best features every other turn", "lightest, and from half its budget best features every other turn"}[t]
}

// featuresOn reports whether the cell loop takes turns by features now:
// from the start, or once featuresLate of the budget is spent (the clock
// deciding, as for focusing); once on, they stay on.
func (e *engine) featuresOn() bool {
	if e.queue.featuresLate && e.spent(e.clockBudget(), featuresLate) {
		e.fillByFeatures()
	}
	return e.queue.featuresOn
}

// clockBudget returns the budget whose spending decides when a strategy
// changes its ways: under a time limit the clock, even with a node limit.
func (e *engine) clockBudget() solver.Budget {
	b := e.budget
	if b.Time > 0 {
		b.Nodes = 0
	}
	return b
}

// An opening is what a strategy runs before its forward search, on its
// share of the strategy's budget (openings.go). open runs it on e; done
// is set when the search ended in it. share is the part of the strategy's
// share it takes, which its first slice in the rounds gets besides.
type opening interface {
	open(e *engine) (res solver.Result, done bool, err error)
	share() float64
	String() string
}

// An advisor gives weight 0 to at most one of a node's children, the move
// it proposes, where all others weigh 1 (advisors.go; the FESS paper's
// advisors and move weights).
type advisor interface {
	advise(e *engine, kids []child, parent features)
	String() string
}

// preparer is an advisor that keeps tables of its own in the engine,
// which use builds.
type preparer interface {
	prepare(e *engine)
}
