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
//
// Where it proposes nothing new, Festival's explorer advisor (the same
// file) has its turn (explore).
type clearing struct {
	b     *sokoban.Board
	rows  map[sokoban.Square][]int32
	queue []sokoban.Square
	// The explorer's: pull distances to each square a move starts from,
	// kept (back); the squares the player reached before the move, and
	// the scratch of a flood fill.
	back   map[sokoban.Square][]int32
	before []bool
	seen   []bool
}

func newClearing(b *sokoban.Board) *clearing {
	return &clearing{b: b, rows: map[sokoban.Square][]int32{}, back: map[sokoban.Square][]int32{},
		before: make([]bool, b.N), seen: make([]bool, b.N)}
}

// advise gives weight 0 to the clearing move among kids, the children of a
// node with features parent whose plan fills the square next next, and
// reports whether that move weighed 1 before.
func (c *clearing) advise(kids []child, parent features, next sokoban.Square) bool {
	for _, k := range kids {
		if k.feat.packed > parent.packed {
			return false
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
	if best < 0 || kids[best].weight == 0 {
		return false
	}
	kids[best].weight = 0
	return true
}

// explore is Festival's explorer advisor: of the kids of position p (a
// node with features parent) that pack no fewer boxes and whose box a
// lone box's pushes could bring back, it gives weight 0 to the best by the
// features of those after which the player reaches a square he did not
// before from which he can push a box that did not move: a move that opens
// moves.
func (c *clearing) explore(p *sokoban.Position, kids []child, parent features) {
	b := c.b
	player := p.Player()
	best, noted := -1, false
	for i, k := range kids {
		m := k.move
		if k.feat.packed < parent.packed || best >= 0 && kids[best].order <= k.order {
			continue
		}
		back, ok := c.back[m.From]
		if !ok {
			back = b.PullFrom([]sokoban.Square{m.From})
			c.back[m.From] = back
		}
		if back[m.To] == sokoban.Unreachable {
			continue
		}
		if !noted { // the squares reached before, once a move needs them
			for s := range c.before {
				c.before[s] = p.Reachable(sokoban.Square(s))
			}
			noted = true
		}
		p.Relocate(m.From, m.To, b.Next(m.To, m.Side))
		if c.opens(p, m.From, m.To) {
			best = i
		}
		p.Relocate(m.To, m.From, player)
	}
	if best >= 0 {
		kids[best].weight = 0
	}
}

// opens reports whether in p, where a box went from from to to, the player
// reaches a square he did not before (c.before) from which he can push a
// box that did not move. The squares newly reached are those joined to the
// vacated square from over squares not reached before; from itself held a
// box, so a push from it is not new.
func (c *clearing) opens(p *sokoban.Position, from, to sokoban.Square) bool {
	b, seen := c.b, c.seen
	q := append(c.queue[:0], from)
	seen[from] = true
	found := false
	for h := 0; h < len(q) && !found; h++ {
		t := q[h]
		for d := range sokoban.Dirs {
			n := b.Next(t, d)
			if n == sokoban.None || seen[n] || c.before[n] {
				continue
			}
			if p.HasBox(n) {
				if n != to && t != from {
					if o := b.Next(n, d); o != sokoban.None && !p.HasBox(o) {
						found = true
						break
					}
				}
				continue
			}
			seen[n] = true
			q = append(q, n)
		}
	}
	for _, t := range q {
		seen[t] = false
	}
	c.queue = q
	return found && p.Reachable(from)
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

// bytes returns the memory the rows and the explorer's tables take.
func (c *clearing) bytes() int64 {
	return 4*int64(c.b.N)*int64(len(c.rows)+len(c.back)) + 2*int64(c.b.N)
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
