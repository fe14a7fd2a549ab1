package sokoban

// Region is the player's region of one position (the squares the player
// walks to without pushing) with what it takes to find the canonical player
// square of each position one push away without a flood fill: a depth-first
// tree of the region with discovery numbers, low points and the smallest
// square of each subtree, that is, the articulation points of Hopcroft and
// Tarjan (1973), computed once per position instead of one fill per child.
//
// After a push the box leaves s for t and the player stands on s (or, after
// several pushes in a line, between s and t, all free). The new
// region is s, the parts of the old region minus t that touch s, and any
// area outside the old region that touches s. If t was outside the region,
// the old region is intact and touches s through the square behind it. If
// t was inside, its removal splits the region into the subtrees of the
// children c of t with low(c) ≥ disc(t), and the rest; each part that has
// a square next to s joins. Each part's smallest square is known: a
// subtree's is kept per square, the rest's is the region's smallest (or
// second smallest) unless that lies in t or a split-off subtree. After
// reports when it cannot answer this way (an area outside the old region
// touches s, or the rest's smallest square is not known), and the caller
// falls back to a flood fill.
type Region struct {
	b     *Board
	in    Marks // the squares of the region
	node  []regionNode
	stack []Square
	// min1 < min2 are the region's two smallest squares (min2 None if
	// it has one square).
	min1, min2 Square
	size       int
}

// regionNode is what the depth-first search keeps per square of the region.
type regionNode struct {
	disc  int32  // discovery number, from 1
	low   int32  // smallest discovery number one back edge from the subtree reaches
	end   int32  // largest discovery number in the subtree
	up    Square // parent in the tree, None at the root
	least Square // smallest square of the subtree
	dir   Dir    // next direction to explore, during the search
}

// NewRegion returns a Region for positions on b.
func NewRegion(b *Board) *Region {
	return &Region{b: b, in: NewMarks(b.N), node: make([]regionNode, b.N), stack: make([]Square, 0, b.N)}
}

// Bytes returns the memory the Region takes.
func (r *Region) Bytes() int64 { return int64(r.b.N) * (4 + 24 + 4) }

// Of computes the region of position p. It is p's reachability too: p.Reach
// and what relies on it need no flood fill of their own afterwards.
func (r *Region) Of(p *Position) {
	p.reach.Clear()
	r.in.Clear()
	in, reach, next, boxAt, node := r.in, p.reach, r.b.next, p.boxAt, r.node
	var n int32 = 1
	root := p.player
	in.Add(root)
	reach.Add(root)
	node[root] = regionNode{disc: 1, low: 1, up: None, least: root}
	stack := append(r.stack[:0], root)
	min1, min2 := root, None
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		nv := &node[v]
		if nv.dir < Dirs {
			w := next[v][nv.dir]
			nv.dir++
			switch {
			case w < 0 || boxAt[w] >= 0:
			case in.Has(w):
				nv.low = min(nv.low, node[w].disc)
			default:
				n++
				in.Add(w)
				reach.Add(w)
				node[w] = regionNode{disc: n, low: n, up: v, least: w}
				stack = append(stack, w)
				if w < min1 {
					min1, min2 = w, min1
				} else if min2 < 0 || w < min2 {
					min2 = w
				}
			}
			continue
		}
		stack = stack[:len(stack)-1]
		nv.end = n
		if u := nv.up; u >= 0 {
			nu := &node[u]
			nu.low = min(nu.low, nv.low)
			nu.least = min(nu.least, nv.least)
		}
	}
	r.stack = stack
	r.min1, r.min2, r.size = min1, min2, int(n)
	p.canon, p.fresh = min1, true
}

// Size returns the number of squares in the region. When it is the number
// of free squares, the player reaches all of them: there is no corral.
func (r *Region) Size() int { return r.size }

// Has reports whether s is in the region.
func (r *Region) Has(s Square) bool { return r.in.Has(s) }

// After returns the canonical player square of position p, or false if it
// cannot tell without a flood fill. Position p must be the position given
// to Of with the box on s pushed on to t, one square or more in a line, so
// that the player stands on s or on a free square between s and t.
func (r *Region) After(p *Position, s, t Square) (Square, bool) {
	canon := s
	tIn := r.Has(t)
	var parts [5]bool // split-off subtrees under t's four directions, the rest
	for _, x := range r.b.next[s] {
		if x < 0 || x == t || p.boxAt[x] >= 0 {
			continue
		}
		if !r.Has(x) {
			return None, false
		}
		if tIn {
			parts[r.part(x, t)] = true
		}
	}
	if !tIn {
		return min(canon, r.min1), true
	}
	for d, ok := range parts[:4] {
		if ok {
			canon = min(canon, r.node[r.b.next[t][d]].least)
		}
	}
	if parts[4] {
		rest, ok := r.restLeast(t)
		if !ok {
			return None, false
		}
		canon = min(canon, rest)
	}
	return canon, true
}

// part returns which part of the region without t holds x, a square of the
// region other than t: the direction from t of the child of t whose
// subtree split off and holds x, or 4 for the rest.
func (r *Region) part(x, t Square) int {
	nt := &r.node[t]
	dt, dx := nt.disc, r.node[x].disc
	if dx <= dt || dx > nt.end {
		return 4
	}
	for d, c := range r.b.next[t] {
		if c < 0 || !r.Has(c) {
			continue
		}
		if nc := &r.node[c]; nc.up == t && nc.disc > dt && nc.disc <= dx && dx <= nc.end {
			if nc.low >= dt {
				return d
			}
			return 4
		}
	}
	return 4 // unreachable: x is in t's subtree, so in one child's
}

// restLeast returns the smallest square of the region without t and the
// subtrees that split off with it, when it is one of the region's two
// smallest squares.
func (r *Region) restLeast(t Square) (Square, bool) {
	for _, c := range [2]Square{r.min1, r.min2} {
		if c >= 0 && c != t && r.part(c, t) == 4 {
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
