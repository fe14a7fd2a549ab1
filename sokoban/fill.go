package sokoban

// Fill extends region, whose squares m holds, with every square reached
// from them over squares that open reports true for and that m does not
// hold yet, adding them to m, breadth first; it returns region. Squares
// put in m beforehand are walls to the fill; a loop that fills from each
// square no earlier fill reached labels the areas of a board.
//
// Fill is small enough to be inlined, and open with it, so a fill makes no
// call per square; keep it so. The fills made once per state keep loops of
// their own all the same (Position.Reach, the symmetry canonicaliser):
// with Fill, which lists the region before the caller looks at it, they
// ran about 20% slower.
func (b *Board) Fill(region []Square, m Marks, open func(Square) bool) []Square {
	for i := 0; i < len(region); i++ {
		for _, n := range b.next[region[i]] {
			if n >= 0 && !m.Has(n) && open(n) {
				m.Add(n)
				region = append(region, n)
			}
		}
	}
	return region
}
