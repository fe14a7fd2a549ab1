package hashtab

import (
	"math/rand/v2"
	"testing"
)

// TestMapAgainstGoMap checks a Map against a Go map, through growth, with
// key 0 and keys that collide in their slots.
func TestMapAgainstGoMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	tab := New[float64](4)
	want := map[uint64]float64{}
	norm := func(k uint64) uint64 {
		if k == 0 {
			return 1
		}
		return k
	}
	for i := range 20000 {
		k := rng.Uint64N(5000) // repeats, so updates as well as inserts
		if i%1000 == 0 {
			k = 0
		}
		v := rng.Float64()
		tab.Set(k, v)
		want[norm(k)] = v
		probe := rng.Uint64N(6000)
		if got, _ := tab.Get(probe); got != want[norm(probe)] {
			t.Fatalf("Get(%d) = %v, want %v", probe, got, want[norm(probe)])
		}
		if _, in := want[norm(probe)]; tab.Has(probe) != in {
			t.Fatalf("Has(%d) disagrees", probe)
		}
	}
	if tab.n != len(want) {
		t.Fatalf("%d entries, want %d", tab.n, len(want))
	}
	if 4*tab.n > 3*len(tab.keys) {
		t.Fatalf("load %d of %d slots above the maximum", tab.n, len(tab.keys))
	}
}

// BenchmarkMapGetSet updates the values of random keys, as qlearn's
// Q-table does, in a map of 4,096 slots to start with.
func BenchmarkMapGetSet(b *testing.B) {
	tab := New[float64](1 << 12)
	rng := rand.New(rand.NewPCG(1, 2))
	keys := make([]uint64, 1<<16)
	for i := range keys {
		keys[i] = rng.Uint64()
	}
	i := 0
	for b.Loop() {
		k := keys[i&(len(keys)-1)]
		v, _ := tab.Get(k)
		tab.Set(k, v+1)
		i++
	}
	b.ReportMetric(float64(i)/b.Elapsed().Seconds(), "updates/s")
}
