package fess

import (
	"container/heap"
	"context"
	"hash/maphash"
	"slices"
	"time"
	"unsafe"

	"soko/sokoban"
	"soko/solver"
)

// parking is the parking plan of the park strategy: where the plan strategy
// only orders the goals (plan), a parking plan is a list of box moves,
// first made first, in which a box may stop on a square that is not its
// goal (it is parked there) and be moved on by a later entry. It comes
// from a backward search (parkSearch) from the solved position in which a
// box pulled into the sink, a group of start squares that a lone box can
// be pushed between both ways, leaves the board: going forward, such a box
// comes out of the sink, so the sink stands for the boxes that wait there
// in the start position whichever of them goes first.
type parking struct {
	entries []parkEntry
	// byUntil[j] lists the entries whose box entry j moves on.
	byUntil [][]int32
	// ok[k] is the squares a box may stand on at step k (the first k
	// entries done) without being out of plan: the squares of entries
	// before k whose box is still parked or packed there, and the zone of
	// the step, where a lone box can be pushed to the square of an entry
	// from k on with those boxes standing as walls. Bit s%64 of word s/64.
	ok [][]uint64
}

// parkEntry is one step of a parking plan: a box goes from from to to (from
// == to for a box that stays on its goal all along). until is the entry
// that moves the box on from to, -1 when it stays there to the end; sink is
// set when the box comes out of the sink.
type parkEntry struct {
	from, to sokoban.Square
	until    int32
	sink     bool
}

// packed is the parking plan's count of packed boxes (Festival's prefix
// count): the longest prefix of the entries each of whose squares holds a
// box, but where an entry whose box a later entry of the prefix moves on
// may be empty. Unlike a prefix of goals this can grow back past an entry
// that fails: a box taken straight to where a parked one goes next counts
// once the entry that moves the parked box is reached.
func (pk *parking) packed(p *sokoban.Position) int {
	unmet, n := 0, 0
	for k, en := range pk.entries {
		if !p.HasBox(en.to) {
			unmet++
		}
		for _, i := range pk.byUntil[k] {
			if !p.HasBox(pk.entries[i].to) {
				unmet--
			}
		}
		if unmet == 0 {
			n = k + 1
		}
	}
	return n
}

// outOfPlan counts the boxes of p that stand where step packed of the plan
// has no use for them (ok).
func (pk *parking) outOfPlan(p *sokoban.Position, packed int) int {
	ok, n := pk.ok[packed], 0
	for _, s := range p.BoxSquares() {
		if ok[s/64]&(1<<(s%64)) == 0 {
			n++
		}
	}
	return n
}

// parkWork bounds the pull-search states the zones of a parking plan may
// visit; past it the zones left take every square as in line.
const parkWork = 20_000_000

// newParking builds the plan of entries (until worked out here) with its
// zones, using g (no boxes placed) for the pull searches.
func newParking(ctx context.Context, b *sokoban.Board, g *macroGen, entries []parkEntry) (*parking, error) {
	pk := &parking{entries: entries, byUntil: make([][]int32, len(entries))}
	for i := range entries {
		entries[i].until = -1
		for j := i + 1; j < len(entries); j++ {
			if entries[j].from == entries[i].to {
				entries[i].until = int32(j)
				pk.byUntil[j] = append(pk.byUntil[j], int32(i))
				break
			}
		}
	}
	words := (b.N + 63) / 64
	anywhere := func(sokoban.Square) bool { return true }
	work := 0
	for k := 0; k <= len(entries); k++ {
		ok := make([]uint64, words)
		set := func(s sokoban.Square) { ok[s/64] |= 1 << (s % 64) }
		var walls []sokoban.Square
		for i := range k {
			if u := entries[i].until; u < 0 || int(u) >= k {
				walls = append(walls, entries[i].to)
				set(entries[i].to)
			}
		}
		if work > parkWork {
			for i := range ok {
				ok[i] = ^uint64(0)
			}
			pk.ok = append(pk.ok, ok)
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		g.place(walls)
		for j := k; j < len(entries); j++ {
			to := entries[j].to
			g.split(to)
			g.search(to, anywhere, true)
			work += len(g.queue) + len(g.met)
			for _, st := range g.queue {
				set(sokoban.Square(st / 4))
			}
		}
		g.lift(walls)
		pk.ok = append(pk.ok, ok)
	}
	return pk, nil
}

// bytes returns the memory the plan takes.
func (pk *parking) bytes() int64 {
	n := 16 * int64(len(pk.entries))
	for _, ok := range pk.ok {
		n += 8 * int64(len(ok))
	}
	return n
}

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
// left in front).
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
	nodes      []parkNode     // by id in store
	store      *sokoban.Store // the positions (parkKey)
	open       entries
	done       int32 // the node the search ended at, -1 before
	// stop, when set, is asked now and then within an expansion (one
	// takes long on the largest boards) whether to give up.
	stop    func() bool
	stopped bool
	// best is the node first in the ordering so far, with its rank.
	best     int32
	bestRank uint64
	// scratch
	stamp []uint32
	epoch uint32
	stack []sokoban.Square
	boxes []sokoban.Square
	key   []byte
}

// parkNode is a position of the parking search, reached from parent by
// pulling the box on from to to, where it left the board when removed is
// set; its key is in the search's store under the same id.
type parkNode struct {
	parent   int32
	from, to sokoban.Square
	side     sokoban.Dir // the side of to the player ends on
	removed  bool
}

// newParkSearch prepares the parking search of b, with near the pushes from
// each square to the nearest goal, and queues its roots.
func newParkSearch(b *sokoban.Board, near []int32) *parkSearch {
	starts := b.Start().BoxSquares()
	g := newMacroGen(b, nil)
	rows, dead := startRows(g, starts)
	g.dead = dead
	ps := &parkSearch{b: b, g: g, near: near, starts: starts, rows: rows, start: make([]bool, b.N), store: sokoban.NewStore(2 * (len(starts) + 1)), done: -1, bestRank: ^uint64(0),
		stamp: make([]uint32, b.N), stack: make([]sokoban.Square, 0, b.N)}
	for _, s := range starts {
		ps.start[s] = true
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
		ps.flood(s)
		for t := sokoban.Square(0); int(t) < b.N; t++ {
			if ps.stamp[t] == ps.epoch {
				covered[t] = true
			}
		}
		ps.add(-1, goals, s, sokoban.None, sokoban.None, 0, false)
	}
	g.lift(goals)
	return ps
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

// flood marks (stamp == epoch) the free squares the player reaches from s,
// the boxes placed in g, and returns the smallest.
func (ps *parkSearch) flood(s sokoban.Square) sokoban.Square {
	return ps.fill(s, ps.nextEpoch())
}

// nextEpoch starts a new mark for fill.
func (ps *parkSearch) nextEpoch() uint32 {
	ps.epoch++
	if ps.epoch == 0 {
		clear(ps.stamp)
		ps.epoch = 1
	}
	return ps.epoch
}

// fill marks with e the free squares reached from s that are not marked
// yet, and returns the smallest of those and s.
func (ps *parkSearch) fill(s sokoban.Square, e uint32) sokoban.Square {
	b := ps.b
	ps.stamp[s] = e
	canon := s
	stack := append(ps.stack[:0], s)
	for len(stack) > 0 {
		t := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for d := sokoban.Dir(0); d < 4; d++ {
			if c := b.Next(t, d); ps.g.free(c) && ps.stamp[c] != e {
				ps.stamp[c] = e
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
	n, e := 0, ps.nextEpoch()
	for s := sokoban.Square(0); int(s) < ps.b.N; s++ {
		if ps.stamp[s] != e && ps.g.free(s) {
			n++
			ps.fill(s, e)
		}
	}
	return n
}

// add stores the position of the boxes (sorted, placed in g) with the
// player on the square player, reached from parent by the pull of the box
// on from to to, and queues it when new.
func (ps *parkSearch) add(parent int32, boxes []sokoban.Square, player, from, to sokoban.Square, side sokoban.Dir, removed bool) {
	canon := ps.flood(player)
	// The key: the boxes, sorted, then parkGone for each box that left the
	// board, then the canonical player square, two bytes each.
	key := ps.key[:0]
	for _, s := range boxes {
		key = append(key, byte(s), byte(s>>8))
	}
	for range len(ps.starts) - len(boxes) {
		key = append(key, parkGone&0xff, parkGone>>8)
	}
	key = append(key, byte(canon), byte(canon>>8))
	ps.key = key
	n, fresh := ps.store.Intern(key, maphash.Bytes(parkSeed, key))
	if !fresh {
		return
	}
	id := int32(n)
	ps.nodes = append(ps.nodes, parkNode{parent: parent, from: from, to: to, side: side, removed: removed})
	home, onGoals, spread, away := 0, 0, 0, 0
	for _, s := range boxes {
		if !ps.start[s] {
			home++
			d := sokoban.Unreachable
			for i, t := range ps.starts {
				if ps.g.free(t) {
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
		if !ps.sink[s] && ps.g.free(s) {
			home++
		}
	}
	if home == 0 && ps.done < 0 {
		ps.done = id
	}
	const m = 1<<8 - 1
	rank := uint64(min(len(boxes), m))<<56 | uint64(min(home, m))<<48 | uint64(min(ps.regions(), m))<<40 |
		uint64(min(away, 1<<16-1))<<24 | uint64(min(onGoals, m))<<16 | uint64(1<<16-1-min(spread, 1<<16-1))
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
	for i := 0; i+2 < len(key); i += 2 {
		if s := uint16(key[i]) | uint16(key[i+1])<<8; s != parkGone {
			ps.boxes = append(ps.boxes, sokoban.Square(s))
		}
	}
	return sokoban.Square(key[len(key)-2]) | sokoban.Square(key[len(key)-1])<<8
}

// parkGone stands in a key for a box that left the board, so that every
// key has the same length; parkSeed seeds the keys' hashes.
const parkGone = 0xffff

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
	g.place(boxes)
	ps.flood(player)
	reached := make([]bool, b.N)
	for s := range reached {
		reached[s] = ps.stamp[s] == ps.epoch
	}
	reach := func(s sokoban.Square) bool { return reached[s] }
	type pull struct {
		from, to sokoban.Square
		side     sokoban.Dir
	}
	var pulls []pull
	for i, s := range boxes {
		if i%16 == 15 && ps.halt() {
			g.lift(boxes)
			return false
		}
		g.split(s)
		g.search(s, reach, true)
		for _, st := range g.queue {
			t, d := sokoban.Square(st/4), sokoban.Dir(st%4)
			if g.links[st] != int8(d) || g.dist[st] == 0 {
				continue
			}
			pulls = append(pulls, pull{s, t, d})
		}
	}
	child := make([]sokoban.Square, 0, len(boxes))
	for i, m := range pulls {
		if i%64 == 63 && ps.halt() {
			break
		}
		removed := ps.leaves(m.from, m.to) && ps.b.Boxes()-len(boxes) < ps.sinkStarts
		child = child[:0]
		for _, s := range boxes {
			switch {
			case s != m.from:
				child = append(child, s)
			case !removed:
				child = append(child, m.to)
			}
		}
		slices.Sort(child)
		g.occ[m.from] = false
		if !removed {
			g.occ[m.to] = true
		}
		ps.add(id, child, b.Next(m.to, m.side), m.from, m.to, m.side, removed)
		g.occ[m.to] = false
		g.occ[m.from] = true
		if ps.done >= 0 {
			break
		}
	}
	g.lift(boxes)
	return ps.done < 0 && !ps.stopped
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

// entries turns the path to node end, shortened (shorten), into the
// parking plan's entries (until not yet set): first a box standing still
// for each box of end off the start squares and each goal whose box never
// moves, then each pull of the path undone, last pull first, a box moved
// twice in a row going at once. The end is the node the search ended at, or where it found none,
// its best: then the forward search has to bring boxes to end's squares
// off the start squares first, as the imagine strategy packs towards its
// imagined board.
func (ps *parkSearch) entries(end int32) []parkEntry {
	var path []parkNode
	id := end
	for ; ps.nodes[id].parent >= 0; id = ps.nodes[id].parent {
		path = append(path, ps.nodes[id])
	}
	slices.Reverse(path)
	path = ps.shorten(id, path)
	slices.Reverse(path)
	moved := make([]bool, ps.b.N)
	for _, nd := range path {
		moved[nd.from] = true
	}
	var out []parkEntry
	ps.unpack(end)
	for _, s := range ps.boxes {
		if !ps.start[s] || (ps.b.IsGoal(s) && !moved[s]) {
			out = append(out, parkEntry{from: s, to: s})
		}
	}
	// path holds the pulls last first: undone in that order. A box
	// taken round and back stays where it is.
	for _, nd := range path {
		if nd.from == nd.to {
			continue
		}
		if n := len(out); n > 0 && out[n-1].to == nd.to && out[n-1].from != out[n-1].to {
			out[n-1].to = nd.from
			if out[n-1].from == out[n-1].to {
				out = out[:n-1] // there and back: no move
			}
			continue
		}
		out = append(out, parkEntry{from: nd.to, to: nd.from, sink: nd.removed})
	}
	return out
}

// shorten leaves out of path, the pulls from root (first first), the pulls
// without which the rest still pulls every box to the same square in the
// end: a best-first path wanders, shuffling boxes it needs to move at
// all, and each shuffle left in would be a parking the forward search has
// to make. A pull left in takes its box from wherever it stands then to
// its square, the player walking from where the pull before left him.
// Each pull is tried once, last first.
func (ps *parkSearch) shorten(root int32, path []parkNode) []parkNode {
	player := ps.unpack(root)
	start := slices.Clone(ps.boxes)
	// Which box each pull moves, by the start's index.
	ids := make([]int, len(path))
	at := make([]int, ps.b.N)
	for i := range at {
		at[i] = -1
	}
	for k, s := range start {
		at[s] = k
	}
	for i, nd := range path {
		ids[i] = at[nd.from]
		at[nd.from] = -1
		if !nd.removed {
			at[nd.to] = ids[i]
		}
	}
	keep := make([]bool, len(path))
	for i := range keep {
		keep[i] = true
	}
	want, ok := ps.replay(start, player, path, ids, keep)
	if !ok {
		return path // replay is stricter than the search here: keep it whole
	}
	for i := len(path) - 1; i >= 0; i-- {
		keep[i] = false
		if got, ok := ps.replay(start, player, path, ids, keep); !ok || !slices.Equal(got, want) {
			keep[i] = true
		}
	}
	var out []parkNode
	pos := slices.Clone(start)
	for i, nd := range path {
		if keep[i] && (pos[ids[i]] != nd.to || nd.from == nd.to) {
			out = append(out, parkNode{from: pos[ids[i]], to: nd.to, side: nd.side, removed: nd.removed})
			pos[ids[i]] = nd.to
		}
	}
	return out
}

// replay makes the pulls of path that keep says, each of box ids[i] of
// start to its square, the player starting on player, and returns the
// boxes' squares in the end, sorted; ok is false when a pull cannot be
// made (or a removal no longer keeps the sink's rule). A pull whose box
// stands on its square already is left out, unless it was made so: a box
// taken round and back, to let the player into another area.
func (ps *parkSearch) replay(start []sokoban.Square, player sokoban.Square, path []parkNode, ids []int, keep []bool) (end []sokoban.Square, ok bool) {
	g, b := ps.g, ps.b
	pos := slices.Clone(start)
	g.place(pos)
	defer func() {
		for _, s := range pos {
			if s != sokoban.None {
				g.occ[s] = false
			}
		}
	}()
	reach := func(s sokoban.Square) bool { return ps.stamp[s] == ps.epoch }
	for i, nd := range path {
		if !keep[i] {
			continue
		}
		s := pos[ids[i]]
		if s == nd.to && !nd.removed && nd.from != nd.to {
			continue // the box is there already
		}
		if s == sokoban.None || (s == nd.to && nd.removed) {
			return nil, false
		}
		if nd.removed && !ps.leaves(s, nd.to) {
			return nil, false
		}
		ps.flood(player)
		g.split(s)
		g.search(s, reach, true)
		// The player ends where the search's pull left him if he can,
		// else on any side.
		found := false
		for _, st := range g.queue {
			if sokoban.Square(st/4) == nd.to && g.dist[st] > 0 && (!found || sokoban.Dir(st%4) == nd.side) {
				found, player = true, b.Next(nd.to, sokoban.Dir(st%4))
			}
		}
		if !found {
			return nil, false
		}
		g.occ[s] = false
		pos[ids[i]] = sokoban.None
		if !nd.removed {
			g.occ[nd.to] = true
			pos[ids[i]] = nd.to
		}
	}
	for _, s := range pos {
		if s != sokoban.None {
			end = append(end, s)
		}
	}
	slices.Sort(end)
	return end, true
}

// bytes returns the memory the search holds: its nodes, its store of
// positions and the open list.
func (ps *parkSearch) bytes() int64 {
	return int64(cap(ps.nodes))*int64(unsafe.Sizeof(parkNode{})) + ps.store.Bytes() + 16*int64(cap(ps.open))
}

// parkShare is the share of its budget the park strategy gives its parking
// search; parkNodes bounds that search when there is neither a time nor a
// node limit (and for ParkPlan).
const (
	parkShare = 0.1
	parkNodes = 20_000
)

// parkPlan runs the parking search on its share of the budget and makes its
// plan the one the features follow: from the position it ended at, or
// where it found none, from its best (parkSearch.entries). done is set
// when the whole budget runs out.
func (e *engine) parkPlan() (res solver.Result, done bool, err error) {
	ps := newParkSearch(e.b, e.near)
	e.parking = ps // counted in e.bytes while it runs
	defer func() { e.parking = nil }()
	expanded := int64(0)
	ps.stop = func() bool {
		_, stop := e.guard.Check(&e.stats)
		return stop || !e.parkLeft(expanded)
	}
	for ; e.parkLeft(expanded); expanded++ {
		if st, stop := e.tick(); stop {
			return e.stop(st), true, nil
		}
		if !ps.step() {
			break
		}
		e.stats.Expanded++
	}
	if st, stop := e.tick(); stop {
		return e.stop(st), true, nil
	}
	end := ps.done
	if end < 0 {
		end = ps.best
	}
	setUp, cancel := e.guard.SetUp()
	defer cancel()
	pk, err := newParking(setUp, e.b, newMacroGen(e.b, nil), ps.entries(end))
	if err != nil {
		if st, ok := solver.Stopped(err); ok {
			return e.stop(st), true, nil
		}
		return solver.Result{}, true, err
	}
	if st, stop := e.charge(pk.bytes()); stop {
		return e.stop(st), true, nil
	}
	e.feat.park = pk
	e.parked = ps.done >= 0
	return solver.Result{}, false, nil
}

// parkLeft reports whether the parking search, expanded positions in, still
// has budget: parkShare of the strategy's time or node budget, or
// parkNodes expansions without either.
func (e *engine) parkLeft(expanded int64) bool {
	b := e.budget
	switch {
	case b.Time <= 0 && b.Nodes <= 0:
		return expanded < parkNodes
	case b.Time > 0 && e.guard.Elapsed() >= time.Duration(float64(b.Time)*parkShare):
		return false
	case b.Nodes > 0 && float64(e.stats.Expanded) >= float64(b.Nodes)*parkShare:
		return false
	}
	return true
}

// parkPlanTime bounds the parking search of ParkPlan: an expansion takes
// about a second on the largest boards (255 boxes).
const parkPlanTime = 2 * time.Second

// ParkEntry is one step of a parking plan, for people (soko analyze): a box
// goes from From to To (From == To: it stays on its goal), Until is the
// step that moves it on (-1: none), Sink says it comes out of the sink.
type ParkEntry struct {
	From, To sokoban.Square
	Until    int
	Sink     bool
}

// ParkPlan returns the parking plan of board b that the park strategy
// follows, worked out by at most parkNodes expansions of the parking
// search within parkPlanTime, and the squares of the sink; complete is false when the search
// found no position to start from, and the plan starts from its best. It
// returns ctx.Err() when ctx is done first.
func ParkPlan(ctx context.Context, b *sokoban.Board) (plan []ParkEntry, sink []sokoban.Square, complete bool, err error) {
	dist, err := b.PullDistances(ctx)
	if err != nil {
		return nil, nil, false, err
	}
	ps := newParkSearch(b, nearestGoal(dist, b.N))
	for s := sokoban.Square(0); int(s) < b.N; s++ {
		if ps.sink[s] {
			sink = append(sink, s)
		}
	}
	deadline := time.Now().Add(parkPlanTime)
	ps.stop = func() bool { return ctx.Err() != nil || time.Now().After(deadline) }
	for range parkNodes {
		if !ps.step() {
			break
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, false, err
	}
	end := ps.done
	if end < 0 {
		end = ps.best
	}
	pk, err := newParking(ctx, b, newMacroGen(b, nil), ps.entries(end))
	if err != nil {
		return nil, nil, false, err
	}
	for _, en := range pk.entries {
		plan = append(plan, ParkEntry{From: en.from, To: en.to, Until: int(en.until), Sink: en.sink})
	}
	return plan, sink, ps.done >= 0, nil
}
