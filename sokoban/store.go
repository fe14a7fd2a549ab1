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
// order. It is an open-addressing hash table of uint32 ids over pages of
// keys and hashes: no per-state allocation, no map keyed by text, and
// growing never copies the states stored (a doubling slice of keys held
// half as much again while it was copied; the time it took, 1.3 s of a
// 40 s fess run on XSokoban 41, did not show in the run's time).
// Each slot holds the top half of its state's hash beside the id, so a
// probe passes over other states without reading their hash or key (a
// cache miss each in a large table); equal tags are confirmed by comparing
// the packed keys, so a hash collision can never merge two different
// states.
type Store struct {
	stride int
	n      int
	keys   [][]byte   // page id>>pageBits: packed states, stride bytes each
	hashes [][]uint64 // page id>>pageBits: hashes
	slots  []uint64   // tag(hash)<<32 | id+1, or 0 for empty
	mask   uint64
	// touched keeps Touch's loads from being optimized away.
	touched uint64
}

// pageBits sets the states a page holds: 4,096.
const pageBits = 12

const pageLen = 1 << pageBits

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
func (s *Store) Len() int { return s.n }

// Key returns the packed state with the given id. Do not modify.
func (s *Store) Key(id uint32) []byte {
	o := int(id&(pageLen-1)) * s.stride
	return s.keys[id>>pageBits][o : o+s.stride : o+s.stride]
}

// Hash returns the hash the state with the given id was stored under.
func (s *Store) Hash(id uint32) uint64 { return s.hashes[id>>pageBits][id&(pageLen-1)] }

// Bytes returns the memory held by the store.
func (s *Store) Bytes() int64 {
	return int64(len(s.keys))*pageLen*int64(s.stride+8) + 8*int64(cap(s.slots))
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

// Intern returns the id of key, storing it first if new (fresh is then true).
// h must be a hash of key that the caller computes the same way every time.
func (s *Store) Intern(key []byte, h uint64) (id uint32, fresh bool) {
	i := h & s.mask
	for v := s.slots[i]; v != 0; v = s.slots[i] {
		if id := uint32(v) - 1; tagMatch(v, h) && bytes.Equal(s.Key(id), key) {
			return id, false
		}
		i = (i + 1) & s.mask
	}
	id = uint32(s.n)
	page, at := s.n>>pageBits, s.n&(pageLen-1)
	if page == len(s.keys) {
		s.keys = append(s.keys, make([]byte, pageLen*s.stride))
		s.hashes = append(s.hashes, make([]uint64, pageLen))
	}
	copy(s.keys[page][at*s.stride:], key[:s.stride])
	s.hashes[page][at] = h
	s.n++
	s.slots[i] = slotOf(id, h)
	if uint64(s.n)*4 > uint64(len(s.slots))*3 {
		s.grow()
	}
	return id, true
}

func (s *Store) grow() {
	s.slots = make([]uint64, 2*len(s.slots))
	s.mask = uint64(len(s.slots) - 1)
	for id := range uint32(s.n) {
		h := s.Hash(id)
		i := h & s.mask
		for s.slots[i] != 0 {
			i = (i + 1) & s.mask
		}
		s.slots[i] = slotOf(id, h)
	}
}

// Touch loads the table slots where the states with the given hashes
// would be found, then the keys those slots point to when their tags
// match, so that the Intern or Find calls for them that follow find them
// in the cache: the loads of each pass are independent of each other and
// their cache misses overlap, where Intern meets them one after another.
// It changes nothing in the store.
func (s *Store) Touch(hashes []uint64) {
	var x uint64
	for _, h := range hashes {
		x |= s.slots[h&s.mask]
	}
	for _, h := range hashes {
		if v := s.slots[h&s.mask]; v != 0 && tagMatch(v, h) {
			id := uint32(v) - 1
			x |= uint64(s.keys[id>>pageBits][int(id&(pageLen-1))*s.stride])
		}
	}
	s.touched = x
}
