package heuristic

import (
	"encoding/binary"
	"math/bits"
	"slices"

	"soko/deadlock"
	"soko/internal/bucketq"
	"soko/sokoban"
)

// GroupBound is a second lower bound for A*, for levels whose boxes
// block each other in groups: the matching counts each box's pushes as if
// it were alone, so where a few boxes must make way for each other it
// falls short, whatever the goals they are matched with.
//
// The board's floor, with the boxes frozen on goals at the start as walls
// (they never move), is cut into areas at its tunnel squares (walls on
// both sides across one axis); the boxes standing in an area, or in one of
// a few pairs of areas joined by a tunnel chosen at set-up, form a group.
// A position's bound is the sum over its groups of the fewest pushes that
// put the group's boxes on goals with every other box taken off the board
// and the player where it is, plus the matching of the boxes in no group.
// That is admissible: in any solution, the pushes of a group's boxes, with
// the others' left out, solve the group's problem (a box taken off frees
// squares, it never blocks a walk or a push), and the boxes in no group
// each need at least their own distance to distinct goals.
//
// The groups' problems of k boxes are looked up in a table of their
// exact distances (groupPDB, a pattern database over the whole board),
// built by a breadth-first search backwards from the goals the first time
// a group of k boxes is met, up to a number of states: a problem the
// table does not hold is at least one push further than its last complete
// layer. At set-up, the groups are chosen with a small A* per candidate
// group instead (solve).
type GroupBound struct {
	b    *sokoban.Board
	dead []bool
	// wall marks the boxes frozen on goals at the start; walls counts them.
	wall  []bool
	walls int
	// goals are the goals not under a wall; dist[j] their pull distances
	// (sokoban.Board.PullDistances rows; the walls only lengthen a lone
	// box's way, so they stay lower bounds).
	goals  []sokoban.Square
	sorted []sokoban.Square // goals, sorted
	dist   [][]int32
	free   []bool // free[s]: s is one of goals
	// area[s] is the area of s, or -1 (walls, tunnel squares);
	// families[f][a] the group of area a in family f. The bound is the
	// largest of the families'.
	area     []int16
	families [][]int16
	// nodes is each sub-search's budget of expansions.
	nodes int

	// pdbs[k] is the table of groups of k boxes, once met; states is
	// what all of them hold, tableBytes their memory.
	pdbs       map[int]*groupPDB
	states     int
	tableBytes int64
	matcher    *Matcher
	cost       []int32

	// scratch
	members [][][]sokoban.Square // by family and group
	sink    uint64               // bound's loads go here, so the compiler keeps them
	rest    []sokoban.Square
	key     []byte
	reached sokoban.Marks // reach's region
	stack   []sokoban.Square
	marked  []sokoban.Square
	// boxAt marks the walls, and the boxes while reach works; mark the
	// walls, and the boxes of the state grow works on. No box is ever on
	// a wall, so unmarking boxes leaves the walls marked.
	boxAt []bool
	// nbr[s][d] is b.Next(s, d).
	nbr [][4]sokoban.Square
	// articulate's scratch: its region (tree), the regions outside it
	// that outside filled (outer, with their smallest squares in olabel),
	// depth-first numbers, low points, largest numbers in subtrees, tree
	// parents, smallest squares of subtrees and next directions.
	mark           []bool
	tree, outer    sokoban.Marks
	olabel         []sokoban.Square
	disc, low, end []int32
	up, least      []sokoban.Square
	next           []uint8
	labels         [labelSlots]regionLabels
	labelBytes     int64 // what the labels allocated hold
	// recent is a direct-mapped cache of group's results by the boxes and
	// the player's own square, before regions: one load instead of the
	// labels' several (recentSlot says how an entry is laid out); nil
	// until the first group. bitsPer is the bits of one square in a key.
	recent  []uint64
	bitsPer uint
	sub     subSearch
	moves   []subMove

	// Stop, called while a table grows, reports whether the search that
	// owns the bound must stop; the table is then left incomplete. It
	// never stops unless set.
	Stop func() bool

	// Searches and Nodes count the sub-searches of the set-up and their
	// expansions; Hits and Misses the lookups of the tables.
	Searches, Nodes, Hits, Misses int64
}

// groupEntry is the result of a group's problem: a lower bound on its
// pushes, and false in ok when it has no solution.
type groupEntry struct {
	pushes int32
	ok     bool
}

const (
	// groupNodes is the expansion budget of one sub-search.
	groupNodes = 20000
	// groupStates bounds the states of all the tables together, and
	// groupTableStates the ways of placing the boxes of one table (so
	// about its states, one region per placement on average): a larger
	// table is not built.
	groupStates      = 1 << 23
	groupTableStates = 1 << 22
	// maxAreas bounds the areas for which pairs are tried.
	maxAreas = 16
	// maxFamilies bounds the families of groups compared at set-up, and
	// maxKept the families of the best bound at start kept.
	maxFamilies = 4096
	maxKept     = 4
)

// NewGroupBound returns the group bound for the board of start with dead
// squares dead and pull distances dist (goal × square), or nil when it
// cannot beat the matching at start, bound h: when the tunnels cut the
// board into fewer than two areas with boxes, or when no choice of groups
// gives more than h.
func NewGroupBound(start *sokoban.Position, dead []bool, dist [][]int32, h int32) *GroupBound {
	b := start.Board()
	gb := &GroupBound{b: b, dead: dead, wall: make([]bool, b.N), free: make([]bool, b.N),
		area: make([]int16, b.N), bitsPer: uint(bits.Len(uint(b.N))), nodes: groupNodes, pdbs: map[int]*groupPDB{}, Stop: func() bool { return false },
		matcher: NewMatcher(1), reached: sokoban.NewMarks(b.N), boxAt: make([]bool, b.N),
		mark: make([]bool, b.N), tree: sokoban.NewMarks(b.N), outer: sokoban.NewMarks(b.N), olabel: make([]sokoban.Square, b.N), disc: make([]int32, b.N), low: make([]int32, b.N), up: make([]sokoban.Square, b.N), least: make([]sokoban.Square, b.N), end: make([]int32, b.N),
		next: make([]uint8, b.N)}
	gb.nbr = make([][4]sokoban.Square, b.N)
	for s := range gb.nbr {
		for d := range sokoban.Dirs {
			gb.nbr[s][d] = b.Next(sokoban.Square(s), d)
		}
	}
	freeze := deadlock.NewFreeze(b, dead)
	for _, s := range start.BoxSquares() {
		if b.IsGoal(s) && freeze.Frozen(start, s) {
			gb.wall[s], gb.boxAt[s], gb.mark[s] = true, true, true
			gb.walls++
		}
	}
	for j, s := range b.Goals() {
		if !gb.wall[s] {
			gb.goals = append(gb.goals, s)
			gb.dist = append(gb.dist, dist[j])
			gb.free[s] = true
		}
	}
	gb.sorted = slices.Sorted(slices.Values(gb.goals))
	areas, joins := gb.cut()
	boxes := make([]int, areas)
	for _, s := range start.BoxSquares() {
		if gb.wall[s] {
			continue
		}
		if a := gb.area[s]; a >= 0 {
			boxes[a]++
		}
	}
	withBoxes := 0
	for _, n := range boxes {
		if n > 0 {
			withBoxes++
		}
	}
	if withBoxes < 2 || areas > maxAreas {
		return nil
	}
	best, bestValue := gb.choose(start, areas, joins, boxes)
	if best == nil || bestValue <= h {
		return nil
	}
	gb.families = best
	gb.members = make([][][]sokoban.Square, len(best))
	for k := range best {
		gb.members[k] = make([][]sokoban.Square, areas)
	}
	return gb
}

// cut splits the floor into areas at the tunnel squares, with the walls,
// and returns their number and the pairs of areas that tunnels join.
func (gb *GroupBound) cut() (int, [][2]int16) {
	b := gb.b
	blocked := func(s sokoban.Square, d sokoban.Dir) bool {
		n := b.Next(s, d)
		return n < 0 || gb.wall[n]
	}
	tunnel := make([]bool, b.N)
	for s := sokoban.Square(0); int(s) < b.N; s++ {
		tunnel[s] = !gb.wall[s] && (blocked(s, 0) && blocked(s, 1) || blocked(s, 2) && blocked(s, 3))
	}
	// The areas are numbered in the order of their smallest squares.
	seen := sokoban.NewMarks(b.N)
	var run []sokoban.Square
	areas := 0
	for s := range sokoban.Square(b.N) {
		gb.area[s] = -1
	}
	for s := range sokoban.Square(b.N) {
		if gb.wall[s] || tunnel[s] || seen.Has(s) {
			continue
		}
		seen.Add(s)
		run = b.Fill(append(run[:0], s), seen, func(n sokoban.Square) bool { return !gb.wall[n] && !tunnel[n] })
		for _, t := range run {
			gb.area[t] = int16(areas)
		}
		areas++
	}
	// Each run of tunnel squares joins the areas next to it.
	var joins [][2]int16
	for s := range sokoban.Square(b.N) {
		if !tunnel[s] || seen.Has(s) {
			continue
		}
		seen.Add(s)
		run = b.Fill(append(run[:0], s), seen, func(n sokoban.Square) bool { return tunnel[n] })
		var touched []int16
		for _, t := range run {
			for d := range sokoban.Dirs {
				if n := b.Next(t, d); n >= 0 {
					if a := gb.area[n]; a >= 0 && !slices.Contains(touched, a) {
						touched = append(touched, a)
					}
				}
			}
		}
		slices.Sort(touched)
		for i, a := range touched {
			for _, c := range touched[i+1:] {
				if !slices.Contains(joins, [2]int16{a, c}) {
					joins = append(joins, [2]int16{a, c})
				}
			}
		}
	}
	return areas, joins
}

// choose compares the families of groups at start: every area with boxes
// a group of its own, or joined with one area next to it; and returns the
// area → group map of the family with the largest bound at start, and
// that bound.
func (gb *GroupBound) choose(start *sokoban.Position, areas int, joins [][2]int16, boxes []int) ([][]int16, int32) {
	player := start.Player()
	boxesOf := func(as ...int16) []sokoban.Square {
		var out []sokoban.Square
		for _, s := range start.BoxSquares() {
			if !gb.wall[s] && gb.area[s] >= 0 && slices.Contains(as, gb.area[s]) {
				out = append(out, s)
			}
		}
		return out
	}
	value := func(as ...int16) (int32, bool) {
		bx := boxesOf(as...)
		if !gb.fits(len(bx)) {
			return gb.match(bx) // what bound will count for them
		}
		e := gb.solve(bx, gb.reach(bx, player))
		return e.pushes, e.ok
	}
	single := make([]int32, areas)
	for a := range areas {
		if boxes[a] > 0 {
			v, ok := value(int16(a))
			if !ok {
				return nil, groupInf // no solution: the search finds out
			}
			single[a] = v
		}
	}
	pair := map[[2]int16]int32{}
	for _, j := range joins {
		if boxes[j[0]] > 0 && boxes[j[1]] > 0 {
			if v, ok := value(j[0], j[1]); ok {
				pair[j] = v
			}
		}
	}
	// Enumerate the families: each area with boxes alone or paired.
	var (
		best      [][]int16
		bestValue = int32(-1)
		group     = make([]int16, areas)
		families  = 0
		rec       func(a int, sum int32)
	)
	rec = func(a int, sum int32) {
		if families >= maxFamilies {
			return
		}
		if a == areas {
			families++
			if sum > bestValue {
				bestValue, best = sum, best[:0]
			}
			if sum == bestValue && len(best) < maxKept {
				best = append(best, slices.Clone(group))
			}
			return
		}
		if group[a] >= 0 || boxes[a] == 0 {
			rec(a+1, sum)
			return
		}
		group[a] = int16(a)
		rec(a+1, sum+single[a])
		for _, j := range joins {
			if c := j[1]; j[0] == int16(a) && group[c] < 0 {
				if v, ok := pair[j]; ok {
					group[c] = int16(a)
					rec(a+1, sum+v)
					group[c] = -1
				}
			}
		}
		group[a] = -1
	}
	for a := range group {
		group[a] = -1
	}
	rec(0, 0)
	if best == nil {
		return nil, -1
	}
	// Number each family's groups 0..; an area without boxes at start is
	// a group of its own.
	for _, f := range best {
		ids := map[int16]int16{}
		for a, g := range f {
			if g < 0 {
				g = int16(a)
			}
			id, ok := ids[g]
			if !ok {
				id = int16(len(ids))
				ids[g] = id
			}
			f[a] = id
		}
	}
	// The boxes in tunnels are matched at start by the families' rest.
	var rest []sokoban.Square
	for _, s := range start.BoxSquares() {
		if !gb.wall[s] && gb.area[s] < 0 {
			rest = append(rest, s)
		}
	}
	r, ok := gb.match(rest)
	if !ok {
		return nil, groupInf
	}
	return best, bestValue + r
}

// groupInf is the bound of a group with no solution.
const groupInf = Inf

// States returns the states that the tables of every group size hold.
func (gb *GroupBound) States() int { return gb.states }

// Bytes returns the memory the bound holds; none for a nil bound.
func (gb *GroupBound) Bytes() int64 {
	if gb == nil {
		return 0
	}
	return gb.sub.bytes() + int64(gb.b.N)*32 + gb.labelBytes + int64(len(gb.recent))*8 + gb.tableBytes
}

// bound returns the group bound of p, and false when a group of p has no
// solution.
func (gb *GroupBound) Bound(p *sokoban.Position) (int32, bool) {
	gb.rest = gb.rest[:0]
	walls := 0
	for _, s := range p.BoxSquares() {
		if gb.wall[s] {
			walls++
		} else if gb.area[s] < 0 {
			gb.rest = append(gb.rest, s)
		}
	}
	if walls < gb.walls {
		// Not a position reached from the start (an image under one of
		// the board's symmetries that moves the frozen boxes): their
		// squares are no walls here, so the groups' problems do not
		// bound it.
		return 0, true
	}
	rest, ok := gb.matchRest(gb.rest)
	if !ok {
		return 0, false
	}
	// Every family's groups first, with their cache slots loaded at once
	// (see groupPDB.touch), then their results.
	sink := uint64(0)
	for k := range gb.families {
		members := gb.sortMembers(p, k)
		for _, m := range members {
			if len(m) > 0 {
				if slot, _ := gb.recentSlot(m, p.Player()); slot >= 0 {
					sink += gb.recent[slot]
				}
			}
		}
	}
	gb.sink = sink
	best := int32(0)
	for _, members := range gb.members {
		total := rest
		for _, m := range members {
			if len(m) == 0 {
				continue
			}
			e := gb.group(m, p.Player())
			if !e.ok {
				return 0, false
			}
			total += e.pushes
		}
		best = max(best, total)
	}
	return min(best, groupInf-1), true
}

// group returns the result of the problem of boxes (sorted) alone with
// the player on player, from the table of len(boxes) boxes.
func (gb *GroupBound) group(boxes []sokoban.Square, player sokoban.Square) groupEntry {
	slot, key := gb.recentSlot(boxes, player)
	if slot >= 0 {
		if v := gb.recent[slot]; v != 0 && v&keyMask == key {
			if c := v >> distShift; c > 0 {
				return groupEntry{pushes: int32(c - 1), ok: true}
			}
			return groupEntry{}
		}
	}
	rl := gb.regions(boxes)
	canon := rl.label[player]
	e, found := groupEntry{}, false
	for _, m := range rl.memo {
		if m.canon == canon {
			e, found = m.entry, true
			break
		}
	}
	if !found {
		e = gb.look(boxes, canon)
		rl.memo = append(rl.memo, regionEntry{canon, e})
	}
	gb.remember(slot, key, e)
	return e
}

// matchRest returns match(boxes) for boxes in no group, which it sorts, through
// the cache of recent results where there are two or more of them: their
// key has the player on b.N, a square no group's key has.
func (gb *GroupBound) matchRest(boxes []sokoban.Square) (int32, bool) {
	if len(boxes) < 2 {
		return gb.match(boxes)
	}
	slices.Sort(boxes)
	slot, key := gb.recentSlot(boxes, sokoban.Square(gb.b.N))
	if slot >= 0 {
		if v := gb.recent[slot]; v != 0 && v&keyMask == key {
			c := v >> distShift
			return int32(c) - 1, c > 0
		}
	}
	h, ok := gb.match(boxes)
	gb.remember(slot, key, groupEntry{pushes: h, ok: ok})
	return h, ok
}

// remember puts e in slot of the cache of recent results under key, when
// slot is one (not −1) and e fits.
func (gb *GroupBound) remember(slot int, key uint64, e groupEntry) {
	if slot >= 0 && e.pushes < 255 {
		c := uint64(0) // no solution: bound uses nothing else of the entry
		if e.ok {
			c = uint64(e.pushes) + 1
		}
		gb.recent[slot] = key | c<<distShift
	}
}

// recentSlot returns the slot of the cache of recent results for boxes
// (sorted) and player, and the key that goes there; −1 when the key does
// not fit.
func (gb *GroupBound) recentSlot(boxes []sokoban.Square, player sokoban.Square) (int, uint64) {
	if uint(len(boxes)+1)*gb.bitsPer >= distShift {
		return -1, 0
	}
	if gb.recent == nil {
		gb.recent = make([]uint64, recentSlots)
	}
	key := 1<<gb.bitsPer | uint64(player) // the leading 1 tells the number of boxes
	for _, s := range boxes {
		key = key<<gb.bitsPer | uint64(s)
	}
	return int(key * 0x9e3779b97f4a7c15 >> (64 - recentBits)), key
}

// recentBits sizes GroupBound.recent, whose slots hold the key of the
// boxes and player (pack's layout with the player's own square, after a
// bit set to 1) in the low distShift bits and, above, the result's pushes plus one, or 0 for
// no solution; an empty slot is 0 (no key is).
const (
	recentBits  = 18
	recentSlots = 1 << recentBits
)

// look returns the result of the problem of boxes (sorted) with the
// player on canon from the table.
func (gb *GroupBound) look(boxes []sokoban.Square, canon sokoban.Square) groupEntry {
	pd := gb.table(len(boxes))
	if pd == nil {
		h, ok := gb.match(boxes)
		return groupEntry{pushes: h, ok: ok}
	}
	if d, ok := pd.find(pd.pack(boxes, canon)); ok {
		gb.Hits++
		return groupEntry{pushes: int32(d), ok: true}
	}
	gb.Misses++
	if pd.full {
		return groupEntry{} // not within reach of the goals
	}
	h, ok := gb.match(boxes)
	return groupEntry{pushes: max(h, int32(pd.done+1)), ok: ok}
}

// packGroup appends the key of sorted boxes with the player on canon.
func packGroup(dst []byte, boxes []sokoban.Square, canon sokoban.Square) []byte {
	for _, s := range boxes {
		dst = binary.LittleEndian.AppendUint16(dst, uint16(s))
	}
	return binary.LittleEndian.AppendUint16(dst, uint16(canon))
}

// labelSlots is the number of box sets whose regions GroupBound keeps.
const labelSlots = 1 << 16

// regionLabels are the regions of the player with boxes on the board:
// label[s] is the smallest square of the region of s.
type regionLabels struct {
	boxes []sokoban.Square
	label []sokoban.Square
	memo  []regionEntry // the results looked up for the boxes, by region
}

// regionEntry is the result of the problem of a box set with the player
// in the region of canon.
type regionEntry struct {
	canon sokoban.Square
	entry groupEntry
}

// regions returns the regions of the player with boxes on the board: those
// of the last boxes with the same hash slot, after labelling every region
// of boxes when they are not those. The groups that a push leaves alone
// keep their boxes, so one labelling (and its results) serves many
// states.
func (gb *GroupBound) regions(boxes []sokoban.Square) *regionLabels {
	h := uint64(0)
	for _, s := range boxes {
		h = (h ^ uint64(s)) * 0x100000001b3
	}
	rl := &gb.labels[h>>32%labelSlots]
	if !slices.Equal(rl.boxes, boxes) {
		rl.boxes = append(rl.boxes[:0], boxes...)
		rl.memo = rl.memo[:0]
		if rl.label == nil {
			rl.label = make([]sokoban.Square, gb.b.N)
			gb.labelBytes += int64(gb.b.N)*4 + 64
		}
		for s := range rl.label {
			rl.label[s] = sokoban.None
		}
		for _, s := range boxes {
			rl.label[s] = s // not a region; never asked for
		}
		for s := sokoban.Square(0); int(s) < gb.b.N; s++ {
			if rl.label[s] != sokoban.None || gb.wall[s] {
				continue
			}
			gb.reach(boxes, s) // s is the smallest square of its region
			for _, t := range gb.marked {
				rl.label[t] = s
			}
		}
	}
	return rl
}

// reach marks the squares the player reaches from player with only boxes
// (and the walls) on the board, lists them in marked, and returns the
// smallest of them.
func (gb *GroupBound) reach(boxes []sokoban.Square, player sokoban.Square) sokoban.Square {
	for _, s := range boxes {
		gb.boxAt[s] = true
	}
	gb.reached.Clear()
	canon := gb.fill(player, gb.reached, gb.boxAt)
	for _, s := range boxes {
		gb.boxAt[s] = false
	}
	return canon
}

// fill adds to m the squares reached from start without crossing a square
// set in blocked (boxAt or mark, which mark the walls too) or one in m
// already, lists them in marked, and returns the smallest of them.
func (gb *GroupBound) fill(start sokoban.Square, m sokoban.Marks, blocked []bool) sokoban.Square {
	m.Add(start)
	gb.marked = gb.b.Fill(append(gb.marked[:0], start), m, func(n sokoban.Square) bool { return !blocked[n] })
	return slices.Min(gb.marked)
}

// match returns the least total of distances from boxes to distinct free
// goals, and false when there is no such assignment.
func (gb *GroupBound) match(boxes []sokoban.Square) (int32, bool) {
	k, m := len(boxes), len(gb.goals)
	switch {
	case k == 0:
		return 0, true
	case k > m:
		return 0, false
	case k == 1:
		best := groupInf
		for _, row := range gb.dist {
			best = min(best, row[boxes[0]])
		}
		return best, best < groupInf
	}
	// Pad with m − k boxes at distance 0 from every goal.
	gb.cost = slices.Grow(gb.cost[:0], m*m)[:m*m]
	for i := range m {
		for j, row := range gb.dist {
			c := int32(0)
			if i < k {
				c = min(row[boxes[i]], groupInf)
			}
			gb.cost[i*m+j] = c
		}
	}
	return gb.matcher.Solve(gb.cost, m)
}

// subSearch is the scratch of GroupBound.solve: the states of one A* over
// the pushes of a group's boxes alone, k boxes each.
type subSearch struct {
	index  map[string]uint32
	boxes  []sokoban.Square // k per state
	player []sokoban.Square // canonical
	g      []int32
	prio   []int32
	open   bucketq.Queue
}

func (s *subSearch) bytes() int64 {
	return int64(cap(s.boxes))*2 + int64(cap(s.g))*16 + int64(len(s.index))*48 + s.open.Bytes()
}

// solve finds the fewest pushes that put boxes (sorted) on free goals,
// alone on the board with the walls, the player on canon (a canonical
// square), by A* on the match bound with reopening, within gb.nodes
// expansions. Out of budget, it returns the largest f it expanded, a lower
// bound: the open list always holds a state of an optimal solution reached
// by an optimal path, whose f is at most the optimum.
func (gb *GroupBound) solve(boxes []sokoban.Square, canon sokoban.Square) groupEntry {
	gb.Searches++
	k := len(boxes)
	h0, ok := gb.match(boxes)
	if !ok {
		return groupEntry{}
	}
	s := &gb.sub
	if s.index == nil {
		s.index = map[string]uint32{}
	}
	clear(s.index)
	s.boxes, s.player, s.g, s.prio = s.boxes[:0], s.player[:0], s.g[:0], s.prio[:0]
	s.open.Reset()
	add := func(bx []sokoban.Square, pl sokoban.Square, g, h int32) {
		gb.key = packGroup(gb.key[:0], bx, pl)
		if id, ok := s.index[string(gb.key)]; ok {
			if g < s.g[id] {
				s.g[id], s.prio[id] = g, g+h
				s.open.Push(int(g+h), int(h), id)
			}
			return
		}
		id := uint32(len(s.g))
		s.index[string(gb.key)] = id
		s.boxes = append(s.boxes, bx...)
		s.player = append(s.player, pl)
		s.g, s.prio = append(s.g, g), append(s.prio, g+h)
		s.open.Push(int(g+h), int(h), id)
	}
	add(boxes, canon, 0, h0)
	bound := h0
	work := make([]sokoban.Square, k)
	for expanded := 0; ; {
		id, f, ok := s.open.Pop()
		if !ok {
			return groupEntry{} // no solution
		}
		if int32(f) != s.prio[id] {
			continue
		}
		s.prio[id] = -1 // expanded; a shorter path queues it again
		bound = max(bound, int32(f))
		bx := s.boxes[int(id)*k : int(id)*k+k]
		if gb.onGoals(bx) {
			bound = s.g[id]
		}
		if gb.onGoals(bx) || expanded >= gb.nodes {
			return groupEntry{pushes: bound, ok: true}
		}
		expanded++
		gb.Nodes++
		gb.reach(bx, s.player[id])
		moves := gb.moves[:0]
		for i, box := range bx {
			for d := range sokoban.Dirs {
				behind, front := gb.b.Next(box, d^1), gb.b.Next(box, d)
				if behind >= 0 && front >= 0 && gb.reached.Has(behind) && !gb.wall[front] && !gb.dead[front] && !slices.Contains(bx, front) {
					moves = append(moves, subMove{box: i, to: front})
				}
			}
		}
		gb.moves = moves
		for _, mv := range moves {
			moveSorted(work, bx, mv.box, mv.to)
			h, ok := gb.match(work)
			if !ok {
				continue
			}
			add(work, gb.reach(work, bx[mv.box]), s.g[id]+1, h)
			bx = s.boxes[int(id)*k : int(id)*k+k] // add may have moved the states
		}
	}
}

// moveSorted sets dst to boxes (sorted) with boxes[i] moved to to, sorted:
// one pass, where sorting would compare them all again.
func moveSorted(dst, boxes []sokoban.Square, i int, to sokoban.Square) {
	k, placed := 0, false
	for j, s := range boxes {
		if j == i {
			continue
		}
		if !placed && to < s {
			dst[k], k, placed = to, k+1, true
		}
		dst[k], k = s, k+1
	}
	if !placed {
		dst[k] = to
	}
}

// subMove is a push or pull of a sub-search: the box's index, the square
// it goes to and, for pulls, the square the player goes to.
type subMove struct {
	box        int
	to, player sokoban.Square
}

// onGoals reports whether every box stands on a free goal.
func (gb *GroupBound) onGoals(boxes []sokoban.Square) bool {
	for _, s := range boxes {
		if !gb.free[s] {
			return false
		}
	}
	return true
}

// groupPDB holds the exact distances of the problems of k boxes alone
// (GroupBound.group's problems) for every state within some pushes of the
// goals, found by a breadth-first search backwards from every way of
// putting k boxes on the free goals with the player in any of the regions
// they leave, pulling one box a square at a time. A state is keyed by its
// sorted box squares and the player's canonical square, bits each.
type groupPDB struct {
	k    int
	bits uint
	// slots is an open-addressing table of key | distance<<distShift;
	// 0 is empty (no key is 0: k ≥ 1 boxes on distinct squares, the
	// player on another).
	slots []uint64
	n     int
	// done is the last layer complete: a state not in the table is at
	// least done+1 pushes from the goals; full says the search ran out of
	// states, so a state not in the table cannot reach them.
	done  int
	full  bool
	layer []uint64 // the keys at distance done
	sink  uint64   // touch's loads go here, so the compiler keeps them
}

// distShift places a distance above the key in a slot, so keys have
// distShift bits.
const (
	distShift = 56
	keyMask   = 1<<distShift - 1
)

// bytes returns the memory the table holds.
func (pd *groupPDB) bytes() int64 { return int64(len(pd.slots))*8 + int64(cap(pd.layer))*8 }

// pack packs sorted boxes and a canonical player square into a key.
func (pd *groupPDB) pack(boxes []sokoban.Square, canon sokoban.Square) uint64 {
	key := uint64(canon)
	for _, s := range boxes {
		key = key<<pd.bits | uint64(s)
	}
	return key
}

// unpack is the inverse of pack: it fills boxes and returns the player's
// square.
func (pd *groupPDB) unpack(key uint64, boxes []sokoban.Square) sokoban.Square {
	mask := uint64(1)<<pd.bits - 1
	for i := pd.k - 1; i >= 0; i-- {
		boxes[i] = sokoban.Square(key & mask)
		key >>= pd.bits
	}
	return sokoban.Square(key)
}

// slot returns where key is or would go.
func (pd *groupPDB) slot(key uint64) int {
	mask := len(pd.slots) - 1
	i := int((key*0x9e3779b97f4a7c15)>>32) & mask
	for pd.slots[i] != 0 && pd.slots[i]&keyMask != key {
		i = (i + 1) & mask
	}
	return i
}

// touch loads the first slots of keys, all at once: the loads do not wait
// for each other, so the cache misses of a state's children overlap
// instead of coming one at a time in insert.
func (pd *groupPDB) touch(keys []uint64) {
	mask := len(pd.slots) - 1
	if mask < 0 {
		return
	}
	sink := uint64(0)
	for _, key := range keys {
		sink += pd.slots[int((key*0x9e3779b97f4a7c15)>>32)&mask]
	}
	pd.sink = sink
}

// find returns the distance of key, if the table holds it.
func (pd *groupPDB) find(key uint64) (uint8, bool) {
	v := pd.slots[pd.slot(key)]
	return uint8(v >> distShift), v != 0
}

// insert adds key at distance d unless the table holds it, and reports
// whether it was new.
func (pd *groupPDB) insert(key uint64, d uint8) bool {
	if 2*(pd.n+1) > len(pd.slots) {
		old := pd.slots
		pd.slots = make([]uint64, max(1024, 2*len(old)))
		for _, v := range old {
			if v != 0 {
				pd.slots[pd.slot(v&keyMask)] = v
			}
		}
	}
	i := pd.slot(key)
	if pd.slots[i] != 0 {
		return false
	}
	pd.slots[i] = key | uint64(d)<<distShift
	pd.n++
	return true
}

// table returns the table of k boxes, building it the first time, as far
// as the states left to the tables and the search's budget allow; nil
// where its keys do not fit in distShift bits or it would be too large.
func (gb *GroupBound) table(k int) *groupPDB {
	if pd, ok := gb.pdbs[k]; ok {
		return pd
	}
	if !gb.fits(k) {
		gb.pdbs[k] = nil
		return nil
	}
	pd := &groupPDB{k: k, bits: uint(bits.Len(uint(gb.b.N)))}
	gb.pdbs[k] = pd
	boxes := make([]sokoban.Square, k)
	var put func(i, from int)
	put = func(i, from int) { // every k goals, sorted, with every region they leave
		if i == k {
			for s := sokoban.Square(0); int(s) < gb.b.N; s++ {
				if !gb.wall[s] && !slices.Contains(boxes, s) && gb.reach(boxes, s) == s {
					if pd.insert(pd.pack(boxes, s), 0) {
						pd.layer = append(pd.layer, pd.pack(boxes, s))
					}
				}
			}
			return
		}
		for j := from; j < len(gb.sorted); j++ {
			boxes[i] = gb.sorted[j]
			put(i+1, j+1)
		}
	}
	put(0, 0)
	for gb.states+pd.n <= groupStates && gb.grow(pd, groupStates-gb.states) {
	}
	gb.states += pd.n
	gb.tableBytes += pd.bytes()
	return pd
}

// articulate marks in tree (reach's marks are another set), the region of the player on root
// with the boxes and walls of gb.mark on the board, numbering its squares in a
// depth-first search with low points (Hopcroft and Tarjan's articulation
// points, for afterPull), and returns its two smallest squares (the
// second None for a region of one square).
func (gb *GroupBound) articulate(root sokoban.Square) (sokoban.Square, sokoban.Square) {
	gb.tree.Clear()
	gb.outer.Clear()
	tree := gb.tree
	n := int32(1)
	tree.Add(root)
	gb.disc[root], gb.low[root], gb.up[root], gb.next[root], gb.least[root] = n, n, sokoban.None, 0, root
	m1, m2 := root, sokoban.None
	stack := append(gb.stack[:0], root)
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		// Scan v's neighbours from where it left off, up to the first
		// new square, which the search goes down to.
		d, down := gb.next[v], false
		for ; d < 4; d++ {
			w := gb.nbr[v][d]
			if w < 0 || gb.mark[w] {
				continue
			}
			if tree.Has(w) {
				gb.low[v] = min(gb.low[v], gb.disc[w])
				continue
			}
			n++
			tree.Add(w)
			gb.disc[w], gb.low[w], gb.up[w], gb.next[w], gb.least[w] = n, n, v, 0, w
			stack = append(stack, w)
			if w < m1 {
				m1, m2 = w, m1
			} else if m2 < 0 || w < m2 {
				m2 = w
			}
			d, down = d+1, true
			break
		}
		gb.next[v] = d
		if down {
			continue
		}
		stack = stack[:len(stack)-1]
		gb.end[v] = n
		if u := gb.up[v]; u >= 0 {
			gb.low[u] = min(gb.low[u], gb.low[v])
			gb.least[u] = min(gb.least[u], gb.least[v])
		}
	}
	gb.stack = stack
	return m1, m2
}

// afterPull returns the canonical player square after the box on b is
// pulled onto q, a square of the region articulate marked last (two
// smallest squares m1 and m2), with the player on r, when it can tell
// without a flood fill of the new region, as sokoban.Region.After does for
// pushes: without q the region falls into parts (the subtrees of q's
// children whose low points do not reach above q, and the rest); the
// player's new region is r's part, joined by b, every part b touches and
// the other regions b touches (outside, smaller fills) when b touches r's
// part. It cannot tell when the rest's smallest square is neither m1 nor
// m2.
func (gb *GroupBound) afterPull(b, q, r, m1, m2 sokoban.Square) (sokoban.Square, bool) {
	var touched [5]bool
	others := sokoban.None // the smallest square of the other regions b touches
	for d := range sokoban.Dirs {
		x := gb.b.Next(b, d)
		if x < 0 || x == q || gb.mark[x] {
			continue
		}
		if !gb.tree.Has(x) {
			if o := gb.outside(x); others < 0 || o < others {
				others = o
			}
			continue
		}
		touched[gb.part(x, q)] = true
	}
	own := gb.part(r, q)
	parts := [5]bool{}
	parts[own] = true
	canon := sokoban.None
	if touched[own] {
		parts = touched
		canon = b
		if others >= 0 {
			canon = min(canon, others)
		}
	}
	for d, in := range parts[:4] {
		if in {
			c := gb.least[gb.b.Next(q, sokoban.Dir(d))]
			if canon < 0 || c < canon {
				canon = c
			}
		}
	}
	if parts[4] {
		rest := sokoban.None
		for _, c := range [2]sokoban.Square{m1, m2} {
			if c >= 0 && c != q && gb.part(c, q) == 4 {
				rest = c
				break
			}
		}
		if rest < 0 {
			return sokoban.None, false
		}
		if canon < 0 || rest < canon {
			canon = rest
		}
	}
	return canon, true
}

// outside returns the smallest square of the region of x, a free square
// outside the one articulate marked last, filling it (and keeping its
// label for the other pulls of the same state) the first time.
func (gb *GroupBound) outside(x sokoban.Square) sokoban.Square {
	if gb.outer.Has(x) {
		return gb.olabel[x]
	}
	least := gb.fill(x, gb.outer, gb.mark)
	for _, s := range gb.marked {
		gb.olabel[s] = least
	}
	return least
}

// part returns which part of the region articulate marked, without q,
// holds x, another square of it: the direction from q of the child of q
// whose subtree splits off and holds x, or 4 for the rest.
func (gb *GroupBound) part(x, q sokoban.Square) int {
	dq, dx := gb.disc[q], gb.disc[x]
	if dx <= dq || dx > gb.end[q] {
		return 4
	}
	for d := range sokoban.Dirs {
		c := gb.b.Next(q, d)
		if c < 0 || !gb.tree.Has(c) || gb.up[c] != q || gb.disc[c] <= dq {
			continue
		}
		if gb.disc[c] <= dx && dx <= gb.end[c] {
			if gb.low[c] >= dq {
				return int(d)
			}
			return 4
		}
	}
	return 4
}

// fits reports whether groups of k boxes get a table: their keys fit in
// distShift bits and the placements of k boxes do not exceed
// groupTableStates.
func (gb *GroupBound) fits(k int) bool {
	bitsPer := uint(bits.Len(uint(gb.b.N)))
	return k > 0 && k <= len(gb.goals) && uint(k+1)*bitsPer <= distShift && gb.placements(k) <= groupTableStates
}

// placements returns the number of ways of putting k boxes on the squares
// that are not walls or dead.
func (gb *GroupBound) placements(k int) float64 {
	n := 0
	for s := range gb.b.N {
		if !gb.wall[s] && !gb.dead[s] {
			n++
		}
	}
	ways := 1.0
	for i := range k {
		ways = ways * float64(n-i) / float64(i+1)
	}
	return ways
}

// grow adds the next layer to pd unless that takes it past limit states
// or the search must stop (the layer is then left incomplete), and reports
// whether it did. A layer that adds nothing makes the table full.
func (gb *GroupBound) grow(pd *groupPDB, limit int) bool {
	k := pd.k
	boxes := make([]sokoban.Square, k)
	work := make([]sokoban.Square, k)
	var next, kids []uint64
	d := uint8(min(pd.done+1, 255))
	for n, key := range pd.layer {
		if n%1024 == 0 && gb.Stop() {
			return false
		}
		canon := pd.unpack(key, boxes)
		for _, b := range boxes {
			gb.mark[b] = true
		}
		m1, m2 := gb.articulate(canon)
		gb.moves = gb.moves[:0]
		// A pull: the player next to a box steps away from it and
		// drags it along, onto the square the player left.
		for i, b := range boxes {
			for dir := range sokoban.Dirs {
				q := gb.b.Next(b, dir)
				if q < 0 || !gb.tree.Has(q) {
					continue
				}
				if r := gb.b.Next(q, dir); r >= 0 && !gb.mark[r] {
					gb.moves = append(gb.moves, subMove{i, q, r})
				}
			}
		}
		kids = kids[:0]
		for _, mv := range gb.moves {
			b := boxes[mv.box]
			child, ok := gb.afterPull(b, mv.to, mv.player, m1, m2)
			moveSorted(work, boxes, mv.box, mv.to)
			if !ok {
				for _, x := range boxes {
					gb.mark[x] = false
				}
				child = gb.reach(work, mv.player)
				for _, x := range boxes {
					gb.mark[x] = true
				}
			}
			kids = append(kids, pd.pack(work, child))
		}
		pd.touch(kids)
		for _, nk := range kids {
			if pd.insert(nk, d) {
				next = append(next, nk)
			}
		}
		for _, b := range boxes {
			gb.mark[b] = false
		}
		if pd.n > limit {
			return false
		}
	}
	if len(next) == 0 {
		pd.full = true
		return false
	}
	pd.layer = next
	pd.done++
	return true
}

// sortMembers sorts the boxes of p into gb.members[k], by group of family
// k, each group's squares in order (a position keeps its boxes in the
// order they were pushed), and returns it.
func (gb *GroupBound) sortMembers(p *sokoban.Position, k int) [][]sokoban.Square {
	f, members := gb.families[k], gb.members[k]
	for i := range members {
		members[i] = members[i][:0]
	}
	for _, s := range p.BoxSquares() {
		if a := gb.area[s]; a >= 0 && !gb.wall[s] {
			members[f[a]] = append(members[f[a]], s)
		}
	}
	for _, m := range members {
		slices.Sort(m)
	}
	return members
}
