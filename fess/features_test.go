package fess

import "testing"

// TestOrderTies: within a cell the features rank children first, and only
// then the distance: fewest pushes to the goals first or, with farFirst,
// most first.
func TestOrderTies(t *testing.T) {
	near := features{packed: 3, conn: 1, dist: 10}
	far := features{packed: 3, conn: 1, dist: 40}
	if !(near.order(false) < far.order(false)) {
		t.Errorf("nearer first: order %d for distance 10, %d for 40", near.order(false), far.order(false))
	}
	if !(far.order(true) < near.order(true)) {
		t.Errorf("farther first: order %d for distance 40, %d for 10", far.order(true), near.order(true))
	}
	for _, farFirst := range []bool{false, true} {
		liked, disliked := int32(10), int32(40) // by the tie-break
		if farFirst {
			liked, disliked = disliked, liked
		}
		base := features{packed: 3, conn: 1, oop: 1, hot: 1, dist: liked}
		for _, better := range []features{
			{packed: 4, conn: 1, oop: 1, hot: 1, dist: disliked},
			{packed: 3, conn: 0, oop: 1, hot: 1, dist: disliked},
			{packed: 3, conn: 1, oop: 0, hot: 1, dist: disliked},
			{packed: 3, conn: 1, oop: 1, hot: 0, dist: disliked},
		} {
			if !(better.order(farFirst) < base.order(farFirst)) {
				t.Errorf("farFirst %v: %+v ranked after %+v", farFirst, better, base)
			}
		}
	}
}
