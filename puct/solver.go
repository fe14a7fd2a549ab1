package puct

import (
	"context"
	"fmt"

	"soko/level"
	"soko/sokoban"
	"soko/solver"
)

// DefaultC is the exploration constant of PUCT (AlphaZero's c_puct 1.25
// at the start of a search; Schrittwieser et al. 2020, appendix B).
const DefaultC = 1.25

var cParam = solver.Param{Name: "c", Kind: solver.Real, Default: "1.25", Min: 0, Max: 1e6,
	Doc: "PUCT's exploration constant: weight of the prior against the normalised mean value"}

func init() {
	solver.Register(solver.Entry{
		Name:    "puct",
		Summary: "AlphaZero's PUCT search over pushes: the policy head's priors, the value head at the leaves, trained by self-play with soko train-puct, --model FILE; without a model, uniform priors and the pull-distance matching bound",
		Params:  []solver.Param{cParam},
		New:     func() solver.Solver { return Solver{} },

		CheckModel:   Check,
		WithoutModel: "PUCT with uniform priors and the pull-distance matching bound as its value",
		Iterations:   true,
	})
}

// WithoutModel is the count (Stats.Counts) that a run without a model
// reports as 1: uniform priors and the bound as the value.
const WithoutModel = "without_model"

// Evaluated is the count of positions the network evaluated.
const Evaluated = "evaluated"

// Solver is the puct solver: one PUCT search from the level's start, one
// simulation an iteration, that stops as soon as a solved position enters
// the tree; the solution is the path to it.
type Solver struct{}

// Solve implements solver.Solver.
func (Solver) Solve(ctx context.Context, l *level.Level, opts solver.Options) (solver.Result, error) {
	c, err := opts.Real(cParam)
	if err != nil {
		return solver.Result{}, err
	}
	// The time limit runs from here, so that loading the model counts, and
	// reaches into the network's evaluations through the context.
	if opts.Budget.Time > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.Budget.Time)
		defer cancel()
	}
	var m *Model
	if opts.Model != "" {
		if m, err = Load(opts.Model); err != nil {
			return solver.Result{}, err
		}
	}
	guard := solver.NewGuard(ctx, opts)
	stats := solver.Stats{TreeSize: 1, UniqueStates: 1, Stored: 1}
	var s *Search
	finish := func(st solver.Status) solver.Result {
		guard.Finish(&stats)
		switch {
		case m == nil:
			stats.Counts = map[string]int64{WithoutModel: 1}
		case s != nil:
			stats.Counts = map[string]int64{Evaluated: s.Evaluated}
		}
		return solver.Result{Status: st, Stats: stats}
	}
	b, err := sokoban.NewBoard(l)
	if err != nil {
		return solver.Result{}, err
	}
	if b.Impossible != "" {
		return finish(solver.NoSolution), nil
	}
	start := b.Start()
	if start.Solved() {
		return finish(solver.Solved), nil
	}
	// The network's working memory for one board, and its weights.
	var netBytes int64
	if m != nil {
		netBytes = m.Net.Config.Bytes(1, b.Width*b.Level.Height, false)
	}
	bd, err := newBoard(ctx, b)
	if err != nil {
		if st, ok := solver.Stopped(err); ok {
			return finish(st), nil
		}
		return solver.Result{}, err
	}
	s = newSearch(ctx, bd, m, c, start)
	update := func() {
		stats.Expanded, stats.Generated = s.Expanded, int64(s.nodes.Len()-1)
		stats.TreeSize, stats.UniqueStates, stats.Stored = int64(s.nodes.Len()), int64(s.store.Len()), int64(s.store.Len())
		stats.Bytes = s.bytes() + bd.Bytes() + netBytes
	}
	for {
		update()
		if st, stop := guard.Tick(&stats); stop {
			return finish(st), nil
		}
		out := s.Iterate()
		stats.Iterations++
		if s.Stopped != nil {
			update()
			st, _ := guard.Check(&stats)
			return finish(st), nil
		}
		switch out {
		case Found:
			update()
			pushes := s.solution()
			moves, err := b.Expand(pushes)
			if err != nil {
				return solver.Result{}, fmt.Errorf("puct: %w", err)
			}
			res := finish(solver.Solved)
			res.Moves, res.Pushes = moves, len(pushes)
			return res, nil
		case Exhausted:
			update()
			return finish(solver.NoSolution), nil
		}
	}
}
