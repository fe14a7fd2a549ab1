package distance

import (
	"context"

	"soko/level"
	"soko/mcts"
	"soko/search"
	"soko/sokoban"
	"soko/solver"
)

var weightParam = mcts.WeightParam(1, "share of the estimate in a node's value, the rest Schokoban's Manhattan matching")

func init() {
	solver.Register(solver.Entry{
		Name:    "mcts-dist",
		Summary: "Schokoban MCTS valued by the distance model of soko train-dist, --model FILE (003 §4.2.2); without a model, the pull-distance matching bound",
		Params:  []solver.Param{mcts.PushCParam, weightParam},
		New:     func() solver.Solver { return MCTS{} },

		CheckModel:   Check,
		WithoutModel: "Schokoban MCTS valued by the pull-distance matching bound",
		Iterations:   true,
	})
	solver.Register(solver.Entry{
		Name:    "greedy-dist",
		Summary: "greedy best-first over pushes on the distance model of soko train-dist, --model FILE; without a model, the pull-distance matching bound",
		Params:  search.GreedyParams(),
		New:     func() solver.Solver { return Greedy{} },

		CheckModel:   Check,
		WithoutModel: "greedy best-first on the pull-distance matching bound",
	})
}

// WithoutModel is the count (Stats.Counts) that a run without a model
// reports as 1: its estimates were the bound alone.
const WithoutModel = "without_model"

// Evaluated is the count of positions the network estimated.
const Evaluated = "evaluated"

// MCTS is the mcts-dist solver: Schokoban (000 §5) whose node values are
// −(weight·estimate) + (1 − weight)·(Schokoban's reward), the estimate
// being the distance model's pushes to the solution.
type MCTS struct{}

// Greedy is the greedy-dist solver: greedy best-first search over pushes
// (search.GreedyWith) ordered by the distance model's estimate.
type Greedy struct{}

// load reads the model of opts, if any, under the time limit of opts,
// which it returns as a context so that loading counts.
func load(ctx context.Context, opts solver.Options) (context.Context, context.CancelFunc, *Model, error) {
	cancel := func() {}
	if opts.Budget.Time > 0 {
		ctx, cancel = context.WithTimeout(ctx, opts.Budget.Time)
	}
	if opts.Model == "" {
		return ctx, cancel, nil, nil
	}
	m, err := Load(opts.Model)
	if err != nil {
		cancel()
		return nil, nil, nil, err
	}
	return ctx, cancel, m, nil
}

func counts(res *solver.Result, m *Model, e *Estimator) {
	if res.Stats.Counts == nil {
		res.Stats.Counts = map[string]int64{}
	}
	if m == nil {
		res.Stats.Counts[WithoutModel] = 1
	}
	if e != nil {
		res.Stats.Counts[Evaluated] = e.Evaluated
	}
}

// Solve implements solver.Solver.
func (MCTS) Solve(ctx context.Context, l *level.Level, opts solver.Options) (solver.Result, error) {
	c, err := opts.Real(mcts.PushCParam)
	if err != nil {
		return solver.Result{}, err
	}
	weight, err := opts.Real(weightParam)
	if err != nil {
		return solver.Result{}, err
	}
	ctx, cancel, m, err := load(ctx, opts)
	if err != nil {
		return solver.Result{}, err
	}
	defer cancel()
	b, err := sokoban.NewBoard(l)
	if err != nil {
		return solver.Result{}, err
	}
	if b.Impossible != "" {
		return mcts.SolveValued(ctx, l, opts, c, nil) // says no solution
	}
	// The estimator alone may not fit: then it is never built.
	var e *Estimator
	res, err := mcts.SolveEvaluated(ctx, l, opts, c, EstimatorBytes(m, b), func() (mcts.Evaluator, error) {
		var err error
		if e, err = NewEstimator(ctx, ctx, m, b); err != nil {
			return nil, err
		}
		return &evaluator{e: e, weight: weight}, nil
	})
	if e != nil { // the search ran
		counts(&res, m, e)
	}
	return res, err
}

// evaluator adapts an Estimator to mcts.Evaluator.
type evaluator struct {
	e       *Estimator
	weight  float64
	rewards []float64
	est     []float64
}

func (v *evaluator) Add(p *sokoban.Position, reward float64) {
	v.e.Add(p)
	v.rewards = append(v.rewards, reward)
}

func (v *evaluator) Flush(dst []float64) []float64 {
	v.est = v.e.Flush(v.est[:0])
	for i, r := range v.rewards {
		dst = append(dst, mcts.Mix(v.weight, v.est[i], r))
	}
	v.rewards = v.rewards[:0]
	return dst
}

// Solve implements solver.Solver.
func (Greedy) Solve(ctx context.Context, l *level.Level, opts solver.Options) (solver.Result, error) {
	ctx, cancel, m, err := load(ctx, opts)
	if err != nil {
		return solver.Result{}, err
	}
	defer cancel()
	var e *Estimator
	bytes := func(b *sokoban.Board) int64 { return EstimatorBytes(m, b) }
	res, err := search.GreedyWith(ctx, l, opts, bytes, func(setUp context.Context, b *sokoban.Board) (search.Estimate, error) {
		var err error
		if e, err = NewEstimator(ctx, setUp, m, b); err != nil {
			return nil, err
		}
		// Only an infeasible bound prunes: a live position's estimate can
		// be Unsolvable or more (a start 60 pushes from the goals), and
		// greedy goes on with it as a large but finite estimate.
		return e.One, nil
	})
	counts(&res, m, e)
	return res, err
}
