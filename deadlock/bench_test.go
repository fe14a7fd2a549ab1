package deadlock

import (
	"testing"

	"soko/internal/stategraph"
	"soko/levels"
	"soko/sokoban"
)

// BenchmarkChecker measures the detectors on every push of a complete state
// graph (microban:5), with all detectors and with the core set.
func BenchmarkChecker(b *testing.B) {
	bd, dead, g := microban5(b)
	for _, bc := range []struct {
		name string
		on   Detectors
	}{{"core", Core()}, {"all", All()}, {"nocorral", func() Detectors { d := All(); d.Corral = false; return d }()}} {
		b.Run(bc.name, func(b *testing.B) {
			c := NewChecker(bd, dead, bc.on)
			p := bd.Start()
			n := 0
			for b.Loop() {
				for id, key := range g.Keys {
					p.Unpack(key)
					for _, m := range g.Pushes[id] {
						to := p.Apply(m)
						c.Deadlocked(p, to)
						p.Undo(m)
						n++
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n), "ns/push")
		})
	}
}

// BenchmarkFrozenGoals asks FrozenGoals.Dead of every state of a complete
// state graph (microban:5): most states have boxes frozen on goals, and
// their sets repeat, so it mostly measures the cache of frozen sets.
func BenchmarkFrozenGoals(b *testing.B) {
	bd, dead, g := microban5(b)
	f := NewFrozenGoals(bd, dead)
	p := bd.Start()
	n := 0
	for b.Loop() {
		for _, key := range g.Keys {
			p.Unpack(key)
			f.Dead(p)
			n++
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n), "ns/state")
	b.ReportMetric(float64(f.Misses), "searches")
}

// BenchmarkRelaxedSearch runs the corral's relaxed search (its set of
// states seen is what it mostly measures) from every state of a complete
// state graph (microban:5) with all its boxes, within 4,000 states.
func BenchmarkRelaxedSearch(b *testing.B) {
	bd, dead, g := microban5(b)
	c := NewCorrals(bd, dead)
	p := bd.Start()
	boxes := make([]sokoban.Square, bd.Boxes())
	n, states := 0, 0
	for b.Loop() {
		for _, key := range g.Keys {
			p.Unpack(key)
			copy(boxes, p.BoxSquares())
			c.relaxedSolvable(boxes, p.Player(), 4000, false, false)
			states += c.seen.n
			n++
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(states), "ns/state")
	b.ReportMetric(float64(states)/float64(n), "states/search")
}

// microban5 returns the board of Microban 5, its dead squares and its
// complete state graph, which the benchmarks run over.
func microban5(b *testing.B) (*sokoban.Board, []bool, *stategraph.Graph) {
	ls, err := levels.Resolve("microban:5", nil)
	if err != nil {
		b.Fatal(err)
	}
	bd, err := sokoban.NewBoard(ls[0])
	if err != nil {
		b.Fatal(err)
	}
	dead := DeadSquares(bd)
	return bd, dead, stategraph.Build(bd, dead, 1<<20)
}
