package fess

import "soko/sokoban"

// zobristSeed seeds the hash keys of the stores, so runs are reproducible.
const zobristSeed = 0xfe55

// keyer packs positions into store keys and hashes them. The forward and
// the backward search share one, so a position found by either is found in
// the other's store (meeting in the middle).
type keyer struct {
	wide    bool     // two bytes a square in keys
	zBox    []uint64 // Zobrist keys of box squares and player squares
	zPlayer []uint64
}

func newKeyer(b *sokoban.Board) keyer {
	z := sokoban.NewZobrist(b.N, zobristSeed, uint64(b.N))
	return keyer{wide: b.KeySize() == 2*(b.Boxes()+1), zBox: z.Box, zPlayer: z.Player}
}

// pack appends to dst[:0] the key of the position whose boxes are sorted,
// but with the box on from moved to to, and whose player's canonical square
// is canon, as Position.Pack would (sorted box squares, then the player;
// Unpack reads it), and returns it with its hash. With from None the boxes
// are sorted as they are.
func (k *keyer) pack(dst []byte, sorted []sokoban.Square, from, to, canon sokoban.Square) ([]byte, uint64) {
	key := dst[:0]
	put := func(s sokoban.Square) {
		key = append(key, byte(s))
		if k.wide {
			key = append(key, byte(s>>8))
		}
	}
	hash := uint64(0)
	for _, s := range sorted {
		if s == from {
			continue
		}
		if from != sokoban.None && to < s && to != sokoban.None {
			put(to)
			hash ^= k.zBox[to]
			to = sokoban.None
		}
		put(s)
		hash ^= k.zBox[s]
	}
	if from != sokoban.None && to != sokoban.None {
		put(to)
		hash ^= k.zBox[to]
	}
	put(canon)
	return key, hash ^ k.zPlayer[canon]
}

// childHashes appends to dst the hashes pack gives the children of the
// position whose boxes are sorted, one for each of moves: the parent's
// boxes' with the moved box's square changed, and the canonical player's.
func (k *keyer) childHashes(dst []uint64, sorted []sokoban.Square, moves []Macro) []uint64 {
	boxes := uint64(0)
	for _, s := range sorted {
		boxes ^= k.zBox[s]
	}
	for _, m := range moves {
		dst = append(dst, boxes^k.zBox[m.From]^k.zBox[m.To]^k.zPlayer[m.canon])
	}
	return dst
}

// positionKey is a position's key in the trees' and the backward stores'
// form, with its hash.
type positionKey struct {
	key  []byte
	hash uint64
}

// find returns the position's id in store, if store holds it.
func (k positionKey) find(store *sokoban.Store) (uint32, bool) {
	return store.Find(k.key, k.hash)
}

// in reports whether store holds the position.
func (k positionKey) in(store *sokoban.Store) bool {
	_, ok := k.find(store)
	return ok
}
