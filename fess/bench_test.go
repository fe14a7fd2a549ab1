package fess

import (
	"context"
	"testing"

	"soko/guide"
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

// BenchmarkLearning runs 10,000 expansions of the sink strategy on
// XSokoban 89, where learning deadlock patterns is busiest (subtrees grow
// stuck and their roots are searched for patterns again and again), and
// reports the expansions and the searches for patterns a second.
func BenchmarkLearning(b *testing.B) {
	l := testlevel.Resolve(b, "xsokoban90:89")[0]
	var expanded, tried int64
	for b.Loop() {
		res, err := row("sink").Solve(context.Background(), l, solver.Options{Budget: solver.Budget{Nodes: 10000}})
		if err != nil {
			b.Fatal(err)
		}
		expanded += res.Stats.Expanded
		tried += res.Stats.Counts["patterns.tried"]
	}
	s := b.Elapsed().Seconds()
	b.ReportMetric(float64(expanded)/s, "expanded/s")
	b.ReportMetric(float64(tried)/s, "learned-tries/s")
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

// BenchmarkGuideCost compares the learned guide's score of a move with the
// deadlock check every move has, on the moves of XSokoban 1's start (the
// guide with a zero model: the cost does not depend on the weights).
func BenchmarkGuideCost(b *testing.B) {
	l := testlevel.Resolve(b, "xsokoban90:1")[0]
	e, _, err := newEngine(l, solver.NewGuard(context.Background(), solver.Options{}), solver.Options{}, nil, nil)
	if err != nil || e == nil {
		b.Fatalf("no engine: %v", err)
	}
	e.guide = guide.NewModel(guide.DefaultBits)
	p := e.pos
	parent, _ := e.feat.of(p)
	moves, _, _ := e.movesOf(p, nil)
	e.feat.prepare(p)
	player := p.Player()
	each := func(b *testing.B, f func(m Macro)) {
		for b.Loop() {
			for _, m := range moves {
				p.Relocate(m.From, m.To, e.b.Next(m.To, m.Side))
				f(m)
				p.Relocate(m.To, m.From, player)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(moves)), "ns/move")
	}
	b.Run("score", func(b *testing.B) {
		each(b, func(m Macro) {
			f := e.feat.child(p, int(parent.conn+m.regions), m.From, m.To)
			e.guideScore(Macro{}, m, parent, f)
		})
	})
	b.Run("features", func(b *testing.B) {
		each(b, func(m Macro) { e.feat.child(p, int(parent.conn+m.regions), m.From, m.To) })
	})
	b.Run("deadlock", func(b *testing.B) {
		each(b, func(m Macro) { e.tier.checker.Deadlocked(p, m.To) })
	})
}
