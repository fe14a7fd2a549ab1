package search

import (
	"context"
	"math"

	"soko/internal/bucketq"
	"soko/level"
	"soko/sokoban"
	"soko/solver"
)

// Estimate rates positions of one board for GreedyWith: the estimated
// pushes to the solution (smaller is expanded first), or false when the
// position is proved unsolvable (a false on a live position would make
// the search's "no solution" wrong).
type Estimate func(p *sokoban.Position) (float64, bool)

// EstimateResolution is how many priority steps GreedyWith gives one push
// of an estimate: estimates are rounded to a tenth of a push.
const EstimateResolution = 10

// GreedyParams returns the parameters of greedy, which GreedyWith reads.
func GreedyParams() []solver.Param {
	return []solver.Param{deadlocksParam(defaultDetectors), piCorralParam, tunnelsParam, roomsParam(true)}
}

// GreedyWith is greedy best-first search over pushes as Greedy runs it
// (the same pruning, macros and parameters, ties to the shallower state),
// ordered by an estimate from outside the package instead of the matching
// bound: newEstimate builds it once the level's board is prepared, under
// the set-up context of the budget (solver.Guard.SetUp; an error of that
// context ends the search with the budget's status), after bytes(board)
// bytes have been counted against the memory budget; it is asked once for
// every new state. Priorities are the estimate in tenths of a push,
// rounded (EstimateResolution).
func GreedyWith(ctx context.Context, l *level.Level, opts solver.Options, bytes func(b *sokoban.Board) int64,
	newEstimate func(setUp context.Context, b *sokoban.Board) (Estimate, error)) (solver.Result, error) {
	score := func(g *pushGraph) (scorer, error) {
		if g.halt != solver.Solved || g.charge(bytes(g.board)) {
			return scorer{}, nil // ready stops the search
		}
		setUp, cancel := g.guard.SetUp()
		defer cancel()
		est, err := newEstimate(setUp, g.board)
		if err != nil {
			return scorer{}, g.stopped(err)
		}
		if est == nil {
			return scorer{}, nil
		}
		return scorer{score: func(p *sokoban.Position, depth int) (int, int, bool) {
			h, ok := est(p)
			if !ok {
				return 0, 0, false
			}
			// Only the estimate's false prunes: a NaN or a huge estimate
			// (a diverged model) queues the position last.
			v := max(h, 0) * EstimateResolution
			if math.IsNaN(v) || v >= bucketq.MaxPriority {
				return bucketq.MaxPriority, depth, true
			}
			return int(math.Round(v)), depth, true
		}}, nil
	}
	return bestFirst(ctx, l, opts, bestFirstConfig{score: score, rooms: true})
}
