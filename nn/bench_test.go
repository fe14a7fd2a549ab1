package nn

import (
	"context"
	"math/rand/v2"
	"testing"
)

// The networks benchmarked on a 10×10 board (Boxoban's size): the one soko
// train builds by default (package alphazero) and 003 §3's reference:
// embedding 16, 10 residual blocks of 64 channels (the hidden size of the
// value head is not given there).
var benchConfigs = []struct {
	name string
	c    Config
}{
	{"default", Config{Planes: 5, Embed: 16, Channels: 16, Blocks: 2, Hidden: 32}},
	{"reference", Config{Planes: 5, Embed: 16, Channels: 64, Blocks: 10, Hidden: 64}},
}

func BenchmarkValues(b *testing.B) {
	for _, bc := range benchConfigs {
		for _, count := range []int{1, 64} {
			b.Run(bc.name+"/batch"+itoa(count), func(b *testing.B) {
				n, err := New(bc.c, 1)
				if err != nil {
					b.Fatal(err)
				}
				batch := randomBatch(bc.c, count, 10, 10, rand.New(rand.NewPCG(1, 1)))
				var in []float64
				for _, s := range batch {
					in = append(in, s.Planes...)
				}
				var out []float64
				for b.Loop() {
					if out, err = n.Values(context.Background(), in, count, 10, 10, out); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*count)/1e3, "µs/position")
			})
		}
	}
}

func BenchmarkTrain(b *testing.B) {
	for _, bc := range benchConfigs {
		b.Run(bc.name+"/batch64", func(b *testing.B) {
			n, err := New(bc.c, 1)
			if err != nil {
				b.Fatal(err)
			}
			batch := randomBatch(bc.c, 64, 10, 10, rand.New(rand.NewPCG(1, 1)))
			for b.Loop() {
				if _, _, err := n.Train(context.Background(), batch, 10, 10); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*64)/b.Elapsed().Seconds(), "samples/s")
		})
	}
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
