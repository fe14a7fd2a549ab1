package deadlock

import (
	"context"
	"math/bits"
	"slices"

	"soko/sokoban"
)

// Table is the per-level table of small box sets that can never be solved
// (after Festival's precomputed two-box table, here exact and with
// triples): for k = 1, 2 and, on boards small enough,
// 3, every configuration of k boxes with the player on a given square from
// which the k boxes alone cannot all be pushed onto goals.
//
// Why it is sound: take k of the boxes of a position (the others removed)
// and ask that each ends on a goal of its own. A solution of the whole
// position, restricted to the pushes of those k boxes, solves that relaxed
// problem: the pushes of the other boxes become walks of the player, legal
// with fewer obstacles. So a relaxed configuration with no solution makes
// every position that holds it dead.
//
// The relaxed problem is solved exactly by a retrograde search: pulls from
// every solved configuration (the k boxes on any k distinct goals, the
// player in any region the boxes leave), over states of box set and player
// region. Every state it reaches can be solved; every state it does not
// reach is dead. The table keeps, per box set, one bit per player square:
// set when that square's region was reached. A box square outside the
// table's live squares (one no lone box can leave for a goal) is dead
// already, and the table says nothing about sets holding one.
type Table struct {
	n      int
	stride int     // 64-bit words per box set: one bit per square
	live   []int32 // square -> index among the live squares, or -1
	// bits[k-1] holds the sets of k boxes, ranked (rank), stride words
	// each; nil when the sets of k boxes were not built.
	bits [maxTableBoxes][]uint64
	// Per pair of live squares (rank), two bits: pairOpen, some player
	// square leaves the pair dead; tripleOpen, some set of three boxes
	// holding the pair is dead for some player square. The check looks
	// only there: most sets are alive wherever the player stands.
	pairOpen, tripleOpen []uint64

	// Scratch of the check.
	idx []int32
}

// maxTableBoxes is the largest box set a Table holds.
const maxTableBoxes = 3

// TableLimits bound the building of a Table.
type TableLimits struct {
	// Boxes is the largest box set to tabulate, 1 to 3.
	Boxes int
	// Bytes is the most memory the table and its search may take: the
	// sets of k boxes are built only when they fit beside the smaller
	// ones.
	Bytes int64
}

// DefaultTableLimits are the limits NewChecker builds a table under.
var DefaultTableLimits = TableLimits{Boxes: 3, Bytes: 16 << 20}

// NewTable builds the table of board b under limits; it stops with the
// context's error when ctx is done. It returns nil, and no error, when
// not even the single boxes fit.
func NewTable(ctx context.Context, b *sokoban.Board, limits TableLimits) (*Table, error) {
	if b.N >= 1<<16 {
		return nil, nil // queue entries hold squares in 16 bits
	}
	t := &Table{n: b.N, stride: (b.N + 63) / 64, live: make([]int32, b.N)}
	bl := tableBuilder{b: b, t: t, box: make([]bool, b.N)}
	for s := range t.live {
		t.live[s] = int32(s) // every square, for the single boxes
	}
	used := int64(b.N) * 4
	for k := 1; k <= min(limits.Boxes, maxTableBoxes); k++ {
		words := t.sets(k) * int64(t.stride)
		if used+8*words > limits.Bytes {
			break
		}
		row, err := bl.build(ctx, k, words, limits.Bytes-used-8*words)
		if err != nil {
			return nil, err
		}
		if row == nil {
			break // its search outgrew the budget
		}
		t.bits[k-1] = row
		used += 8 * words
		if k == 1 {
			t.renumber(b)
		}
	}
	if t.bits[0] == nil {
		return nil, nil
	}
	if t.bits[1] != nil {
		t.open(b)
	}
	return t, nil
}

// renumber keeps, once the single boxes are built, only the live squares:
// those a lone box on them can leave for a goal from some player square.
// No set of more boxes reached by the pulls holds another square (drop the
// others and the lone box is solved).
func (t *Table) renumber(b *sokoban.Board) {
	single := t.bits[0]
	var rows []uint64
	n := int32(0)
	for s := range t.live {
		row := single[s*t.stride : (s+1)*t.stride]
		if slices.ContainsFunc(row, func(w uint64) bool { return w != 0 }) {
			t.live[s] = n
			rows = append(rows, row...)
			n++
		} else {
			t.live[s] = -1
		}
	}
	t.bits[0] = rows
}

// Live returns the number of live squares the table is indexed by.
func (t *Table) Live() int {
	return len(t.bits[0]) / t.stride
}

// Boxes returns the largest box set the table holds.
func (t *Table) Boxes() int {
	k := 0
	for k < maxTableBoxes && t.bits[k] != nil {
		k++
	}
	return k
}

// Bytes returns the memory the table takes.
func (t *Table) Bytes() int64 {
	n := int64(len(t.live))*4 + 8*int64(len(t.pairOpen)+len(t.tripleOpen))
	for _, row := range t.bits {
		n += 8 * int64(len(row))
	}
	return n
}

// sets returns the number of sets of k live squares.
func (t *Table) sets(k int) int64 {
	l := int64(len(t.live))
	if t.bits[0] != nil {
		l = int64(t.Live())
	}
	switch k {
	case 1:
		return l
	case 2:
		return l * (l - 1) / 2
	}
	return l * (l - 1) * (l - 2) / 6
}

// rank numbers a sorted set of live indices (the combinatorial number
// system): a < b < c ranks C(c,3) + C(b,2) + a.
func rank(idx []int32) int64 {
	r := int64(idx[0])
	if len(idx) > 1 {
		b := int64(idx[1])
		r += b * (b - 1) / 2
	}
	if len(idx) > 2 {
		c := int64(idx[2])
		r += c * (c - 1) * (c - 2) / 6
	}
	return r
}

// alive reports whether the set of len(idx) boxes, sorted live indices, can
// be solved with the player on square pl.
func (t *Table) alive(idx []int32, pl sokoban.Square) bool {
	w := rank(idx)*int64(t.stride) + int64(pl>>6)
	return t.bits[len(idx)-1][w]>>(pl&63)&1 != 0
}

// DeadAfterPush reports whether the push that just put a box on s, with
// the player on p's square (or any square of its region), left in p a set
// of boxes holding that box which the table proves dead: the box alone,
// with each other box, and (when built) with each two others. Only the
// sets holding s need be looked at: the player's walk to the push is a
// walk in every set without it too, so their answers did not change. Of
// those it looks only at the sets that are dead for some player square
// (pairOpen, tripleOpen).
func (t *Table) DeadAfterPush(p *sokoban.Position, s sokoban.Square) bool {
	ls := t.live[s]
	if ls < 0 {
		return false // a dead square: not the table's to say
	}
	pl := p.Player()
	if !t.alive([]int32{ls}, pl) {
		return true
	}
	if t.bits[1] == nil {
		return false
	}
	t.idx = t.idx[:0]
	for _, q := range p.BoxSquares() {
		lq := t.live[q]
		if q == s || lq < 0 {
			continue
		}
		pair := [2]int32{min(ls, lq), max(ls, lq)}
		r := rank(pair[:])
		if has(t.pairOpen, r) && !t.alive(pair[:], pl) {
			return true
		}
		if t.tripleOpen != nil && has(t.tripleOpen, r) {
			t.idx = append(t.idx, lq)
		}
	}
	// A set of three that is dead somewhere has both its pairs with s open.
	for i, a := range t.idx {
		for _, c := range t.idx[i+1:] {
			tri := [3]int32{ls, a, c}
			sort3(&tri)
			if !t.alive(tri[:], pl) {
				return true
			}
		}
	}
	return false
}

// open marks the pairs of live squares that are dead for some player
// square, and those held by a set of three that is.
func (t *Table) open(b *sokoban.Board) {
	pairs := t.sets(2)
	t.pairOpen = make([]uint64, (pairs+63)/64)
	somewhere := func(k int, r int64) bool { // dead for some player square
		free := b.N - k
		n := 0
		for _, w := range t.bits[k-1][r*int64(t.stride) : (r+1)*int64(t.stride)] {
			n += bits.OnesCount64(w)
		}
		return n < free
	}
	for r := range pairs {
		if somewhere(2, r) {
			t.pairOpen[r/64] |= 1 << (r % 64)
		}
	}
	if t.bits[2] == nil {
		return
	}
	t.tripleOpen = make([]uint64, (pairs+63)/64)
	mark := func(a, b int32) {
		r := rank([]int32{a, b})
		t.tripleOpen[r/64] |= 1 << (r % 64)
	}
	l := int32(t.Live())
	r := int64(0)
	for c := int32(2); c < l; c++ {
		for bb := int32(1); bb < c; bb++ {
			for a := int32(0); a < bb; a++ {
				if somewhere(3, r) {
					mark(a, bb)
					mark(a, c)
					mark(bb, c)
				}
				r++
			}
		}
	}
}

// has reports whether bit r of set is set.
func has(set []uint64, r int64) bool { return set[r/64]>>(r%64)&1 != 0 }

// Dead reports whether some set of boxes of p the table holds is dead,
// with the player where p has it: every box, pair and triple. It is for
// start positions and tests.
func (t *Table) Dead(p *sokoban.Position) bool {
	pl := p.Player()
	var live []int32
	for _, q := range p.BoxSquares() {
		if lq := t.live[q]; lq >= 0 {
			live = append(live, lq)
		}
	}
	slices.Sort(live)
	for i, a := range live {
		if !t.alive([]int32{a}, pl) {
			return true
		}
		for j := i + 1; j < len(live) && t.bits[1] != nil; j++ {
			if !t.alive([]int32{a, live[j]}, pl) {
				return true
			}
			for k := j + 1; k < len(live) && t.bits[2] != nil; k++ {
				if !t.alive([]int32{a, live[j], live[k]}, pl) {
					return true
				}
			}
		}
	}
	return false
}

// sort3 sorts three indices.
func sort3(a *[3]int32) {
	if a[0] > a[1] {
		a[0], a[1] = a[1], a[0]
	}
	if a[1] > a[2] {
		a[1], a[2] = a[2], a[1]
	}
	if a[0] > a[1] {
		a[0], a[1] = a[1], a[0]
	}
}
