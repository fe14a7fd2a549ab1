package fess

import "soko/sokoban"

// The forest: macro-moves without a depth-first search per box. split
// searches the free area around one box's square, that square freed, for
// every box of a position; but the boxes that stay put are the same for
// all of them. growForest searches the free squares of the placed position
// once (all its boxes in place, so a forest of one tree per area), and
// linkForest answers link's question for the box on from standing on s
// from it: in the board with from freed and s taken, the free neighbours
// of s fall into the parts of the forest without s (a child's subtree that
// s cuts off, the rest of s's tree, or another tree), except that from,
// free now, joins every part one of its own free neighbours lies in.

// Part labels of a neighbour of s (macroGen.part): a child's subtree is the
// child's number (from 1); the rest are negative.
const (
	partWall  int32 = -1 // not a free square
	partAbove int32 = -2 // the rest of s's tree
	partFrom  int32 = -3 // the part from joins
	partTree  int32 = -4 // partTree - t: the whole of tree t
)

// growForest runs the depth-first search over every area of free squares
// of the placed position: numbers, low points, subtree ends and smallest
// squares as split keeps them, and per tree its smallest square, its root:
// each search starts from the smallest free square not yet met.
func (g *macroGen) growForest() {
	g.Visit.Clear()
	b := g.b
	g.Met = g.Met[:0]
	g.treeMin = g.treeMin[:0]
	count := int32(0)
	for r := sokoban.Square(0); int(r) < b.N; r++ {
		if !g.free(r) || g.Visit.Has(int32(r)) {
			continue
		}
		t := int32(len(g.treeMin))
		count = g.Number(g.b, g.occ, r, count, t)
		g.treeMin = append(g.treeMin, r)
	}
	g.forestReady = true
}

// startForest readies the forest for the box on from: growForest when
// the placed boxes changed, and from's neighbours in the forest.
func (g *macroGen) startForest(from sokoban.Square) {
	g.from = from
	if !g.forestReady {
		g.growForest()
	}
	g.linked.Clear()
	for d := range sokoban.Dirs {
		g.fromNext[d] = sokoban.None
		if c := g.b.Next(from, d); g.inForest(c) {
			g.fromNext[d] = c
		}
	}
}

// inForest reports whether c is one of the forest's squares: free with
// every placed box in place (from is not).
func (g *macroGen) inForest(c sokoban.Square) bool {
	return c != sokoban.None && c != g.from && g.Visit.Has(int32(c))
}

// cut is a child of s in the forest: the numbers of its subtree, and the
// part it lies in without s (its own number when s cuts it off).
type cut struct{ lo, hi, part int32 }

// parter labels the squares of the forest with their part without s
// (see the top), its children found once.
type parter struct {
	s    sokoban.Square
	in   bool // s is a forest square (not from)
	kids [4]cut
	n    int
}

func (g *macroGen) parterOf(s sokoban.Square) parter {
	pt := parter{s: s, in: g.inForest(s)}
	if !pt.in {
		return pt
	}
	for d := range sokoban.Dirs {
		ch := g.b.Next(s, d)
		if g.inForest(ch) && g.Parent[ch] == s {
			part := g.Num[ch]
			if g.Low[ch] < g.Num[s] { // not cut off (never at the root)
				part = partAbove
			}
			pt.kids[pt.n] = cut{g.Num[ch], g.Last[ch], part}
			pt.n++
		}
	}
	return pt
}

// part returns the part of forest square c: the whole of another tree,
// the subtree of a child s cuts off, or the rest of s's tree.
func (g *macroGen) part(pt *parter, c sokoban.Square) int32 {
	if !pt.in || g.Tree[c] != g.Tree[pt.s] {
		return partTree - g.Tree[c]
	}
	if n := g.Num[c]; n > g.Num[pt.s] {
		for _, k := range pt.kids[:pt.n] {
			if k.lo <= n && n <= k.hi {
				return k.part
			}
		}
	}
	return partAbove
}

// linkForest is link for square s from the forest (see the top).
func (g *macroGen) linkForest(s sokoban.Square) {
	pt := g.parterOf(s)
	joined := [4]int32{partWall, partWall, partWall, partWall}
	if s != g.from {
		for d, c := range g.fromNext {
			if c != sokoban.None && c != s {
				joined[d] = g.part(&pt, c)
			}
		}
	}
	var part [4]int32
	for d := range sokoban.Dirs {
		c := g.b.Next(s, d)
		switch {
		case !g.free(c):
			part[d] = partWall
		case c == g.from:
			part[d] = partFrom
		default:
			part[d] = g.part(&pt, c)
			for _, j := range joined {
				if j == part[d] {
					part[d] = partFrom
				}
			}
		}
	}
	for d, rep := range g.join(s, part, partWall) {
		if !rep {
			continue
		}
		if part[d] != partFrom {
			g.partMin[int(s)*4+d] = g.forestMin(s, part[d])
			continue
		}
		m := g.from
		for _, j := range joined {
			if j != partWall {
				m = min(m, g.forestMin(s, j))
			}
		}
		g.partMin[int(s)*4+d] = m
	}
}

// forestMin returns the smallest square of part (of s). The
// rest of s's tree holds its root, the tree's smallest square.
func (g *macroGen) forestMin(s sokoban.Square, part int32) sokoban.Square {
	switch {
	case part >= 1:
		return g.SubMin[g.Met[part-1]]
	case part == partAbove:
		return g.treeMin[g.Tree[s]]
	}
	return g.treeMin[partTree-part]
}
