package fess

import (
	"context"
	"slices"
	"strings"

	"soko/level"
	_ "soko/search" // registers greedy, a member of the portfolio
	"soko/solver"
)

// The portfolio (issue 12 §6): strategies run one after another on one
// thread (side by side with --threads), each with its share of the budget
// (solver.Portfolio), as Shoham's solver Festival runs its searches one
// after another, most of them short (see the README's References). Shares
// scale with the budget, so the order changes how soon a level is solved,
// not whether it is within a given budget.
//
//   - greedy: the greedy best-first search over single pushes of package
//     search, first and short (2 %): it solves nearly every small level at
//     once (151 of Microban's 155, at a median of 0.35 ms a level) and a
//     few whose plan misleads FESS (Microban 144);
//   - dive: plan FESS (below) focusing from the start (4 %, 6 % before
//     park took 20 %; see focusEnding), on its own tree: it solves in a few thousand
//     expansions levels plan FESS takes tens of thousands for, or does
//     not solve at 10 s (XSokoban 35 in 2,600, 15 in 4,500, 32 in 1,600),
//     where plan's own focused opening spoiled levels its broad search
//     solves. It costs plan a little time, and the levels plan solves in
//     its last second change: side by side at 10 s on XSokoban's 90 the
//     portfolio solved 72 with it and 72 without, twice (35, in 0.8 s,
//     for 15, which dive solves in 0.5-0.7 s, just past its share that
//     run, and for 76, plan's in its last second); on a loaded machine 69
//     against 68 (15);
//   - plan: FESS with the pack, out-of-plan and hotspot advisors,
//     focusing on the last quarter of its budget (64 %:
//     Microban 153 needs some 4-6 s of it). Alone at 10 s it solves 64-66
//     of XSokoban's 90, and several only after 7-9 s: with 65 % (and a
//     quick plan FESS on 3 % first, which only ran plan's first 0.3 s
//     twice) the portfolio solved 67 at 10 s, with 73 % 67-68, with 83 %
//     70 (XSokoban 44 and 76 more); 80 % before park came;
//   - goals (not in the default list since park, which solves XSokoban 72
//     in half a second too): FESS that counts the boxes on goals in any
//     order as packed, with no plan, focusing all the time (see
//     focusEnding): it solves levels whose plan asks for a goal that is
//     hard to fill first (XSokoban 72 in a tenth of a second, 70 alone at
//     10 s);
//   - imagine: Festival's HF strategy (10 %): the backward search alone
//     on a third of this share, then FESS packing towards its position
//     with the fewest boxes left on goals while meeting its store. In the
//     portfolio at 10 s it solves XSokoban 69 and 85, which plan does
//     not, in half a second, and 74 in its last second (commit 92a94de;
//     on 7 % it lost 74, on 15 % plan lost 70 and 76). Alone (a larger
//     backward search) it has solved 41, 72 and 76 too; the meeting comes
//     within a few hundred forward expansions, so the size of the
//     backward store and the position packed towards decide;
//   - opener (not in the default list): plan FESS with the opener advisor
//     too, which proposes the move bringing a box nearest the plan's next
//     goal, and the connectivity advisor. It finds levels whose first goal
//     needs a long way round, such as Microban 139, and packs 20 of
//     XSokoban 39's 25 boxes where plan packs none, but at 10 s it solved
//     no level the others did not;
//   - pair (not in the default list): plan FESS in which, as in Festival,
//     the better of a node's two moves weighs 0 too. Beside the others at
//     10 s it traded levels with plan (XSokoban 15 and 31 for 10 and 32);
//   - park: FESS along the parking plan (park.go) instead of the order
//     of goals, its parking search on a tenth of its budget, last (20 %).
//     With 2 s at 10 s it solves XSokoban 74 in 0.4 s of it, with 1 s not
//     at all, and 18, 35, 44, 72 and 87 within 0.6 s. Once the deadlock
//     searches and the store had become a quarter cheaper (commits
//     3a6f950, 0892546), side by side at 10 s on XSokoban's 90 (a quiet
//     machine, two runs at a time) these shares (greedy 2 %, dive 4 %,
//     plan 64 %, imagine 10 %, park 20 %) solved 77 twice where park on
//     10 % with goals on 2 % (plan 70 %, dive 6 %) solved 76 twice (74
//     for 70 and for nothing); park on 20 % with goals kept (plan 60 %)
//     77, 76 and 76 (plan lost 31 or 70), park and imagine on 20 % each
//     (plan 50 %) 74. Earlier, with the slower searches: Alone at 10 s it solved 8 of the 24 XSokoban
//     levels 14, 18, 21, 23, 28, 29, 32-34, 36, 39-41, 44, 50, 52, 66, 70,
//     74, 76, 77, 87-89 (18, 33, 34, 36, 44, 74, 76 and 87; plan alone
//     solves 33, 34, 36 and sometimes 32 and 40 of them), and on all 90
//     as many as plan alone (64), five levels each the other did not.
//     Side by side at 10 s on XSokoban's 90 (two runs at a time, a loaded
//     machine), the portfolio with park on 10 % solved 72, 72 and 69 where
//     the one without solved 68, 69 and 69 (park: 18 and 44 every time,
//     15 once; lost: 16 once and 10 and 40 once, which plan solves at
//     8.1-8.6 s); with park on 20 %
//     (plan 60 %) 67 and 70 against 66 and 70 (87 too, but plan lost 10,
//     16, 30, 35 and 40 in turn).
//
// The FESS strategies are exhaustive: searching the whole graph of
// positions without deadlocks, they prove a level unsolvable. Greedy is not
// (its goal-room macro can lose solutions). Without a time or node limit
// only plan runs (or the first listed, when plan is not), to the end.
var strategyNames = []string{"greedy", "dive", "plan", "goals", "imagine", "opener", "pair", "park"}

// shares weigh the strategies' budgets.
var shares = map[string]float64{"greedy": 0.2, "dive": 0.4, "plan": 6.4, "goals": 0.2, "imagine": 1, "opener": 0.5, "pair": 3, "park": 2}

var strategiesParam = solver.Param{Name: "strategies", Kind: solver.List, Default: "greedy,dive,plan,imagine,park",
	Values: strategyNames, Doc: "the portfolio's strategies (run in the order greedy, dive, plan, goals, imagine, opener, pair, park, each with its share of the budget)"}

// search is one FESS strategy.
type search struct{ opener, onGoals, pair, imagine, dive, park bool }

func (s search) Solve(ctx context.Context, l *level.Level, opts solver.Options) (solver.Result, error) {
	return solve(ctx, l, opts, s)
}

// portfolio runs the strategies of opts.
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
	share := func(name string) float64 {
		if slices.Contains(on, name) {
			return shares[name]
		}
		return 0
	}
	own := map[string]string{}
	for k, v := range opts.Params {
		if k != strategiesParam.Name {
			own[k] = v
		}
	}
	return solver.Portfolio{Members: []solver.Member{
		{Name: "greedy", Share: share("greedy")},
		{Name: "dive", Solver: search{dive: true}, Params: own, Share: share("dive"), Exhaustive: true},
		{Name: "plan", Solver: search{}, Params: own, Share: share("plan"), Exhaustive: true},
		{Name: "goals", Solver: search{onGoals: true}, Params: own, Share: share("goals"), Exhaustive: true},
		{Name: "imagine", Solver: search{imagine: true}, Params: own, Share: share("imagine"), Exhaustive: true},
		{Name: "opener", Solver: search{opener: true}, Params: own, Share: share("opener"), Exhaustive: true},
		{Name: "pair", Solver: search{pair: true}, Params: own, Share: share("pair"), Exhaustive: true},
		{Name: "park", Solver: search{park: true}, Params: own, Share: share("park"), Exhaustive: true},
	}}.Solve(ctx, l, opts)
}
