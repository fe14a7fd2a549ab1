package sokoban

import "slices"

// Region is the player's region of one position (the squares the player
// walks to without pushing) with what it takes to find the canonical player
// square of each position one push away without a flood fill: the
// region's depth-first numbering (Cuts: low points and the smallest square
// of each subtree, that is, the articulation points of Hopcroft and Tarjan
// 1973), computed once per position instead of one fill per child.
//
// After a push the box leaves s for t and the player stands on s (or, after
// several pushes in a line, between s and t, all free). The new
// region is s, the parts of the old region minus t that touch s, and any
// area outside the old region that touches s. If t was outside the region,
// the old region is intact and touches s through the square behind it. If
// t was inside, its removal splits the region into the subtrees of the
// children c of t with low(c) ≥ num(t), and the rest (Cuts.Part); each
// part that has a square next to s joins. Each part's smallest square is
// known: a subtree's is kept per square, the rest's is the region's
// smallest (or second smallest) unless that lies in t or a split-off
// subtree. An area outside the old region that touches s is filled on its
// own (outside), most often a corral a few squares wide. After reports
// when it cannot answer this way (the rest's smallest square is not
// known), and the caller falls back to a flood fill.
type Region struct {
	b    *Board
	cuts Cuts // the numbering of the region; cuts.Visit holds its squares
	// box marks the boxes of the position numbered last, boxes lists them.
	box   []bool
	boxes []Square
	// min1 < min2 are the region's two smallest squares (min2 None if
	// it has one square).
	min1, min2 Square
	size       int
	// seen and stack are the scratch of outside's fills.
	seen  Marks
	stack []Square
}

// NewRegion returns a Region for positions on b.
func NewRegion(b *Board) *Region {
	return &Region{b: b, cuts: NewCuts(b.N), box: make([]bool, b.N), seen: NewMarks(b.N), stack: make([]Square, 0, b.N)}
}

// Bytes returns the memory the Region takes.
func (r *Region) Bytes() int64 { return int64(r.b.N) * (CutsBytes + 1 + 4 + 4 + 4) }

// Of computes the region of position p. It is p's reachability too: p.Reach
// and what relies on it need no flood fill of their own afterwards.
func (r *Region) Of(p *Position) {
	for _, s := range r.boxes {
		r.box[s] = false
	}
	r.boxes = append(r.boxes[:0], p.boxes...)
	for _, s := range r.boxes {
		r.box[s] = true
	}
	c := &r.cuts
	c.Visit.Clear()
	c.Met = c.Met[:0]
	r.size = int(c.Number(r.b, r.box, p.player, 0, 0))
	p.reach.Clear()
	min1, min2 := p.player, None
	for _, w := range c.Met {
		p.reach.Add(w)
		if w < min1 {
			min1, min2 = w, min1
		} else if w != min1 && (min2 < 0 || w < min2) {
			min2 = w
		}
	}
	r.min1, r.min2 = min1, min2
	p.canon, p.fresh = min1, true
}

// Size returns the number of squares in the region. When it is the number
// of free squares, the player reaches all of them: there is no corral.
func (r *Region) Size() int { return r.size }

// Has reports whether s is in the region.
func (r *Region) Has(s Square) bool { return r.cuts.Visit.Has(s) }

// After returns the canonical player square of position p, or false if it
// cannot tell without a flood fill. Position p must be the position given
// to Of with the box on s pushed on to t, one square or more in a line, so
// that the player stands on s or on a free square between s and t.
func (r *Region) After(p *Position, s, t Square) (Square, bool) {
	canon := min(s, r.outside(p, s))
	tIn := r.Has(t)
	var parts [4]Square // the parts of the region without t next to s (Cuts.Part's keys)
	n := 0
	for _, x := range r.b.next[s] {
		if x < 0 || x == t || p.boxAt[x] >= 0 || !r.Has(x) {
			continue
		}
		if tIn {
			if k := r.cuts.Part(r.b, t, x); !slices.Contains(parts[:n], k) {
				parts[n], n = k, n+1
			}
		}
	}
	if !tIn {
		return min(canon, r.min1), true
	}
	for _, k := range parts[:n] {
		least, ok := r.partLeast(t, k)
		if !ok {
			return None, false
		}
		canon = min(canon, least)
	}
	return canon, true
}

// AfterPull is After for a pull: position p must be the position given to
// Of with the box on s pulled one square on to t, the player standing on
// the square beyond t. The new region is the part of the old region
// without t that holds the player and, when s touches that part, s and
// whatever else touches s.
func (r *Region) AfterPull(p *Position, s, t Square) (Square, bool) {
	home := r.cuts.Part(r.b, t, p.player)
	var parts [4]Square // the parts of the region without t next to s
	n, joined := 0, false
	for _, x := range r.b.next[s] {
		if x < 0 || x == t || p.boxAt[x] >= 0 || !r.Has(x) {
			continue
		}
		k := r.cuts.Part(r.b, t, x)
		joined = joined || k == home
		if !slices.Contains(parts[:n], k) {
			parts[n], n = k, n+1
		}
	}
	if !joined {
		return r.partLeast(t, home)
	}
	canon := min(s, r.outside(p, s))
	for _, k := range parts[:n] {
		least, ok := r.partLeast(t, k)
		if !ok {
			return None, false
		}
		canon = min(canon, least)
	}
	return canon, true
}

// outside returns the smallest square of the areas outside the region
// that touch s, free in p (s the square a box left), or b.N when none
// does. Such an area holds no square of the region: it touched the
// region only through s, where the box stood, which the fills leave out.
func (r *Region) outside(p *Position, s Square) Square {
	least := Square(r.b.N)
	started := false
	for _, x := range r.b.next[s] {
		if x < 0 || p.boxAt[x] >= 0 || r.Has(x) {
			continue
		}
		if !started {
			r.seen.Clear()
			r.seen.Add(s)
			started = true
		}
		if r.seen.Has(x) {
			continue
		}
		r.seen.Add(x)
		stack := append(r.stack[:0], x)
		for len(stack) > 0 {
			q := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			least = min(least, q)
			for _, y := range r.b.next[q] {
				if y >= 0 && p.boxAt[y] < 0 && !r.seen.Has(y) {
					r.seen.Add(y)
					stack = append(stack, y)
				}
			}
		}
		r.stack = stack
	}
	return least
}

// partLeast returns the smallest square of part k of the region without t
// (Cuts.Part's key), when it is known.
func (r *Region) partLeast(t, k Square) (Square, bool) {
	if k != None {
		return r.cuts.SubMin[k], true
	}
	return r.restLeast(t)
}

// restLeast returns the smallest square of the region without t and the
// subtrees that split off with it, when it is one of the region's two
// smallest squares.
func (r *Region) restLeast(t Square) (Square, bool) {
	for _, c := range [2]Square{r.min1, r.min2} {
		if c >= 0 && c != t && r.cuts.Part(r.b, t, c) == None {
			return c, true
		}
	}
	return None, false
}

// PackAt is Pack with player given as the canonical player square, which
// the caller knows (Region.After). It sorts the boxes by insertion, which
// takes linear time when they are sorted but for one or two, as they are
// one push from a position that Unpack set.
func (p *Position) PackAt(dst []byte, player Square) []byte {
	sorted := append(p.stack[:0], p.boxes...)
	for i := 1; i < len(sorted); i++ {
		for j := i; j > 0 && sorted[j] < sorted[j-1]; j-- {
			sorted[j], sorted[j-1] = sorted[j-1], sorted[j]
		}
	}
	return p.packSorted(dst, sorted, player)
}

// HashAt is Hash with player given as the canonical player square.
func (p *Position) HashAt(player Square) uint64 {
	return p.boxHash ^ p.b.zPlayer[player]
}
