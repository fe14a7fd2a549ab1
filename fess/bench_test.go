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
		res, err := row("plan").Solve(context.Background(), l, solver.Options{Budget: solver.Budget{Nodes: 500}})
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

// BenchmarkBackward runs 2,000 expansions of the backward search (pull
// macro-moves from the solved position, as the imagine strategy and replan
// run it) on XSokoban 76 and reports the expansions and positions stored
// per second.
func BenchmarkBackward(b *testing.B) {
	l := testlevel.Resolve(b, "xsokoban90:76")[0]
	var expanded, stored int64
	for b.Loop() {
		b.StopTimer()
		e, _, err := newEngine(l, solver.NewGuard(context.Background(), solver.Options{}), solver.Options{}, nil, nil)
		if err != nil || e == nil {
			b.Fatalf("no engine: %v", err)
		}
		b.StartTimer()
		bk, err := newBackward(context.Background(), e, false)
		if err != nil {
			b.Fatal(err)
		}
		for range 2000 {
			if _, more := bk.step(nil); !more {
				break
			}
		}
		expanded += bk.expanded
		stored += int64(bk.store.Len())
	}
	s := b.Elapsed().Seconds()
	b.ReportMetric(float64(expanded)/s, "expanded/s")
	b.ReportMetric(float64(stored)/s, "stored/s")
}
