package fess

import (
	"context"

	"soko/sokoban"
)

// hotspots holds the blocking table of Shoham's solver Festival (its
// "hotspots" feature; see the README's References): blocked[p*N+q] is the
// set of goals (bit i for the i-th of Board.Goals) that a lone box on p can
// reach, and can no longer reach when a box stands on q. A box is a
// hotspot when it blocks another box's way to a goal that is still empty.
// Only boards of at most hotspotGoals goals and hotspotSquares squares get
// a table (it takes 8·N² bytes).
type hotspots struct {
	n       int
	goalBit []uint64 // square -> its goal's bit, or 0
	blocked []uint64

	// For the children of one position (prepare): the goals it fills; per
	// box square q the boxes s != q with blocked[s*N+q] meeting an empty
	// goal, and the union of those blocked[s*N+q].
	full   uint64
	count  []int16
	anyBox []uint64
}

const (
	hotspotGoals   = 64         // a set of goals is the bits of one uint64
	hotspotSquares = 1024       // a table of 8 MiB
	hotspotWork    = 50_000_000 // states the table's pull searches may visit
)

// withScratch returns h sharing its tables with scratch space of its own,
// for another engine (levelTables); nil stays nil.
func (h *hotspots) withScratch() *hotspots {
	if h == nil {
		return nil
	}
	c := *h
	c.count, c.anyBox = make([]int16, len(h.count)), make([]uint64, len(h.anyBox))
	return &c
}

// newHotspots builds the table, or returns nil when the board is too big
// or the work would pass hotspotWork. It returns ctx.Err() when ctx is done
// first.
func newHotspots(ctx context.Context, b *sokoban.Board) (*hotspots, error) {
	goals := b.Goals()
	if len(goals) > hotspotGoals || b.N > hotspotSquares || len(goals) == 0 {
		return nil, nil
	}
	h := &hotspots{n: b.N, goalBit: make([]uint64, b.N), blocked: make([]uint64, b.N*b.N), count: make([]int16, b.N), anyBox: make([]uint64, b.N)}
	for i, g := range goals {
		h.goalBit[g] = 1 << i
	}
	g := newMacroGen(b, nil)
	anywhere := func(sokoban.Square) bool { return true }
	reach := make([]uint64, b.N) // goals each square reaches, with blocker
	base := make([]uint64, b.N)  // the same on the empty board
	work := 0
	fill := func(into []uint64) {
		clear(into)
		for i, goal := range goals {
			if g.occ[goal] {
				continue
			}
			g.split(goal)
			g.search(goal, anywhere, true)
			work += len(g.queue) + len(g.Met)
			for _, st := range g.queue {
				into[st/4] |= 1 << i
			}
		}
	}
	fill(base)
	for q := sokoban.Square(0); int(q) < b.N; q++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if work > hotspotWork {
			return nil, nil
		}
		g.occ[q] = true
		fill(reach)
		g.occ[q] = false
		for p := 0; p < b.N; p++ {
			h.blocked[p*b.N+int(q)] = base[p] &^ reach[p] &^ h.goalBit[q]
		}
	}
	return h, nil
}

// bytes returns the memory the table takes.
func (h *hotspots) bytes() int64 {
	if h == nil {
		return 0
	}
	return 8*int64(len(h.blocked)+len(h.goalBit)+len(h.anyBox)) + 2*int64(len(h.count))
}

// prepare notes what the children of p share, for after.
func (h *hotspots) prepare(p *sokoban.Position) {
	if h == nil {
		return
	}
	boxes := p.BoxSquares()
	h.full = 0
	for _, s := range boxes {
		h.full |= h.goalBit[s]
	}
	for _, q := range boxes {
		n, union := int16(0), uint64(0)
		for _, s := range boxes {
			if s == q {
				continue
			}
			bl := h.blocked[int(s)*h.n+int(q)]
			union |= bl
			if bl&^h.full != 0 {
				n++
			}
		}
		h.count[q], h.anyBox[q] = n, union
	}
}

// after returns hotspots(p) for a child p of the prepared position, in
// which the box on from went to to: O(boxes) instead of O(boxes²). Where
// neither square is a goal the empty goals are the same, and only the pairs
// with the moved box change the counts. Where one is, the empty goals
// change too, and the union of what the other boxes block answers for
// most boxes at once: nothing left of it on an empty goal, or the moved
// box not among what is; only the rest are counted again.
func (h *hotspots) after(p *sokoban.Position, from, to sokoban.Square) int {
	if h == nil {
		return 0
	}
	if h.goalBit[from]|h.goalBit[to] != 0 {
		return h.afterGoal(p, from, to)
	}
	blocks := func(s, q sokoban.Square) int16 {
		if h.blocked[int(s)*h.n+int(q)]&^h.full != 0 {
			return 1
		}
		return 0
	}
	hot, moved := 0, false
	for _, q := range p.BoxSquares() {
		if q == to {
			continue
		}
		if h.count[q]-blocks(from, q)+blocks(to, q) > 0 {
			hot++
		}
		if !moved && blocks(q, to) != 0 {
			moved = true
		}
	}
	if moved {
		hot++
	}
	return hot
}

// afterGoal is after where the box left a goal or came to one.
func (h *hotspots) afterGoal(p *sokoban.Position, from, to sokoban.Square) int {
	full := h.full&^h.goalBit[from] | h.goalBit[to]
	boxes := p.BoxSquares()
	hot, moved := 0, false
	for _, q := range boxes {
		if q == to {
			continue
		}
		if !moved && h.blocked[int(q)*h.n+int(to)]&^full != 0 {
			moved = true
		}
		switch {
		case h.blocked[int(to)*h.n+int(q)]&^full != 0:
			hot++
		case h.anyBox[q]&^full == 0:
			// neither the others nor the moved box block q's way
		case h.blocked[int(from)*h.n+int(q)]&^full == 0:
			hot++ // another box blocks it
		default:
			for _, s := range boxes {
				if s != q && s != to && h.blocked[int(s)*h.n+int(q)]&^full != 0 {
					hot++
					break
				}
			}
		}
	}
	if moved {
		hot++
	}
	return hot
}

// hotspots returns the number of boxes of p that block another box's way
// to an empty goal.
func (h *hotspots) hotspots(p *sokoban.Position) int {
	if h == nil {
		return 0
	}
	boxes := p.BoxSquares()
	var full uint64
	for _, s := range boxes {
		full |= h.goalBit[s]
	}
	hot := 0
	for _, q := range boxes {
		for _, s := range boxes {
			if s != q && h.blocked[int(s)*h.n+int(q)]&^full != 0 {
				hot++
				break
			}
		}
	}
	return hot
}
