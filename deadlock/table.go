package deadlock

import (
	"context"
	"math/bits"
	"slices"
	"time"

	"soko/sokoban"
)

// Table is the per-level table of small box sets that can never be solved
// (after Festival's precomputed two-box table, here exact and with
// triples): for k = 1, 2 and, on boards small enough, 3, every
// configuration of k boxes with the player on a given square from which
// the k boxes alone cannot all be pushed onto goals.
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
// reach is dead. The search marks, per box set, one bit per player
// square: set when that square's region was reached; the table keeps those
// bits only for the sets dead for some player square (tableSets). A box
// square outside the table's live squares (one no lone box can leave for a
// goal) is dead already, and the table says nothing about sets holding
// one. The table is read-only once built: goroutines may share it.
type Table struct {
	stride int     // 64-bit words per row: one bit per square
	live   []int32 // square -> index among the live squares, or -1
	nLive  int
	// sets[k-1] holds the sets of k boxes; nil when they were not built.
	sets [maxTableBoxes]*tableSets
	// The third boxes of the open sets of three, by the pair of the other
	// two (rank): the row thirdRow[r] of thirds, a bit per live square, or
	// none when thirdRow[r] is -1. The check looks only there: a set of
	// three not listed is alive wherever the player stands.
	thirdRow []int32
	thirds   []uint64
	// partners has a row per live square, a bit per live square: set where
	// the two make an open pair or the pair has thirds (thirdRow). The
	// check looks at no other pairs.
	partners []uint64
	words    int // words of a row of partners or thirds: a bit per live square
}

// tableSets holds the sets of k boxes, numbered by rank: a bit per set,
// open, set when the set is dead for some player square (most sets are
// alive wherever the player stands), and for each open set, in rank
// order, its row: one bit per square, set where the player can stand and
// the set be solved.
type tableSets struct {
	open   []uint64
	before []uint32 // open sets in the words of open before each
	rows   []uint64
}

// maxTableBoxes is the largest box set a Table holds.
const maxTableBoxes = 3

// TableLimits bound the building of a Table.
type TableLimits struct {
	// Boxes is the largest box set to tabulate, 1 to 3.
	Boxes int
	// Bytes is the most memory the table and its search may take: the
	// sets of k boxes are searched, one bit per set and square, only when
	// that fits beside the table of the smaller ones; the search's time
	// goes with that size.
	Bytes int64
	// Time, when positive, is the longest the search of the sets of k
	// boxes may take, for each k: past it they are left out, and the
	// sets of three are not begun where the pairs' time says they would
	// not finish (triplesTime).
	Time time.Duration
}

// DefaultTableLimits are the limits NewChecker builds a table under: 16 MB
// takes the sets of three of every level of XSokoban and of the small dense
// dev set, and of 330 of the 380 of the first dev set.
var DefaultTableLimits = TableLimits{Boxes: 3, Bytes: 16 << 20}

// tableTimePart: a search gives the table's set-up at most this part of its
// time, so that short budgets are not spent on the sets of three (which
// take up to a second on the largest XSokoban boards).
const tableTimePart = 20

// triplesPerPair is the least time the search of the sets of three took
// for each live square, in units of the pairs' search, over the boards of
// XSokoban (BenchmarkTableStages; docs/measurements.md, "the triples not
// begun"). Where even at that rate the triples would outrun their time
// limit, they are not begun: on a large board their search would run to
// the limit and be thrown away.
const triplesPerPair = 0.22

// triplesTime is the least time the search of the sets of three may be
// expected to take on a board of live squares whose pairs took pairs.
func triplesTime(pairs time.Duration, live int) time.Duration {
	return time.Duration(triplesPerPair * float64(live) * float64(pairs))
}

// LimitsWithin are DefaultTableLimits within a search's budget: at most
// memory bytes when memory is positive (what the budget leaves), and a
// twentieth of its time d when that is positive.
func LimitsWithin(memory int64, d time.Duration) TableLimits {
	limits := DefaultTableLimits
	if memory > 0 {
		limits.Bytes = min(limits.Bytes, memory)
	}
	limits.Time = d / tableTimePart
	return limits
}

// NewTable builds the table of board b under limits; it stops with the
// context's error when ctx is done. It returns nil, and no error, when
// not even the single boxes fit.
func NewTable(ctx context.Context, b *sokoban.Board, limits TableLimits) (*Table, error) {
	return newTable(ctx, b, limits, false)
}

// NewStartTable builds the table of a backward search (one that pulls
// boxes from the solved position towards the start) under limits: every
// set of k boxes with the player on a given square from which the k boxes
// alone cannot all be pulled onto start squares (the squares of the
// start's boxes), found by the same retrograde search with pushes from
// every set of k start squares. It is sound for the same reason as
// Table: a sequence of pulls from a position back to the start, restricted
// to k of its boxes, pulls them onto start squares, the pulls of the
// others becoming walks of the player. Its checks take a pull where
// Table's take a push (DeadAfterPush).
func NewStartTable(ctx context.Context, b *sokoban.Board, limits TableLimits) (*Table, error) {
	return newTable(ctx, b, limits, true)
}

// newTable builds a Table, or with toStart a start table (NewStartTable).
func newTable(ctx context.Context, b *sokoban.Board, limits TableLimits, toStart bool) (*Table, error) {
	if b.N >= 1<<16 {
		return nil, nil // the search's stack holds squares in 16 bits
	}
	t := &Table{stride: (b.N + 63) / 64, live: make([]int32, b.N), nLive: b.N}
	bl := newTableBuilder(b, t, toStart)
	for s := range t.live {
		t.live[s] = int32(s) // every square, for the single boxes
	}
	var pairs time.Duration // how long the search of the pairs took
	for k := 1; k <= min(limits.Boxes, maxTableBoxes); k++ {
		if k == 3 && limits.Time > 0 && triplesTime(pairs, t.nLive) > limits.Time {
			break // the triples would not finish in time: not begun
		}
		used := t.Bytes()
		if k >= 2 { // the rows of partners, built once the pairs are
			used += 8 * int64(t.nLive*t.rowWords())
		}
		words := t.count(k) * int64(t.stride)
		if used+8*words > limits.Bytes {
			break
		}
		var deadline time.Time
		if limits.Time > 0 {
			deadline = time.Now().Add(limits.Time)
		}
		began := time.Now()
		rows, err := bl.build(ctx, deadline, k, words, limits.Bytes-used-8*words)
		if k == 2 {
			pairs = time.Since(began)
		}
		if err != nil {
			return nil, err
		}
		if rows == nil {
			break // its search outgrew the limits
		}
		if k == 1 {
			rows = t.renumber(rows)
		}
		t.sets[k-1] = t.compact(b, k, rows)
	}
	if t.sets[0] == nil {
		return nil, nil
	}
	t.words = t.rowWords()
	if t.sets[2] != nil {
		t.listThirds()
	}
	if t.sets[1] != nil {
		t.listPartners()
	}
	return t, nil
}

// renumber keeps, once the single boxes are built, only the live squares:
// those a lone box on them can leave for a goal from some player square.
// No set of more boxes reached by the pulls holds another square (drop the
// others and the lone box is solved). It returns the rows of the live
// squares.
func (t *Table) renumber(single []uint64) []uint64 {
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
	t.nLive = int(n)
	return rows
}

// compact keeps of the rows of every set of k boxes only those of the open
// sets.
func (t *Table) compact(b *sokoban.Board, k int, rows []uint64) *tableSets {
	n := t.count(k)
	ts := &tableSets{open: make([]uint64, (n+63)/64), before: make([]uint32, (n+63)/64)}
	stride := int64(t.stride)
	open := 0
	for r := range n {
		if r%64 == 0 {
			ts.before[r/64] = uint32(open)
		}
		row := rows[r*stride : (r+1)*stride]
		alive := 0
		for _, w := range row {
			alive += bits.OnesCount64(w)
		}
		if alive < b.N-k {
			ts.open[r/64] |= 1 << (r % 64)
			ts.rows = append(ts.rows, row...)
			open++
		}
	}
	ts.rows = slices.Clip(ts.rows)
	return ts
}

// listThirds lists, per pair of live squares, the third squares that make
// an open set of three with it (thirdRow, thirds).
func (t *Table) listThirds() {
	t.thirdRow = make([]int32, t.count(2))
	for r := range t.thirdRow {
		t.thirdRow[r] = -1
	}
	put := func(x, y, z int32) {
		r := rank([]int32{x, y})
		if t.thirdRow[r] < 0 {
			t.thirdRow[r] = int32(len(t.thirds) / t.words)
			t.thirds = append(t.thirds, make([]uint64, t.words)...)
		}
		t.thirds[int(t.thirdRow[r])*t.words+int(z/64)] |= 1 << (z % 64)
	}
	r := int64(0)
	for c := range int32(t.nLive) {
		for b := range c {
			for a := range b {
				if has(t.sets[2].open, r) {
					put(a, b, c)
					put(a, c, b)
					put(b, c, a)
				}
				r++
			}
		}
	}
	t.thirds = slices.Clip(t.thirds)
}

// rowWords returns the words of a row of a bit per live square.
func (t *Table) rowWords() int { return (t.nLive + 63) / 64 }

// listPartners sets the rows of partners.
func (t *Table) listPartners() {
	t.partners = make([]uint64, t.nLive*t.words)
	r := int64(0)
	for b := range int32(t.nLive) {
		for a := range b {
			if has(t.sets[1].open, r) || t.thirdRow != nil && t.thirdRow[r] >= 0 {
				t.partners[int(a)*t.words+int(b/64)] |= 1 << (b % 64)
				t.partners[int(b)*t.words+int(a/64)] |= 1 << (a % 64)
			}
			r++
		}
	}
}

// Live returns the number of live squares the table is indexed by.
func (t *Table) Live() int { return t.nLive }

// Boxes returns the largest box set the table holds.
func (t *Table) Boxes() int {
	k := 0
	for k < maxTableBoxes && t.sets[k] != nil {
		k++
	}
	return k
}

// Bytes returns the memory the table takes.
func (t *Table) Bytes() int64 {
	n := int64(len(t.live))*4 + 4*int64(len(t.thirdRow)) + 8*int64(len(t.thirds)+len(t.partners))
	for _, ts := range t.sets {
		if ts != nil {
			n += 12*int64(len(ts.open)) + 8*int64(len(ts.rows))
		}
	}
	return n
}

// count returns the number of sets of k live squares.
func (t *Table) count(k int) int64 {
	l := int64(t.nLive)
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
	return t.sets[len(idx)-1].alive(rank(idx), pl, t.stride)
}

// alive reports whether set r can be solved with the player on pl.
func (ts *tableSets) alive(r int64, pl sokoban.Square, stride int) bool {
	w, bit := r/64, uint64(1)<<(r%64)
	if ts.open[w]&bit == 0 {
		return true
	}
	i := int64(ts.before[w]) + int64(bits.OnesCount64(ts.open[w]&(bit-1)))
	return ts.rows[i*int64(stride)+int64(pl>>6)]>>(pl&63)&1 != 0
}

// DeadAfterPush reports whether the push that just put a box on s (for a
// start table, the pull), with the player on p's square (or any square of
// its region), left in p a set of boxes holding that box which the table
// proves dead: the box alone, with each other box, and (when built) with
// each two others. Only the sets holding s need be looked at: the
// player's walk to the move, and its step, are walks in every set without
// the box too, so their answers did not change. Of those it looks only at
// the open sets (tableSets, third).
func (t *Table) DeadAfterPush(p *sokoban.Position, s sokoban.Square) bool {
	ls := t.live[s]
	if ls < 0 {
		return false // a dead square: not the table's to say
	}
	pl := p.Player()
	if !t.alive([]int32{ls}, pl) {
		return true
	}
	if t.sets[1] == nil {
		return false
	}
	var buf [8]uint64 // the live squares of the boxes
	boxes := buf[:0]
	if t.words > len(buf) {
		boxes = make([]uint64, 0, t.words)
	}
	boxes = boxes[:t.words]
	for _, q := range p.BoxSquares() {
		if l := uint32(t.live[q]); l < uint32(t.nLive) {
			boxes[l>>6] |= 1 << (l & 63)
		}
	}
	partners := t.partners[int(ls)*t.words:][:len(boxes)]
	for v, boxesV := range boxes {
		for mv := partners[v] & boxesV; mv != 0; mv &= mv - 1 {
			lq := int32(v*64 + bits.TrailingZeros64(mv))
			r := rank([]int32{min(ls, lq), max(ls, lq)})
			if !t.sets[1].alive(r, pl, t.stride) {
				return true
			}
			if t.sets[2] == nil || t.thirdRow[r] < 0 {
				continue
			}
			// Each set of three once: its third box below the second, lq.
			row := t.thirds[int(t.thirdRow[r])*t.words:][:len(boxes)]
			for w := 0; w <= v; w++ {
				m := row[w] & boxes[w]
				if w == v {
					m &= 1<<(lq&63) - 1
				}
				for ; m != 0; m &= m - 1 {
					tri := [3]int32{ls, lq, int32(w*64 + bits.TrailingZeros64(m))}
					sort3(&tri)
					if !t.alive(tri[:], pl) {
						return true
					}
				}
			}
		}
	}
	return false
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
		for j := i + 1; j < len(live) && t.sets[1] != nil; j++ {
			if !t.alive([]int32{a, live[j]}, pl) {
				return true
			}
			for k := j + 1; k < len(live) && t.sets[2] != nil; k++ {
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
