package qlearn

// table is the Q-table of 001 §2.2.2: a hash table from ID(state, action)
// to Q(state, action), here open addressing with linear probing over 64-bit
// keys, 16 bytes a slot. A key is the state's Zobrist hash mixed with the
// action (see key); two pairs whose keys collide share an entry, a chance of
// about n²/2⁶⁵ over n pairs, as in the document's hashed IDs. Key 0 marks an
// empty slot, so a key of 0 is stored as 1.
//
// Invariant: at most maxLoad of the slots are used; len(keys) is a power of
// two; mask = len(keys) − 1.
type table struct {
	keys []uint64
	vals []float64
	n    int
	mask uint64
}

// slotBytes is the memory of one slot: a key and a value.
const slotBytes = 16

// maxLoad is the used fraction at which the table doubles, as num/den.
const maxLoadNum, maxLoadDen = 3, 4

func newTable(slots int) *table {
	t := &table{}
	t.alloc(slots)
	return t
}

func (t *table) alloc(slots int) {
	t.keys = make([]uint64, slots)
	t.vals = make([]float64, slots)
	t.mask = uint64(slots - 1)
}

// bytes is the table's memory now.
func (t *table) bytes() int64 { return int64(len(t.keys)) * slotBytes }

// full reports whether one more entry would make the table double.
func (t *table) full() bool { return (t.n+1)*maxLoadDen > len(t.keys)*maxLoadNum }

// slot returns the slot of key k: where it is, or the empty one where it
// would go.
func (t *table) slot(k uint64) uint64 {
	if k == 0 {
		k = 1
	}
	i := mix(k) & t.mask
	for t.keys[i] != 0 && t.keys[i] != k {
		i = (i + 1) & t.mask
	}
	return i
}

// get returns Q for key k, 0 for a pair never updated (001 starts from an
// empty table).
func (t *table) get(k uint64) float64 {
	return t.vals[t.slot(k)]
}

// has reports whether key k has an entry.
func (t *table) has(k uint64) bool {
	return t.keys[t.slot(k)] != 0
}

// set stores Q for key k; the caller checks full and the memory budget
// first, since a new key may double the table.
func (t *table) set(k uint64, v float64) {
	if k == 0 {
		k = 1
	}
	i := t.slot(k)
	if t.keys[i] == 0 {
		if t.full() {
			t.grow()
			i = t.slot(k)
		}
		t.keys[i] = k
		t.n++
	}
	t.vals[i] = v
}

func (t *table) grow() {
	keys, vals := t.keys, t.vals
	t.alloc(2 * len(keys))
	for j, k := range keys {
		if k != 0 {
			i := t.slot(k)
			t.keys[i], t.vals[i] = k, vals[j]
		}
	}
}

// mix is the finaliser of SplitMix64: Zobrist keys are already random, but
// a state's actions differ in their key by a constant XOR, and mixing keeps
// them from landing in neighbouring slots in patterns.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}
