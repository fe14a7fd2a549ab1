package bench

import (
	"context"
	"slices"
	"testing"

	"soko/level"
)

// planJobs lists the jobs of NewPlan, for tests of a few runs.
func planJobs(t *testing.T, solvers []SolverSpec, lvls []*level.Level, budgets []Budget, seeds []uint64) []Job {
	t.Helper()
	p, err := NewPlan(solvers, lvls, nil, budgets, seeds)
	if err != nil {
		t.Fatal(err)
	}
	return slices.Collect(p.Jobs(nil))
}

// runList runs a list of jobs.
func (r *Runner) runList(ctx context.Context, jobs []Job) (Summary, error) {
	return r.Run(ctx, len(jobs), slices.Values(jobs))
}
