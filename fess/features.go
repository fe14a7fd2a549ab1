package fess

import (
	"slices"

	"soko/sokoban"
)

// features is a position's feature vector (the FESS paper's features for
// Sokoban, with Festival's hotspots; docs/fess.md): boxes packed along
// the plan, the number of player regions (connectivity), and as a last
// tie-break the pushes that take every box to its nearest goal.
type features struct {
	packed int16
	conn   int16
	oop    int16
	hot    int16 // boxes in another's way to an empty goal (hotspots)
	next   int16 // pushes the nearest free box needs to the plan's next goal
	dist   int32
}

// cellKey is the part of the features that names a cell.
type cellKey struct {
	packed, conn, oop, hot int16
}

func (f features) cell() cellKey { return cellKey{f.packed, f.conn, f.oop, f.hot} }

// better reports whether k is a better cell than o: more boxes packed, then
// fewer player regions, then fewer boxes out of plan, then fewer hotspots.
// (Festival leaves hotspots out of the cell; docs/measurements.md.)
func (k cellKey) better(o cellKey) bool {
	if k.packed != o.packed {
		return k.packed > o.packed
	}
	if k.conn != o.conn {
		return k.conn < o.conn
	}
	if k.oop != o.oop {
		return k.oop < o.oop
	}
	return k.hot < o.hot
}

// order ranks children within a cell, smaller first, in 48 bits: more
// packed, fewer regions, fewer out of plan, fewer hotspots, then less
// distance, or with farFirst more (Festival's forward ordering).
// (docs/measurements.md: next before distance.)
func (f features) order(farFirst bool) uint64 {
	packed := uint64(255 - min(max(f.packed, 0), 255))
	conn := uint64(min(max(f.conn, 0), 255))
	oop := uint64(min(max(f.oop, 0), 255))
	hot := uint64(min(max(f.hot, 0), 255))
	dist := uint64(min(max(f.dist, 0), 1<<16-1))
	if farFirst {
		dist = 1<<16 - 1 - dist
	}
	return packed<<40 | conn<<32 | oop<<24 | hot<<16 | dist
}

// featurer computes features. It keeps scratch space; use one per goroutine.
type featurer struct {
	b     *sokoban.Board
	plan  *plan
	near  []int32
	pulls [][]int32     // pull distances to each goal (Board.PullDistances)
	goal  [][]int32     // pull distances per plan step: goal[k] to order[k]
	hot   *hotspots     // nil: no table
	seen  sokoban.Marks // squares regions has reached
	stack []sokoban.Square
	// onGoals counts boxes on goals in any order as packed, with no
	// box out of plan: the goals strategy, for levels the plan misleads.
	onGoals bool
	// target, when set, replaces the goals for onGoals: the squares of
	// the imagined board (the imagine strategy), with targetDist the
	// pushes from each square to the nearest of them.
	target     []bool
	targetDist []int32
	// park, when set, replaces the plan for packed and out of plan: the
	// parking plan of the park strategy.
	park *parking
}

// newFeaturer returns a featurer for plan pl, with the pull distances of
// Board.PullDistances and their minimum over the goals, near.
func newFeaturer(b *sokoban.Board, pl *plan, dist [][]int32, near []int32) *featurer {
	f := &featurer{b: b, near: near, pulls: dist, seen: sokoban.NewMarks(b.N), stack: make([]sokoban.Square, 0, b.N)}
	if pl != nil {
		f.setPlan(pl)
	}
	return f
}

// setPlan makes pl the plan the features follow.
func (f *featurer) setPlan(pl *plan) {
	f.plan, f.goal = pl, f.goal[:0]
	for _, s := range pl.order {
		f.goal = append(f.goal, f.pulls[slices.Index(f.b.Goals(), s)])
	}
}

func (f *featurer) bytes() int64 { return 8 * int64(f.b.N) }

// of returns the features of p and its canonical player square (the
// smallest the player can walk to), which the same flood fill finds.
func (f *featurer) of(p *sokoban.Position) (features, sokoban.Square) {
	n, canon := f.regions(p)
	return f.with(p, n), canon
}

// with returns the features of p, which has regions areas of free squares.
func (f *featurer) with(p *sokoban.Position, regions int) features {
	return f.after(p, regions, f.hot.hotspots(p))
}

// child returns the features of p, a child of the position last given to
// prepare in which the box on from went to to, with regions areas of free
// squares.
func (f *featurer) child(p *sokoban.Position, regions int, from, to sokoban.Square) features {
	return f.after(p, regions, f.hot.after(p, from, to))
}

// prepare notes what the children of p share (hotspots.prepare).
func (f *featurer) prepare(p *sokoban.Position) { f.hot.prepare(p) }

// after returns the features of p given its regions and hotspots.
func (f *featurer) after(p *sokoban.Position, regions, hot int) features {
	var dist int32
	for _, s := range p.BoxSquares() {
		dist += min(f.near[s], 1<<16)
	}
	if f.target != nil {
		packed, dist := 0, int32(0)
		for _, s := range p.BoxSquares() {
			if f.target[s] {
				packed++
			}
			dist += min(f.targetDist[s], 1<<16)
		}
		return features{packed: int16(packed), conn: int16(regions), hot: int16(hot), dist: dist}
	}
	if f.onGoals {
		packed := 0
		for _, s := range p.BoxSquares() {
			if f.b.IsGoal(s) {
				packed++
			}
		}
		return features{packed: int16(packed), conn: int16(regions), hot: int16(hot), dist: dist}
	}
	if f.park != nil {
		packed := f.park.packed(p)
		return features{packed: int16(packed), conn: int16(regions), oop: int16(f.park.outOfPlan(p, packed)), hot: int16(hot), dist: dist}
	}
	packed := f.plan.packed(p)
	next := int32(0)
	if packed < len(f.goal) {
		row := f.goal[packed]
		next = sokoban.Unreachable
		for _, s := range p.BoxSquares() {
			if r := f.plan.rank[s]; r < 0 || int(r) >= packed {
				next = min(next, row[s])
			}
		}
	}
	return features{packed: int16(packed), conn: int16(regions), oop: int16(f.plan.outOfPlan(p, packed)), hot: int16(hot),
		next: int16(min(next, 1<<14)), dist: dist}
}

// regions counts the connected areas of free squares, and returns the
// smallest square of the player's: squares are taken in increasing order,
// so each area is entered first at its smallest square.
func (f *featurer) regions(p *sokoban.Position) (int, sokoban.Square) {
	f.seen.Clear()
	seen, b, n := f.seen, f.b, 0
	canon, player := sokoban.None, p.Player()
	for s := sokoban.Square(0); int(s) < b.N; s++ {
		if seen.Has(int32(s)) || p.HasBox(s) {
			continue
		}
		n++
		seen.Add(int32(s))
		stack := append(f.stack[:0], s)
		for len(stack) > 0 {
			t := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for d := range sokoban.Dirs {
				if c := b.Next(t, d); c != sokoban.None && !seen.Has(int32(c)) && !p.HasBox(c) {
					seen.Add(int32(c))
					stack = append(stack, c)
				}
			}
		}
		f.stack = stack
		if canon == sokoban.None && seen.Has(int32(player)) {
			canon = s
		}
	}
	return n, canon
}
