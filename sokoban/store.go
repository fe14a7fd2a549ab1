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

// KeyHash returns the hash (Position.Hash) of the position packed as key
// (Position.Pack): a store made by another searcher, with other hash keys,
// can look up a key it packed in one of b's stores.
func (b *Board) KeyHash(key []byte) uint64 {
	step := b.squareBytes()
	var h uint64
	for i := 0; i+step <= len(key); i += step {
		s := Square(key[i])
		if step == 2 {
			s |= Square(key[i+1]) << 8
		}
		if i+step == len(key) {
			return h ^ b.zPlayer[s]
		}
		h ^= b.zBox[s]
	}
	return h
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
//
// The slots are split into parts by the hash's top bits, each doubling on
// its own: one table doubling at once held its old slots beside twice as
// many new ones, a jump of a quarter of a large search's memory in one
// insertion, past its --memory budget before the search could look.
type Store struct {
	stride int
	n      int
	keys   [][]byte   // page id>>pageBits: packed states, stride bytes each
	hashes [][]uint64 // page id>>pageBits: hashes
	parts  [parts]slotPart
	slots  int // slots in all parts
	// touched keeps Touch's loads from being optimized away.
	touched uint64
}

// slotPart is one part of a Store's slot table: the states whose hashes
// share its top partBits bits.
type slotPart struct {
	slots []uint64 // tag(hash)<<32 | id+1, or 0 for empty
	mask  uint64
	n     int
}

// partBits sets the number of parts: 32.
const partBits = 5

const parts = 1 << partBits

// partSlots is the slots of a part in a new store: 1,024 in all.
const partSlots = 32

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
	for i := range s.parts {
		s.parts[i] = slotPart{slots: make([]uint64, partSlots), mask: partSlots - 1}
	}
	s.slots = parts * partSlots
	return s
}

// part returns the part of the slot table that holds hash h.
func (s *Store) part(h uint64) *slotPart { return &s.parts[h>>(64-partBits)] }

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
	return int64(len(s.keys))*pageLen*int64(s.stride+8) + 8*int64(s.slots)
}

// Find returns the id of key, if stored.
func (s *Store) Find(key []byte, h uint64) (uint32, bool) {
	p := s.part(h)
	for i := h & p.mask; ; i = (i + 1) & p.mask {
		v := p.slots[i]
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
	p := s.part(h)
	i := h & p.mask
	for v := p.slots[i]; v != 0; v = p.slots[i] {
		if id := uint32(v) - 1; tagMatch(v, h) && bytes.Equal(s.Key(id), key) {
			return id, false
		}
		i = (i + 1) & p.mask
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
	p.slots[i] = slotOf(id, h)
	p.n++
	if uint64(p.n)*4 > uint64(len(p.slots))*3 {
		s.grow(p)
	}
	return id, true
}

// grow doubles part p, placing its states again by their stored hashes.
func (s *Store) grow(p *slotPart) {
	old := p.slots
	p.slots = make([]uint64, 2*len(old))
	p.mask = uint64(len(p.slots) - 1)
	s.slots += len(old)
	for _, v := range old {
		if v == 0 {
			continue
		}
		i := s.Hash(uint32(v)-1) & p.mask
		for p.slots[i] != 0 {
			i = (i + 1) & p.mask
		}
		p.slots[i] = v
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
		p := s.part(h)
		x |= p.slots[h&p.mask]
	}
	for _, h := range hashes {
		p := s.part(h)
		if v := p.slots[h&p.mask]; v != 0 && tagMatch(v, h) {
			id := uint32(v) - 1
			x |= uint64(s.keys[id>>pageBits][int(id&(pageLen-1))*s.stride])
		}
	}
	s.touched = x
}
