package deadlock

import (
	"slices"
	"testing"
)

// TestFrozenSetsKeptApartOnEqualHashes: two different sets of frozen boxes
// given the same hash get their own entries in the cache, each leaving
// the goals of its own set free; a cache keyed by the hash alone would
// answer the second with the first's goals.
func TestFrozenSetsKeptApartOnEqualHashes(t *testing.T) {
	b := board(t,
		"#######",
		"#.$ $.#",
		"#  @  #",
		"#######")
	f := NewFrozenGoals(b, make([]bool, b.N))
	goals := b.Goals()
	for _, g := range goals {
		f.frozen = append(f.frozen[:0], g)
		set := f.set(42)
		if len(set.goals) != len(goals)-1 || slices.Contains(set.goals, g) {
			t.Fatalf("frozen box on goal %d: free goals %v, want the others of %v", g, set.goals, goals)
		}
	}
	if f.Misses != uint64(len(goals)) {
		t.Fatalf("%d searches for %d sets", f.Misses, len(goals))
	}
}
