package deadlock

import (
	"math/bits"

	"soko/sokoban"
)

// The relaxed searches (Corrals.relaxedSolvable) and the table's retrograde
// search (tableBuilder) flood the player's region once per state and often
// once per push, on boards with few boxes, where the region is most of the
// level. A region is a bitset of grid cells:
// when the level is at most 64 columns wide, one word per row (bit x of
// word y), flooded a row at a time (rowFill spreads along a row in a few
// word operations, and sweeps down and up the rows spread across them);
// on wider levels bit y*Width+x, flooded square by square.

// grid is the bitset layout of a board for region floods.
type grid struct {
	b    *sokoban.Board
	rows bool // one word per row (Width <= 64)
	// narrow is set when a row's runs of floor are at most 32 squares
	// long: the level's outer columns are walls, so when Width <= 34.
	narrow bool
	bit    []uint32         // square -> bit index of its cell
	sq     []sokoban.Square // bit index -> square, or None
	floor  []uint64         // the floor cells
	words  int
}

func newGrid(b *sokoban.Board) *grid { return newGridLayout(b, b.Width <= 64) }

// newGridLayout returns the grid of b with a word per row (rows, which
// needs Width <= 64) or bit y*Width+x per cell.
func newGridLayout(b *sokoban.Board, rows bool) *grid {
	w, h := b.Width, b.Level.Height
	g := &grid{b: b, rows: rows, narrow: w <= 34, bit: make([]uint32, b.N)}
	stride := w
	if g.rows {
		stride = 64
	}
	g.words = (stride*h + 63) / 64
	g.sq = make([]sokoban.Square, g.words*64)
	for i := range g.sq {
		g.sq[i] = sokoban.None
	}
	g.floor = make([]uint64, g.words)
	for s := range sokoban.Square(b.N) {
		x, y := b.XY(s)
		i := uint32(y*stride + x)
		g.bit[s] = i
		g.sq[i] = s
		g.floor[i/64] |= 1 << (i % 64)
	}
	return g
}

// has reports whether set holds square s.
func (g *grid) has(set []uint64, s sokoban.Square) bool {
	i := g.bit[s]
	return set[i/64]>>(i%64)&1 != 0
}

// put adds square s to set, or with on false takes it out.
func (g *grid) put(set []uint64, s sokoban.Square, on bool) {
	i := g.bit[s]
	if on {
		set[i/64] |= 1 << (i % 64)
	} else {
		set[i/64] &^= 1 << (i % 64)
	}
}

// least returns the two smallest squares of set (None when missing):
// squares are numbered in the grid's row order, as the bits are.
func (g *grid) least(set []uint64) (least, second sokoban.Square) {
	least, second = sokoban.None, sokoban.None
	for i, w := range set {
		for w != 0 {
			s := g.sq[i*64+bits.TrailingZeros64(w)]
			if least == sokoban.None {
				least = s
			} else {
				return least, s
			}
			w &= w - 1
		}
	}
	return least, second
}

// flood sets out to the squares reachable from s over the free cells
// (floor cells not in occ) and returns the smallest two of them. Square s
// must be free.
func (g *grid) flood(s sokoban.Square, occ []uint64, out []uint64, stack []sokoban.Square) (least, second sokoban.Square, _ []sokoban.Square) {
	clear(out)
	if !g.rows {
		// Square by square.
		g.put(out, s, true)
		stack = append(stack[:0], s)
		for len(stack) > 0 {
			t := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for d := range sokoban.Dirs {
				n := g.b.Next(t, d)
				if n != sokoban.None && !g.has(occ, n) && !g.has(out, n) {
					g.put(out, n, true)
					stack = append(stack, n)
				}
			}
		}
		least, second = g.least(out)
		return least, second, stack
	}
	g.fillRows(s, occ, out, -1, 0)
	least, second = g.least(out)
	return least, second, stack
}

// floodLeast returns the smallest square reachable from s over the free
// cells (floor cells not in occ), using out as scratch. Square s must be
// free. Square bound is one that no square of the region but s is smaller
// than, or None for the smallest free square of the board. With a word per
// row, the flood stops as soon as the region holds bound, and the answer
// is then bound or s.
func (g *grid) floodLeast(s sokoban.Square, occ []uint64, out []uint64, stack []sokoban.Square, bound sokoban.Square) (sokoban.Square, []sokoban.Square) {
	if bound != sokoban.None && s < bound {
		return s, stack
	}
	if !g.rows {
		least, _, stack := g.flood(s, occ, out, stack)
		return least, stack
	}
	if bound == sokoban.None {
		for y, f := range g.floor {
			if f &^= occ[y]; f != 0 {
				bound = g.sq[y*64+bits.TrailingZeros64(f)]
				break
			}
		}
	}
	clear(out)
	i := g.bit[bound]
	if g.fillRows(s, occ, out, int(i/64), 1<<(i%64)) {
		return min(bound, s), stack
	}
	least, _ := g.least(out)
	return least, stack
}

// fillRows floods out (all zero) from s a row at a time, and stops early,
// returning true, when row stopY of out takes a bit of stop.
func (g *grid) fillRows(s sokoban.Square, occ, out []uint64, stopY int, stop uint64) bool {
	i := g.bit[s]
	y0, h := int(i/64), len(out)
	out[y0] = rowFill(1<<(i%64), g.floor[y0]&^occ[y0], g.narrow)
	if y0 == stopY && out[y0]&stop != 0 {
		return true
	}
	// The rows that may grow are lo..hi (those that exist): the rows with
	// squares of the region lie strictly between. A sweep down from y0,
	// then sweeps up and down in turn until one grows no row: every row
	// is then closed under its neighbours, and the region complete.
	lo, hi := y0-1, y0+1
	for y := y0 + 1; y <= min(hi, h-1); y++ {
		if g.spread(y, occ, out) && y == hi {
			hi++
		}
	}
	for up := true; ; up = !up {
		grew := false
		if up {
			for y := min(hi, h-1); y >= max(lo, 0); y-- {
				if g.spread(y, occ, out) {
					if y == stopY && out[y]&stop != 0 {
						return true
					}
					grew = true
					lo, hi = extend(y, lo, hi)
				}
			}
		} else {
			for y := max(lo, 0); y <= min(hi, h-1); y++ {
				if g.spread(y, occ, out) {
					if y == stopY && out[y]&stop != 0 {
						return true
					}
					grew = true
					lo, hi = extend(y, lo, hi)
				}
			}
		}
		if !grew {
			return false
		}
	}
}

// extend returns the rows that may grow, lo..hi, after row y grew.
func extend(y, lo, hi int) (int, int) {
	if y == lo {
		lo--
	}
	if y == hi {
		hi++
	}
	return lo, hi
}

// spread grows row y of out by the free cells next to it in the rows above
// and below and along the row, and reports whether it grew.
func (g *grid) spread(y int, occ, out []uint64) bool {
	free := g.floor[y] &^ occ[y]
	seed := out[y]
	if y > 0 {
		seed |= out[y-1]
	}
	if y+1 < len(out) {
		seed |= out[y+1]
	}
	seed &= free
	if seed&^out[y] == 0 {
		return false
	}
	out[y] = rowFill(seed, free, g.narrow)
	return true
}

// rowFill returns the runs of set bits of free that hold a bit of seed (a
// subset of free). With narrow set the runs are at most 32 bits long.
func rowFill(seed, free uint64, narrow bool) uint64 {
	// Upward: adding the seeds carries through each run from its lowest
	// seed to its end.
	up := ((free + seed) ^ free | seed) & free
	// Downward: an occluded fill by doubling shifts.
	down, pro := seed, free
	down |= pro & (down >> 1)
	pro &= pro >> 1
	down |= pro & (down >> 2)
	pro &= pro >> 2
	down |= pro & (down >> 4)
	pro &= pro >> 4
	down |= pro & (down >> 8)
	pro &= pro >> 8
	down |= pro & (down >> 16)
	if !narrow {
		pro &= pro >> 16
		down |= pro & (down >> 32)
	}
	return up | down
}
