package deadlock

import (
	"encoding/binary"
	"slices"

	"soko/sokoban"
)

// Patterns holds deadlock patterns learned during a search, after the
// patterns Festival learns from subtrees that grow without progress (the
// FESS paper, README References; docs/fess.md).
//
// Learn looks in a position for a few boxes that, alone on the board with
// the player where he stands, can never all be put on goals. It starts from
// the boxes that are not loose (a loose box has free squares on both sides
// across and both sides along, so a deadlock seldom holds it), asks the
// relaxed search of Corrals whether they can be solved, and when they
// cannot, drops boxes one at a time while the rest still cannot. The
// pattern is the boxes left and the area of squares the player can walk to
// among them. Any later position that holds every box of a pattern, with
// the player in its area, is dead for the reason corrals are (see
// Corrals): its solutions, restricted to the pattern's boxes, would be
// legal push sequences of the relaxed position, whose player only walks
// more freely, ending with those boxes on goals. A relaxed search that runs
// out of budget proves nothing, so nothing solvable is ever called dead.
//
// Patterns is not safe for concurrent use; it shares the scratch space of
// the Corrals it is given.
type Patterns struct {
	b *sokoban.Board
	c *Corrals

	// MaxBoxes bounds the boxes of a relaxed search (more are not tried),
	// Budget its states, MaxPatterns the patterns kept.
	MaxBoxes, Budget, MaxPatterns int

	list   []pattern
	anchor [][]int32 // square -> the patterns whose first box is on it
	words  int

	// Tried counts calls of Learn that ran a relaxed search; Learned the
	// patterns found; Seeded the deadlock sets Seed added.
	Tried, Learned, Seeded uint64

	set, trial []sokoban.Square

	// known holds the relaxed searches' answers by problem (the boxes, the
	// player's square and the budget; key is scratch for it): learning
	// meets the same few boxes in the same place again and again, in the
	// subtrees of one stuck region, and the answer is the same search's.
	// It is emptied when it reaches knownMax problems; knownBytes counts
	// its keys.
	known      map[string]bool
	knownBytes int64
	key        []byte
}

// knownMax bounds the problems Patterns remembers the answers of: some
// 3 MiB, more than the some 12,000 searches a strategy makes in 10 s
// where learning is busiest.
const knownMax = 1 << 15

// knownEntry is what Bytes counts for each remembered answer besides its
// key: the map's share of an entry.
const knownEntry = 48

// pattern is a learned deadlock: every box on boxes (sorted) and the player
// on one of the squares of region.
type pattern struct {
	boxes  []sokoban.Square
	region []uint64
}

// NewPatterns returns an empty pattern store for b whose relaxed searches
// run on c.
func NewPatterns(b *sokoban.Board, c *Corrals) *Patterns {
	return &Patterns{b: b, c: c, MaxBoxes: 20, Budget: 500, MaxPatterns: 500,
		anchor: make([][]int32, b.N), words: (b.N + 63) / 64, known: map[string]bool{}}
}

// Len returns the number of patterns learned.
func (pt *Patterns) Len() int { return len(pt.list) }

// Bytes returns the memory the patterns take.
func (pt *Patterns) Bytes() int64 {
	n := 24 * int64(pt.b.N)
	for _, q := range pt.list {
		n += 48 + 2*int64(len(q.boxes)) + 8*int64(len(q.region)) + 4
	}
	return n + pt.knownBytes + knownEntry*int64(len(pt.known))
}

// Match reports whether p holds a learned pattern: all of its boxes, and
// the player in its area.
func (pt *Patterns) Match(p *sokoban.Position) bool {
	if len(pt.list) == 0 {
		return false
	}
	pl := p.Player()
	for _, s := range p.BoxSquares() {
		for _, i := range pt.anchor[s] {
			q := &pt.list[i]
			if q.region[pl/64]&(1<<(pl%64)) == 0 {
				continue
			}
			all := true
			for _, t := range q.boxes[1:] {
				if !p.HasBox(t) {
					all = false
					break
				}
			}
			if all {
				return true
			}
		}
	}
	return false
}

// Learn looks for a deadlock pattern in p and keeps it. It reports whether
// it found one, which proves p dead.
func (pt *Patterns) Learn(p *sokoban.Position) bool {
	if len(pt.list) >= pt.MaxPatterns {
		return false
	}
	set := pt.set[:0]
	for _, s := range p.BoxSquares() {
		if !pt.loose(p, s) {
			set = append(set, s)
		}
	}
	pt.set = set
	if len(set) == 0 || len(set) > pt.MaxBoxes {
		return false
	}
	slices.Sort(set)
	pt.Tried++
	player := p.Player()
	if set = pt.deadGroup(set, player); set == nil {
		return false
	}
	for i := 0; i < len(set) && len(set) > 1; {
		trial := append(append(pt.trial[:0], set[:i]...), set[i+1:]...)
		pt.trial = trial
		if pt.dead(trial, player) {
			set = append(set[:0], trial...)
			continue
		}
		i++
	}
	pt.keep(slices.Clone(set), pt.region(set, player))
	pt.Learned++
	return true
}

// deadGroup returns the first group of boxes (sorted) that the relaxed
// search proves dead, then boxes themselves if it proves them dead, or
// nil. A group is the boxes linked by chains of boxes at most one square
// apart (groups), tried only when there are two or more. A stuck
// cluster of a few boxes far from the rest is proved in a few states alone,
// where among all the boxes, a packed goal area's among them, the search
// runs out of its budget.
func (pt *Patterns) deadGroup(boxes []sokoban.Square, player sokoban.Square) []sokoban.Square {
	if groups := pt.groups(boxes); len(groups) > 1 {
		for _, g := range groups {
			if len(g) > 1 && pt.dead(g, player) {
				return g
			}
		}
	}
	if pt.dead(boxes, player) {
		return boxes
	}
	return nil
}

// groups splits boxes (sorted) into groups: two boxes at most one square
// apart across, along or diagonally are in the same group. Each group is
// sorted; a new slice holds each.
func (pt *Patterns) groups(boxes []sokoban.Square) [][]sokoban.Square {
	near := func(s, t sokoban.Square) bool {
		sx, sy := pt.b.XY(s)
		tx, ty := pt.b.XY(t)
		return max(abs(sx-tx), abs(sy-ty)) <= 2
	}
	group := make([]int, len(boxes)) // box index -> group, -1 not yet
	for i := range group {
		group[i] = -1
	}
	var groups [][]sokoban.Square
	var stack []int
	for i := range boxes {
		if group[i] >= 0 {
			continue
		}
		g := len(groups)
		group[i] = g
		members := []sokoban.Square{}
		stack = append(stack[:0], i)
		for len(stack) > 0 {
			j := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			members = append(members, boxes[j])
			for k := range boxes {
				if group[k] < 0 && near(boxes[j], boxes[k]) {
					group[k] = g
					stack = append(stack, k)
				}
			}
		}
		slices.Sort(members)
		groups = append(groups, members)
	}
	return groups
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// region returns the area of squares the player on player can walk to
// with only boxes on the board, as a bit set.
func (pt *Patterns) region(boxes []sokoban.Square, player sokoban.Square) []uint64 {
	c := pt.c
	c.place(boxes)
	c.reachFrom(player)
	region := make([]uint64, pt.words)
	for s := range pt.b.N {
		if c.g.has(c.reach, sokoban.Square(s)) {
			region[s/64] |= 1 << (s % 64)
		}
	}
	c.lift(boxes)
	return region
}

// keep adds the pattern of boxes (sorted) with the player in region.
func (pt *Patterns) keep(boxes []sokoban.Square, region []uint64) {
	pt.anchor[boxes[0]] = append(pt.anchor[boxes[0]], int32(len(pt.list)))
	pt.list = append(pt.list, pattern{boxes: boxes, region: region})
}

// loose reports whether the box on s has free squares (no wall, no box) on
// all four sides.
func (pt *Patterns) loose(p *sokoban.Position, s sokoban.Square) bool {
	for d := range sokoban.Dirs {
		if n := pt.b.Next(s, d); n == sokoban.None || p.HasBox(n) {
			return false
		}
	}
	return true
}

// dead reports whether the relaxed position with only boxes (sorted) and
// the player on player is proved unsolvable within the budget (Budget).
func (pt *Patterns) dead(boxes []sokoban.Square, player sokoban.Square) bool {
	pt.key = pt.key[:0]
	for _, s := range boxes {
		pt.key = binary.AppendUvarint(pt.key, uint64(s))
	}
	pt.key = binary.AppendUvarint(pt.key, uint64(player))
	pt.key = binary.AppendUvarint(pt.key, uint64(pt.Budget))
	if d, ok := pt.known[string(pt.key)]; ok {
		return d
	}
	solvable, open := pt.c.relaxedSolvable(boxes, player, pt.Budget, true, false)
	d := !solvable && !open
	if len(pt.known) >= knownMax {
		clear(pt.known)
		pt.knownBytes = 0
	}
	pt.known[string(pt.key)] = d
	pt.knownBytes += int64(len(pt.key))
	return d
}

// Seed adds deadlock sets before any search, as YASS computes its deadlock
// sets at set-up (docs/fess.md, Diagnosis): every two boxes on
// squares next to each other, across or diagonally, neither on a dead
// square and at least one beside a wall, with the player in each area of
// the squares the two leave him, that the relaxed search proves can never
// both be freed or put on goals. Each is a pattern as Learn keeps one, and
// the store's room for learned patterns is not spent on them. stop, asked
// between pairs, ends the seeding early. Seed returns the patterns added.
func (pt *Patterns) Seed(dead []bool, stop func() bool) int {
	b := pt.b
	walled := func(s sokoban.Square) bool {
		for d := range sokoban.Dirs {
			if b.Next(s, d) == sokoban.None {
				return true
			}
		}
		return false
	}
	added := 0
	covered := make([]bool, b.N)
pairs:
	for s := sokoban.Square(0); int(s) < b.N; s++ {
		if dead[s] {
			continue
		}
		x, y := b.XY(s)
		for _, t := range [4]sokoban.Square{b.At(x+1, y), b.At(x-1, y+1), b.At(x, y+1), b.At(x+1, y+1)} {
			if t == sokoban.None || dead[t] || !walled(s) && !walled(t) {
				continue
			}
			if stop != nil && stop() {
				break pairs
			}
			set := []sokoban.Square{min(s, t), max(s, t)}
			clear(covered)
			for q := sokoban.Square(0); int(q) < b.N; q++ {
				if covered[q] || q == s || q == t {
					continue
				}
				region := pt.region(set, q)
				for r := range b.N {
					covered[r] = covered[r] || region[r/64]&(1<<(r%64)) != 0
				}
				if pt.dead(set, q) {
					pt.keep(set, region)
					added++
				}
			}
		}
	}
	pt.MaxPatterns += added
	pt.Seeded += uint64(added)
	return added
}
