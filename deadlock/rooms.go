package deadlock

import (
	"context"
	"slices"

	"soko/sokoban"
)

// Fill is the packing order of a goal room with one entrance: the goal-room
// macro (001 §2.1.2 names tunnels and rooms as macro moves; the packing
// order is the goal macro of Junghanns and Schaeffer's Rolling Stone). A
// box pushed onto the Entrance towards the room, while the room holds boxes
// on exactly Order[:i] and nowhere else, is pushed on along Paths[i] to
// Order[i] in one step.
//
// The order is found backwards from the full room: the goal filled last is
// one a box can be pushed to from the entrance with every other goal
// filled, after which the player can walk back out; it is taken away and
// the rest ordered the same way. Among such goals the one nearest the
// entrance (fewest pushes) is filled last. A room where at some point no
// goal qualifies has no Fill, and neither has a room too big to order
// quickly: the analysis takes some G²·A² steps for G goals in A squares,
// and the rooms of a board share fillWork of them.
type Fill struct {
	// Entrance is the tunnel square in front of the room, In the direction
	// from it into the room, and Outside the square behind it, where the
	// player stands after pushing a box onto the entrance.
	Entrance, Outside sokoban.Square
	In                sokoban.Dir
	// Order lists the room's goals in the order they are filled; Paths[i]
	// the fewest pushes taking a box from Entrance to Order[i] with boxes on
	// Order[:i], the player starting on Outside.
	Order []sokoban.Square
	Paths [][]sokoban.Push
}

// fillWork bounds the squares the player's walks may visit while the
// packing orders of one board's rooms are worked out: some 100 ms. The
// rooms of any level of the embedded collections take at most a quarter of
// a million.
const fillWork = 4_000_000

// newFill computes the packing order of room r, or nil where there is none:
// the room has more than one entrance, the entrance is a goal (then the
// last box does not end in the room), the backward analysis gets stuck, or
// the work, counted in a, would pass fillWork. It returns ctx.Err() when
// ctx is done before it is complete.
func newFill(a *roomArea, r *Room, room []int32, id int32) (*Fill, error) {
	b := a.b
	if len(r.Entrances) != 1 || b.IsGoal(r.Entrances[0]) {
		return nil, nil
	}
	f := &Fill{Entrance: r.Entrances[0]}
	ways := 0
	for d := range sokoban.Dirs {
		if n := b.Next(f.Entrance, d); n != sokoban.None && room[n] == id {
			f.In, ways = d, ways+1
		}
	}
	f.Outside = b.Next(f.Entrance, f.In^1)
	if ways != 1 || f.Outside == sokoban.None {
		return nil, nil
	}
	a.enter(r, f)
	filled := make([]bool, b.N)
	for _, g := range r.Goals {
		filled[g] = true
	}
	left := slices.Clone(r.Goals)
	for len(left) > 0 {
		best, bestPath := -1, []sokoban.Push(nil)
		for i, g := range left {
			filled[g] = false
			path, end := a.boxPath(f.Entrance, g, f.Outside, filled)
			filled[g] = true
			if a.halted() {
				return nil, a.err
			}
			if path == nil || !a.walk(end, f.Outside, filled) {
				continue
			}
			if best < 0 || len(path) < len(bestPath) {
				best, bestPath = i, path
			}
		}
		if best < 0 {
			return nil, a.err
		}
		f.Order = append(f.Order, left[best])
		f.Paths = append(f.Paths, bestPath)
		filled[left[best]] = false
		left = slices.Delete(left, best, best+1)
	}
	slices.Reverse(f.Order)
	slices.Reverse(f.Paths)
	return f, nil
}

// roomArea is the part of the board a fill happens in: the box stays on
// the room and its entrance, and the player also uses the outside square.
// Its scratch space is reused by every walk and box search, which newFill
// runs many times per room, and by the rooms of a board in turn. Walks count the squares they visit and look at
// the context every walkCheck of them; once ctx is done (err is set) or the
// count passes fillWork, every walk fails at once, so box searches end soon
// after.
type roomArea struct {
	ctx    context.Context
	err    error
	work   int
	b      *sokoban.Board
	boxOK  []bool
	walkOK []bool
	seen   sokoban.Marks // walk: the squares reached
	stack  []sokoban.Square
	prev   []int32       // boxPath, per (square, side): the node pushed from, or -1
	met    sokoban.Marks // boxPath: the nodes met
}

// walkCheck is how many squares walks visit between looks at the context.
const walkCheck = 1 << 16

func newRoomArea(ctx context.Context, b *sokoban.Board) *roomArea {
	return &roomArea{ctx: ctx, b: b, boxOK: make([]bool, b.N), walkOK: make([]bool, b.N),
		seen: sokoban.NewMarks(b.N), prev: make([]int32, 4*b.N), met: sokoban.NewMarks(4 * b.N)}
}

// enter makes the area that of room r with fill f.
func (a *roomArea) enter(r *Room, f *Fill) {
	clear(a.boxOK)
	clear(a.walkOK)
	for _, s := range r.Squares {
		a.boxOK[s], a.walkOK[s] = true, true
	}
	a.boxOK[f.Entrance], a.walkOK[f.Entrance], a.walkOK[f.Outside] = true, true, true
}

// walk reports whether the player can walk from one square to another in
// the area without crossing a square in blocked.
func (a *roomArea) walk(from, to sokoban.Square, blocked []bool) bool {
	if a.halted() {
		return false
	}
	a.seen.Clear()
	a.seen.Add(from)
	a.stack = append(a.stack[:0], from)
	for len(a.stack) > 0 {
		s := a.stack[len(a.stack)-1]
		a.stack = a.stack[:len(a.stack)-1]
		if s == to {
			return true
		}
		if a.work++; a.work%walkCheck == 0 {
			a.err = a.ctx.Err()
		}
		for d := range sokoban.Dirs {
			n := a.b.Next(s, d)
			if n != sokoban.None && a.walkOK[n] && !a.seen.Has(n) && !blocked[n] {
				a.seen.Add(n)
				a.stack = append(a.stack, n)
			}
		}
	}
	return false
}

// halted reports whether the analysis must stop: ctx is done or the work
// is over fillWork.
func (a *roomArea) halted() bool { return a.err != nil || a.work > fillWork }

// boxPath returns the fewest pushes that take a box from one square to
// another in the area, the player starting on player and boxes standing on
// the squares in blocked, and the player's square after the last push; nil
// if it cannot be done. Breadth-first over (box square, side the player is
// on), one layer per push.
func (a *roomArea) boxPath(from, to, player sokoban.Square, blocked []bool) ([]sokoban.Push, sokoban.Square) {
	type node struct {
		box  sokoban.Square
		side sokoban.Dir // the player stands on Next(box, side)
	}
	index := func(n node) int32 { return int32(n.box)*4 + int32(n.side) }
	a.met.Clear()
	prev := a.prev
	var queue []node
	// The player walks to each side of the starting box it can reach.
	blocked[from] = true
	for d := range sokoban.Dirs {
		if s := a.b.Next(from, d); s != sokoban.None && a.walkOK[s] && !blocked[s] && a.walk(player, s, blocked) {
			n := node{from, d}
			a.met.Add(index(n))
			prev[index(n)] = -1
			queue = append(queue, n)
		}
	}
	blocked[from] = false
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		if n.box == to {
			var path []sokoban.Push
			for i := index(n); prev[i] != -1; i = prev[i] {
				box := sokoban.Square(i / 4)
				d := sokoban.Dir(i%4) ^ 1 // pushed away from the side it came from
				path = append(path, sokoban.Push{Box: a.b.Next(box, d^1), Dir: d})
			}
			slices.Reverse(path)
			return path, a.b.Next(n.box, n.side)
		}
		blocked[n.box] = true
		here := a.b.Next(n.box, n.side)
		for d := range sokoban.Dirs {
			behind, front := a.b.Next(n.box, d^1), a.b.Next(n.box, d)
			if behind == sokoban.None || front == sokoban.None || !a.boxOK[front] || blocked[front] || !a.walkOK[behind] || blocked[behind] {
				continue
			}
			next := node{front, d ^ 1}
			if a.met.Has(index(next)) || !a.walk(here, behind, blocked) {
				continue
			}
			a.met.Add(index(next))
			prev[index(next)] = index(n)
			queue = append(queue, next)
		}
		blocked[n.box] = false
	}
	return nil, sokoban.None
}

// RoomPath returns the goal-room macro for a box just pushed in direction d
// onto box, in position p: the pushes that carry it on to the next goal of
// the room's packing order, or nil where no macro applies (box is not a
// room's entrance, d does not lead in, or the boxes in the room are not on
// exactly the goals filled so far).
func (m *Macros) RoomPath(p *sokoban.Position, box sokoban.Square, d sokoban.Dir) []sokoban.Push {
	in := m.b.Next(box, d)
	if in == sokoban.None || m.Room[in] < 0 {
		return nil
	}
	r := &m.Rooms[m.Room[in]]
	f := r.Fill
	if f == nil || f.Entrance != box || f.In != d {
		return nil
	}
	n := 0
	for _, s := range r.Squares {
		if p.HasBox(s) {
			n++
		}
	}
	if n >= len(f.Order) {
		return nil
	}
	for _, g := range f.Order[:n] {
		if !p.HasBox(g) {
			return nil
		}
	}
	return f.Paths[n]
}
