// Package hashtab is a hash table keyed by 64-bit hashes that stand for
// what they hash (a state, a state and an action): open addressing with
// linear probing over flat slices, no allocation per entry. Two things
// whose hashes are equal share an entry, a chance of about n²/2⁶⁵ over n
// keys; where that is not acceptable, sokoban.Store keeps the keys
// themselves. mcts and the generator's reverse play keep their states seen
// in a Set, qlearn its Q-table in a Map.
package hashtab

import (
	"iter"
	"unsafe"
)

// Map maps 64-bit keys to values of type V. Key 0 marks an empty slot, so
// a key of 0 is stored as 1.
//
// Invariant: at most 3/4 of the slots are used; len(keys) is a power of
// two; mask = len(keys) − 1.
type Map[V any] struct {
	keys []uint64
	vals []V
	n    int
	mask uint64
}

// Set is a set of 64-bit keys: a Map without values.
type Set = Map[struct{}]

// New returns an empty map of the given number of slots, a power of two:
// room for 3/4 of them before it doubles.
func New[V any](slots int) *Map[V] {
	m := &Map[V]{}
	m.alloc(slots)
	return m
}

func (m *Map[V]) alloc(slots int) {
	m.keys = make([]uint64, slots)
	m.vals = make([]V, slots)
	m.mask = uint64(slots - 1)
}

// Len returns the number of keys.
func (m *Map[V]) Len() int { return m.n }

// Bytes returns the map's memory: its slots, a key and a value each.
func (m *Map[V]) Bytes() int64 {
	var v V
	return int64(len(m.keys)) * (8 + int64(unsafe.Sizeof(v)))
}

// Keys returns an iterator over the keys the map holds (0 as 1), in the
// order of their slots.
func (m *Map[V]) Keys() iter.Seq[uint64] {
	return func(yield func(uint64) bool) {
		for _, k := range m.keys {
			if k != 0 && !yield(k) {
				return
			}
		}
	}
}

// Full reports whether one more key would make the map double, so a caller
// with a memory budget can look first.
func (m *Map[V]) Full() bool { return 4*(m.n+1) > 3*len(m.keys) }

// slot returns the slot of key k (k ≠ 0): where it is, or the empty one
// where it would go.
func (m *Map[V]) slot(k uint64) uint64 {
	i := Mix(k) & m.mask
	for m.keys[i] != 0 && m.keys[i] != k {
		i = (i + 1) & m.mask
	}
	return i
}

// Get returns the value of key k, and false (with the zero value) when
// the map does not hold k.
func (m *Map[V]) Get(k uint64) (V, bool) {
	i := m.slot(nonzero(k))
	return m.vals[i], m.keys[i] != 0
}

// Has reports whether the map holds key k.
func (m *Map[V]) Has(k uint64) bool { return m.keys[m.slot(nonzero(k))] != 0 }

// Set sets the value of key k.
func (m *Map[V]) Set(k uint64, v V) { m.vals[m.put(nonzero(k))] = v }

// Add puts key k in the map, its value the zero value if it is new, and
// reports whether it was new.
func (m *Map[V]) Add(k uint64) bool {
	n := m.n
	m.put(nonzero(k))
	return m.n > n
}

// put returns the slot of key k, adding k first if the map lacks it (and
// doubling the map when it is Full).
func (m *Map[V]) put(k uint64) uint64 {
	i := m.slot(k)
	if m.keys[i] != 0 {
		return i
	}
	if m.Full() {
		m.grow()
		i = m.slot(k)
	}
	m.keys[i] = k
	m.n++
	return i
}

func (m *Map[V]) grow() {
	keys, vals := m.keys, m.vals
	m.alloc(2 * len(keys))
	for j, k := range keys {
		if k != 0 {
			i := m.slot(k)
			m.keys[i], m.vals[i] = k, vals[j]
		}
	}
}

func nonzero(k uint64) uint64 {
	if k == 0 {
		return 1
	}
	return k
}

// Mix is the finaliser of SplitMix64, every bit of x reaching every bit of
// the result: the keys are hashes already, but keys that differ by a
// constant XOR (one state's actions) would land in neighbouring slots in
// patterns without it.
func Mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}
