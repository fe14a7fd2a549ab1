package search

import (
	"testing"

	"soko/internal/testlevel"
	"soko/solver"
)

// BenchmarkBiGreedy expands a fixed number of states on a few Microban and
// XSokoban levels that bigreedy does not solve within it, with the forward
// search alone and the backward search alone (each on either bound) and
// both, and greedy beside them, and reports expansions per second and the bytes the
// search held per state stored.
func BenchmarkBiGreedy(b *testing.B) {
	ls := append(testlevel.Resolve(b, "microban:145,153"), testlevel.Resolve(b, "xsokoban90:5")...)
	for _, tc := range []struct {
		name   string
		s      solver.Solver
		params map[string]string
	}{
		{"forward", BiGreedy{}, map[string]string{"back": "0"}},
		{"forward-simple", BiGreedy{}, map[string]string{"back": "0", "matching": "0"}},
		{"backward", BiGreedy{}, map[string]string{"back": "1"}},
		{"backward-simple", BiGreedy{}, map[string]string{"back": "1", "backmatching": "0"}},
		{"both", BiGreedy{}, nil},
		{"greedy", Greedy{}, nil},
	} {
		b.Run(tc.name, func(b *testing.B) {
			var expanded, stored, bytes int64
			for b.Loop() {
				for _, l := range ls {
					res, err := solver.Run(b.Context(), tc.s, l, solver.Options{Budget: solver.Budget{Nodes: 100_000}, Params: tc.params})
					if err != nil {
						b.Fatal(err)
					}
					expanded += res.Stats.Expanded
					stored += res.Stats.Stored
					bytes += res.Stats.Bytes
				}
			}
			b.ReportMetric(float64(expanded)/b.Elapsed().Seconds(), "nodes/s")
			b.ReportMetric(float64(bytes)/float64(stored), "bytes/state")
		})
	}
}
