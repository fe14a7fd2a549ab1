package fess

import (
	"container/heap"
	"context"
	"hash/maphash"
	"slices"
	"unsafe"

	"soko/sokoban"
)

// parkSearch is the backward search of the parking plan: a best-first
// search over pull macro-moves from the solved position (one root per area
// of free squares, as in backward), in which a box pulled from outside the
// sink onto a free start square of the sink leaves the board. It ends at
// the first position whose boxes all stand on start squares with every
// start square left free in the sink: going forward, the boxes start
// there, the sink's free squares holding the boxes that left. Positions
// come first that have fewer boxes still to bring home (boxes off the start
// squares, and start squares outside the sink left free), then fewer areas
// of free squares, then fewer boxes on goals, then boxes further from the
// goals, newest first on ties (Festival's pull ordering, with the boxes
// left in front). A position from which a box can leave the board has only
// such pulls for children (removalsFirst).
type parkSearch struct {
	b    *sokoban.Board
	g    *macroGen // pull mode; dead: the squares no start box reaches
	near []int32
	// starts is the start's box squares, rows[i][s] the pushes a lone box
	// needs from starts[i] to s.
	starts []sokoban.Square
	rows   [][]int32
	start  []bool
	sink   []bool
	// sinkStarts is the start squares in the sink: the most boxes that
	// may leave the board.
	sinkStarts int
	// moving is set for Festival's moving sink: at each position the sink
	// is the start squares not yet taken by a box that left, free, in the
	// largest groups of them a lone box can be pushed between both ways
	// with the other boxes standing; a box pulled onto one from at least
	// farRemoval steps away leaves the board and takes it, where the boxes
	// left can still each be matched to a start square not taken. The
	// search ends at no box left, or every box on a start square not taken.
	moving bool
	// pullOrder ranks positions as Festival's pull search does: after
	// the fewest boxes left, fewer areas of free squares, fewer boxes on
	// goals and boxes further from the goals come before the boxes still
	// to bring home (the pull strategy).
	pullOrder bool
	used      []bool           // the start squares taken, of the position at hand
	usedAt    []sokoban.Square // the same as a list
	sinkNow   sokoban.Marks    // the moving sink of the position expanded
	freeAt    []int32          // scratch of movingRemovals: each free start square's index+1
	match     *startMatcher    // the boxes to the start squares not taken, moving only
	far       sokoban.Marks    // scratch of farApart
	farQ      []sokoban.Square
	nodes     []parkNode     // by id in store
	store     *sokoban.Store // the positions (parkKey)
	open      entries
	done      int32 // the node the search ended at, -1 before
	// stop, when set, is asked now and then within an expansion (one
	// takes long on the largest boards) whether to give up.
	stop    func() bool
	stopped bool
	// best is the node first in the ordering so far, with its rank.
	best     int32
	bestRank uint64
	// scratch
	seen  sokoban.Marks // the squares the last flood or regions reached
	stack []sokoban.Square
	boxes []sokoban.Square
	key   []byte
	// per pull of the position expanded (pullKeys): the child's boxes,
	// key (keyLen bytes) and hash; touched, the hashes loaded
	kids    []sokoban.Square
	keys    []byte
	hashes  []uint64
	touched []uint64
}

// parkNode is a position of the parking search, reached from parent by
// pulling the box on from to to, where it left the board when removed is
// set; its key is in the search's store under the same id.
type parkNode struct {
	parent   int32
	from, to sokoban.Square
	side     sokoban.Dir // the side of to the player ends on
	removed  bool
	regions  int16 // the areas of free squares
}

// newParkSearch prepares the parking search of b, with near the pushes from
// each square to the nearest goal, the moving sink or not, ordered as
// Festival's pull search or not, and queues its roots. It returns
// ctx.Err() when ctx is done first.
func newParkSearch(ctx context.Context, b *sokoban.Board, near []int32, moving, pullOrder bool) (*parkSearch, error) {
	starts := b.Start().BoxSquares()
	g := newMacroGen(b, nil)
	rows, dead, err := startRows(ctx, g, starts)
	if err != nil {
		return nil, err
	}
	g.dead = dead
	ps := &parkSearch{b: b, g: g, near: near, starts: starts, rows: rows, start: make([]bool, b.N), store: sokoban.NewStore(2 * (len(starts) + 1)), done: -1, bestRank: ^uint64(0),
		seen: sokoban.NewMarks(b.N), stack: make([]sokoban.Square, 0, b.N)}
	for _, s := range starts {
		ps.start[s] = true
	}
	ps.moving, ps.pullOrder = moving, pullOrder
	ps.used = make([]bool, b.N)
	if moving {
		ps.sinkNow = sokoban.NewMarks(b.N)
		ps.far = sokoban.NewMarks(b.N)
		ps.match = newStartMatcher(b.N, rows)
		ps.freeAt = make([]int32, b.N)
	}
	ps.sink = sinkOf(b, starts)
	for _, s := range starts {
		if ps.sink[s] {
			ps.sinkStarts++
		}
	}
	// One root per area of free squares around the filled goals.
	goals := slices.Sorted(slices.Values(b.Goals()))
	covered := make([]bool, b.N)
	g.place(goals)
	for _, s := range goals {
		covered[s] = true
	}
	for s := sokoban.Square(0); int(s) < b.N; s++ {
		if covered[s] {
			continue
		}
		canon := ps.flood(s)
		for t := sokoban.Square(0); int(t) < b.N; t++ {
			if ps.seen.Has(int32(t)) {
				covered[t] = true
			}
		}
		ps.key = ps.keyOf(ps.key[:0], goals, canon)
		ps.add(-1, goals, ps.key, maphash.Bytes(parkSeed, ps.key), -1, parkPull{from: sokoban.None, to: sokoban.None}, false)
	}
	g.lift(goals)
	return ps, nil
}

// sinkOf returns the sink: of the regions of squares a lone box can be
// pushed to from a start square and back with every goal filled (by pushes
// from anywhere, so the regions stand for rooms, not exact pushes), the one
// holding the most start squares, the first on ties. With the goals free,
// a goal room a box can leave again would be part of the sink.
func sinkOf(b *sokoban.Board, starts []sokoban.Square) []bool {
	g := newMacroGen(b, nil)
	g.place(b.Goals())
	anywhere := func(sokoban.Square) bool { return true }
	var best []bool
	most := 0
	done := make([]bool, b.N)
	for _, s := range starts {
		if done[s] {
			continue
		}
		in := make([]bool, b.N)
		g.split(s)
		g.search(s, anywhere, false)
		for _, st := range g.queue {
			in[st/4] = true
		}
		g.search(s, anywhere, true)
		both := make([]bool, b.N)
		for _, st := range g.queue {
			both[st/4] = in[st/4]
		}
		both[s] = true
		n := 0
		for _, t := range starts {
			if both[t] {
				done[t] = true
				n++
			}
		}
		if n > most {
			best, most = both, n
		}
	}
	if best == nil {
		best = make([]bool, b.N)
	}
	return best
}

// flood marks in ps.seen the free squares the player reaches from s, the
// boxes placed in g, and returns the smallest.
func (ps *parkSearch) flood(s sokoban.Square) sokoban.Square {
	ps.seen.Clear()
	return ps.fill(s)
}

// fill adds to ps.seen the free squares reached from s that are not in it
// yet, and returns the smallest of those and s.
func (ps *parkSearch) fill(s sokoban.Square) sokoban.Square {
	b, seen := ps.b, ps.seen
	seen.Add(int32(s))
	canon := s
	stack := append(ps.stack[:0], s)
	for len(stack) > 0 {
		t := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for d := range sokoban.Dirs {
			if c := b.Next(t, d); ps.g.free(c) && !seen.Has(int32(c)) {
				seen.Add(int32(c))
				canon = min(canon, c)
				stack = append(stack, c)
			}
		}
	}
	ps.stack = stack
	return canon
}

// regions counts the areas of free squares, the boxes placed in g.
func (ps *parkSearch) regions() int {
	n := 0
	ps.seen.Clear()
	for s := sokoban.Square(0); int(s) < ps.b.N; s++ {
		if !ps.seen.Has(int32(s)) && ps.g.free(s) {
			n++
			ps.fill(s)
		}
	}
	return n
}

// keyLen is the length of every key of the store: two bytes for each
// start square (a box, a box gone or a start square taken) and two for
// the player's square.
func (ps *parkSearch) keyLen() int { return 2 * (len(ps.starts) + 1) }

// keyOf appends to dst the key of the boxes (sorted) with the player's
// canonical square canon: the boxes, then parkGone for each box that
// left the board (with the moving sink the start squares taken, marked
// parkUsed), then canon, two bytes each.
func (ps *parkSearch) keyOf(dst []byte, boxes []sokoban.Square, canon sokoban.Square) []byte {
	for _, s := range boxes {
		dst = append(dst, byte(s), byte(s>>8))
	}
	if ps.moving {
		for _, s := range ps.usedAt {
			dst = append(dst, byte(s), byte(s>>8)|parkUsed>>8)
		}
	} else {
		for range len(ps.starts) - len(boxes) {
			dst = append(dst, parkGone&0xff, parkGone>>8)
		}
	}
	return append(dst, byte(canon), byte(canon>>8))
}

// add stores the position of the boxes (sorted, placed in g) with key and
// its hash (keyOf), and regions areas of free squares (-1: not known,
// counted here), reached from parent by pull m, and queues it when new.
func (ps *parkSearch) add(parent int32, boxes []sokoban.Square, key []byte, hash uint64, regions int, m parkPull, removed bool) {
	n, fresh := ps.store.Intern(key, hash)
	if !fresh {
		return
	}
	id := int32(n)
	if regions < 0 {
		regions = ps.regions()
	}
	ps.nodes = append(ps.nodes, parkNode{parent: parent, from: m.from, to: m.to, side: m.side, removed: removed, regions: int16(min(regions, 1<<15-1))})
	home, onGoals, spread, away := 0, 0, 0, 0
	for _, s := range boxes {
		if !ps.start[s] || ps.used[s] {
			home++
			d := sokoban.Unreachable
			for i, t := range ps.starts {
				if ps.g.free(t) && !ps.used[t] {
					d = min(d, ps.rows[i][s])
				}
			}
			away += int(min(d, 1<<10))
		}
		if ps.b.IsGoal(s) {
			onGoals++
		}
		spread += int(min(ps.near[s], 1<<10))
	}
	for _, s := range ps.starts {
		if !ps.moving && !ps.sink[s] && ps.g.free(s) {
			home++
		}
	}
	if home == 0 && ps.done < 0 {
		ps.done = id
	}
	const most = 1<<8 - 1
	left, areas := uint64(min(len(boxes), most)), uint64(min(regions, most))
	goals, far := uint64(min(onGoals, most)), uint64(1<<16-1-min(spread, 1<<16-1))
	toBring, toGo := uint64(min(home, most)), uint64(min(away, 1<<16-1))
	rank := left<<56 | toBring<<48 | areas<<40 | toGo<<24 | goals<<16 | far
	if ps.pullOrder {
		rank = left<<56 | areas<<48 | goals<<40 | far<<24 | toBring<<16 | toGo
	}
	heap.Push(&ps.open, entry{key: rank, id: uint32(id)})
	if rank < ps.bestRank {
		ps.best, ps.bestRank = id, rank
	}
}

// unpack sets ps.boxes to the boxes of node id and returns its player
// square.
func (ps *parkSearch) unpack(id int32) sokoban.Square {
	key := ps.store.Key(uint32(id))
	ps.boxes = ps.boxes[:0]
	for _, s := range ps.usedAt {
		ps.used[s] = false
	}
	ps.usedAt = ps.usedAt[:0]
	for i := 0; i+2 < len(key); i += 2 {
		switch s := uint16(key[i]) | uint16(key[i+1])<<8; {
		case s == parkGone:
		case s&parkUsed != 0:
			ps.used[s&^parkUsed] = true
			ps.usedAt = append(ps.usedAt, sokoban.Square(s&^parkUsed))
		default:
			ps.boxes = append(ps.boxes, sokoban.Square(s))
		}
	}
	return sokoban.Square(key[len(key)-2]) | sokoban.Square(key[len(key)-1])<<8
}

// parkGone stands in a key for a box that left the board, so that every
// key has the same length; parkSeed seeds the keys' hashes.
const parkGone = 0xffff

// parkUsed marks in a key of the moving sink a start square taken by a box
// that left, in place of parkGone.
const parkUsed = 0x8000

// farRemoval is the fewest steps (on the empty board) a box must come from
// to leave the board on a start square of the moving sink: one nearer is
// better brought home (Festival asks for boxes in different rooms).
const farRemoval = 6

var parkSeed = maphash.MakeSeed()

// step expands the next position. It reports false when the search is over:
// it has found a position to start from, has nothing left to expand, or
// stop said to give up (the position may then be expanded in part).
func (ps *parkSearch) step() bool {
	if ps.done >= 0 || len(ps.open) == 0 || ps.halt() {
		return false
	}
	id := int32(heap.Pop(&ps.open).(entry).id)
	player := ps.unpack(id)
	boxes := append([]sokoban.Square(nil), ps.boxes...)
	g, b := ps.g, ps.b
	g.placeAll(boxes) // the pulls of every box from one forest (forest.go)
	ps.flood(player)  // seen holds the player's squares until the pulls are found
	reach := func(s sokoban.Square) bool { return ps.seen.Has(int32(s)) }
	var pulls []parkPull
	for i, s := range boxes {
		if i%checkBoxes == checkBoxes-1 && ps.halt() {
			g.lift(boxes)
			return false
		}
		g.startForest(s)
		g.search(s, reach, true)
		for _, st := range g.queue {
			t, d := sokoban.Square(st/4), sokoban.Dir(st%4)
			if g.links[st] != int8(d) || g.dist[st] == 0 {
				continue
			}
			pulls = append(pulls, parkPull{from: s, to: t, side: d, canon: g.partMin[st], regions: int16(g.parts[t]) - int16(g.parts[s])})
		}
	}
	g.lift(boxes) // the moving sink's searches split areas of their own
	g.place(boxes)
	canLeave := ps.b.Boxes()-len(boxes) < ps.sinkStarts
	var leaving []bool
	if ps.moving {
		for k, t := range ps.starts {
			ps.match.taken[k] = ps.used[t]
		}
		if !ps.match.prepare(boxes) {
			g.lift(boxes) // only a root can get here
			return true
		}
		leaving = ps.movingRemovals(boxes, pulls)
		if ps.stopped {
			g.lift(boxes)
			return false
		}
		pulls, leaving = removalsFirst(pulls, leaving)
	} else if canLeave {
		leaving = make([]bool, len(pulls))
		for i, m := range pulls {
			leaving[i] = ps.leaves(m.from, m.to)
		}
		pulls, leaving = removalsFirst(pulls, leaving)
	}
	ps.pullKeys(boxes, pulls, leaving)
	for i, m := range pulls {
		if i%checkMoves == checkMoves-1 && ps.halt() {
			break
		}
		removed := leaving != nil && leaving[i]
		child := ps.kids[i*len(boxes):][:len(boxes)]
		if removed {
			child = child[:len(boxes)-1]
		}
		if ps.moving && !removed && !ps.match.child(m.from, m.to) {
			continue
		}
		if removed && ps.moving {
			ps.take(m.to)
		}
		g.occ[m.from] = false
		if !removed {
			g.occ[m.to] = true
		}
		if removed {
			// The box left: to stays free, which the split did not see.
			ps.key = ps.keyOf(ps.key[:0], child, ps.flood(b.Next(m.to, m.side)))
			ps.add(id, child, ps.key, maphash.Bytes(parkSeed, ps.key), -1, m, removed)
		} else {
			key := ps.keys[i*ps.keyLen():][:ps.keyLen()]
			ps.add(id, child, key, ps.hashes[i], int(ps.nodes[id].regions+m.regions), m, removed)
		}
		g.occ[m.to] = false
		g.occ[m.from] = true
		if removed && ps.moving {
			ps.untake(m.to)
		}
		if ps.done >= 0 {
			break
		}
	}
	g.lift(boxes)
	return ps.done < 0 && !ps.stopped
}

// pullKeys works out, for each pull, the child's boxes (sorted, in
// ps.kids, len(boxes) squares a pull: a removal's has one box fewer and a
// square to spare), and for a pull that keeps its box on the board its key
// (ps.keys) and hash (ps.hashes), by the pull's index; it loads the
// store's slots for those at once (Store.Touch) before step interns them:
// their cache misses overlap, as in fess's other searches. A removal's key
// is left to step, whose flood gives its player square.
func (ps *parkSearch) pullKeys(boxes []sokoban.Square, pulls []parkPull, leaving []bool) {
	ps.kids, ps.keys, ps.hashes, ps.touched = ps.kids[:0], ps.keys[:0], ps.hashes[:0], ps.touched[:0]
	for i, m := range pulls {
		at, keyAt := len(ps.kids), len(ps.keys)
		if leaving != nil && leaving[i] { // its bytes of keys stay unused
			for _, s := range boxes {
				if s != m.from {
					ps.kids = append(ps.kids, s)
				}
			}
			ps.kids = append(ps.kids, sokoban.None)
			slices.Sort(ps.kids[at : at+len(boxes)-1])
			ps.keys = slices.Grow(ps.keys, ps.keyLen())[:keyAt+ps.keyLen()]
			ps.hashes = append(ps.hashes, 0)
			continue
		}
		for _, s := range boxes {
			if s == m.from {
				s = m.to
			}
			ps.kids = append(ps.kids, s)
		}
		slices.Sort(ps.kids[at:])
		ps.keys = ps.keyOf(ps.keys, ps.kids[at:], m.canon)
		h := maphash.Bytes(parkSeed, ps.keys[keyAt:])
		ps.hashes = append(ps.hashes, h)
		ps.touched = append(ps.touched, h)
	}
	ps.store.Touch(ps.touched)
}

// parkPull is a pull macro-move of the parking search: the box on from to
// to, the player ending on the side side of to, with what the split gives
// for free (Macro's canon and regions): the player's canonical square after
// it and how many more areas of free squares the board then has.
type parkPull struct {
	from, to sokoban.Square
	side     sokoban.Dir
	canon    sokoban.Square
	regions  int16
}

// removalsFirst returns the pulls that take their box off the board
// (leaving), the first of each box's, where there is one, else all of
// them: as in Festival's sink search, a position that can send a box into
// the sink does only that, since a box gone blocks no other and the boxes
// that stay are pulled after it.
func removalsFirst(pulls []parkPull, leaving []bool) ([]parkPull, []bool) {
	var out []parkPull
	for i, m := range pulls {
		if leaving[i] && !slices.ContainsFunc(out, func(o parkPull) bool { return o.from == m.from }) {
			out = append(out, m)
		}
	}
	if len(out) == 0 {
		return pulls, leaving
	}
	all := make([]bool, len(out))
	for i := range all {
		all[i] = true
	}
	return out, all
}

// take marks the start square s taken by a box that left, for the
// position added next; untake takes it back.
func (ps *parkSearch) take(s sokoban.Square) {
	ps.used[s] = true
	i, _ := slices.BinarySearch(ps.usedAt, s)
	ps.usedAt = slices.Insert(ps.usedAt, i, s)
}

func (ps *parkSearch) untake(s sokoban.Square) {
	ps.used[s] = false
	i, _ := slices.BinarySearch(ps.usedAt, s)
	ps.usedAt = slices.Delete(ps.usedAt, i, i+1)
}

// movingRemovals reports for each of pulls, the boxes placed in g,
// whether its box leaves the board under the moving sink (moving).
func (ps *parkSearch) movingRemovals(boxes []sokoban.Square, pulls []parkPull) []bool {
	g := ps.g
	var free []sokoban.Square
	for _, t := range ps.starts {
		if !ps.used[t] && g.free(t) {
			free = append(free, t)
		}
	}
	ps.sinkNow.Clear()
	if len(free) == 0 {
		return nil
	}
	anywhere := func(sokoban.Square) bool { return true }
	k := len(free)
	reach := make([]bool, k*k)
	at := ps.freeAt // index+1 in free
	defer func() {
		for _, t := range free {
			at[t] = 0
		}
	}()
	for a, t := range free {
		at[t] = int32(a + 1)
	}
	for a, t := range free {
		if a%checkBoxes == checkBoxes-1 && ps.halt() {
			return nil
		}
		g.split(t)
		g.search(t, anywhere, false)
		for _, st := range g.queue {
			if c := at[st/4]; c > 0 {
				reach[a*k+int(c)-1] = true
			}
		}
		reach[a*k+a] = true
	}
	group := make([]int, k)
	size := make([]int, k+1)
	most := 0
	for a := range free {
		if group[a] > 0 {
			continue
		}
		for c := a; c < k; c++ {
			if group[c] == 0 && reach[a*k+c] && reach[c*k+a] {
				group[c] = a + 1
				size[a+1]++
			}
		}
		most = max(most, size[a+1])
	}
	for a, t := range free {
		if size[group[a]] == most {
			ps.sinkNow.Add(int32(t))
		}
	}
	leaving := make([]bool, len(pulls))
	for i, m := range pulls {
		if ps.sinkNow.Has(int32(m.to)) && ps.farApart(m.from, m.to) {
			leaving[i] = ps.match.leave(m.from, slices.Index(ps.starts, m.to))
		}
	}
	return leaving
}

// farApart reports whether a walk on the empty board from a to b takes at
// least farRemoval steps.
func (ps *parkSearch) farApart(a, b sokoban.Square) bool {
	ps.far.Clear()
	ps.far.Add(int32(a))
	q := append(ps.farQ[:0], a)
	for d := 0; d < farRemoval; d++ {
		n := len(q)
		for _, s := range q {
			if s == b {
				ps.farQ = q
				return false
			}
			for dir := range sokoban.Dirs {
				if c := ps.b.Next(s, dir); c != sokoban.None && !ps.far.Has(int32(c)) {
					ps.far.Add(int32(c))
					q = append(q, c)
				}
			}
		}
		q = q[n:]
	}
	ps.farQ = q
	return true
}

// leaves reports whether a box pulled from from to to leaves the board: it
// comes into the sink, off the goals, from outside it or off a goal in it.
func (ps *parkSearch) leaves(from, to sokoban.Square) bool {
	return ps.sink[to] && !ps.b.IsGoal(to) && (!ps.sink[from] || ps.b.IsGoal(from))
}

// halt reports whether stop says to give up, and remembers it.
func (ps *parkSearch) halt() bool {
	if !ps.stopped && ps.stop != nil && ps.stop() {
		ps.stopped = true
	}
	return ps.stopped
}

// bytes returns the memory the search holds: its nodes, its store of
// positions, the open list and the moving sink's matcher.
func (ps *parkSearch) bytes() int64 {
	n := int64(cap(ps.nodes))*int64(unsafe.Sizeof(parkNode{})) + ps.store.Bytes() + entryBytes*int64(cap(ps.open))
	if ps.match != nil {
		n += ps.match.bytes() + 4*int64(len(ps.freeAt))
	}
	return n
}

// end returns the node the search ended at, or where it found none, its
// best.
func (ps *parkSearch) end() int32 {
	if ps.done >= 0 {
		return ps.done
	}
	return ps.best
}
