package deadlock

import (
	"slices"

	"soko/sokoban"
)

// FrozenGoals finds positions that boxes frozen on goals have made
// unsolvable (after the fixed boxes that Shoham's solver Festival turns into
// walls, and its matching of boxes to targets with them; see the README's
// References). A box frozen on its goal (Freeze.Frozen) never moves again,
// so it is a wall for every other box. With those walls, each goal left
// free has the squares from which a lone box can still be pushed onto it;
// the position is dead when the boxes off the frozen ones cannot be matched
// one to one with the free goals that way (a free goal no box can reach,
// say, behind a row of frozen boxes). Each goal's squares are found by a
// breadth-first search backwards from it over (box square, player square)
// states, pulling the box and walking the player (pullReach), and are
// cached per set of frozen boxes (a sokoban.Store of the sets' squares, so
// two sets whose hashes collide stay apart). It keeps scratch space; use one per goroutine.
type FrozenGoals struct {
	b      *sokoban.Board
	freeze *Freeze
	cache  *sokoban.Store // the frozen sets met, as bitsets of their squares (setKey)
	sets   []*frozenSet   // by cache id
	bits   []byte         // setKey's scratch
	zKey   []uint64
	wall   []bool
	pull   *pullReach // over wall
	frozen []sokoban.Square
	movers []sokoban.Square
	key    uint64        // the hash of frozen
	split1 uint64        // the box hash of the position split last, 0: none
	match  []int32       // free goal index -> mover index, or -1
	tried  sokoban.Marks // goal indexes tried by one augmenting search
	// cacheBytes is the memory the sets in cache hold (Bytes).
	cacheBytes int64

	// Fired counts positions called dead; Misses counts searches made.
	Fired, Misses uint64
}

// frozenSet is what one set of frozen boxes leaves: the free goals, and
// for each the squares a lone box can be pushed onto it from.
type frozenSet struct {
	goals []sokoban.Square
	reach [][]bool
}

// frozenSeed seeds the keys of the frozen sets.
const frozenSeed = 0xf207e

// frozenCache bounds the frozen sets remembered.
const frozenCache = 4096

// NewFrozenGoals returns the detector for b with dead squares dead.
func NewFrozenGoals(b *sokoban.Board, dead []bool) *FrozenGoals {
	bits := make([]byte, (b.N+7)/8)
	f := &FrozenGoals{b: b, freeze: NewFreeze(b, dead), cache: sokoban.NewStore(len(bits)), bits: bits,
		zKey: sokoban.NewZobrist(b.N, frozenSeed, 0).Box, wall: make([]bool, b.N), tried: sokoban.NewMarks(len(b.Goals()))}
	f.pull = newPullReach(b, f.wall)
	return f
}

// Bytes returns the memory the detector holds now, its cache included.
func (f *FrozenGoals) Bytes() int64 {
	n := int64(f.b.N)
	return n*(8+1) + f.pull.bytes() + f.cache.Bytes() + f.cacheBytes
}

// setBytes returns the memory set holds, as Bytes counts it.
func (f *FrozenGoals) setBytes(set *frozenSet) int64 {
	return 48 + int64(len(set.goals))*(int64(f.b.N)+26)
}

// Dead reports whether the boxes of p off the frozen boxes can no longer
// be matched with the free goals.
func (f *FrozenGoals) Dead(p *sokoban.Position) bool {
	f.split(p)
	if len(f.frozen) == 0 {
		return false
	}
	if !f.matched(f.set(f.key)) {
		f.Fired++
		return true
	}
	return false
}

// split sorts the boxes of p into frozen ones on goals and movers, and
// keys the frozen set.
func (f *FrozenGoals) split(p *sokoban.Position) {
	f.frozen = f.frozen[:0]
	f.movers = f.movers[:0]
	f.key = 0
	for _, s := range p.BoxSquares() {
		if f.b.IsGoal(s) && f.freeze.Frozen(p, s) {
			f.frozen = append(f.frozen, s)
			f.key ^= f.zKey[s]
		} else {
			f.movers = append(f.movers, s)
		}
	}
	f.split1 = p.BoxHash()
}

// set returns what the boxes of f.frozen leave, with hash key, from the
// cache or searched.
func (f *FrozenGoals) set(key uint64) *frozenSet {
	k := f.setKey()
	if id, ok := f.cache.Find(k, key); ok {
		return f.sets[id]
	}
	set := f.search()
	if f.cache.Len() >= frozenCache {
		clear(f.sets)
		f.cache, f.sets, f.cacheBytes = sokoban.NewStore(len(k)), f.sets[:0], 0
	}
	f.cache.Intern(k, key)
	f.sets = append(f.sets, set)
	f.cacheBytes += f.setBytes(set)
	return set
}

// setKey returns the squares of f.frozen as a bitset, the cache's key.
func (f *FrozenGoals) setKey() []byte {
	clear(f.bits)
	for _, s := range f.frozen {
		f.bits[s>>3] |= 1 << (s & 7)
	}
	return f.bits
}

// MustLeave reports whether the box of p on goal s, not frozen, has to
// move again in every solution from p: if it stood still, it would be a
// wall like the frozen boxes, and with those walls the other boxes off the
// frozen ones cannot be matched with the goals left (as in Dead). A box
// that leaves its goal and ends on it again takes at least two pushes, so
// a lower bound may count them (PushMatching.Leave). Deadlocks are not
// reported here: call it on positions Dead does not call dead.
func (f *FrozenGoals) MustLeave(p *sokoban.Position, s sokoban.Square) bool {
	if f.split1 != p.BoxHash() || f.split1 == 0 {
		f.split(p)
	}
	if !f.b.IsGoal(s) || !p.HasBox(s) || slices.Contains(f.frozen, s) {
		return false
	}
	i := slices.Index(f.movers, s)
	f.movers[i] = f.movers[len(f.movers)-1]
	f.movers = f.movers[:len(f.movers)-1]
	f.frozen = append(f.frozen, s)
	ok := f.matched(f.set(f.key ^ f.zKey[s]))
	f.frozen = f.frozen[:len(f.frozen)-1]
	f.movers = append(f.movers, s)
	return !ok
}

// matched reports whether every box of f.movers can be given its own goal
// of set, by augmenting paths (Kuhn's algorithm; a few dozen boxes).
func (f *FrozenGoals) matched(set *frozenSet) bool {
	if len(f.movers) > len(set.goals) {
		return false
	}
	f.match = f.match[:0]
	for range set.goals {
		f.match = append(f.match, -1)
	}
	for i := range f.movers {
		f.tried.Clear()
		if !f.augment(set, int32(i)) {
			return false
		}
	}
	return true
}

// augment finds a goal for mover i, moving earlier movers to other goals.
// A free goal the mover reaches is taken first, without a search: most
// movers have one.
func (f *FrozenGoals) augment(set *frozenSet, i int32) bool {
	box := f.movers[i]
	for g := range set.goals {
		if f.match[g] < 0 && set.reach[g][box] {
			f.match[g] = i
			return true
		}
	}
	for g := range set.goals {
		if !set.reach[g][box] || f.tried.Has(int32(g)) {
			continue
		}
		f.tried.Add(int32(g))
		if f.match[g] < 0 || f.augment(set, f.match[g]) {
			f.match[g] = i
			return true
		}
	}
	return false
}

// search finds, for each goal not in f.frozen, the squares from which a
// lone box can be pushed onto it, the frozen boxes standing as walls.
func (f *FrozenGoals) search() *frozenSet {
	f.Misses++
	b := f.b
	for _, s := range f.frozen {
		f.wall[s] = true
	}
	defer func() {
		for _, s := range f.frozen {
			f.wall[s] = false
		}
	}()
	set := &frozenSet{}
	f.pull.prepare()
	for _, g := range b.Goals() {
		if !f.wall[g] {
			set.goals = append(set.goals, g)
			set.reach = append(set.reach, f.pull.from(g))
		}
	}
	return set
}
