package heuristic

import (
	"slices"

	"soko/sokoban"
)

// articulate numbers the region of the player on root, with the boxes and
// walls of gt.mark on the board, in gt.cuts (the region is cuts.Visit;
// reach's marks are another set), for afterPull, and returns its two
// smallest squares (the second None for a region of one square).
func (gt *groupTables) articulate(root sokoban.Square) (sokoban.Square, sokoban.Square) {
	c := &gt.cuts
	c.Visit.Clear()
	c.Met = c.Met[:0]
	gt.outer.Clear()
	c.Number(gt.b, gt.mark, root, 0, 0)
	m1, m2 := root, sokoban.None
	for _, w := range c.Met[1:] {
		if w < m1 {
			m1, m2 = w, m1
		} else if m2 < 0 || w < m2 {
			m2 = w
		}
	}
	return m1, m2
}

// afterPull returns the canonical player square after the box on b is
// pulled onto q, a square of the region articulate numbered last (two
// smallest squares m1 and m2), with the player on r, when it can tell
// without a flood fill of the new region, as sokoban.Region.After does for
// pushes: without q the region falls into parts (sokoban.Cuts.Part: the
// subtrees q cuts off, and the rest); the player's new region is r's part,
// joined by b, every part b touches and the other regions b touches
// (outside, smaller fills) when b touches r's part. It cannot tell when
// the rest's smallest square is neither m1 nor m2.
func (gt *groupTables) afterPull(b, q, r, m1, m2 sokoban.Square) (sokoban.Square, bool) {
	c := &gt.cuts
	var touched [4]sokoban.Square // the parts b touches, Part's keys
	n := 0
	others := sokoban.None // the smallest square of the other regions b touches
	for d := range sokoban.Dirs {
		x := gt.b.Next(b, d)
		if x < 0 || x == q || gt.mark[x] {
			continue
		}
		if !c.Visit.Has(x) {
			if o := gt.outside(x); others < 0 || o < others {
				others = o
			}
			continue
		}
		if p := c.Part(gt.b, q, x); !slices.Contains(touched[:n], p) {
			touched[n], n = p, n+1
		}
	}
	own := c.Part(gt.b, q, r)
	parts := []sokoban.Square{own}
	canon := sokoban.None
	if slices.Contains(touched[:n], own) {
		parts = touched[:n]
		canon = b
		if others >= 0 {
			canon = min(canon, others)
		}
	}
	for _, p := range parts {
		least := sokoban.None
		if p != sokoban.None {
			least = c.SubMin[p]
		} else {
			for _, m := range [2]sokoban.Square{m1, m2} {
				if m >= 0 && m != q && c.Part(gt.b, q, m) == sokoban.None {
					least = m
					break
				}
			}
			if least < 0 {
				return sokoban.None, false
			}
		}
		if canon < 0 || least < canon {
			canon = least
		}
	}
	return canon, true
}

// outside returns the smallest square of the region of x, a free square
// outside the one articulate marked last, filling it (and keeping its
// label for the other pulls of the same state) the first time.
func (gt *groupTables) outside(x sokoban.Square) sokoban.Square {
	if gt.outer.Has(x) {
		return gt.olabel[x]
	}
	least := gt.fill(x, gt.outer, gt.mark)
	for _, s := range gt.marked {
		gt.olabel[s] = least
	}
	return least
}
