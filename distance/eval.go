package distance

import (
	"context"
	"math"

	"soko/level"
	"soko/sokoban"
)

// Errors are the errors of estimates against the true pushes of the
// positions on optimal paths.
type Errors struct {
	Levels    int // levels whose optimal path was found
	Unsolved  int // levels astar did not solve within the budget
	Positions int // positions measured
	MAE, RMSE float64
	Bias      float64 // mean estimate − truth
	// The bound's, for comparison.
	BoundMAE, BoundRMSE float64
}

// Measure returns the errors of model m (nil: the bound alone) on the
// positions of push-optimal paths of levels, found by astar within nodes
// expansions each.
func Measure(ctx context.Context, m *Model, levels []*level.Level, nodes int64) (Errors, error) {
	var e Errors
	var se, sbe float64
	for _, l := range levels {
		b, err := sokoban.NewBoard(l)
		if err != nil {
			return e, err
		}
		if b.Impossible != "" {
			continue
		}
		path, err := optimalPath(ctx, b, l, nodes)
		if err != nil {
			return e, err
		}
		if path == nil {
			e.Unsolved++
			continue
		}
		e.Levels++
		est, err := NewEstimator(ctx, ctx, m, b)
		if err != nil {
			return e, err
		}
		n := len(path) - 1
		for _, p := range path[:n] {
			est.Add(p)
		}
		values := est.Flush(nil)
		for k, v := range values {
			truth := float64(n - k)
			h, _ := est.bd.Bound(path[k])
			d, bdiff := v-truth, float64(h)-truth
			e.MAE += math.Abs(d)
			e.Bias += d
			se += d * d
			e.BoundMAE += math.Abs(bdiff)
			sbe += bdiff * bdiff
			e.Positions++
		}
	}
	if e.Positions > 0 {
		n := float64(e.Positions)
		e.MAE /= n
		e.Bias /= n
		e.RMSE = math.Sqrt(se / n)
		e.BoundMAE /= n
		e.BoundRMSE = math.Sqrt(sbe / n)
	}
	return e, ctx.Err()
}
