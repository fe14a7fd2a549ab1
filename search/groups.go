package search

import (
	"encoding/binary"
	"slices"

	"soko/deadlock"
	"soko/heuristic"
	"soko/internal/bucketq"
	"soko/sokoban"
)

// groupBound is a second lower bound for astar, for levels whose boxes
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
// and the player where it is (found by a small A* of its own, see solve),
// plus the matching of the boxes in no group. That is admissible: in any
// solution, the pushes of a group's boxes, with the others' left out,
// solve the group's problem (a box taken off frees squares, it never
// blocks a walk or a push), and the boxes in no group each need at least
// their own distance to distinct goals. The groups' problems are cached
// by their boxes and the player's canonical square.
//
// Where the sub-searches run out of their budget they still give a lower
// bound (the largest f they took off their open list), so the bound stays
// admissible, only weaker; where one finds no solution at all the position
// has none either.
type groupBound struct {
	b    *sokoban.Board
	dead []bool
	// wall marks the boxes frozen on goals at the start.
	wall []bool
	// goals are the goals not under a wall; dist[j] their pull distances
	// (sokoban.Board.PullDistances rows; the walls only lengthen a lone
	// box's way, so they stay lower bounds).
	goals []sokoban.Square
	dist  [][]int32
	free  []bool // free[s]: s is one of goals
	// area[s] is the group of the boxes on s, or -1 (walls, tunnel squares).
	area   []int16
	groups int
	// nodes is each sub-search's budget of expansions.
	nodes int

	cache   map[string]groupEntry
	matcher *heuristic.Matcher
	cost    []int32

	// scratch
	members [][]sokoban.Square
	rest    []sokoban.Square
	key     []byte
	stamp   []uint32
	epoch   uint32
	stack   []sokoban.Square
	boxAt   []bool
	sub     subSearch
	moves   []subMove

	// Searches and Nodes count the sub-searches made and their expansions.
	Searches, Nodes int64
}

// groupEntry is a cached result of a group's problem: a lower bound on its
// pushes, and false in ok when it has no solution.
type groupEntry struct {
	pushes int32
	ok     bool
}

const (
	// groupNodes is the expansion budget of one sub-search.
	groupNodes = 20000
	// groupCache bounds the cached group problems; the cache is cleared
	// when it is full.
	groupCache = 1 << 20
	// groupEntryBytes is about what one cache entry costs.
	groupEntryBytes = 64
	// maxAreas bounds the areas for which pairs are tried.
	maxAreas = 16
	// maxFamilies bounds the families of groups compared at set-up.
	maxFamilies = 4096
)

// newGroupBound returns the group bound for the board of start with dead
// squares dead and pull distances dist (goal × square), or nil when it
// cannot beat the matching at start, bound h: when the tunnels cut the
// board into fewer than two areas with boxes, or when no choice of groups
// gives more than h.
func newGroupBound(start *sokoban.Position, dead []bool, dist [][]int32, h int32) *groupBound {
	b := start.Board()
	gb := &groupBound{b: b, dead: dead, wall: make([]bool, b.N), free: make([]bool, b.N),
		area: make([]int16, b.N), nodes: groupNodes, cache: map[string]groupEntry{},
		matcher: heuristic.NewMatcher(1), stamp: make([]uint32, b.N), boxAt: make([]bool, b.N)}
	freeze := deadlock.NewFreeze(b, dead)
	for _, s := range start.BoxSquares() {
		if b.IsGoal(s) && freeze.Frozen(start, s) {
			gb.wall[s] = true
		}
	}
	for j, s := range b.Goals() {
		if !gb.wall[s] {
			gb.goals = append(gb.goals, s)
			gb.dist = append(gb.dist, dist[j])
			gb.free[s] = true
		}
	}
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
	gb.area, gb.groups = best, 0
	for _, a := range best {
		gb.groups = max(gb.groups, int(a)+1)
	}
	gb.members = make([][]sokoban.Square, gb.groups)
	return gb
}

// cut splits the floor into areas at the tunnel squares, with the walls,
// and returns their number and the pairs of areas that tunnels join.
func (gb *groupBound) cut() (int, [][2]int16) {
	b := gb.b
	blocked := func(s sokoban.Square, d sokoban.Dir) bool {
		n := b.Next(s, d)
		return n < 0 || gb.wall[n]
	}
	tunnel := make([]bool, b.N)
	for s := sokoban.Square(0); int(s) < b.N; s++ {
		tunnel[s] = !gb.wall[s] && (blocked(s, 0) && blocked(s, 1) || blocked(s, 2) && blocked(s, 3))
	}
	for s := range gb.area {
		gb.area[s] = -1
	}
	areas := 0
	fill := func(from sokoban.Square, in func(sokoban.Square) bool, mark func(sokoban.Square)) {
		stack := []sokoban.Square{from}
		mark(from)
		for len(stack) > 0 {
			s := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for d := sokoban.Dir(0); d < 4; d++ {
				if n := b.Next(s, d); n >= 0 && in(n) {
					mark(n)
					stack = append(stack, n)
				}
			}
		}
	}
	for s := sokoban.Square(0); int(s) < b.N; s++ {
		if gb.wall[s] || tunnel[s] || gb.area[s] >= 0 {
			continue
		}
		a := int16(areas)
		areas++
		fill(s, func(n sokoban.Square) bool { return !gb.wall[n] && !tunnel[n] && gb.area[n] < 0 },
			func(n sokoban.Square) { gb.area[n] = a })
	}
	// Each run of tunnel squares joins the areas next to it.
	seen := make([]bool, b.N)
	var joins [][2]int16
	for s := sokoban.Square(0); int(s) < b.N; s++ {
		if !tunnel[s] || seen[s] {
			continue
		}
		var touched []int16
		fill(s, func(n sokoban.Square) bool {
			if a := gb.area[n]; a >= 0 && !slices.Contains(touched, a) {
				touched = append(touched, a)
			}
			return tunnel[n] && !seen[n]
		}, func(n sokoban.Square) { seen[n] = true })
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
func (gb *groupBound) choose(start *sokoban.Position, areas int, joins [][2]int16, boxes []int) ([]int16, int32) {
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
		e := gb.group(boxesOf(as...), player)
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
		best      []int16
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
				bestValue, best = sum, slices.Clone(group)
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
	// Number the groups 0.. and map squares to them; boxes in areas
	// without boxes at start still belong to those areas' groups.
	ids := map[int16]int16{}
	out := make([]int16, gb.b.N)
	for s, a := range gb.area {
		out[s] = -1
		if a < 0 {
			continue
		}
		g := best[a]
		if g < 0 {
			g = a
		}
		id, ok := ids[g]
		if !ok {
			id = int16(len(ids))
			ids[g] = id
		}
		out[s] = id
	}
	// The boxes in tunnels are matched at start by the family's rest.
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
	return out, bestValue + r
}

// groupInf is the bound of a group with no solution.
const groupInf = heuristic.Inf

// Bytes returns the memory the bound holds; none for a nil bound.
func (gb *groupBound) Bytes() int64 {
	if gb == nil {
		return 0
	}
	return int64(len(gb.cache))*groupEntryBytes + gb.sub.bytes() + int64(gb.b.N)*16
}

// bound returns the group bound of p, and false when a group of p has no
// solution.
func (gb *groupBound) bound(p *sokoban.Position) (int32, bool) {
	for i := range gb.members {
		gb.members[i] = gb.members[i][:0]
	}
	gb.rest = gb.rest[:0]
	for _, s := range p.BoxSquares() {
		switch a := gb.area[s]; {
		case gb.wall[s]:
		case a < 0:
			gb.rest = append(gb.rest, s)
		default:
			gb.members[a] = append(gb.members[a], s)
		}
	}
	total, ok := gb.match(gb.rest)
	if !ok {
		return 0, false
	}
	for _, m := range gb.members {
		if len(m) == 0 {
			continue
		}
		e := gb.group(m, p.Player())
		if !e.ok {
			return 0, false
		}
		total += e.pushes
	}
	return min(total, groupInf-1), true
}

// group returns the cached or searched result of the problem of boxes
// (sorted) alone with the player on player.
func (gb *groupBound) group(boxes []sokoban.Square, player sokoban.Square) groupEntry {
	canon := gb.reach(boxes, player)
	gb.key = packGroup(gb.key[:0], boxes, canon)
	if e, ok := gb.cache[string(gb.key)]; ok {
		return e
	}
	return gb.solve(boxes, canon)
}

// packGroup appends the key of sorted boxes with the player on canon.
func packGroup(dst []byte, boxes []sokoban.Square, canon sokoban.Square) []byte {
	for _, s := range boxes {
		dst = binary.LittleEndian.AppendUint16(dst, uint16(s))
	}
	return binary.LittleEndian.AppendUint16(dst, uint16(canon))
}

// reach marks the squares the player reaches from player with only boxes
// (and the walls) on the board, and returns the smallest of them.
func (gb *groupBound) reach(boxes []sokoban.Square, player sokoban.Square) sokoban.Square {
	for _, s := range boxes {
		gb.boxAt[s] = true
	}
	gb.epoch++
	e := gb.epoch
	gb.stamp[player] = e
	canon := player
	stack := append(gb.stack[:0], player)
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for d := sokoban.Dir(0); d < 4; d++ {
			n := gb.b.Next(s, d)
			if n < 0 || gb.stamp[n] == e || gb.wall[n] || gb.boxAt[n] {
				continue
			}
			gb.stamp[n] = e
			canon = min(canon, n)
			stack = append(stack, n)
		}
	}
	gb.stack = stack
	for _, s := range boxes {
		gb.boxAt[s] = false
	}
	return canon
}

// match returns the least total of distances from boxes to distinct free
// goals, and false when there is no such assignment.
func (gb *groupBound) match(boxes []sokoban.Square) (int32, bool) {
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

// subSearch is the scratch of groupBound.solve: the states of one A* over
// the pushes of a group's boxes alone, k boxes each.
type subSearch struct {
	index  map[string]uint32
	boxes  []sokoban.Square // k per state
	player []sokoban.Square // canonical
	g, h   []int32
	prio   []int32
	parent []uint32
	open   bucketq.Queue
}

func (s *subSearch) bytes() int64 {
	return int64(cap(s.boxes))*2 + int64(cap(s.g))*16 + int64(len(s.index))*48 + s.open.Bytes()
}

// solve finds the fewest pushes that put boxes (sorted) on free goals,
// alone on the board with the walls, the player on canon (a canonical
// square), by A* on the match bound with reopening, within gb.nodes
// expansions. Every state on the solution found is cached with its exact
// distance. Out of budget, it returns the largest f it expanded, a lower
// bound: the open list always holds a state of an optimal solution reached
// by an optimal path, whose f is at most the optimum.
func (gb *groupBound) solve(boxes []sokoban.Square, canon sokoban.Square) groupEntry {
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
	s.boxes, s.player, s.g, s.h, s.prio, s.parent = s.boxes[:0], s.player[:0], s.g[:0], s.h[:0], s.prio[:0], s.parent[:0]
	s.open.Reset()
	add := func(bx []sokoban.Square, pl sokoban.Square, g, h int32, parent uint32) {
		gb.key = packGroup(gb.key[:0], bx, pl)
		if id, ok := s.index[string(gb.key)]; ok {
			if g < s.g[id] {
				s.g[id], s.prio[id], s.parent[id] = g, g+h, parent
				s.open.Push(int(g+h), int(h), id)
			}
			return
		}
		id := uint32(len(s.g))
		s.index[string(gb.key)] = id
		s.boxes = append(s.boxes, bx...)
		s.player = append(s.player, pl)
		s.g, s.h, s.prio, s.parent = append(s.g, g), append(s.h, h), append(s.prio, g+h), append(s.parent, parent)
		s.open.Push(int(g+h), int(h), id)
	}
	add(boxes, canon, 0, h0, noParent)
	bound := h0
	work := make([]sokoban.Square, k)
	for expanded := 0; ; {
		id, f, ok := s.open.Pop()
		if !ok {
			gb.remember(k, groupEntry{}) // no solution
			return groupEntry{}
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
			e := groupEntry{pushes: bound, ok: true}
			gb.remember(k, e)
			return e
		}
		expanded++
		gb.Nodes++
		gb.reach(bx, s.player[id])
		e := gb.epoch
		moves := gb.moves[:0]
		for i, box := range bx {
			for d := sokoban.Dir(0); d < 4; d++ {
				behind, front := gb.b.Next(box, d^1), gb.b.Next(box, d)
				if behind >= 0 && front >= 0 && gb.stamp[behind] == e && !gb.wall[front] && !gb.dead[front] && !slices.Contains(bx, front) {
					moves = append(moves, subMove{i, front})
				}
			}
		}
		gb.moves = moves
		for _, mv := range moves {
			copy(work, bx)
			work[mv.box] = mv.to
			slices.Sort(work)
			h, ok := gb.match(work)
			if !ok {
				continue
			}
			add(work, gb.reach(work, bx[mv.box]), s.g[id]+1, h, id)
			bx = s.boxes[int(id)*k : int(id)*k+k] // add may have moved the states
		}
	}
}

// subMove is a push of a sub-search: box index and the square it goes to.
type subMove struct {
	box int
	to  sokoban.Square
}

// onGoals reports whether every box stands on a free goal.
func (gb *groupBound) onGoals(boxes []sokoban.Square) bool {
	for _, s := range boxes {
		if !gb.free[s] {
			return false
		}
	}
	return true
}

// remember caches a lower bound for every state the sub-search stored,
// given e, its result for its first state: none has a solution when that
// one has none; else a state that a path of g pushes reaches from it needs
// at least e.pushes − g pushes (more would give the first a shorter
// solution, or a higher bound than it has), and at least its own bound h.
// That is exact on the solution found.
func (gb *groupBound) remember(k int, e groupEntry) {
	s := &gb.sub
	if len(gb.cache)+len(s.g) > groupCache {
		clear(gb.cache)
	}
	for id := range s.g {
		gb.key = packGroup(gb.key[:0], s.boxes[id*k:id*k+k], s.player[id])
		x := e
		if e.ok {
			x.pushes = max(s.h[id], e.pushes-s.g[id])
		}
		if old, ok := gb.cache[string(gb.key)]; ok && (!old.ok || x.ok && old.pushes > x.pushes) {
			x = old
		}
		gb.cache[string(gb.key)] = x
	}
}
