package fess

import (
	"context"

	"soko/guide"
	"soko/level"
	"soko/solver"
)

// piCorralParam switches PI-corral pruning of the macro-moves.
var piCorralParam = solver.Param{Name: "picorral", Kind: solver.Bool, Default: "1",
	Doc: "PI-corral pruning: only the boxes around a PI-corral move (000 §4.2.2)"}

// backwardParam is the share of expansions the backward search gets.
var backwardParam = solver.Param{Name: "backward", Kind: solver.Real, Default: "0", Min: 0, Max: 0.9,
	Doc: "share of the expansions the FESS strategies give to a backward (pull) search interleaved with theirs, met in the middle; 0: off (imagine runs its own backward search first either way)"}

// backPlanParam takes every plan from the backward search (engine.replan),
// not only those peeling cannot order.
var backPlanParam = solver.Param{Name: "backplan", Kind: solver.Bool, Default: "0",
	Doc: "take the packing plan from a backward (pull) search on a tenth of the budget for every level, not only where peeling the goals one by one finds no order"}

func init() {
	solver.Register(solver.Entry{
		Name:    "fess",
		Summary: "FESS over box macro-moves: packing plan, feature cells, advisors (not optimal; the default solver)",
		Params:  []solver.Param{strategiesParam, roundsParam, piCorralParam, backwardParam, backPlanParam, guideParam},
		New:     func() solver.Solver { return FESS{} },

		CheckModel:   func(path string) error { _, err := guide.Open(path); return err }, // the learned guide, read once before any level
		Threads:      true,
		SpareThreads: true,
	})
}

// FESS is the feature-space search of the FESS paper (see the package
// comment): a portfolio of strategies (portfolio.go).
type FESS struct{}

// Solve implements solver.Solver.
func (FESS) Solve(ctx context.Context, l *level.Level, opts solver.Options) (solver.Result, error) {
	return portfolio(ctx, l, opts)
}
