package optimize

import (
	"soko/heuristic"
	"soko/sokoban"
)

// newEndMatch returns the vicinity searches' bound (search, searchPushes)
// for a stretch whose last boxes stand on ends: the minimum-cost matching
// of the boxes to those squares, each pair costing the pushes a lone box
// needs from the box's square to the end square (heuristic.PushMatching,
// with ends for goals). Every box ends on one of those squares, one box each, so it
// never overestimates; it is at least boundOf's sum of each box's nearest
// end square, and about twice that where several boxes head for squares
// near one another (docs/optimize.md, "The matching bound").
func (o *optimizer) newEndMatch(ends []sokoban.Square) *heuristic.PushMatching {
	dist := make([][]int32, len(ends))
	for i, s := range ends {
		dist[i] = o.pullsTo(s)
	}
	return heuristic.NewPushMatching(o.b, dist)
}

// pullsTo returns, for every square, the pushes that move a lone box from it
// onto s, computed once per square and kept while the kept tables take at
// most pullCachePart of the memory budget; past that they are let go and
// computed again as asked for. The searches count them in their memory.
func (o *optimizer) pullsTo(s sokoban.Square) []int32 {
	row := 4 * int64(o.b.N)
	if o.pullTo == nil || (o.pullTo[s] == nil && o.pullBytes+row > o.memory/pullCachePart) {
		o.pullTo, o.pullBytes = make([][]int32, o.b.N), 0
	}
	if o.pullTo[s] == nil {
		o.pullTo[s] = o.b.PullFrom([]sokoban.Square{s})
		o.pullBytes += row
	}
	return o.pullTo[s]
}

// pullCachePart: pullsTo's tables may hold a quarter of the memory budget,
// the search the rest.
const pullCachePart = 4
