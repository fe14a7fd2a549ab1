package heuristic

import (
	"slices"

	"soko/deadlock"
	"soko/sokoban"
)

// groupBoard is the problem every part of the group bound works on: the
// board with the boxes frozen on goals at the start turned into walls (they
// never move), the goals left free with their pull distances, and the
// player's reach and the boxes' matching there.
type groupBoard struct {
	b    *sokoban.Board
	dead []bool
	// wall marks the boxes frozen on goals at the start; walls counts them.
	wall  []bool
	walls int
	// goals are the goals not under a wall; dist[j] their pull distances
	// (sokoban.Board.PullDistances rows; the walls only lengthen a lone
	// box's way, so they stay lower bounds).
	goals  []sokoban.Square
	sorted []sokoban.Square // goals, sorted
	dist   [][]int32
	free   []bool // free[s]: s is one of goals

	matcher *Matcher
	cost    []int32
	reached sokoban.Marks // reach's region
	marked  []sokoban.Square
	// boxAt marks the walls, and the boxes while reach works.
	boxAt []bool
}

// newGroupBoard returns the problem of the board of start with dead
// squares dead and pull distances dist (goal × square): the boxes that
// start frozen on goals are its walls.
func newGroupBoard(start *sokoban.Position, dead []bool, dist [][]int32) *groupBoard {
	b := start.Board()
	bd := &groupBoard{b: b, dead: dead, wall: make([]bool, b.N), free: make([]bool, b.N),
		matcher: NewMatcher(1), reached: sokoban.NewMarks(b.N), boxAt: make([]bool, b.N)}
	freeze := deadlock.NewFreeze(b, dead)
	for _, s := range start.BoxSquares() {
		if b.IsGoal(s) && freeze.Frozen(start, s) {
			bd.wall[s], bd.boxAt[s] = true, true
			bd.walls++
		}
	}
	for j, s := range b.Goals() {
		if !bd.wall[s] {
			bd.goals = append(bd.goals, s)
			bd.dist = append(bd.dist, dist[j])
			bd.free[s] = true
		}
	}
	bd.sorted = slices.Sorted(slices.Values(bd.goals))
	return bd
}

// reach marks the squares the player reaches from player with only boxes
// (and the walls) on the board, lists them in marked, and returns the
// smallest of them.
func (bd *groupBoard) reach(boxes []sokoban.Square, player sokoban.Square) sokoban.Square {
	for _, s := range boxes {
		bd.boxAt[s] = true
	}
	bd.reached.Clear()
	canon := bd.fill(player, bd.reached, bd.boxAt)
	for _, s := range boxes {
		bd.boxAt[s] = false
	}
	return canon
}

// fill adds to m the squares reached from start without crossing a square
// set in blocked (boxAt or mark, which mark the walls too) or one in m
// already, lists them in marked, and returns the smallest of them.
func (bd *groupBoard) fill(start sokoban.Square, m sokoban.Marks, blocked []bool) sokoban.Square {
	m.Add(start)
	bd.marked = bd.b.Fill(append(bd.marked[:0], start), m, func(n sokoban.Square) bool { return !blocked[n] })
	return slices.Min(bd.marked)
}

// match returns the least total of distances from boxes to distinct free
// goals, and false when there is no such assignment.
func (bd *groupBoard) match(boxes []sokoban.Square) (int32, bool) {
	k, m := len(boxes), len(bd.goals)
	switch {
	case k == 0:
		return 0, true
	case k > m:
		return 0, false
	case k == 1:
		best := groupInf
		for _, row := range bd.dist {
			best = min(best, row[boxes[0]])
		}
		return best, best < groupInf
	}
	// Pad with m − k boxes at distance 0 from every goal.
	bd.cost = slices.Grow(bd.cost[:0], m*m)[:m*m]
	for i := range m {
		for j, row := range bd.dist {
			c := int32(0)
			if i < k {
				c = min(row[boxes[i]], groupInf)
			}
			bd.cost[i*m+j] = c
		}
	}
	return bd.matcher.Solve(bd.cost, m)
}

// onGoals reports whether every box stands on a free goal.
func (bd *groupBoard) onGoals(boxes []sokoban.Square) bool {
	for _, s := range boxes {
		if !bd.free[s] {
			return false
		}
	}
	return true
}

// moveSorted sets dst to boxes (sorted) with boxes[i] moved to to, sorted:
// one pass, where sorting would compare them all again.
func moveSorted(dst, boxes []sokoban.Square, i int, to sokoban.Square) {
	k, placed := 0, false
	for j, s := range boxes {
		if j == i {
			continue
		}
		if !placed && to < s {
			dst[k], k, placed = to, k+1, true
		}
		dst[k], k = s, k+1
	}
	if !placed {
		dst[k] = to
	}
}

// subMove is a push or pull of a sub-search: the box's index, the square
// it goes to and, for pulls, the square the player goes to.
type subMove struct {
	box        int
	to, player sokoban.Square
}
