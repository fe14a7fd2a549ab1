package sokoban

// Push moves the box standing on Box one square in direction Dir; the player
// must stand on the square on the other side, and ends on Box.
type Push struct {
	Box Square
	Dir Dir
}

// Position is a mutable state: box squares, the player's square, the
// incremental Zobrist hash of the boxes, and scratch space for the player's
// reachability. Positions are not safe for concurrent use; clone one per
// goroutine.
//
// Invariants: boxAt[s] is the index in boxes of the box on s, or -1;
// boxHash is the XOR of zBox over all box squares; onGoal counts boxes on
// goals. After Reach, reach holds exactly the squares the player can walk
// to without pushing, and canon is the smallest of them.
type Position struct {
	b       *Board
	boxes   []Square
	boxAt   []int16
	player  Square
	boxHash uint64
	onGoal  int

	reach Marks
	canon Square
	fresh bool // reachability is up to date
	stack []Square
}

func newPosition(b *Board) *Position {
	p := &Position{
		b:     b,
		boxes: make([]Square, len(b.startBoxes)),
		boxAt: make([]int16, b.N),
		reach: NewMarks(b.N),
		stack: make([]Square, 0, b.N),
	}
	return p
}

func (p *Position) set(boxes []Square, player Square) {
	for i := range p.boxAt {
		p.boxAt[i] = -1
	}
	p.boxHash, p.onGoal = 0, 0
	for i, s := range boxes {
		p.boxes[i] = s
		p.boxAt[s] = int16(i)
		p.boxHash ^= p.b.zBox[s]
		if p.b.goal[s] {
			p.onGoal++
		}
	}
	p.player = player
	p.fresh = false
}

// Set makes p a copy of q, a position on the same board.
func (p *Position) Set(q *Position) {
	copy(p.boxes, q.boxes)
	copy(p.boxAt, q.boxAt)
	p.player, p.boxHash, p.onGoal = q.player, q.boxHash, q.onGoal
	p.fresh = false
}

// Clone returns an independent copy of p.
func (p *Position) Clone() *Position {
	q := newPosition(p.b)
	q.set(p.boxes, p.player)
	return q
}

// Bytes returns the memory p takes: per square the index of the box on
// it, a reachability mark and a slot of the fill's stack; per box its
// square.
func (p *Position) Bytes() int64 { return int64(len(p.boxAt))*(2+4+4) + 4*int64(len(p.boxes)) }

// Board returns the board p is on.
func (p *Position) Board() *Board { return p.b }

// Player returns the player's square (not canonicalised).
func (p *Position) Player() Square { return p.player }

// BoxSquares returns the squares of the boxes in internal order. Do not modify.
func (p *Position) BoxSquares() []Square { return p.boxes }

// HasBox reports whether a box stands on s.
func (p *Position) HasBox(s Square) bool { return p.boxAt[s] >= 0 }

// Solved reports whether every box is on a goal.
func (p *Position) Solved() bool { return p.onGoal == len(p.boxes) }

// OnGoal returns the number of boxes on goals.
func (p *Position) OnGoal() int { return p.onGoal }

// Reach computes the squares the player can walk to without pushing and
// returns the canonical player square (the smallest of them).
func (p *Position) Reach() Square {
	if p.fresh {
		return p.canon
	}
	p.reach.Clear()
	reach, next, boxAt := p.reach, p.b.next, p.boxAt
	stack := p.stack[:len(next)]
	stack[0] = p.player
	reach.Add(p.player)
	canon := p.player
	for top := 1; top > 0; {
		top--
		for _, n := range next[stack[top]] {
			if n >= 0 && !reach.Has(n) && boxAt[n] < 0 {
				reach.Add(n)
				stack[top] = n
				top++
				canon = min(canon, n)
			}
		}
	}
	p.canon = canon
	p.fresh = true
	return canon
}

// Reachable reports whether the player can walk to s; it calls Reach if needed.
func (p *Position) Reachable(s Square) bool {
	p.Reach()
	return p.reach.Has(s)
}

// Hash returns the Zobrist hash of the state: boxes and canonical player square.
func (p *Position) Hash() uint64 {
	return p.boxHash ^ p.b.zPlayer[p.Reach()]
}

// HashExact returns the Zobrist hash of the boxes and the player's own
// square, for searches over single moves.
func (p *Position) HashExact() uint64 {
	return p.boxHash ^ p.b.zPlayer[p.player]
}

// SetPlayer puts the player on square s, which must be free floor.
func (p *Position) SetPlayer(s Square) {
	p.player = s
	p.fresh = false
}

// BoxHash returns the Zobrist hash of the box squares alone.
func (p *Position) BoxHash() uint64 { return p.boxHash }

// Pushes appends every legal push to dst and returns it: for each box and
// direction, the player reaches the square behind the box and the square in
// front is floor without a box. Pushes onto squares marked in avoid (for
// example dead squares; avoid may be nil) are left out.
func (p *Position) Pushes(dst []Push, avoid []bool) []Push {
	p.Reach()
	reach, next, boxAt := p.reach, p.b.next, p.boxAt
	for _, s := range p.boxes {
		nb := &next[s]
		for d := range Dirs {
			behind, front := nb[d^1], nb[d]
			if behind < 0 || front < 0 || !reach.Has(behind) || boxAt[front] >= 0 {
				continue
			}
			if avoid != nil && avoid[front] {
				continue
			}
			dst = append(dst, Push{Box: s, Dir: d})
		}
	}
	return dst
}

// Step reports what a player step in direction d does: the square it
// enters, whether it pushes the box standing there, and false when it
// cannot be made (a wall ahead, or a box with a wall or another box beyond
// it). It changes nothing: Apply makes the push, SetPlayer the walk. The
// searches and environments over single moves build on it.
func (p *Position) Step(d Dir) (to Square, push, ok bool) {
	to = p.b.next[p.player][d]
	switch {
	case to < 0:
		return None, false, false
	case p.boxAt[to] < 0:
		return to, false, true
	}
	front := p.b.next[to][d]
	return to, true, front >= 0 && p.boxAt[front] < 0
}

// CanPush reports whether push m is legal now.
func (p *Position) CanPush(m Push) bool {
	if m.Box < 0 || int(m.Box) >= p.b.N || p.boxAt[m.Box] < 0 {
		return false
	}
	behind, front := p.b.Next(m.Box, m.Dir^1), p.b.Next(m.Box, m.Dir)
	return behind >= 0 && front >= 0 && p.boxAt[front] < 0 && p.Reachable(behind)
}

// Apply performs push m, which must be legal, and returns the box's new square.
func (p *Position) Apply(m Push) Square {
	to := p.b.next[m.Box][m.Dir]
	p.move(m.Box, to)
	p.player = m.Box
	p.fresh = false
	return to
}

// Undo reverses push m made by Apply: the box returns to m.Box and the
// player to the square behind it (an equivalent player position).
func (p *Position) Undo(m Push) {
	to := p.b.next[m.Box][m.Dir]
	p.move(to, m.Box)
	p.player = p.b.next[m.Box][m.Dir^1]
	p.fresh = false
}

func (p *Position) move(from, to Square) {
	i := p.boxAt[from]
	p.boxAt[from] = -1
	p.boxAt[to] = i
	p.boxes[i] = to
	p.boxHash ^= p.b.zBox[from] ^ p.b.zBox[to]
	if p.b.goal[from] {
		p.onGoal--
	}
	if p.b.goal[to] {
		p.onGoal++
	}
}
