package fess

import (
	"container/heap"
	"context"
	"slices"
	"unsafe"

	"soko/internal/chunked"
	"soko/sokoban"
)

// backward is the backward search (the FESS paper's retrograde analysis,
// as Festival runs it in pull mode), run beside the forward FESS search of
// one level: a best-first search over pull macro-moves from the solved
// position (one root per area of free squares the player may stand in
// there), ordered as Festival orders its pull search: fewer areas of free
// squares, then fewer boxes on goals, then boxes further from the goals,
// newest first. Each search keeps its positions in its own store under the
// same keys; every position one search generates is looked up in the
// other's store, and a position found in both splices the forward path to
// it with the backward path reversed into pushes: the meeting in the
// middle of YASS's perimeter search and Festival's perimeter table (the
// README's References). docs/fess.md ("The backward search and the
// meeting") and docs/measurements.md give the orderings tried and where the meeting
// pays.
//
// A pulled box never stops on a square no box can be pushed to from a start
// square, and a position whose boxes cannot all be matched to distinct
// start squares (by the pushes a lone box needs from one) is stored but not
// searched on: the start reaches neither, so no meeting is lost.
type backward struct {
	e        *engine
	gen      *macroGen // pull mode, dead: the squares no start box reaches
	starts   *startMatcher
	store    *sokoban.Store
	nodes    chunked.Slice[bnode]
	open     entries // the best by the pull ordering first, newest on ties
	pos      *sokoban.Position
	sorted   []sokoban.Square
	key      []byte
	moves    []Macro
	hashes   []uint64 // the moves' positions', for touch
	expanded int64
	static   int64
	// off is the position (among those whose boxes match start squares)
	// with the fewest boxes left on goals other than start squares, then
	// the fewest areas, then the most spread; offRank is its rank. replan
	// takes its plan from it, and imagine its imagined board.
	off     uint32
	offRank uint64
	start   []bool // the start's box squares
	// greedy orders the search by the pushes that take each box from
	// its nearest start square (nearStart), fewest first: the back
	// strategy, which searches towards the start alone.
	greedy    bool
	nearStart []int32
	// nearest is the queued position with the least of that sum, and
	// nearestSum the sum (for progress).
	nearest    uint32
	nearestSum int
}

// bnode is a position of the backward search, reached from parent by a
// pull macro-move: of the ways the search generated it, the one with the
// fewest pulls from a root when it was generated (depth). A parent's depth
// is always less than its child's (every move pulls), so the links never
// make a cycle; a node's descendants keep their depths when it gets a
// shorter path, which can then be more than their paths, never less.
type bnode struct {
	parent uint32
	move   Macro
	depth  int32
	conn   int16 // areas of free squares
}

// newBackward prepares the backward search of e's level and queues its
// roots: the solved position, which the forward store holds only when the
// start is solved, a case run has ended before. It returns ctx.Err() when
// ctx is done first.
func newBackward(ctx context.Context, e *engine, greedy bool) (*backward, error) {
	b := e.b
	starts := b.Start().BoxSquares()
	g := newMacroGen(b, nil)
	rows, dead, err := startRows(ctx, g, starts)
	if err != nil {
		return nil, err
	}
	start := make([]bool, b.N)
	for _, s := range starts {
		start[s] = true
	}
	g.dead = dead
	nearStart := make([]int32, b.N)
	for s := range nearStart {
		nearStart[s] = sokoban.Unreachable
		for _, row := range rows {
			nearStart[s] = min(nearStart[s], row[s])
		}
	}
	bk := &backward{nearestSum: -1, greedy: greedy, nearStart: nearStart, e: e, gen: g, offRank: ^uint64(0), start: start, starts: newStartMatcher(b.N, rows), store: sokoban.NewStore(b.KeySize()),
		pos: b.PositionOf(b.Goals(), b.Start().Player())}
	bk.static = bk.starts.bytes() + g.bytes() + 5*int64(b.N)
	// One root per area of free squares around the filled goals.
	bk.sorted = slices.Sorted(slices.Values(b.Goals()))
	p := bk.pos
	covered := make([]bool, b.N)
	for _, g := range b.Goals() {
		covered[g] = true
	}
	for s := sokoban.Square(0); int(s) < b.N; s++ {
		if covered[s] {
			continue
		}
		p.SetPlayer(s)
		canon := p.Reach()
		for t := sokoban.Square(0); int(t) < b.N; t++ {
			if !covered[t] && p.Reachable(t) {
				covered[t] = true
			}
		}
		conn, _ := e.feat.regions(p)
		bk.add(noParent, Macro{}, sokoban.None, sokoban.None, canon, int16(conn))
	}
	return bk, nil
}

// at returns node id.
func (bk *backward) at(id uint32) *bnode { return bk.nodes.At(int(id)) }

// bytes returns the memory the backward search takes.
func (bk *backward) bytes() int64 {
	return bk.static + bk.store.Bytes() + int64(bk.nodes.Cap())*int64(unsafe.Sizeof(bnode{})) + entryBytes*int64(cap(bk.open))
}

// add stores the position bk.pos (boxes sorted in bk.sorted) with the box
// on from moved to to and the player in the area of canon, reached from
// parent by move, and queues it when its boxes match start squares. It
// reports whether the position is in the forward store (the searches met;
// bk.meet holds where).
func (bk *backward) add(parent uint32, move Macro, from, to, canon sokoban.Square, conn int16) bool {
	key, hash := bk.e.tree.keys.pack(bk.key, bk.sorted, from, to, canon)
	bk.key = key
	id, fresh := bk.store.Intern(key, hash)
	depth := int32(0)
	if parent != noParent {
		depth = bk.at(parent).depth + move.Pushes
	}
	if !fresh {
		if nd := bk.at(id); depth < nd.depth {
			nd.parent, nd.move, nd.depth = parent, move, depth
		}
		return false
	}
	bk.nodes.Append(bnode{parent: parent, move: move, depth: depth, conn: conn})
	if fid, ok := bk.e.tree.store.Find(key, hash); ok {
		bk.e.meeting = meeting{forward: fid, backward: id, ok: true}
		return true
	}
	for _, f := range bk.e.shared.trees {
		if fid, ok := f.tree.store.Find(key, hash); ok {
			bk.e.meeting = meeting{forward: fid, backward: id, ok: true, in: f}
			return true
		}
	}
	p := bk.pos
	player := p.Player()
	if from != sokoban.None {
		p.Relocate(from, to, bk.e.b.Next(to, move.Side))
	}
	var ok bool
	if from == sokoban.None {
		ok = bk.starts.prepare(p.BoxSquares())
	} else {
		ok = bk.starts.child(from, to)
	}
	var onGoals, offStart, spread, toStart int
	for _, s := range p.BoxSquares() {
		if bk.greedy {
			toStart += int(min(bk.nearStart[s], 1<<16))
		}
		if bk.e.b.IsGoal(s) {
			onGoals++
			if !bk.start[s] {
				offStart++
			}
		}
		spread += int(min(bk.e.near[s], 1<<10))
	}
	spreadRank := uint64(1<<16 - 1 - min(spread, 1<<16-1))
	var rank uint64
	if !bk.greedy {
		rank = uint64(max(conn, 0))<<32 | uint64(onGoals)<<16 | spreadRank
	} else {
		rank = uint64(toStart)<<32 | uint64(max(conn, 0))<<16 | uint64(offStart)
		if ok && (bk.nearestSum < 0 || toStart < bk.nearestSum) {
			bk.nearest, bk.nearestSum = id, toStart
		}
	}
	offRank := uint64(offStart)<<32 | uint64(max(conn, 0))<<16 | spreadRank
	if from != sokoban.None {
		p.Relocate(to, from, player)
	}
	if ok {
		heap.Push(&bk.open, entry{key: rank, id: id})
		if offRank < bk.offRank {
			bk.off, bk.offRank = id, offRank
		}
	}
	return false
}

// step expands the next position of the backward search. It reports
// whether the searches met, and false with nothing left to expand or when
// stop (nil: never) said to give up: one expansion takes seconds on the
// largest boards, so it asks now and then within it (the position is then
// expanded in part).
func (bk *backward) step(stop func() bool) (met, more bool) {
	if len(bk.open) == 0 {
		return false, false
	}
	id := heap.Pop(&bk.open).(entry).id
	bk.expanded++
	p := bk.pos
	p.Unpack(bk.store.Key(id))
	p.Reach()
	boxes := p.BoxSquares()
	bk.sorted = append(bk.sorted[:0], boxes...)
	slices.Sort(bk.sorted)
	bk.starts.prepare(boxes)
	bk.gen.placeAll(boxes)
	bk.moves = bk.moves[:0]
	for i, s := range boxes {
		if i%checkBoxes == checkBoxes-1 && stop != nil && stop() {
			bk.gen.lift(boxes)
			return false, false
		}
		bk.moves = bk.gen.generatePull(p, s, bk.moves)
	}
	bk.gen.lift(boxes)
	bk.touch()
	for i, m := range bk.moves {
		if i%checkMoves == checkMoves-1 && stop != nil && stop() {
			return false, false
		}
		if bk.add(id, m, m.From, m.To, m.canon, bk.at(id).conn+int16(m.regions)) {
			return true, true
		}
	}
	return false, true
}

// touch loads the store's slots for the positions bk.moves lead to before
// add interns them, so that their cache misses overlap, as tree.touch does
// for the forward search's children.
func (bk *backward) touch() {
	bk.hashes = bk.e.tree.keys.childHashes(bk.hashes[:0], bk.sorted, bk.moves)
	bk.store.Touch(bk.hashes)
}

// pushes returns the pushes that take the position of backward node id to
// the solved position: each pull macro-move on the way back to the root,
// undone.
func (bk *backward) pushes(id uint32) []sokoban.Push {
	var out []sokoban.Push
	q := bk.e.b.Start()
	for ; bk.at(id).parent != noParent; id = bk.at(id).parent {
		nd := *bk.at(id)
		q.Unpack(bk.store.Key(nd.parent))
		bk.gen.place(q.BoxSquares())
		steps := bk.gen.unpull(q, nd.move)
		bk.gen.lift(q.BoxSquares())
		if steps == nil {
			return nil
		}
		out = append(out, steps...)
	}
	return out
}

// descend returns pushes that take the position of backward node id to the
// solved position, at most its depth: each step goes to the stored
// position, shallower than the one it leaves, whose depth plus the pushes
// of the push macro-move there (gen, a forward generator) is least. The
// search found each position's depth along its own parent links only, and
// one push from a position on a deep path often reaches a shallow one it
// stored from elsewhere; where no move reaches a shallower stored position
// (gen leaves out moves that stop in a tunnel), the step undoes the node's
// pull instead. It returns nil when a pull is lost on replay.
func (bk *backward) descend(gen *macroGen, id uint32) []sokoban.Push {
	p := bk.e.b.Start()
	p.Unpack(bk.store.Key(id))
	var out, steps []sokoban.Push
	var sorted []sokoban.Square
	var moves []Macro
	var key []byte
	for bk.at(id).parent != noParent {
		p.Reach()
		boxes := p.BoxSquares()
		sorted = append(sorted[:0], boxes...)
		slices.Sort(sorted)
		gen.placeAll(boxes)
		moves = moves[:0]
		for _, s := range boxes {
			moves = gen.generate(p, s, moves)
		}
		gen.lift(boxes)
		next, step := bk.at(id).parent, Macro{}
		cost := bk.at(id).move.Pushes + bk.at(next).depth
		for _, m := range moves {
			k, h := bk.e.tree.keys.pack(key, sorted, m.From, m.To, m.canon)
			key = k
			if y, ok := bk.store.Find(k, h); ok && bk.at(y).depth < bk.at(id).depth && m.Pushes+bk.at(y).depth < cost {
				next, step, cost = y, m, m.Pushes+bk.at(y).depth
			}
		}
		if step.Pushes > 0 {
			gen.place(boxes)
			steps = gen.path(p, step)
			gen.lift(boxes)
		} else {
			q := bk.e.b.Start()
			q.Unpack(bk.store.Key(next))
			bk.gen.place(q.BoxSquares())
			steps = bk.gen.unpull(q, bk.at(id).move)
			bk.gen.lift(q.BoxSquares())
		}
		if steps == nil {
			return nil
		}
		for _, m := range steps {
			p.Apply(m)
		}
		out = append(out, steps...)
		id = next
	}
	return out
}

// fillOrder returns the goals in the order a forward solution through the
// backward path to node id fills them for the last time: the goals whose
// box is never pulled off on the way first (in the order of first), then
// the others, the one the path empties first last.
func (bk *backward) fillOrder(id uint32, first []sokoban.Square) []sokoban.Square {
	var path []Macro
	for ; bk.at(id).parent != noParent; id = bk.at(id).parent {
		path = append(path, bk.at(id).move)
	}
	b := bk.e.b
	emptied := make([]bool, b.N)
	var last []sokoban.Square
	for i := len(path) - 1; i >= 0; i-- {
		if s := path[i].From; b.IsGoal(s) && !emptied[s] {
			emptied[s] = true
			last = append(last, s)
		}
	}
	var order []sokoban.Square
	for _, s := range first {
		if !emptied[s] {
			order = append(order, s)
		}
	}
	slices.Reverse(last)
	return append(order, last...)
}

// backward runs the interleaved backward search's share of expansions
// (params.backShare) before the next forward one, and reports whether the
// searches met.
func (e *engine) backward() bool {
	bk := e.back
	if bk == nil {
		return false
	}
	for float64(bk.expanded) < e.par.backShare*float64(e.stats.Expanded) {
		if e.par.backMemory > 0 && bk.bytes() > e.par.backMemory {
			return false
		}
		if _, stop := e.tick(); stop {
			return false // step's tick after it ends the run
		}
		met, more := bk.step(e.halt(0))
		if met {
			return true
		}
		if !more {
			return false
		}
		e.stats.Expanded++
	}
	return false
}

// meeting is where the forward and the backward search met: a position
// both stored.
type meeting struct {
	forward, backward uint32
	ok                bool
	in                *engine   // whose tree forward is in, when not the searching engine's
	from              *backward // whose store backward is in, when not the searching engine's
}

// startRows returns, for each square of starts, the pushes a lone box there
// needs to each square (sokoban.Unreachable where it never gets), with g
// (no boxes placed), and the squares no box from a start square reaches.
// It takes about a second on a 128×128 board with 255 boxes, so it looks at
// ctx before each row and returns ctx.Err() when ctx is done.
func startRows(ctx context.Context, g *macroGen, starts []sokoban.Square) (rows [][]int32, dead []bool, err error) {
	b := g.b
	anywhere := func(sokoban.Square) bool { return true }
	dead = make([]bool, b.N)
	for s := range dead {
		dead[s] = true
	}
	rows = make([][]int32, len(starts))
	for i, s := range starts {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		row := make([]int32, b.N)
		for t := range row {
			row[t] = sokoban.Unreachable
		}
		g.split(s)
		g.search(s, anywhere, false)
		for _, st := range g.queue {
			dead[st/4] = false
			row[st/4] = min(row[st/4], g.dist[st])
		}
		rows[i] = row
	}
	return rows, dead, nil
}

// nearestGoal returns, for each square, the least of the pull distances
// dist (Board.PullDistances, a row per goal): the pushes from it to the
// nearest goal.
func nearestGoal(dist [][]int32, n int) []int32 {
	near := make([]int32, n)
	for s := range near {
		near[s] = sokoban.Unreachable
		for _, row := range dist {
			near[s] = min(near[s], row[s])
		}
	}
	return near
}
