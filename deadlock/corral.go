package deadlock

import (
	"slices"

	"soko/level"
	"soko/sokoban"
)

// Corrals.
//
// A corral's interior is a connected area of free squares (no box) that the
// player cannot reach; its barrier is the set of boxes next to the
// interior. The interior's neighbours are walls, barrier boxes or interior
// squares, so until some barrier box moves no other box can come next to the
// interior and the player cannot enter it.
//
// Corral deadlock (000 §4.2.2, Fig. 4.7): take the connected area of
// squares the player cannot reach, boxes included, around a free square
// the player cannot reach, and relax the position by removing every box
// outside that area. Any solution of the real position, restricted to the
// pushes of the remaining boxes, is a legal push sequence of the relaxed
// position (the player's walks only get freer) that ends with each of them
// on a goal. So if a complete search of the relaxed position finds no way
// to put all of them on goals, the real position is dead. The search is
// bounded (boxes, area size, nodes); a search that runs out of budget says
// "not dead", so the check never prunes a solvable position. A first
// search that runs out is followed by one under the kill rule
// (relaxedSolvable), which asks less and ends sooner. Results are
// cached by relaxed problem (boxes and the player's region among them). An
// inconclusive answer is searched again, with a larger budget, each time
// the number of times it was asked for reaches a power of two from 8 on,
// so the corrals that keep coming back get proved (as Festival's corral
// cache does; the FESS paper, README References) while a corral met once
// costs a small search.
//
// PI-corrals (after the Sokoban Wiki and YASS, see PICorral): when a corral
// must be opened and every push of its barrier boxes goes into it and can be
// made now, some optimal solution starts with one of those pushes.

// Corrals examines corrals. It keeps scratch space; use one per goroutine.
type Corrals struct {
	b    *sokoban.Board
	dead []bool

	// Limits of the corral-deadlock search. A corral whose interior has
	// more than MaxSquares squares or whose barrier has more than MaxBoxes
	// boxes is not examined; the first search of a relaxed problem gives
	// up (and reports no deadlock) past FirstNodes states, and the searches
	// again of a recurring one past FirstNodes times the number of times it
	// was asked for, at most MaxNodes. Set them before the first check:
	// answers are cached.
	MaxSquares, MaxBoxes, FirstNodes, MaxNodes int

	inside   sokoban.Marks // interior squares of the corral under examination
	boxes    sokoban.Marks // its barrier boxes
	interior []sokoban.Square
	barrier  []sokoban.Square
	stack    []sokoban.Square

	// looked holds the squares of the corrals Dead or PICorral has
	// already looked at; piBest is the smallest barrier PICorral found.
	looked sokoban.Marks
	piBest []sokoban.Square

	// relaxed search scratch: the boxes (occ, and occBits on the grid g),
	// the region reachFrom flooded last (reach), and canonAfter's flood
	// (reach2).
	g       *grid
	occ     []bool
	occBits []uint64
	reach   []uint64
	// least and second are the smallest two squares of reach.
	least, second sokoban.Square
	reach2        []uint64
	seen          stateSet
	cur, next     []sokoban.Square
	pushes        []relaxedPush
	cache         map[string]corralAnswer // relaxed problem -> answer
	start         []sokoban.Square

	// CacheHits counts corral checks answered from the cache.
	CacheHits uint64
	queue     []sokoban.Square
	key       []byte
	// hidden and hiddenGoals are the squares of the relaxed start the
	// player cannot reach, and its goals among them (hiddenAreas).
	hidden, hiddenGoals []sokoban.Square
}

// NewCorrals returns a corral examiner for b with the given dead squares and
// default limits.
func NewCorrals(b *sokoban.Board, dead []bool) *Corrals {
	g := newGrid(b)
	return &Corrals{
		b: b, dead: dead,
		MaxSquares: 64, MaxBoxes: 6, FirstNodes: 50, MaxNodes: 4000,
		inside: sokoban.NewMarks(b.N), boxes: sokoban.NewMarks(b.N), looked: sokoban.NewMarks(b.N),
		g: g, occ: make([]bool, b.N), occBits: make([]uint64, g.words),
		reach: make([]uint64, g.words), reach2: make([]uint64, g.words),
		cache: make(map[string]corralAnswer),
	}
}

// fill collects the corral whose interior holds square s (free and
// unreachable, or with through set also a box) into c.interior and
// c.barrier. With through set, the interior
// grows through boxes too (every square the player cannot reach, box or
// not, connected to s), and c.barrier gets every box of it; otherwise it
// holds free squares only and c.barrier gets the boxes next to it. It stops
// early, returning false, when the interior grows past limit squares
// (limit <= 0: no limit).
func (c *Corrals) fill(p *sokoban.Position, s sokoban.Square, limit int, through bool) bool {
	c.inside.Clear()
	c.boxes.Clear()
	b, inside, boxes := c.b, c.inside, c.boxes
	c.interior, c.barrier = c.interior[:0], c.barrier[:0]
	inside.Add(s)
	if p.HasBox(s) {
		boxes.Add(s)
		c.barrier = append(c.barrier, s)
	}
	c.stack = append(c.stack[:0], s)
	for len(c.stack) > 0 {
		t := c.stack[len(c.stack)-1]
		c.stack = c.stack[:len(c.stack)-1]
		c.interior = append(c.interior, t)
		if limit > 0 && len(c.interior) > limit {
			return false
		}
		for d := range sokoban.Dirs {
			n := b.Next(t, d)
			switch {
			case n == sokoban.None || inside.Has(n) || boxes.Has(n):
			case p.HasBox(n):
				boxes.Add(n)
				c.barrier = append(c.barrier, n)
				if through {
					inside.Add(n)
					c.stack = append(c.stack, n)
				}
			case !p.Reachable(n):
				inside.Add(n)
				c.stack = append(c.stack, n)
			}
		}
	}
	return true
}

// DeadAfterPush reports whether the push that just put a box on s sealed a
// corral that can never be solved (see the comment above). Only a corral
// whose area holds s can have been made by that push.
func (c *Corrals) DeadAfterPush(p *sokoban.Position, s sokoban.Square) bool {
	p.Reach()
	return c.deadCorral(p, s)
}

// Dead reports whether any corral of p can never be solved.
func (c *Corrals) Dead(p *sokoban.Position) bool {
	p.Reach()
	c.looked.Clear()
	for s := sokoban.Square(0); int(s) < c.b.N; s++ {
		if c.looked.Has(s) || p.HasBox(s) || p.Reachable(s) {
			continue
		}
		dead := c.deadCorral(p, s)
		for _, t := range c.interior {
			c.looked.Add(t)
		}
		if dead {
			return true
		}
	}
	return false
}

func (c *Corrals) deadCorral(p *sokoban.Position, s sokoban.Square) bool {
	if !c.fill(p, s, c.MaxSquares, true) || len(c.barrier) > c.MaxBoxes || len(c.barrier) == len(c.interior) {
		return false // too big, or no free square: not a corral
	}
	// The relaxed problem depends only on the barrier and the player's
	// region among the barrier boxes: look it up first.
	start := append(c.start[:0], c.barrier...)
	slices.Sort(start)
	c.start = start
	c.place(start)
	canon := c.reachFrom(p.Player())
	c.lift(start)
	key := c.keyOf(append(start, canon)) // in c.key until the next keyOf
	budget := c.FirstNodes
	a, ok := c.cache[string(key)] // looked up without a copy of the key
	if ok {
		c.CacheHits++
		if !a.open {
			return a.dead
		}
		a.asked++
		if a.asked < 8 || a.asked&(a.asked-1) != 0 || int(a.budget) >= c.MaxNodes {
			c.cache[string(key)] = a
			return false
		}
		budget = min(c.MaxNodes, c.FirstNodes*int(a.asked))
	}
	solvable, open := c.relaxedSolvable(start, canon, budget, false, true)
	if open && !ok {
		// Asked for the first time and out of budget: under the kill
		// rule the search asks less (every box freed or on a goal) and
		// ends far sooner, so it proves the stuck corral whose freed
		// boxes would roam the board past the budget.
		if freed, kopen := c.relaxedSolvable(start, canon, budget, true, false); !freed && !kopen {
			solvable, open = false, false
		}
	}
	if !ok {
		a.asked = 1
		if len(c.cache) >= maxCache {
			clear(c.cache)
		}
	}
	c.cache[string(key)] = corralAnswer{dead: !solvable, open: open, asked: a.asked, budget: int32(budget)}
	return !solvable
}

// corralAnswer is a cached answer of the relaxed search: dead, or not, or
// open (the search ran out of its budget of nodes), with the number of
// times an open one was asked for, the first search included.
type corralAnswer struct {
	dead, open bool
	asked      int32
	budget     int32
}

// maxCache bounds the number of relaxed problems remembered.
const maxCache = 1 << 16

// place and lift put boxes on and off the relaxed board (c.occ and
// c.occBits); a box on None (taken off by the kill rule) is skipped.
func (c *Corrals) place(boxes []sokoban.Square) {
	for _, t := range boxes {
		if t != sokoban.None {
			c.setOcc(t, true)
		}
	}
}

func (c *Corrals) lift(boxes []sokoban.Square) {
	for _, t := range boxes {
		if t != sokoban.None {
			c.setOcc(t, false)
		}
	}
}

// setOcc puts a box on square t of the relaxed board, or with on false
// takes it off.
func (c *Corrals) setOcc(t sokoban.Square, on bool) {
	c.occ[t] = on
	c.g.put(c.occBits, t, on)
}

// relaxedSolvable searches the position with only the given boxes (sorted)
// and the player on player, breadth first over pushes, for a state with
// every box on a goal. It returns true when it finds one, and true with
// open set when it runs out of budget states first.
//
// With kill set, a pushed box that ends with free squares on all four
// sides is taken off the board (its square becomes None) and counts as
// done: the search then asks whether the boxes can all be freed or put on
// goals, which any solution of the position also does (the kill rule of
// Festival's xy-deadlock search), and ends much sooner.
//
// With flooded set, the caller has just flooded the player's region among
// boxes (reachFrom), and c.reach, c.least and c.second hold it.
func (c *Corrals) relaxedSolvable(boxes []sokoban.Square, player sokoban.Square, budget int, kill, flooded bool) (solvable, open bool) {
	b := c.b
	k := len(boxes)
	// A state is k box squares, the player's canonical square, and 1 once
	// the player has reached a hidden square on the way (see hiddenAreas).
	// The states seen are those in the queue: c.seen indexes them.
	c.queue = append(append(c.queue[:0], boxes...), player, 0)
	c.seen.reset(k+2, budget)
	c.seen.add(hashState(c.queue))
	c.cur, c.next = slices.Grow(c.cur[:0], k)[:k], slices.Grow(c.next[:0], k+2)[:k+2]
	cur, next := c.cur, c.next
	pushes := c.pushes[:0]
	c.hiddenAreas(boxes, player, kill, flooded)
	flooded = flooded || !kill // hiddenAreas floods the first state
	for head := 0; head < len(c.queue); head += k + 2 {
		copy(cur, c.queue[head:head+k])
		c.place(cur)
		if head > 0 || !flooded {
			c.reachFrom(c.queue[head+k])
		}
		opened := c.queue[head+k+1]
		if opened == 0 && c.entered() {
			opened = 1
		}
		if c.solved(cur, opened == 1) {
			c.lift(cur)
			return true, false
		}
		pushes = pushes[:0]
		for i, t := range cur {
			if t == sokoban.None {
				continue
			}
			for d := range sokoban.Dirs {
				behind, front := b.Next(t, d^1), b.Next(t, d)
				if behind != sokoban.None && front != sokoban.None && c.g.has(c.reach, behind) && !c.occ[front] && !c.dead[front] {
					pushes = append(pushes, relaxedPush{i, d})
				}
			}
		}
		c.pushes = pushes
		// The boxes of cur stay on the board; each push moves one box and
		// back.
		for _, m := range pushes {
			copy(next, cur)
			from := cur[m.i]
			to := b.Next(from, m.d)
			next[m.i] = to
			c.setOcc(from, false)
			c.setOcc(to, true)
			if kill && c.loose(to) {
				c.setOcc(to, false)
				next[m.i] = sokoban.None
			}
			if next[m.i] == sokoban.None {
				next[k] = c.canonKilled(from, to)
			} else {
				next[k] = c.canonAfter(from, to, m.d)
				c.setOcc(to, false)
			}
			c.setOcc(from, true)
			next[k+1] = opened
			slices.Sort(next[:k])
			h := hashState(next)
			if c.seen.has(c.queue, next, h) {
				continue
			}
			if c.seen.n >= budget {
				c.lift(cur)
				return true, true // out of budget: assume solvable
			}
			c.queue = append(c.queue, next...)
			c.seen.add(h)
		}
		c.lift(cur)
	}
	return false, false
}

// relaxedPush is a push of relaxedSolvable: box i of the state, direction d.
type relaxedPush struct {
	i int
	d sokoban.Dir
}

// stateSet is relaxedSolvable's set of states seen: an open-addressing
// table of indices into the search's queue, which holds the states
// themselves (stride squares each), so adding one allocates nothing. A
// state is found by comparing its squares, never by its hash alone. It
// keeps its own table rather than a sokoban.Store because that measurably
// pays: BenchmarkRelaxedSearch, four runs each on the 2-core machine,
// 731-861 ns a state against 795-906 with a Store (the search is some 15 %
// of fess's time on small dense levels).
type stateSet struct {
	slots  []uint32 // state index+1, or 0 for empty
	hashes []uint64 // by state index
	stride int
	n      int
}

// reset empties the set for states of stride squares, at most max of them
// (and the first).
func (t *stateSet) reset(stride, max int) {
	size := 16
	for size < 2*(max+1) {
		size *= 2
	}
	t.slots = slices.Grow(t.slots[:0], size)[:size]
	clear(t.slots)
	t.hashes = t.hashes[:0]
	t.stride, t.n = stride, 0
}

// has reports whether state, with hash h, is in the set of states of queue.
func (t *stateSet) has(queue, state []sokoban.Square, h uint64) bool {
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; t.slots[i] != 0; i = (i + 1) & mask {
		j := int(t.slots[i] - 1)
		if t.hashes[j] == h && slices.Equal(queue[j*t.stride:(j+1)*t.stride], state) {
			return true
		}
	}
	return false
}

// add puts the next state of the queue, with hash h (hashState), in the
// set; it must not be there yet.
func (t *stateSet) add(h uint64) {
	mask := uint64(len(t.slots) - 1)
	i := h & mask
	for t.slots[i] != 0 {
		i = (i + 1) & mask
	}
	t.slots[i] = uint32(t.n + 1)
	t.hashes = append(t.hashes, h)
	t.n++
}

// hashState hashes a relaxed state's squares.
func hashState(state []sokoban.Square) uint64 {
	h := uint64(len(state))
	for _, s := range state {
		h = (h ^ uint64(uint32(s))) * 0x9e3779b97f4a7c15
	}
	return h ^ h>>29
}

// hiddenAreas notes in c.hidden the free squares, not dead, of the relaxed
// board with boxes on boxes that the player on player cannot reach, and in
// c.hiddenGoals the goals among them; with kill set it notes none.
//
// They strengthen the relaxed search. A box that is not on the relaxed
// board and ends on a hidden goal comes onto the hidden squares pushed by
// the player from next to it, onto one that is not dead (it reaches a
// goal from there), and then, on the relaxed board of that moment, the
// player reaches that square. So in any solution of the real position,
// restricted to the relaxed boxes, either the player reaches a hidden
// square at some point, or every hidden goal ends under one of the
// relaxed boxes: the search's goal test asks for one or the other (solved).
// A box taken off by the kill rule might cover a hidden goal, so with kill
// nothing is hidden. With flooded set, c.reach holds the player's region
// already (see relaxedSolvable); otherwise hiddenAreas floods it.
func (c *Corrals) hiddenAreas(boxes []sokoban.Square, player sokoban.Square, kill, flooded bool) {
	c.hidden, c.hiddenGoals = c.hidden[:0], c.hiddenGoals[:0]
	if kill {
		return
	}
	c.place(boxes)
	if !flooded {
		c.reachFrom(player)
	}
	for s := range sokoban.Square(c.b.N) {
		if !c.occ[s] && !c.g.has(c.reach, s) && !c.dead[s] {
			c.hidden = append(c.hidden, s)
			if c.b.IsGoal(s) {
				c.hiddenGoals = append(c.hiddenGoals, s)
			}
		}
	}
	c.lift(boxes)
}

// solved reports whether every box of boxes (None: taken off) is on a
// goal and, unless the player has reached a hidden square on the way
// (opened), every hidden goal holds one of them.
func (c *Corrals) solved(boxes []sokoban.Square, opened bool) bool {
	for _, t := range boxes {
		if t != sokoban.None && !c.b.IsGoal(t) {
			return false
		}
	}
	if opened {
		return true
	}
	for _, g := range c.hiddenGoals {
		if !slices.Contains(boxes, g) {
			return false
		}
	}
	return true
}

// entered reports whether the player, after reachFrom, reaches a hidden
// square.
func (c *Corrals) entered() bool {
	for _, s := range c.hidden {
		if c.g.has(c.reach, s) {
			return true
		}
	}
	return false
}

// loose reports whether the four neighbours of s on the relaxed board are
// floor without a box.
func (c *Corrals) loose(s sokoban.Square) bool {
	for d := range sokoban.Dirs {
		if n := c.b.Next(s, d); n == sokoban.None || c.occ[n] {
			return false
		}
	}
	return true
}

// reachFrom sets c.reach to the squares the player reaches from s on the
// relaxed board c.occ and returns the smallest of them; c.least and
// c.second are then the smallest two (None when there is one).
func (c *Corrals) reachFrom(s sokoban.Square) sokoban.Square {
	c.least, c.second, c.stack = c.g.flood(s, c.occBits, c.reach, c.stack)
	return c.least
}

// canonAfter returns the canonical player square (the smallest it
// reaches) after the push of the box on from in direction d onto to, from
// the state whose region the last reachFrom set; c.occ shows the boxes
// after the push. It keeps that region in c.reach. Most pushes need no flood
// fill: the new region is the old one with from added and to taken out
// when the squares beside from are walls, boxes or in the old region, and
// to, if it was in the region, cuts no path there: its free neighbours are
// joined around it (ringJoined), so a path through to can go round it.
// Otherwise it floods the new region, with c.reach2 as scratch.
func (c *Corrals) canonAfter(from, to sokoban.Square, d sokoban.Dir) sokoban.Square {
	in := func(x sokoban.Square) bool { return c.g.has(c.reach, x) }
	side := d&^1 ^ 2 // the first direction across d; the second is side+1
	fast := true
	for e := side; e <= side+1; e++ {
		if x := c.b.Next(from, e); x != sokoban.None && !c.occ[x] && !in(x) {
			fast = false
		}
	}
	least := c.least
	if fast && in(to) {
		joined := c.ringJoined(to)
		if least == to {
			least = c.second
		}
		if !joined {
			// The new region lies in the old one with from added and to
			// taken out: none of its squares but from is below least.
			least, c.stack = c.g.floodLeast(from, c.occBits, c.reach2, c.stack, least)
			return least
		}
	}
	if fast {
		return min(least, from)
	}
	least, c.stack = c.g.floodLeast(from, c.occBits, c.reach2, c.stack, sokoban.None)
	return least
}

// canonKilled is canonAfter for a push of the box on from onto to that
// took it off the board (the kill rule): both squares are free now. The
// new region is the old one with from and to added, when every free
// square next to them is in the old region or is one of them; otherwise
// it floods.
func (c *Corrals) canonKilled(from, to sokoban.Square) sokoban.Square {
	for _, s := range [2]sokoban.Square{from, to} {
		for d := range sokoban.Dirs {
			x := c.b.Next(s, d)
			if x != sokoban.None && x != from && x != to && !c.occ[x] && !c.g.has(c.reach, x) {
				least, stack := c.g.floodLeast(from, c.occBits, c.reach2, c.stack, sokoban.None)
				c.stack = stack
				return least
			}
		}
	}
	return min(c.least, from, to)
}

// ringJoined reports whether the free neighbours of s on c.occ are joined
// to each other by free squares of the eight around s: each pair of
// neighbours next to each other round s with the diagonal square between
// them free is joined, and all are when the free ones make one group.
func (c *Corrals) ringJoined(s sokoban.Square) bool {
	b := c.b
	round := [4]sokoban.Dir{level.Up, level.Right, level.Down, level.Left}
	free := func(x sokoban.Square) bool { return x != sokoban.None && !c.occ[x] }
	var n [4]sokoban.Square
	count := 0
	for i, d := range round {
		if n[i] = b.Next(s, d); free(n[i]) {
			count++
		}
	}
	links := 0
	for i := range round {
		j := (i + 1) % 4
		if free(n[i]) && free(n[j]) && free(b.Next(n[i], round[j])) {
			links++
		}
	}
	return count-links <= 1
}

// keyOf packs squares, two bytes each, into c.key and returns it.
func (c *Corrals) keyOf(sq []sokoban.Square) []byte {
	c.key = c.key[:0]
	for _, s := range sq {
		c.key = append(c.key, byte(s), byte(s>>8))
	}
	return c.key
}

// PICorral returns, appended to dst, the barrier boxes of a PI-corral of p,
// or dst unchanged when p has none. When it returns boxes, a solver need
// only generate the pushes of those boxes (they all go into the corral), and
// still finds an optimal solution; if none of them can be pushed, p is dead.
//
// A corral qualifies when
//
//   - it must be opened: a barrier box is off its goal, or the interior has
//     a goal (interior squares hold no box);
//   - I: every push of a barrier box either goes into the interior or is
//     blocked for good until some barrier box has moved: by a wall, by a
//     barrier box, or because the player would have to stand in the
//     interior. A push blocked only by another box, or one that leaves the
//     corral, disqualifies it;
//   - P: the player can reach, now, the square behind every barrier box
//     from which it would be pushed into the interior.
//
// Why this keeps every optimal solution: take a solution S. Because the
// corral must be opened, S pushes a barrier box at some point (interior
// squares can be reached only over a barrier box, and only a barrier box
// can be pushed into the interior). Let P be the first such push. Until P
// only other boxes move, they never touch the interior or its barrier, and
// by I, P pushes its box into the interior; by P that push is legal now.
// Moving P to the front keeps every other push legal (P only frees the
// barrier square, where no earlier push went, and fills an interior square,
// which no earlier push used), and the positions after the pushes up to P
// are the same. So a solution of the same length starts with a push of a
// barrier box.
//
// Of several PI-corrals the one with the fewest barrier boxes is returned.
func (c *Corrals) PICorral(p *sokoban.Position, dst []sokoban.Square) []sokoban.Square {
	p.Reach()
	b := c.b
	c.looked.Clear()
	found := false
	c.piBest = c.piBest[:0]
	for s := sokoban.Square(0); int(s) < b.N; s++ {
		if c.looked.Has(s) || p.HasBox(s) || p.Reachable(s) {
			continue
		}
		c.fill(p, s, 0, false)
		for _, t := range c.interior {
			c.looked.Add(t)
		}
		if (!found || len(c.barrier) < len(c.piBest)) && c.isPI(p) {
			found = true
			c.piBest = append(c.piBest[:0], c.barrier...)
		}
	}
	return append(dst, c.piBest...)
}

// isPI tests the corral last collected by fill.
func (c *Corrals) isPI(p *sokoban.Position) bool {
	b, inside, boxes := c.b, c.inside, c.boxes
	open := false
	for _, t := range c.interior {
		if b.IsGoal(t) {
			open = true
		}
	}
	for _, t := range c.barrier {
		if !b.IsGoal(t) {
			open = true
		}
	}
	if !open {
		return false
	}
	for _, t := range c.barrier {
		for d := range sokoban.Dirs {
			behind, front := b.Next(t, d^1), b.Next(t, d)
			switch {
			case behind == sokoban.None || front == sokoban.None:
				continue // walls: never
			case inside.Has(behind):
				continue // the player would stand in the interior
			case p.HasBox(behind):
				if boxes.Has(behind) {
					continue // behind a barrier box
				}
				return false // another box may move away
			}
			switch {
			case inside.Has(front):
				if !p.Reachable(behind) {
					return false // not P
				}
			case p.HasBox(front):
				if !boxes.Has(front) {
					return false
				}
			default:
				return false // the push leaves the corral: not I
			}
		}
	}
	return true
}
