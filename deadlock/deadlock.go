// Package deadlock finds positions from which a level can no longer be
// solved, so that solvers never search below them, and the static tables
// for macro moves.
//
// Static tables:
//
//   - Dead squares ("locking tiles", 000 §4.2.1, Alg. 2): squares from which a
//     lone box can never reach any goal, found by pulling a box backwards from
//     every goal with the player on each free side. A box pushed onto one is
//     a deadlock; push generation leaves such pushes out. They include the
//     corners of 001 Alg. 1 and the cells between corners without a goal of
//     001 Alg. 2–3 (dead-end aisles, Alg. 4, too).
//   - Tunnels and goal rooms (Macros; 001 §2.1.2): tunnel squares (walls on
//     both sides), along which a box can only move (InTunnel; the solvers'
//     tunnel macros push it on from there), and goal rooms, areas holding
//     goals entered through at most two tunnel squares.
//
// Dynamic detectors, run by a Checker after each push, each switchable
// (Detectors) and counted (Checker.Fired):
//
//   - Wall sweep lines (000 §4.2.1, Alg. 3): along each outer wall, the first
//     row or column holding floor; boxes there never leave it, so more boxes
//     than goals on it is a deadlock.
//   - Wall segments (001 §2.1.1, Alg. 2, the general form): a run of squares
//     along any wall, ending in corners at both ends, with no door; more
//     boxes than goals on it is a deadlock. It subsumes the sweep lines.
//   - Frozen boxes ("locked boxes", 000 §4.2.1, after the Sokoban Wiki; type
//     Freeze): a box is locked along an axis when a wall is on either side,
//     when dead squares are on both sides, or when a box on either side is
//     itself locked along the other axis. The check alternates horizontal
//     and vertical; a (box, axis) pair met again while it is still being
//     checked closes a cycle of boxes that hold each other (the 2×2 square
//     is the smallest) and counts as locked. A box locked along both axes
//     can never move again; the position is a deadlock when such a group of
//     frozen boxes contains a box off its goal. Frozen boxes all on goals
//     are not a deadlock.
//   - 2×2 blocks of boxes and walls (004 §3, Fig. 3) and two boxes side by
//     side against a wall (003 §2.3.2): special cases of frozen boxes, kept
//     as their own detectors to reproduce those documents' solvers.
//   - Corral deadlocks (000 §4.2.2, Fig. 4.7; type Corrals): the area the
//     player cannot reach around the pushed box, relaxed to its own boxes,
//     searched with a node budget for a way to put them all on goals.
//   - The deadlock table (type Table, after Festival's precomputed pair
//     table and the exact small box-set tables of other solvers): every set of one, two and, on boards small
//     enough, three boxes with the player on a given square that cannot be
//     pushed onto goals of their own with the other boxes gone, found at
//     set-up by a retrograde pull search from the solved sets; after a push
//     the sets holding the pushed box are looked up.
//   - Boxes cut off by boxes frozen on goals (type FrozenGoals, after
//     Shoham's solver Festival): boxes frozen on their
//     goals are walls; a box that can then reach no free goal is dead.
//   - PI-corrals (Corrals.PICorral, not a detector but a pruning rule for
//     push generation): when one exists, only pushes of its barrier boxes
//     need be generated; optimality is kept (see PICorral).
//
// Every detector is sound: it never calls a solvable position dead. The
// tests check this on every state of the complete state graphs of small
// Microban levels.
package deadlock

import "soko/sokoban"

// DeadSquares returns, for every square of b, whether a box on it can never
// reach a goal (000 §4.2.1, Alg. 2). Goals are never dead. It takes O(N)
// time (sokoban.Board.NearestGoal).
func DeadSquares(b *sokoban.Board) []bool {
	near := b.NearestGoal()
	dead := make([]bool, b.N)
	for s, d := range near {
		dead[s] = d >= sokoban.Unreachable
	}
	return dead
}

// DeadFromDistances derives the dead squares from pull distances already
// computed with Board.PullDistances.
func DeadFromDistances(b *sokoban.Board, dist [][]int32) []bool {
	dead := make([]bool, b.N)
	for s := range dead {
		dead[s] = true
		for _, row := range dist {
			if row[s] < sokoban.Unreachable {
				dead[s] = false
				break
			}
		}
	}
	return dead
}

// Freeze detects frozen-box deadlocks. It keeps scratch space; use one per
// goroutine.
type Freeze struct {
	dead     []bool
	checking []bool // (square, axis) pairs under examination
	locked   []sokoban.Square
}

// NewFreeze returns a detector for board b with the given dead squares.
func NewFreeze(b *sokoban.Board, dead []bool) *Freeze {
	return &Freeze{dead: dead, checking: make([]bool, 2*b.N)}
}

const (
	vertical   = 0 // Up/Down
	horizontal = 1 // Left/Right
)

// Deadlocked reports whether the push that just put a box on square s left
// a frozen group holding a box off its goal. Only the pushed box and the
// boxes next to it can have become frozen by that push, so only they are
// examined.
func (f *Freeze) Deadlocked(p *sokoban.Position, s sokoban.Square) bool {
	if f.frozenOffGoal(p, s) {
		return true
	}
	b := p.Board()
	for d := range sokoban.Dirs {
		if n := b.Next(s, d); n >= 0 && p.HasBox(n) && f.frozenOffGoal(p, n) {
			return true
		}
	}
	return false
}

// frozenOffGoal reports whether the box on s is frozen in a group with a
// box off its goal.
func (f *Freeze) frozenOffGoal(p *sokoban.Position, s sokoban.Square) bool {
	if !f.Frozen(p, s) {
		return false
	}
	b := p.Board()
	if !b.IsGoal(s) {
		return true
	}
	for _, t := range f.locked {
		if !b.IsGoal(t) {
			return true
		}
	}
	return false
}

// Frozen reports whether the box on s can never move again, whatever the
// goals: it is locked along both axes.
func (f *Freeze) Frozen(p *sokoban.Position, s sokoban.Square) bool {
	f.locked = f.locked[:0]
	return f.lockedAlong(p, s, horizontal) && f.lockedAlong(p, s, vertical)
}

// lockedAlong reports whether the box on s can never move along axis, and
// records in f.locked the other boxes found locked on the way.
func (f *Freeze) lockedAlong(p *sokoban.Position, s sokoban.Square, axis int) bool {
	key := int(s)*2 + axis
	if f.checking[key] {
		return true // a cycle of boxes holding each other
	}
	b := p.Board()
	d1, d2 := sokoban.Dir(0), sokoban.Dir(1) // Up, Down
	if axis == horizontal {
		d1, d2 = 2, 3 // Left, Right
	}
	n1, n2 := b.Next(s, d1), b.Next(s, d2)
	if n1 < 0 || n2 < 0 {
		return true
	}
	if f.dead[n1] && f.dead[n2] {
		return true
	}
	f.checking[key] = true
	locked := false
	for _, n := range [2]sokoban.Square{n1, n2} {
		if p.HasBox(n) && f.lockedAlong(p, n, 1-axis) {
			f.locked = append(f.locked, n)
			locked = true
			break
		}
	}
	f.checking[key] = false
	return locked
}
