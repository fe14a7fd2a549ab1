package qlearn

import (
	"math/rand/v2"
	"testing"
)

// The table against a Go map, through growth, with key 0 and keys that
// collide in their slots.
func TestTableAgainstMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	tab := newTable(4)
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
		tab.set(k, v)
		want[norm(k)] = v
		probe := rng.Uint64N(6000)
		if got, ok := tab.get(probe), want[norm(probe)]; got != ok {
			t.Fatalf("get(%d) = %v, want %v", probe, got, ok)
		}
		if tab.has(probe) != (want[norm(probe)] != 0 || func() bool { _, in := want[norm(probe)]; return in }()) {
			t.Fatalf("has(%d) disagrees", probe)
		}
	}
	if tab.n != len(want) {
		t.Fatalf("%d entries, want %d", tab.n, len(want))
	}
	if tab.n*maxLoadDen > len(tab.keys)*maxLoadNum {
		t.Fatalf("load %d of %d slots above the maximum", tab.n, len(tab.keys))
	}
}

func BenchmarkTableGetSet(b *testing.B) {
	tab := newTable(initialSlots)
	rng := rand.New(rand.NewPCG(1, 2))
	keys := make([]uint64, 1<<16)
	for i := range keys {
		keys[i] = rng.Uint64()
	}
	i := 0
	for b.Loop() {
		k := keys[i&(len(keys)-1)]
		tab.set(k, tab.get(k)+1)
		i++
	}
	b.ReportMetric(float64(i)/b.Elapsed().Seconds(), "updates/s")
}
