package qlearn

import (
	"context"
	"testing"

	"soko/internal/testlevel"
	"soko/solver"
)

// BenchmarkLearn runs 200 episodes of each learner on Microban 3 and reports
// actions (environment steps with a Q update) per second.
func BenchmarkLearn(b *testing.B) {
	l := testlevel.Resolve(b, "microban:3")[0]
	for _, s := range []struct {
		name string
		s    solver.Solver
	}{{"qlearn", QLearn{}}, {"qstar", QStar{}}} {
		b.Run(s.name, func(b *testing.B) {
			var actions int64
			for b.Loop() {
				res, err := s.s.Solve(context.Background(), l, solver.Options{Budget: solver.Budget{Iterations: 200}, Seed: 1})
				if err != nil {
					b.Fatal(err)
				}
				actions += res.Stats.Expanded
			}
			b.ReportMetric(float64(actions)/b.Elapsed().Seconds(), "actions/s")
		})
	}
}
