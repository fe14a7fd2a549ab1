package mcts

import (
	"math/rand/v2"

	"soko/level"
	"soko/sokoban"
)

// moveBoard holds the static tables of the single-move Sokoban of 002: the
// sokoban.Board's square indexing and neighbours, and Zobrist keys for the
// boxes and the exact player square (not the canonical one: at this level
// two player squares are two states).
type moveBoard struct {
	b           *sokoban.Board
	zBox        []uint64
	zPlayer     []uint64
	startBoxes  []sokoban.Square
	startPlayer sokoban.Square
}

// moveZobristSeed fixes the keys, so that hashes are reproducible.
const moveZobristSeed = 0x2002ca5e

func newMoveBoard(b *sokoban.Board) *moveBoard {
	mb := &moveBoard{b: b, zBox: make([]uint64, b.N), zPlayer: make([]uint64, b.N)}
	rng := rand.New(rand.NewPCG(moveZobristSeed, uint64(b.N)))
	for s := range mb.zBox {
		mb.zBox[s] = rng.Uint64()
		mb.zPlayer[s] = rng.Uint64()
	}
	p := b.Start()
	mb.startBoxes = append([]sokoban.Square(nil), p.BoxSquares()...)
	mb.startPlayer = p.Player()
	return mb
}

// bytes returns the memory the board's tables take, with the game's three
// working positions.
func (mb *moveBoard) bytes() int64 {
	return mb.b.Bytes() + int64(mb.b.N)*(8+8+3)
}

// movePos is a state of the single-move game: the box squares, the exact
// player square, the Zobrist hash of both, and the number of boxes on goals.
//
// Invariant: box[s] is true exactly for the box squares; hash is the XOR of
// zBox over them and zPlayer[player]; onGoal counts boxes on goals.
type movePos struct {
	mb     *moveBoard
	box    []bool
	player sokoban.Square
	hash   uint64
	onGoal int
}

func (mb *moveBoard) start() *movePos {
	p := &movePos{mb: mb, box: make([]bool, mb.b.N), player: mb.startPlayer}
	for _, s := range mb.startBoxes {
		p.box[s] = true
		p.hash ^= mb.zBox[s]
		if mb.b.IsGoal(s) {
			p.onGoal++
		}
	}
	p.hash ^= mb.zPlayer[p.player]
	return p
}

// set copies q into p.
func (p *movePos) set(q *movePos) {
	copy(p.box, q.box)
	p.player, p.hash, p.onGoal = q.player, q.hash, q.onGoal
}

// solved reports whether every box is on a goal.
func (p *movePos) solved() bool { return p.onGoal == len(p.mb.startBoxes) }

// canStep reports whether the player can move in direction d: onto free
// floor, or pushing a box onto free floor.
func (p *movePos) canStep(d level.Dir) bool {
	b := p.mb.b
	t := b.Next(p.player, d)
	if t < 0 {
		return false
	}
	if !p.box[t] {
		return true
	}
	u := b.Next(t, d)
	return u >= 0 && !p.box[u]
}

// step moves the player in direction d, which must be legal, and reports
// whether it pushed a box.
func (p *movePos) step(d level.Dir) (pushed bool) {
	mb := p.mb
	t := mb.b.Next(p.player, d)
	if p.box[t] {
		u := mb.b.Next(t, d)
		p.box[t], p.box[u] = false, true
		p.hash ^= mb.zBox[t] ^ mb.zBox[u]
		if mb.b.IsGoal(t) {
			p.onGoal--
		}
		if mb.b.IsGoal(u) {
			p.onGoal++
		}
		pushed = true
	}
	p.hash ^= mb.zPlayer[p.player] ^ mb.zPlayer[t]
	p.player = t
	return pushed
}

// legal appends the legal directions to dst.
func (p *movePos) legal(dst []level.Dir) []level.Dir {
	for d := range level.Dirs {
		if p.canStep(d) {
			dst = append(dst, d)
		}
	}
	return dst
}

// hashSet is a set of 64-bit state hashes: open addressing over one flat
// slice, no per-entry allocation. 0 marks an empty slot, so the hash 0 is
// stored as 1 (one more state in 2^64 shares a key).
type hashSet struct {
	keys []uint64
	n    int
}

// newHashSet returns an empty set with room for about 3/4·size hashes before
// it grows; size must be a power of two.
func newHashSet(size int) *hashSet { return &hashSet{keys: make([]uint64, size)} }

func (s *hashSet) slot(h uint64) (uint64, int) {
	if h == 0 {
		h = 1
	}
	mask := len(s.keys) - 1
	i := int(h*0x9e3779b97f4a7c15>>32) & mask
	for s.keys[i] != 0 && s.keys[i] != h {
		i = (i + 1) & mask
	}
	return h, i
}

// has reports whether h is in the set.
func (s *hashSet) has(h uint64) bool {
	_, i := s.slot(h)
	return s.keys[i] != 0
}

// add inserts h and reports whether it was new.
func (s *hashSet) add(h uint64) bool {
	h, i := s.slot(h)
	if s.keys[i] != 0 {
		return false
	}
	s.keys[i] = h
	s.n++
	if 4*s.n > 3*len(s.keys) {
		old := s.keys
		s.keys = make([]uint64, 2*len(old))
		for _, k := range old {
			if k != 0 {
				_, j := s.slot(k)
				s.keys[j] = k
			}
		}
	}
	return true
}

func (s *hashSet) len() int     { return s.n }
func (s *hashSet) bytes() int64 { return 8 * int64(cap(s.keys)) }

// covered returns the share of goals covered by boxes.
func (p *movePos) covered() float64 { return float64(p.onGoal) / float64(len(p.mb.startBoxes)) }
