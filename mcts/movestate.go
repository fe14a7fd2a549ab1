package mcts

import (
	"soko/level"
	"soko/sokoban"
)

// The single-move game's state is a sokoban.Position: the boxes and the
// exact player square (at this level two player squares are two states),
// identified by Position.HashExact.

// step moves the player of p in direction d, which must be legal, and
// reports whether it pushed a box.
func step(p *sokoban.Position, d level.Dir) (pushed bool) {
	to, push, _ := p.Step(d)
	if push {
		p.Apply(sokoban.Push{Box: to, Dir: d})
	} else {
		p.SetPlayer(to)
	}
	return push
}

// legal appends the directions the player of p can step in to dst: onto
// free floor, or pushing a box onto free floor.
func legal(p *sokoban.Position, dst []level.Dir) []level.Dir {
	for d := range level.Dirs {
		if _, _, ok := p.Step(d); ok {
			dst = append(dst, d)
		}
	}
	return dst
}

// covered returns the share of goals covered by boxes in p.
func covered(p *sokoban.Position) float64 {
	return float64(p.OnGoal()) / float64(len(p.BoxSquares()))
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
