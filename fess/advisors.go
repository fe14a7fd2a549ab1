package fess

// advise gives weight 0 to the moves among kids that the advisors propose
// (the FESS paper's advisors and move weights), each at most one and only
// when it improves on the parent: the pack advisor the move that packs the
// most boxes along the plan, the out-of-plan advisor the one that leaves
// the fewest boxes out of plan, the hotspot advisor the one that leaves
// the fewest hotspots; with s.opener also the opener, the one that brings
// a box nearest the plan's next goal; with s.opener or s.clear the
// connectivity advisor, the one that joins the most player regions
// (docs/fess.md says where it pays). Ties go to the better features. A
// lone move is free too, and with s.pair the better of two. The clearing
// advisor, and where it proposes nothing new the explorer (clearing.go),
// weigh the moves after these.
func (s *strategy) advise(kids []child, parent features) {
	if len(kids) == 1 {
		kids[0].weight = 0
		return
	}
	if s.pair && len(kids) == 2 {
		better := 0
		if kids[1].feat.order() < kids[0].feat.order() {
			better = 1
		}
		kids[better].weight = 0
	}
	advisors := [...]func(f features) int{
		func(f features) int { return int(parent.packed - f.packed) },
		func(f features) int { return int(f.oop - parent.oop) },
		func(f features) int { return int(f.hot - parent.hot) },
		func(f features) int {
			if !s.opener && !s.clear {
				return 0
			}
			return int(f.conn - parent.conn)
		},
		func(f features) int {
			if !s.opener || f.packed != parent.packed {
				return 0
			}
			return int(f.next - parent.next)
		},
	}
	for _, gain := range advisors {
		best, bestGain := -1, 0
		for i, k := range kids {
			g := gain(k.feat)
			if g < bestGain || (g == bestGain && best >= 0 && k.feat.order() < kids[best].feat.order()) {
				best, bestGain = i, g
			}
		}
		if best >= 0 {
			kids[best].weight = 0
		}
	}
}
