package sokoban

// PullFrom returns, for every square, the least number of pushes that
// moves a lone box from it onto the nearest of the squares in targets, or
// Unreachable: NearestGoal for any set of target squares, in O(N).
func (b *Board) PullFrom(targets []Square) []int32 {
	return b.newPuller().pull(targets)
}
