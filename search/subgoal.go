package search

import (
	"context"

	"soko/level"
	"soko/solver"
)

// SubGoal runs the weighted A* of 001 §2.2.1 (WAStar, with its parameters
// w, p and restart read from opts) from l's start until one more box stands
// on a goal than there: the sub-goal of the Q* agent of 001 §3, whose action
// set holds "run A* to the next sub-goal". A Result with status Solved
// carries the moves that reach the sub-goal, which leave the level unsolved
// unless one box was missing. Its budget is opts.Budget, as for Solve.
func SubGoal(ctx context.Context, l *level.Level, opts solver.Options) (solver.Result, error) {
	return waStarTo(ctx, l, opts, 1)
}
