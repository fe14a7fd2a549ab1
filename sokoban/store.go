package sokoban

import (
	"bytes"
	"slices"
)

// KeySize returns the length of a packed state of b: the sorted box squares
// then the canonical player square, one byte each when the board has at most
// 256 squares, two bytes (little endian) otherwise.
func (b *Board) KeySize() int {
	return (len(b.startBoxes) + 1) * b.squareBytes()
}

func (b *Board) squareBytes() int {
	if b.N <= 256 {
		return 1
	}
	return 2
}

// Pack appends the packed state of p (see Board.KeySize) to dst: the
// boxes and the canonical player square, so positions that differ only by
// where in the same region the player stands pack alike.
func (p *Position) Pack(dst []byte) []byte {
	return p.pack(dst, p.Reach())
}

// PackExact is Pack with the player's own square instead of the canonical
// one, for searches over single moves. Unpack reads both.
func (p *Position) PackExact(dst []byte) []byte {
	return p.pack(dst, p.player)
}

func (p *Position) pack(dst []byte, player Square) []byte {
	sorted := append(p.stack[:0], p.boxes...) // the reach stack is free scratch now
	slices.Sort(sorted)
	return p.packSorted(dst, sorted, player)
}

// packSorted appends the key of the boxes sorted (in p.stack's memory) and
// the player square.
func (p *Position) packSorted(dst []byte, sorted []Square, player Square) []byte {
	wide := p.b.squareBytes() == 2
	for _, s := range append(sorted, player) {
		if wide {
			dst = append(dst, byte(s), byte(s>>8))
		} else {
			dst = append(dst, byte(s))
		}
	}
	p.stack = sorted[:0]
	return dst
}

// Unpack sets p to the packed state key (made by Pack on the same board).
func (p *Position) Unpack(key []byte) {
	wide := p.b.squareBytes() == 2
	sq := func(i int) Square {
		if wide {
			return Square(key[2*i]) | Square(key[2*i+1])<<8
		}
		return Square(key[i])
	}
	for _, s := range p.boxes {
		p.boxAt[s] = -1
	}
	p.boxHash, p.onGoal = 0, 0
	for i := range p.boxes {
		s := sq(i)
		p.boxes[i] = s
		p.boxAt[s] = int16(i)
		p.boxHash ^= p.b.zBox[s]
		if p.b.goal[s] {
			p.onGoal++
		}
	}
	p.player = sq(len(p.boxes))
	p.fresh = false
}

// Store is a set of packed states with dense ids 0, 1, 2, … in insertion
// order. It is an open-addressing hash table of uint32 ids over flat arrays
// of keys and hashes: no per-state allocation, no map keyed by text. Each
// slot holds the top half of its state's hash beside the id, so a probe
// passes over other states without reading their hash or key (a cache miss
// each in a large table); equal tags are confirmed by comparing the packed
// keys, so a hash collision can never merge two different states.
type Store struct {
	stride int
	keys   []byte   // id*stride: packed state
	hashes []uint64 // id: hash
	slots  []uint64 // tag(hash)<<32 | id+1, or 0 for empty
	mask   uint64
}

// slotOf returns the slot value of state id with hash h.
func slotOf(id uint32, h uint64) uint64 { return h&^(1<<32-1) | uint64(id+1) }

// tagMatch reports whether slot v may hold the state with hash h.
func tagMatch(v, h uint64) bool { return (v^h)>>32 == 0 }

// NewStore returns an empty store for packed keys of the given size.
func NewStore(keySize int) *Store {
	s := &Store{stride: keySize}
	s.slots = make([]uint64, 1024)
	s.mask = uint64(len(s.slots) - 1)
	return s
}

// Len returns the number of stored states.
func (s *Store) Len() int { return len(s.hashes) }

// Key returns the packed state with the given id. Do not modify.
func (s *Store) Key(id uint32) []byte {
	o := int(id) * s.stride
	return s.keys[o : o+s.stride]
}

// Hash returns the hash the state with the given id was stored under.
func (s *Store) Hash(id uint32) uint64 { return s.hashes[id] }

// Bytes returns the memory held by the store.
func (s *Store) Bytes() int64 {
	return int64(cap(s.keys)) + 8*int64(cap(s.hashes)) + 8*int64(cap(s.slots))
}

// Find returns the id of key, if stored.
func (s *Store) Find(key []byte, h uint64) (uint32, bool) {
	for i := h & s.mask; ; i = (i + 1) & s.mask {
		v := s.slots[i]
		if v == 0 {
			return 0, false
		}
		if id := uint32(v) - 1; tagMatch(v, h) && bytes.Equal(s.Key(id), key) {
			return id, true
		}
	}
}

// Intern returns the id of key, adding it if it is new (fresh is then true).
func (s *Store) Intern(key []byte, h uint64) (id uint32, fresh bool) {
	i := h & s.mask
	for v := s.slots[i]; v != 0; v = s.slots[i] {
		if id := uint32(v) - 1; tagMatch(v, h) && bytes.Equal(s.Key(id), key) {
			return id, false
		}
		i = (i + 1) & s.mask
	}
	id = uint32(len(s.hashes))
	s.keys = append(s.keys, key...)
	s.hashes = append(s.hashes, h)
	s.slots[i] = slotOf(id, h)
	if uint64(len(s.hashes))*4 > uint64(len(s.slots))*3 {
		s.grow()
	}
	return id, true
}

func (s *Store) grow() {
	s.slots = make([]uint64, 2*len(s.slots))
	s.mask = uint64(len(s.slots) - 1)
	for id, h := range s.hashes {
		i := h & s.mask
		for s.slots[i] != 0 {
			i = (i + 1) & s.mask
		}
		s.slots[i] = slotOf(uint32(id), h)
	}
}
