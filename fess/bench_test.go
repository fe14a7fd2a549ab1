package fess

import (
	"context"
	"testing"

	"soko/internal/testlevel"
	"soko/solver"
)

// BenchmarkSearch runs 500 expansions of XSokoban 10 and reports the
// expansions and generated positions per second.
func BenchmarkSearch(b *testing.B) {
	l := testlevel.Resolve(b, "xsokoban90:10")[0]
	var expanded, generated int64
	for b.Loop() {
		res, err := solve(context.Background(), l, solver.Options{Budget: solver.Budget{Nodes: 500}}, search{})
		if err != nil {
			b.Fatal(err)
		}
		expanded += res.Stats.Expanded
		generated += res.Stats.Generated
	}
	s := b.Elapsed().Seconds()
	b.ReportMetric(float64(expanded)/s, "expanded/s")
	b.ReportMetric(float64(generated)/s, "generated/s")
}
