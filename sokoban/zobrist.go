package sokoban

import "math/rand/v2"

// Zobrist is a table of Zobrist keys (Zobrist 1970): a random 64-bit key
// per square for a box on it and one for the player on it. A position's
// hash is the XOR of its squares' keys, so a push updates it with a few
// XORs and the order of the boxes does not change it. Every key table is
// made here (the board's, fess's keyer's, search's symmetry's, the
// frozen-goal cache's); each keeps its own seed, so its hashes (and the
// search orders they decide) stay as they were.
type Zobrist struct {
	Box, Player []uint64
}

// NewZobrist returns the keys of n squares drawn from a PCG generator
// seeded with seed and stream: for each square in order, its box key then
// its player key. The same arguments always give the same keys.
func NewZobrist(n int, seed, stream uint64) Zobrist {
	rng := rand.New(rand.NewPCG(seed, stream))
	z := Zobrist{Box: make([]uint64, n), Player: make([]uint64, n)}
	for s := range n {
		z.Box[s], z.Player[s] = rng.Uint64(), rng.Uint64()
	}
	return z
}
