package sokoban_test

import (
	"fmt"
	"testing"

	"soko/sokoban"
)

// TestZobristPinned pins the keys NewZobrist draws: hashes decide the order
// of the searches' tables, so a change of the derivation would change
// search results. It checks too that the box and player keys of a table
// are all distinct.
func TestZobristPinned(t *testing.T) {
	z := sokoban.NewZobrist(3, 0x50c0ba11, 3)
	got := fmt.Sprintf("%x %x %x", z.Box[0], z.Player[0], z.Box[2])
	const want = "f94660f3810b6747 a28adfba8dab4592 6bbbac36612a7926"
	if got != want {
		t.Fatalf("keys %s, want %s", got, want)
	}
	seen := map[uint64]bool{}
	for s := range 3 {
		for _, k := range []uint64{z.Box[s], z.Player[s]} {
			if seen[k] {
				t.Fatalf("key %x twice", k)
			}
			seen[k] = true
		}
	}
}
