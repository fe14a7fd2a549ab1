package lts

import (
	"context"
	"math"
	"os"
	"sync"
	"time"

	"soko/level"
	"soko/solver"
)

func init() {
	solver.Register(solver.Entry{
		Name:    "lts",
		Summary: "Levin tree search over single moves on d/π, the policy a context model trained with soko train-lts, --model FILE (Orseau, Hutter and Lelis 2023); without a model, the uniform policy",
		New:     func() solver.Solver { return Solver{} },

		CheckModel:   func(path string) error { _, err := cached(path); return err }, // read once, before any level: the levels find it read
		WithoutModel: "LTS with the uniform policy (breadth-first-like, by depth plus log-branching)",
	})
}

// The counts (Stats.Counts) of an lts run.
const (
	// WithoutModel is 1 for a run with the uniform policy.
	WithoutModel = "without_model"
	// BoundCount is the LTS bound of the solution found, d(n*)/π(n*)
	// rounded up (saturated at the largest int64): the expansions the
	// theorem allows a search with this policy before it finds n*.
	BoundCount = "lts_bound"
)

// Solver is the lts solver.
type Solver struct{}

// Solve implements solver.Solver.
func (Solver) Solve(ctx context.Context, l *level.Level, opts solver.Options) (solver.Result, error) {
	if opts.Budget.Time > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.Budget.Time)
		defer cancel()
	}
	var m *Model
	if opts.Model != "" {
		var err error
		if m, err = cached(opts.Model); err != nil {
			return solver.Result{}, err
		}
	}
	res, f, err := Search(ctx, l, m, opts)
	if err != nil {
		return res, err
	}
	res.Stats.Counts = map[string]int64{}
	if m == nil {
		res.Stats.Counts[WithoutModel] = 1
	}
	if res.Status == solver.Solved {
		res.Stats.Counts[BoundCount] = ceilCount(f.Bound)
	}
	return res, nil
}

// cache keeps the model file read last, by its path, size and time of
// change: a run over many levels reads its model once, not once a level.
// Models are never written to once read, so searches share it.
var cache struct {
	sync.Mutex
	path string
	size int64
	mod  time.Time
	m    *Model
}

// cached returns the model at path, read again only when the file changed.
func cached(path string) (*Model, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	cache.Lock()
	defer cache.Unlock()
	if cache.m != nil && cache.path == path && cache.size == st.Size() && cache.mod.Equal(st.ModTime()) {
		return cache.m, nil
	}
	m, err := Load(path)
	if err != nil {
		return nil, err
	}
	cache.path, cache.size, cache.mod, cache.m = path, st.Size(), st.ModTime(), m
	return m, nil
}

// ceilCount rounds x up to an int64, saturating.
func ceilCount(x float64) int64 {
	if !(x < math.MaxInt64) {
		return math.MaxInt64
	}
	return int64(math.Ceil(x))
}
