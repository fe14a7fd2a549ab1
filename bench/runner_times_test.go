package bench

import (
	"context"
	"testing"
	"time"

	"soko/levels"
)

// A record keeps the search's time (solve_s) and the optimizer's
// (optimize_s) beside the whole (wall_s): the two parts add up to at most
// the whole, and without the optimizer the search is all of it. The
// optimizer's time, when not the default, is part of the label and key.
func TestRunnerRecordsTimes(t *testing.T) {
	lvls, err := levels.Resolve("microban:3", nil)
	if err != nil {
		t.Fatal(err)
	}
	var specs []SolverSpec
	for _, s := range []string{"greedy", "greedy:optimize=off", "greedy:optimize=pushes@2s", "greedy:optimize=moves@none"} {
		spec, err := ParseSolverSpec(s)
		if err != nil {
			t.Fatal(err)
		}
		specs = append(specs, spec)
	}
	p, err := NewPlan(specs, lvls, nil, Budgets([]time.Duration{10 * time.Second}, nil, nil), []uint64{1})
	if err != nil {
		t.Fatal(err)
	}
	recs := map[string]Record{}
	r := &Runner{Workers: 1, Write: func(rec Record) error { recs[rec.SolverLabel()] = rec; return nil }}
	if _, err := r.Run(context.Background(), int(p.Len()), p.Jobs(nil)); err != nil {
		t.Fatal(err)
	}
	for label, optimized := range map[string]bool{"greedy": true, "greedy(optimize=off)": false, "greedy(optimize=pushes@2s)": true, "greedy(optimize=moves@none)": true} {
		rec, ok := recs[label]
		if !ok {
			t.Errorf("no record labelled %s among %d", label, len(recs))
			continue
		}
		if !rec.Solved() || rec.SolveS <= 0 || rec.SolveS+rec.OptimizeS > rec.WallS || rec.SolveTime() != rec.SolveS {
			t.Errorf("%s: solved %v, search %vs + optimizer %vs against %vs", label, rec.Solved(), rec.SolveS, rec.OptimizeS, rec.WallS)
		}
		if optimized != (rec.OptimizeS > 0) || optimized != (rec.FoundPushes == 15) {
			t.Errorf("%s: optimizer %vs, found %d pushes", label, rec.OptimizeS, rec.FoundPushes)
		}
	}
}
