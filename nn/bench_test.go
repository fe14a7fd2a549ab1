package nn

import (
	"math/rand/v2"
	"testing"
)

// benchConfig is the network alphazero trains by default on a 10×10 board.
var benchConfig = Config{Planes: 5, Embed: 16, Channels: 32, Blocks: 3, Hidden: 32}

func benchValues(b *testing.B, count int) {
	n, err := New(benchConfig, 1)
	if err != nil {
		b.Fatal(err)
	}
	batch := randomBatch(benchConfig, count, 10, 10, rand.New(rand.NewPCG(1, 1)))
	var in []float64
	for _, s := range batch {
		in = append(in, s.Planes...)
	}
	var out []float64
	for b.Loop() {
		if out, err = n.Values(in, count, 10, 10, out); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*count)/1e3, "µs/position")
}

func BenchmarkValuesBatch1(b *testing.B)  { benchValues(b, 1) }
func BenchmarkValuesBatch64(b *testing.B) { benchValues(b, 64) }

func BenchmarkTrain64(b *testing.B) {
	n, err := New(benchConfig, 1)
	if err != nil {
		b.Fatal(err)
	}
	batch := randomBatch(benchConfig, 64, 10, 10, rand.New(rand.NewPCG(1, 1)))
	for b.Loop() {
		if _, _, err := n.Train(batch, 10, 10); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*64)/b.Elapsed().Seconds(), "samples/s")
}
