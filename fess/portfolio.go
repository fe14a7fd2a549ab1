package fess

import (
	"context"
	"slices"
	"strings"
	"time"

	"soko/level"
	"soko/search"
	"soko/solver"
)

// The portfolio (issue 12 §6): strategies run one after another on one
// thread, each with its share of the time left, as Festival runs its
// searches (the FESS paper; README, References).
//
//   - greedy: the greedy best-first search over single pushes of package
//     search, first and short, for small levels it solves at once and
//     whose plan misleads FESS (Microban 144);
//   - plan: FESS with the pack, connectivity and out-of-plan advisors;
//   - opener: FESS with the opener advisor too, which proposes the move
//     bringing a box nearest the plan's next goal (it finds the levels
//     whose first goal needs a long way round, such as Microban 139, and
//     loses time on others).
//
// A FESS strategy that searches its whole graph and finds no solution ends
// the portfolio: both search the same positions (all but dead ones).
// Greedy's end is not conclusive (its goal-room macro can lose solutions).
// Without a time limit only plan runs (or the first strategy listed, when
// plan is not), to the end.
var strategyNames = []string{"greedy", "plan", "opener"}

// shares weigh the strategies' time: a strategy gets the time left times
// its share over the shares of the strategies still to run.
var shares = map[string]float64{"greedy": 1, "plan": 8, "opener": 1}

var strategiesParam = solver.Param{Name: "strategies", Kind: solver.List, Default: "greedy,plan,opener",
	Values: strategyNames, Doc: "the portfolio's strategies, run in this order, each with its share of the time"}

// portfolio runs the strategies of opts in turn.
func portfolio(ctx context.Context, l *level.Level, opts solver.Options) (solver.Result, error) {
	list, err := opts.List(strategiesParam)
	if err != nil {
		return solver.Result{}, err
	}
	if _, err := opts.Bool(piCorralParam); err != nil {
		return solver.Result{}, err
	}
	var names []string
	for _, n := range strings.Split(list, ",") {
		names = append(names, strings.TrimSpace(n))
	}
	if opts.Budget.Time <= 0 {
		if slices.Contains(names, "plan") {
			names = []string{"plan"}
		}
		names = names[:1]
	}
	start := time.Now()
	var total solver.Stats
	var res, final solver.Result // final: the last result that says the most
	inconclusive := false        // final is greedy's "no solution"
	for i, name := range names {
		o := opts
		left := opts.Budget.Time - time.Since(start)
		if opts.Budget.Time > 0 {
			if left <= 0 {
				break
			}
			weight := 0.0
			for _, n := range names[i:] {
				weight += shares[n]
			}
			o.Budget.Time = time.Duration(float64(left) * shares[name] / weight)
		}
		if opts.Budget.Nodes > 0 {
			o.Budget.Nodes = opts.Budget.Nodes - total.Expanded
			if o.Budget.Nodes <= 0 {
				break
			}
		}
		switch name {
		case "greedy":
			o.Params = nil
			res, err = search.Greedy{}.Solve(ctx, l, o)
		default:
			res, err = solve(ctx, l, o, name == "opener")
		}
		if err != nil {
			return res, err
		}
		total.Expanded += res.Stats.Expanded
		total.Generated += res.Stats.Generated
		total.Stored += res.Stats.Stored
		total.Bytes = max(total.Bytes, res.Stats.Bytes)
		if res.Status == solver.NoSolution && name == "greedy" {
			if i == 0 {
				final, inconclusive = res, true
			}
			continue
		}
		final, inconclusive = res, false
		if res.Status != solver.TimeLimit && res.Status != solver.NodeLimit {
			break // solved, searched to the end, cancelled or out of memory
		}
	}
	total.Elapsed = time.Since(start)
	if inconclusive && len(names) > 1 {
		final.Status = solver.TimeLimit // the others ran out of time before they began
	}
	final.Stats = total
	return final, nil
}
