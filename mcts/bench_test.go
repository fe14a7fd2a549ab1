package mcts

import (
	"soko/internal/testlevel"
	"testing"

	"soko/solver"
)

// benchmarkPush runs a solver over all of Microban III 1–100 (the thesis's
// "Microban" set) at 1000 iterations per level and reports the cost of one
// iteration and the levels solved. The bar for Schokoban is under 20 µs per
// iteration on average.
func benchmarkPush(b *testing.B, s solver.Solver) {
	ls := testlevel.Resolve(b, "schokoban-microban100")
	var iters, solved int64
	var secs float64
	for b.Loop() {
		iters, solved, secs = 0, 0, 0
		for _, l := range ls {
			res := run(b, s, l, iterations(1000, 0))
			iters += res.Stats.Iterations
			secs += res.Stats.Elapsed.Seconds()
			if res.Status == solver.Solved {
				solved++
			}
		}
	}
	b.ReportMetric(1e6*secs/float64(iters), "µs/iteration")
	b.ReportMetric(float64(solved), "solved")
}

func BenchmarkSchokoban(b *testing.B)  { benchmarkPush(b, Schokoban{}) }
func BenchmarkVanillaban(b *testing.B) { benchmarkPush(b, Vanillaban{}) }

// benchmarkMove runs a move-level configuration over Microban 1–20 at 2000
// iterations per level and reports the cost of one iteration.
func benchmarkMove(b *testing.B, variant string) {
	ls := testlevel.Resolve(b, "microban:1-20")
	var iters int64
	var secs float64
	for b.Loop() {
		iters, secs = 0, 0
		for _, l := range ls {
			res := run(b, MoveMCTS{variant}, l, iterations(2000, 0))
			iters += res.Stats.Iterations
			secs += res.Stats.Elapsed.Seconds()
		}
	}
	b.ReportMetric(1e6*secs/float64(iters), "µs/iteration")
}

func BenchmarkMCTS(b *testing.B)   { benchmarkMove(b, "mcts") }
func BenchmarkMCTSND(b *testing.B) { benchmarkMove(b, "mcts-nd") }
func BenchmarkMCTSR(b *testing.B)  { benchmarkMove(b, "mcts-r") }
