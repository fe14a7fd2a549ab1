package solver

import (
	"context"
	"time"

	"soko/level"
)

// Member is one strategy of a Portfolio.
type Member struct {
	// Name labels the member in Stats.Strategy and Stats.Counts. When
	// neither Solver nor Resumable is set it is also the registered
	// solver the member runs.
	Name string
	// Solver is a run-once member: it runs once, on its whole share. nil
	// means the solver registered under Name, unless Resumable is set.
	Solver Solver
	// Resumable is a member the rounds run in slices, paused and resumed
	// (rounds.go); it holds its own state for one Solve.
	Resumable Resumable
	// Opening is the part of its share a resumable member's first slice
	// gets besides the first slice's own: the work it does before it can
	// pause (tables, an opening search).
	Opening float64
	// Params are the member's own parameters; for a registered solver
	// they are checked with CheckParams before anything runs.
	Params map[string]string
	// Share is the member's relative share of the budget: finite, at
	// least 0. A member with share 0 does not run.
	Share float64
	// Exhaustive says that the member's NoSolution proves the level has
	// no solution, which ends the portfolio.
	Exhaustive bool
	// Late, when not 0, is how much of their own time the other members
	// have together before this resumable member joins the rounds, in a
	// run with a time limit (at once when none of them is left, and with
	// more than one thread); in a run without one it runs only alone.
	// Until it joins, the others' shares of the budget leave it out.
	Late time.Duration
	// ShareBefore, above 0, is a late member's share until it joins, in a
	// run with a time limit and one thread: it runs from the start on
	// that share, as a member that is not late, and takes Share when the
	// others have had Late.
	ShareBefore float64
}

// Resumable is a member searched in slices: paused at a slice's end with
// all it holds kept, and resumed there by the next slice.
type Resumable interface {
	// Slice runs the member on from where it paused (from its start, the
	// first time) until its own time or expansions reach s.Until (a zero
	// field: no such end), or opts.Budget ends it for good. opts.Budget is
	// what the run has left: the time to its end, the nodes counted from
	// the member's start, and the member's part of the memory. s.Whole is
	// the member's share of the budget, by which it sizes its own schedule
	// (what it runs first, what it does late in its share). The Result's
	// Stats count the member's whole search so far, Elapsed its own time
	// over all its slices; Pause says how the slice ended.
	Slice(ctx context.Context, l *level.Level, opts Options, s Slice) (Result, Pause, error)
	// End ends a paused member for good with status st (a member that
	// traces writes its end) and returns its final statistics.
	End(st Status) Stats
}

// Slice is what the rounds give a resumable member for one slice.
type Slice struct {
	Whole Budget // the member's share of the budget
	Until Budget // the slice's end: the member's own time and expansions (zero: none)
}

// Pause is how a resumable member's slice ended.
type Pause struct {
	// Paused: the slice reached its end and the member can go on; false
	// means it ended for good, with the Result's status.
	Paused bool
	// Improved: its best position got better in the slice (or it had none
	// before); Stalled: it did not, and has nothing left waiting that
	// could.
	Improved, Stalled bool
}

// Sharer is a resumable member that takes what the other members know:
// the rounds' one channel of shared knowledge. Share gets the other
// resumable members still in the rounds that it may read, in list order:
// those not running, whose tables stay still until the next Share. With
// one thread it is called before each slice. With more, it is called
// before each slice but a member's first, and again while the member runs
// (from another goroutine) whenever one of those others starts or pauses:
// Share must then wait until the member is between two steps of its
// search, and once it returns the member must read nothing of a member not
// in the new list.
type Sharer interface {
	Share(others []Resumable)
}
