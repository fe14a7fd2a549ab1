package deadlock

import (
	"context"
	"time"

	"soko/sokoban"
)

// tableBuilder runs the retrograde searches of a Table. It keeps scratch
// space.
type tableBuilder struct {
	b   *sokoban.Board
	t   *Table
	box []bool // the boxes of the set under examination
	// toStart: the sets solved are those on start squares, reached by
	// pulls, so the retrograde search pushes (NewStartTable).
	toStart bool
	stack   []sokoban.Square
	idx     []int32
	// grid, when the board is at most 64 columns wide, floods a row of
	// cells at a time (grid.fillRows) over occ, the set's boxes, into
	// region; flood then copies region into the table's row, a run of
	// floor cells at a time.
	grid        *grid
	occ, region []uint64
	runs        []floorRun
}

// floorRun is a row's run of floor cells side by side, n cells from column
// x of grid row y: squares numbered in row order, so s, s+1, …, s+n-1.
type floorRun struct {
	y, x, n int
	s       sokoban.Square
}

// newTableBuilder returns the builder of t's sets on b.
func newTableBuilder(b *sokoban.Board, t *Table, toStart bool) *tableBuilder {
	bl := &tableBuilder{b: b, t: t, box: make([]bool, b.N), toStart: toStart}
	if b.Width > 64 {
		return bl
	}
	bl.grid = newGridLayout(b, true)
	bl.occ, bl.region = make([]uint64, bl.grid.words), make([]uint64, bl.grid.words)
	for s := range sokoban.Square(b.N) {
		x, y := b.XY(s)
		if k := len(bl.runs) - 1; k >= 0 && bl.runs[k].y == y && bl.runs[k].x+bl.runs[k].n == x {
			bl.runs[k].n++
			continue
		}
		bl.runs = append(bl.runs, floorRun{y: y, x: x, n: 1, s: s})
	}
	return bl
}

// tableSet is a set of box squares on the search's stack, sorted; only the
// first k are used.
type tableSet [maxTableBoxes]uint16

// checkEvery is how many sets the search expands, or seeds, between looks
// at the context and the clock: a set's pulls flood the board up to four
// times a box, so on a board of thousands of squares 64 sets take a few
// milliseconds.
const checkEvery = 1 << 6

// build returns the rows of every set of k boxes (words 64-bit words): the
// pulls (with toStart, the pushes) from every solved set, each box set's
// bits the squares of the player regions reached. The search's stack may
// take spare bytes; past them, or past the deadline when it is not zero,
// it returns nil.
func (bl *tableBuilder) build(ctx context.Context, deadline time.Time, k int, words, spare int64) ([]uint64, error) {
	row := make([]uint64, words)
	var stack []tableSet
	maxStack := int(min(spare/int64(len(tableSet{})*2), 1<<40))
	var set tableSet
	var seed func(from, i int)
	seeded, stop := 0, false   // stop: the context ended or the clock ran out while seeding
	seed = func(from, i int) { // every k goals, in square order, and every region they leave
		if stop {
			return
		}
		if i == k {
			if seeded++; seeded%checkEvery == 0 && (ctx.Err() != nil || !deadline.IsZero() && time.Now().After(deadline)) {
				stop = true
				return
			}
			solved := set
			sortSet(&solved, k)
			bl.place(solved[:k], true)
			r := bl.rank(solved[:k])
			for s := range bl.b.N {
				if !bl.box[s] && !bl.has(row, r, sokoban.Square(s)) {
					bl.flood(row, r, sokoban.Square(s), solved[:k])
					stack = append(stack, solved)
				}
			}
			bl.place(solved[:k], false)
			return
		}
		targets := bl.b.Goals()
		if bl.toStart {
			targets = bl.b.Start().BoxSquares()
		}
		for g := from; g < len(targets); g++ {
			set[i] = uint16(targets[g])
			seed(g+1, i+1)
		}
	}
	seed(0, 0)
	if stop {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return nil, nil
	}
	for n := 0; len(stack) > 0; n++ {
		if n%checkEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if !deadline.IsZero() && time.Now().After(deadline) {
				return nil, nil
			}
		}
		if len(stack) > maxStack {
			return nil, nil
		}
		cur := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		bl.place(cur[:k], true)
		r := bl.rank(cur[:k])
		for i := range k {
			bx := sokoban.Square(cur[i])
			for d := range sokoban.Dirs {
				to, stand, ok := bl.move(row, r, bx, d)
				if !ok {
					continue
				}
				next := cur
				next[i] = uint16(to)
				sortSet(&next, k)
				nr := bl.rank(next[:k])
				if bl.has(row, nr, stand) {
					continue
				}
				bl.box[bx], bl.box[to] = false, true
				bl.flood(row, nr, stand, next[:k])
				bl.box[bx], bl.box[to] = true, false
				stack = append(stack, next)
			}
		}
		bl.place(cur[:k], false)
	}
	return row, nil
}

// move returns the retrograde search's move of the box on bx in direction
// d in set r: the square the box goes to and the one the player stands on
// after it, or false when the player cannot make it from a region reached
// with the set. It is a pull (the player on the box's new square steps
// back one more), or with toStart a push (the player behind the box
// follows it onto bx).
func (bl *tableBuilder) move(row []uint64, r int64, bx sokoban.Square, d sokoban.Dir) (to, stand sokoban.Square, ok bool) {
	to = bl.b.Next(bx, d)
	if to < 0 || bl.box[to] {
		return 0, 0, false
	}
	if bl.toStart {
		behind := bl.b.Next(bx, d^1)
		return to, bx, behind >= 0 && !bl.box[behind] && bl.has(row, r, behind)
	}
	stand = bl.b.Next(to, d)
	return to, stand, bl.has(row, r, to) && stand >= 0 && !bl.box[stand]
}

// place puts the boxes of set on the board (on) or takes them off.
func (bl *tableBuilder) place(set []uint16, on bool) {
	for _, s := range set {
		bl.box[s] = on
	}
}

// rank is the rank of a set of box squares among the table's live squares.
func (bl *tableBuilder) rank(set []uint16) int64 {
	bl.idx = bl.idx[:0]
	for _, s := range set {
		bl.idx = append(bl.idx, bl.t.live[s])
	}
	return rank(bl.idx)
}

// has reports whether square s's bit is set in the row of set r.
func (bl *tableBuilder) has(row []uint64, r int64, s sokoban.Square) bool {
	return row[r*int64(bl.t.stride)+int64(s>>6)]>>(s&63)&1 != 0
}

// flood sets, in the row of set r, the bits of the player's region around
// s with the boxes of set on the board (placed). The row holds none of
// the region's bits before: each flood fills a whole region, and s's bit
// is clear.
func (bl *tableBuilder) flood(row []uint64, r int64, s sokoban.Square, set []uint16) {
	base := r * int64(bl.t.stride)
	w := row[base : base+int64(bl.t.stride)]
	if g := bl.grid; g != nil {
		for _, b := range set {
			g.put(bl.occ, sokoban.Square(b), true)
		}
		clear(bl.region)
		g.fillRows(s, bl.occ, bl.region, -1, 0)
		for _, b := range set {
			g.put(bl.occ, sokoban.Square(b), false)
		}
		// A run's cells in the region are its squares' bits in the row.
		for _, rn := range bl.runs {
			cells := bl.region[rn.y] >> rn.x & (1<<rn.n - 1)
			if cells == 0 {
				continue
			}
			i, off := rn.s>>6, rn.s&63
			w[i] |= cells << off
			if int(off)+rn.n > 64 {
				w[i+1] |= cells >> (64 - off)
			}
		}
		return
	}
	// A wider board: square by square.
	w[s>>6] |= 1 << (s & 63)
	stack := append(bl.stack[:0], s)
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, n := range bl.b.Neighbours(s) {
			if n >= 0 && !bl.box[n] && w[n>>6]&(1<<(n&63)) == 0 {
				w[n>>6] |= 1 << (n & 63)
				stack = append(stack, n)
			}
		}
	}
	bl.stack = stack
}

// sortSet sorts the first k squares of a set.
func sortSet(set *tableSet, k int) {
	for i := 1; i < k; i++ {
		for j := i; j > 0 && set[j-1] > set[j]; j-- {
			set[j-1], set[j] = set[j], set[j-1]
		}
	}
}
