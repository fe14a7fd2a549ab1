package solver

import (
	"context"

	"soko/level"
)

// astarShareParam is the share of the budget the registered portfolio gives
// astar; greedy gets the rest.
var astarShareParam = Param{Name: "share", Kind: Real, Default: "0.2", Min: 0, Max: 1,
	Doc: "astar's share of the budget (0: greedy alone, 1: astar alone); greedy gets the rest"}

func init() {
	Register(Entry{
		Name:    "portfolio",
		Summary: "astar (push-optimal) on a share of the budget, then greedy; --threads 2 runs them side by side",
		Params:  []Param{astarShareParam},
		New:     func() Solver { return smallLevels{} },
		Threads: true,
	})
}

// smallLevels is the portfolio registered as "portfolio": astar first, on a
// small share of the budget, so that the small levels it solves get
// push-optimal solutions; then greedy on the rest, which solves more levels
// but not optimally. Its members are looked up in the registry when it
// runs, so package search must be linked in. With --threads 2 both run at
// once and the first solution wins, which is often greedy's: optimal
// solutions come with one thread.
type smallLevels struct{}

// Solve implements Solver.
func (smallLevels) Solve(ctx context.Context, l *level.Level, opts Options) (Result, error) {
	share, err := opts.Real(astarShareParam)
	if err != nil {
		return Result{}, err
	}
	return Portfolio{Members: []Member{
		{Name: "astar", Share: share, Exhaustive: true},
		{Name: "greedy", Share: 1 - share, Exhaustive: true}, // its "no solution" is a proof, as astar's
	}}.Solve(ctx, l, opts)
}
