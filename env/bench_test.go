package env

import (
	"math/rand/v2"
	"testing"

	"soko/internal/testlevel"
)

// BenchmarkStep takes random legal actions on Microban 3 with 001's
// rewards and deadlock detection, resetting at the end of each episode.
func BenchmarkStep(b *testing.B) {
	l := testlevel.Resolve(b, "microban:3")[0]
	for _, mode := range []struct {
		name string
		m    Mode
	}{{"moves", Moves}, {"pushes", Pushes}} {
		b.Run(mode.name, func(b *testing.B) {
			e, err := New(Config{Mode: mode.m, MaxSteps: 200, Deadlocks: true}, l)
			if err != nil {
				b.Fatal(err)
			}
			e.Reset()
			rng := rand.New(rand.NewPCG(1, 2))
			var legal []Action
			steps := 0
			for b.Loop() {
				legal = e.Legal(legal[:0])
				if e.Done() || len(legal) == 0 {
					e.Reset()
					continue
				}
				e.Step(legal[rng.IntN(len(legal))])
				steps++
			}
			b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "steps/s")
		})
	}
}
