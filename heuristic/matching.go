package heuristic

import "soko/sokoban"

// PushMatching is the lower bound used by A*: the minimum-cost perfect
// matching of boxes to goals where the cost of a box–goal pair is the number
// of pushes a lone box needs from its square to that goal, respecting walls
// and the player's access (sokoban.Board.PullDistances). A box that can
// reach no goal — on a dead square — makes every matching infeasible.
//
// The bound is admissible: every box needs at least its own pushes to the
// goal it ends on, and each goal takes one box. It is not always consistent:
// a box's distance is the best over its four sides, and after a push the
// player may not reach that best side, so the bound can drop by more than one
// in one push. Searches that rely on it for optimality must reopen states.
type PushMatching struct {
	dist    [][]int32 // goal × square
	cost    []int32
	matcher *Matcher
}

// NewPushMatching prepares the bound for board b, with dist from
// b.PullDistances().
func NewPushMatching(b *sokoban.Board, dist [][]int32) *PushMatching {
	n := b.Boxes()
	return &PushMatching{dist: dist, cost: make([]int32, n*n), matcher: NewMatcher(n)}
}

// Bytes returns the memory the bound's cost matrix and work arrays take.
func (m *PushMatching) Bytes() int64 {
	n := int64(len(m.matcher.v))
	return 4*int64(len(m.cost)) + (8+8+4+4+8+8)*n
}

// Bound returns the lower bound for position p, or false if no assignment of
// boxes to distinct goals is possible (a deadlock).
func (m *PushMatching) Bound(p *sokoban.Position) (int32, bool) {
	boxes := p.BoxSquares()
	n := len(boxes)
	for i, s := range boxes {
		row := m.cost[i*n : i*n+n]
		for j := range row {
			d := m.dist[j][s]
			if d >= sokoban.Unreachable {
				d = Inf
			}
			row[j] = d
		}
	}
	return m.matcher.Solve(m.cost, n)
}
