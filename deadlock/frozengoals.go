package deadlock

import (
	"slices"

	"soko/sokoban"
)

// FrozenGoals finds boxes cut off by boxes frozen on goals (after the
// fixed boxes that Shoham's solver Festival turns into walls; see the
// README's References).
// A box frozen on its goal (Freeze.Frozen) never moves again, so it is a
// wall for every other box. A box that is not frozen on a goal and cannot
// be pushed alone onto any goal left free, with those walls, is a
// deadlock. The squares that can still reach a free goal are found by a
// breadth-first search backwards from the free goals over (box square,
// player square) states, pulling the box and walking the player, and are
// cached per set of frozen boxes. It keeps scratch space; use one per
// goroutine.
type FrozenGoals struct {
	b      *sokoban.Board
	freeze *Freeze
	cache  map[uint64][]bool // frozen set's hash -> squares that reach a free goal
	zKey   []uint64
	wall   []bool
	seen   []bool
	queue  []int32
	frozen []sokoban.Square

	// Fired counts positions called dead; Misses counts searches made.
	Fired, Misses uint64
}

// frozenCache bounds the frozen sets remembered.
const frozenCache = 4096

// NewFrozenGoals returns the detector for b with dead squares dead.
func NewFrozenGoals(b *sokoban.Board, dead []bool) *FrozenGoals {
	f := &FrozenGoals{b: b, freeze: NewFreeze(b, dead), cache: map[uint64][]bool{},
		zKey: make([]uint64, b.N), wall: make([]bool, b.N)}
	x := uint64(0x9e3779b97f4a7c15)
	for s := range f.zKey {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		f.zKey[s] = x
	}
	return f
}

// Bytes returns the memory the detector holds now, its cache included.
func (f *FrozenGoals) Bytes() int64 {
	n := int64(f.b.N)
	return n*(8+1) + int64(len(f.seen)) + 4*int64(cap(f.queue)) + int64(len(f.cache))*(n+48)
}

// Dead reports whether a box of p off the frozen boxes can no longer reach
// a free goal.
func (f *FrozenGoals) Dead(p *sokoban.Position) bool {
	f.frozen = f.frozen[:0]
	var key uint64
	for _, s := range p.BoxSquares() {
		if f.b.IsGoal(s) && f.freeze.Frozen(p, s) {
			f.frozen = append(f.frozen, s)
			key ^= f.zKey[s]
		}
	}
	if len(f.frozen) == 0 {
		return false
	}
	reach, ok := f.cache[key]
	if !ok {
		reach = f.search()
		if len(f.cache) >= frozenCache {
			clear(f.cache)
		}
		f.cache[key] = reach
	}
	for _, s := range p.BoxSquares() {
		if !reach[s] && !slices.Contains(f.frozen, s) {
			f.Fired++
			return true
		}
	}
	return false
}

// search finds the squares from which a lone box can be pushed onto a
// goal not in f.frozen, those standing as walls.
func (f *FrozenGoals) search() []bool {
	f.Misses++
	b, n := f.b, f.b.N
	for _, s := range f.frozen {
		f.wall[s] = true
	}
	defer func() {
		for _, s := range f.frozen {
			f.wall[s] = false
		}
	}()
	if f.seen == nil {
		f.seen = make([]bool, n*n)
	}
	clear(f.seen)
	q := f.queue[:0]
	visit := func(box, player sokoban.Square) {
		if st := int32(box)*int32(n) + int32(player); !f.seen[st] {
			f.seen[st] = true
			q = append(q, st)
		}
	}
	for _, g := range b.Goals() {
		if f.wall[g] {
			continue
		}
		for d := sokoban.Dir(0); d < 4; d++ {
			if pl := b.Next(g, d); pl != sokoban.None && !f.wall[pl] {
				visit(g, pl)
			}
		}
	}
	reach := make([]bool, n)
	for h := 0; h < len(q); h++ {
		box, pl := sokoban.Square(q[h]/int32(n)), sokoban.Square(q[h]%int32(n))
		reach[box] = true
		for d := sokoban.Dir(0); d < 4; d++ {
			next := b.Next(pl, d)
			if next == sokoban.None || f.wall[next] {
				continue
			}
			if next != box {
				visit(box, next) // walk
			}
			// Pull: the player stands on the d^1 side of the box, steps
			// away from it in direction d, and the box follows onto pl.
			if b.Next(pl, d^1) == box {
				visit(pl, next)
			}
		}
	}
	f.queue = q
	return reach
}
