package heuristic

import (
	"math/bits"
	"slices"

	"soko/sokoban"
)

// groupPDB holds the exact distances of the problems of k boxes alone
// (GroupBound.group's problems) for every state within some pushes of the
// goals, found by a breadth-first search backwards from every way of
// putting k boxes on the free goals with the player in any of the regions
// they leave, pulling one box a square at a time. A state is keyed by its
// sorted box squares and the player's canonical square, bits each.
//
// It keeps its own table, not a sokoban.Store: one uint64 a slot holds a
// state's key and its distance, and touch overlaps the cache misses of a
// state's children. BenchmarkGroupTable measures 25.8 bytes a state with
// the layer, where a Store of the keys alone takes 28.9, the distances
// still to be kept beside it.
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

// groupTables are the pattern databases of the groups' problems, one per
// number of boxes (groupPDB), built the first time a group of that many
// boxes is met, with the scratch of the pulls that grow them (grouppull.go).
type groupTables struct {
	*groupBoard
	// pdbs[k] is the table of groups of k boxes, once met; states is
	// what all of them hold, tableBytes their memory.
	pdbs       map[int]*groupPDB
	states     int
	tableBytes int64
	// mark marks the walls, and the boxes of the state grow works on. No
	// box is ever on a wall, so unmarking boxes leaves the walls marked.
	mark []bool
	// articulate's numbering of the player's region (cuts), and the
	// regions outside it that outside filled (outer, with their smallest
	// squares in olabel).
	cuts   sokoban.Cuts
	outer  sokoban.Marks
	olabel []sokoban.Square
	moves  []subMove

	// Stop, called while a table grows, reports whether the search that
	// owns the bound must stop; the table is then left incomplete. It
	// never stops unless set.
	Stop func() bool

	// Hits and Misses count the lookups of the tables.
	Hits, Misses int64
}

// groupStates bounds the states of all the tables together, and
// groupTableStates the ways of placing the boxes of one table (so about
// its states, one region per placement on average): a larger table is not
// built.
const (
	groupStates      = 1 << 23
	groupTableStates = 1 << 22
)

// newGroupTables returns the tables of bd's groups, none built yet.
func newGroupTables(bd *groupBoard) groupTables {
	n := bd.b.N
	return groupTables{groupBoard: bd, pdbs: map[int]*groupPDB{}, mark: slices.Clone(bd.wall),
		cuts: sokoban.NewCuts(n), outer: sokoban.NewMarks(n), olabel: make([]sokoban.Square, n),
		Stop: func() bool { return false }}
}

// table returns the table of k boxes, building it the first time, as far
// as the states left to the tables and the search's budget allow; nil
// where its keys do not fit in distShift bits or it would be too large.
func (gt *groupTables) table(k int) *groupPDB {
	if pd, ok := gt.pdbs[k]; ok {
		return pd
	}
	if !gt.fits(k) {
		gt.pdbs[k] = nil
		return nil
	}
	pd := &groupPDB{k: k, bits: uint(bits.Len(uint(gt.b.N)))}
	gt.pdbs[k] = pd
	boxes := make([]sokoban.Square, k)
	var put func(i, from int)
	put = func(i, from int) { // every k goals, sorted, with every region they leave
		if i == k {
			for s := sokoban.Square(0); int(s) < gt.b.N; s++ {
				if !gt.wall[s] && !slices.Contains(boxes, s) && gt.reach(boxes, s) == s {
					if pd.insert(pd.pack(boxes, s), 0) {
						pd.layer = append(pd.layer, pd.pack(boxes, s))
					}
				}
			}
			return
		}
		for j := from; j < len(gt.sorted); j++ {
			boxes[i] = gt.sorted[j]
			put(i+1, j+1)
		}
	}
	put(0, 0)
	for gt.states+pd.n <= groupStates && gt.grow(pd, groupStates-gt.states) {
	}
	gt.states += pd.n
	gt.tableBytes += pd.bytes()
	return pd
}

// fits reports whether groups of k boxes get a table: their keys fit in
// distShift bits and the placements of k boxes do not exceed
// groupTableStates.
func (gt *groupTables) fits(k int) bool {
	bitsPer := uint(bits.Len(uint(gt.b.N)))
	return k > 0 && k <= len(gt.goals) && uint(k+1)*bitsPer <= distShift && gt.placements(k) <= groupTableStates
}

// placements returns the number of ways of putting k boxes on the squares
// that are not walls or dead.
func (gt *groupTables) placements(k int) float64 {
	n := 0
	for s := range gt.b.N {
		if !gt.wall[s] && !gt.dead[s] {
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
func (gt *groupTables) grow(pd *groupPDB, limit int) bool {
	k := pd.k
	boxes := make([]sokoban.Square, k)
	work := make([]sokoban.Square, k)
	var next, kids []uint64
	d := uint8(min(pd.done+1, 255))
	for n, key := range pd.layer {
		if n%1024 == 0 && gt.Stop() {
			return false
		}
		canon := pd.unpack(key, boxes)
		for _, b := range boxes {
			gt.mark[b] = true
		}
		m1, m2 := gt.articulate(canon)
		gt.moves = gt.moves[:0]
		// A pull: the player next to a box steps away from it and
		// drags it along, onto the square the player left.
		for i, b := range boxes {
			for dir := range sokoban.Dirs {
				q := gt.b.Next(b, dir)
				if q < 0 || !gt.cuts.Visit.Has(q) {
					continue
				}
				if r := gt.b.Next(q, dir); r >= 0 && !gt.mark[r] {
					gt.moves = append(gt.moves, subMove{i, q, r})
				}
			}
		}
		kids = kids[:0]
		for _, mv := range gt.moves {
			b := boxes[mv.box]
			child, ok := gt.afterPull(b, mv.to, mv.player, m1, m2)
			moveSorted(work, boxes, mv.box, mv.to)
			if !ok {
				for _, x := range boxes {
					gt.mark[x] = false
				}
				child = gt.reach(work, mv.player)
				for _, x := range boxes {
					gt.mark[x] = true
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
			gt.mark[b] = false
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
