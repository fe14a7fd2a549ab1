package fess

import (
	"soko/sokoban"
)

// clearing is Festival's opener advisor (its opener.cpp; docs/fess.md,
// "Advisors and move weights"): where no move packs a box, the move of the
// box nearest the square the parking plan fills next, to a square no
// nearer to it, weighs 0, so that the search clears the way to that square
// before it tries to fill it. Among moves of boxes equally near, the one that takes
// its box farthest. A move that packs fewer boxes or leaves more player
// regions than its parent is never proposed. Distances are walks on the
// board without boxes, one row per square asked for, kept.
type clearing struct {
	b     *sokoban.Board
	rows  map[sokoban.Square][]int32
	queue []sokoban.Square
}

func newClearing(b *sokoban.Board) *clearing {
	return &clearing{b: b, rows: map[sokoban.Square][]int32{}}
}

// advise gives weight 0 to the clearing move among kids, the children of a
// node with features parent whose plan fills the square next next.
func (c *clearing) advise(kids []child, parent features, next sokoban.Square) {
	for _, k := range kids {
		if k.feat.packed > parent.packed {
			return
		}
	}
	row := c.row(next)
	best, nearest, farthest := -1, int32(0), int32(0)
	for i, k := range kids {
		if k.feat.packed < parent.packed || k.feat.conn > parent.conn {
			continue
		}
		from, to := row[k.move.From], row[k.move.To]
		if to < from || best >= 0 && (from > nearest || from == nearest && to <= farthest) {
			continue
		}
		best, nearest, farthest = i, from, to
	}
	if best >= 0 {
		kids[best].weight = 0
	}
}

// row returns the steps of a walk from s to every square, the boxes left
// out (sokoban.Unreachable where there is none).
func (c *clearing) row(s sokoban.Square) []int32 {
	if r, ok := c.rows[s]; ok {
		return r
	}
	r := make([]int32, c.b.N)
	for i := range r {
		r[i] = sokoban.Unreachable
	}
	r[s] = 0
	q := append(c.queue[:0], s)
	for i := 0; i < len(q); i++ {
		t := q[i]
		for d := range sokoban.Dirs {
			if n := c.b.Next(t, d); n != sokoban.None && r[n] == sokoban.Unreachable {
				r[n] = r[t] + 1
				q = append(q, n)
			}
		}
	}
	c.queue = q
	c.rows[s] = r
	return r
}

// bytes returns the memory the rows take.
func (c *clearing) bytes() int64 {
	return 4 * int64(c.b.N) * int64(len(c.rows))
}

// nextSquare returns the square that the parking plan fills after packed
// boxes: its next entry's; false where the features follow no parking plan
// (the clearing advisor is park's alone: on the packing plan it cost
// levels, docs/fess.md) or the plan is done.
func (f *featurer) nextSquare(packed int16) (sokoban.Square, bool) {
	if f.park == nil || int(packed) >= len(f.park.entries) {
		return sokoban.None, false
	}
	return f.park.entries[packed].to, true
}
