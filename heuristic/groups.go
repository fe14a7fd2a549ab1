package heuristic

import (
	"math/bits"
	"slices"

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
// group instead (groupSearch).
//
// Its parts, one file each: the problem the others work on (groupBoard),
// the set-up's sub-search (groupSearch), the tables (groupTables, growing
// by pulls in grouppull.go), and the cache of recent results (groupCache).
type GroupBound struct {
	*groupBoard
	// area[s] is the area of s, or -1 (walls, tunnel squares);
	// families[f][a] the group of area a in family f. The bound is the
	// largest of the families'.
	area     []int16
	families [][]int16

	groupCache  // recent results and regions (groupcache.go)
	groupTables // the groups' pattern databases (grouppdb.go)
	groupSearch // the set-up's sub-A* (groupsearch.go)

	// scratch
	members [][][]sokoban.Square // by family and group
	sink    uint64               // Bound's loads go here, so the compiler keeps them
	rest    []sokoban.Square
}

// groupEntry is the result of a group's problem: a lower bound on its
// pushes, and false in ok when it has no solution.
type groupEntry struct {
	pushes int32
	ok     bool
}

const (
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
	bd := newGroupBoard(start, dead, dist)
	gb := &GroupBound{groupBoard: bd, area: make([]int16, bd.b.N),
		groupCache:  groupCache{groupBoard: bd, bitsPer: uint(bits.Len(uint(bd.b.N)))},
		groupTables: newGroupTables(bd),
		groupSearch: groupSearch{groupBoard: bd, nodes: groupNodes}}
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
