package deadlock

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"soko/internal/stategraph"
	"soko/internal/testlevel"
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
	bd := benchBoard(b, "microban:5")
	dead := DeadSquares(bd)
	return bd, dead, stategraph.Build(bd, dead, 1<<20)
}

// benchBoard returns the board of the level spec names.
func benchBoard(b *testing.B, spec string) *sokoban.Board {
	bd, err := sokoban.NewBoard(testlevel.Resolve(b, spec)[0])
	if err != nil {
		b.Fatal(err)
	}
	return bd
}

// BenchmarkTableSetUp builds the table of small and large boards: a
// Microban level, XSokoban 1 and XSokoban 50 (166 squares), with pairs
// and with triples.
func BenchmarkTableSetUp(b *testing.B) {
	for _, spec := range []string{"microban:5", "xsokoban90:1", "xsokoban90:50"} {
		bd := benchBoard(b, spec)
		for boxes := 2; boxes <= 3; boxes++ {
			b.Run(fmt.Sprintf("%s/%d", spec, boxes), func(b *testing.B) {
				var t *Table
				var err error
				for b.Loop() {
					t, err = NewTable(context.Background(), bd, TableLimits{Boxes: boxes, Bytes: 1 << 30})
					if err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(t.Bytes()), "bytes")
				b.ReportMetric(float64(t.Live()), "live")
			})
		}
	}
}

// BenchmarkTableCheck looks up, after every push of a complete state
// graph (microban:5), the sets holding the pushed box: with pairs and with
// triples.
func BenchmarkTableCheck(b *testing.B) {
	bd, _, g := microban5(b)
	for _, bc := range []struct {
		name  string
		boxes int
	}{{"pairs", 2}, {"triples", 3}} {
		b.Run(bc.name, func(b *testing.B) {
			t, err := NewTable(context.Background(), bd, TableLimits{Boxes: bc.boxes, Bytes: 1 << 30})
			if err != nil {
				b.Fatal(err)
			}
			p := bd.Start()
			n, dead := 0, 0
			for b.Loop() {
				for id, key := range g.Keys {
					p.Unpack(key)
					for _, m := range g.Pushes[id] {
						to := p.Apply(m)
						if t.DeadAfterPush(p, to) {
							dead++
						}
						p.Undo(m)
						n++
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n), "ns/check")
			b.ReportMetric(float64(dead)/float64(n), "dead/check")
		})
	}
}

// BenchmarkTableCheckLarge is BenchmarkTableCheck on large boards, where
// a box has many partners: the pushes along random walks of 60 pushes
// from the start of XSokoban 39 and 50 (the walks take only pushes
// the table leaves alive, as a search would), with triples.
func BenchmarkTableCheckLarge(b *testing.B) {
	for _, spec := range []string{"xsokoban90:39", "xsokoban90:50"} {
		bd := benchBoard(b, spec)
		dead := DeadSquares(bd)
		t, err := NewTable(context.Background(), bd, TableLimits{Boxes: 3, Bytes: 1 << 30})
		if err != nil {
			b.Fatal(err)
		}
		type position struct {
			key    []byte
			pushes []sokoban.Push
		}
		var positions []position
		checks := 0
		rng := rand.New(rand.NewPCG(1, 2))
		for checks < 20000 {
			p := bd.Start()
			for range 60 {
				pushes := p.Pushes(nil, dead)
				if len(pushes) == 0 {
					break
				}
				key := p.PackExact(nil)
				var alive []sokoban.Push
				positions = append(positions, position{key, pushes})
				checks += len(pushes)
				for _, m := range pushes {
					if !t.DeadAfterPush(p, p.Apply(m)) {
						alive = append(alive, m)
					}
					p.Undo(m)
				}
				if len(alive) == 0 {
					break
				}
				p.Apply(alive[rng.IntN(len(alive))])
			}
		}
		b.Run(spec, func(b *testing.B) {
			p := bd.Start()
			n, dead := 0, 0
			for b.Loop() {
				for _, at := range positions {
					p.Unpack(at.key)
					for _, m := range at.pushes {
						if t.DeadAfterPush(p, p.Apply(m)) {
							dead++
						}
						p.Undo(m)
						n++
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n), "ns/check")
			b.ReportMetric(float64(dead)/float64(n), "dead/check")
		})
	}
}

// BenchmarkTableStages times, on each board of XSokoban, the search of the
// pairs (a table of pairs less one of single boxes) and that of the
// triples (a table of triples less one of pairs), with no time limit, and
// reports their ratio per live square, the rate triplesPerPair takes the
// least of (docs/measurements.md, "the triples not begun"). Run it with
// -benchtime 1x.
func BenchmarkTableStages(b *testing.B) {
	for i := 1; i <= 90; i++ {
		bd := benchBoard(b, fmt.Sprintf("xsokoban90:%d", i))
		b.Run(fmt.Sprint(i), func(b *testing.B) {
			var took [4]time.Duration
			live := 0
			for b.Loop() {
				for k := 1; k <= 3; k++ {
					began := time.Now()
					t, err := NewTable(context.Background(), bd, TableLimits{Boxes: k, Bytes: DefaultTableLimits.Bytes})
					if err != nil {
						b.Fatal(err)
					}
					if t.Boxes() < k {
						b.Skip("the triples do not fit the default limits")
					}
					took[k] += time.Since(began)
					live = t.Live()
				}
			}
			pairs, triples := took[2]-took[1], took[3]-took[2]
			b.ReportMetric(float64(pairs.Microseconds())/float64(b.N), "pairs-µs")
			b.ReportMetric(float64(triples.Microseconds())/float64(b.N), "triples-µs")
			b.ReportMetric(float64(triples)/float64(pairs)/float64(live), "ratio/live")
		})
	}
}
