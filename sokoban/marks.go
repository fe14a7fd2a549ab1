package sokoban

// Marks is a set of squares, or of any indexes below its size, that
// empties in constant time: an index is in the set when its stamp equals
// the current epoch, and Clear starts a new epoch. The stamps themselves
// are cleared only when the epoch wraps, once every 2^32 Clears. Flood
// fills and matchings that run once per state use it instead of clearing a
// []bool each time.
//
// Has and Add take the set by value, so that a hot loop may keep a copy in
// registers; a copy is good until the next Clear.
type Marks struct {
	stamp []uint32
	epoch uint32
}

// NewMarks returns an empty set of the indexes 0..n-1.
func NewMarks(n int) Marks { return Marks{stamp: make([]uint32, n), epoch: 1} }

// Clear empties the set.
func (m *Marks) Clear() {
	m.epoch++
	if m.epoch == 0 {
		clear(m.stamp)
		m.epoch = 1
	}
}

// Add puts i in the set.
func (m Marks) Add(i int32) { m.stamp[i] = m.epoch }

// Has reports whether i is in the set.
func (m Marks) Has(i int32) bool { return m.stamp[i] == m.epoch }
