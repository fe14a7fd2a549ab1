package solver

import (
	"context"
	"errors"
)

// SetUp returns the guard's context bounded by its deadline, for set-up
// work (tables a solver builds before its search loop) that cannot call
// Tick: the work looks at the context itself and returns its error when it
// is done. Call cancel when the work ends.
func (g *Guard) SetUp() (ctx context.Context, cancel context.CancelFunc) {
	if g.deadline.IsZero() {
		return context.WithCancel(g.ctx)
	}
	return context.WithDeadline(g.ctx, g.deadline)
}

// Stopped maps an error from set-up work done under SetUp's context to the
// status the search ends with, as Check would: a deadline is TimeLimit, a
// cancellation Cancelled. Other errors are not a budget's: ok is false.
func Stopped(err error) (st Status, ok bool) {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return TimeLimit, true
	case errors.Is(err, context.Canceled):
		return Cancelled, true
	}
	return Solved, false
}
