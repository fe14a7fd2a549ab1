package heuristic

import (
	"context"

	"soko/sokoban"
)

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
//
// The distances are kept square-major (a box's row of the matrix is the
// slice of its square), so no matrix is built. Bound solves from scratch;
// a search that scores the children of one position calls SetBase on the
// parent and Child on each child, which keeps the parent's matching and
// potentials and repairs only the rows of the boxes that moved, one
// augmenting path each: O(n²) per child instead of O(n³).
type PushMatching struct {
	table   []int32 // slot·n + goal: pushes from the slot's square to goal, or Inf
	n       int
	sides   *sokoban.Sides // nil: a slot is a square; else square·4 + the player's side
	matcher *Matcher
	base    matchState // the matcher after SetBase
	baseOK  bool       // SetBase found a matching
	free    []int      // rows to repair
	// rowOf[i] is the matcher's row of box i of the base position; rowAt[k]
	// is the base's row of the box in slot k, or stale when none is there
	// (check base.off).
	rowOf, rowAt []int
	kept         []bool
	// rows[i] is the matcher's row of box i of the position last matched
	// (rowOf after SetBase and Child, ident after Bound).
	rows, ident []int
	// stash holds the matchings of the last children Keep was told of,
	// by state id; next is the slot the next one goes to.
	stash [stashSize]keptMatching
	next  int
}

// stashSize is how many children's matchings Keep holds: a best-first
// search with deepest-first ties usually expands one of the last few
// children next.
const stashSize = 8

type keptMatching struct {
	id    uint32
	valid bool
	state matchState
}

// NewPushMatching prepares the bound for board b, with dist from
// b.PullDistances() (goal × square).
func NewPushMatching(b *sokoban.Board, dist [][]int32) *PushMatching {
	m, _ := newPushMatching(context.Background(), b, dist, b.N, nil) // never stopped
	return m
}

// NewSidedPushMatching prepares the bound for board b with the player's
// side: dist from b.PullDistancesBySide (goal × square·4 + side), sides
// from b.NewSides. A box's cost to a goal is then that of a lone box with
// the player in the part of the board, around the box, where the player
// is: still admissible, since any solution's pushes of that box solve that
// lone-box problem, and larger where a box's square cuts the board and the
// player is on the wrong side of it. Its table is four times the unsided
// one's, about 0.4 s of work on a board of 1,024 boxes, so it stops with
// ctx's error when ctx is done.
func NewSidedPushMatching(ctx context.Context, b *sokoban.Board, sides *sokoban.Sides, dist [][]int32) (*PushMatching, error) {
	return newPushMatching(ctx, b, dist, 4*b.N, sides)
}

func newPushMatching(ctx context.Context, b *sokoban.Board, dist [][]int32, slots int, sides *sokoban.Sides) (*PushMatching, error) {
	n := b.Boxes()
	m := &PushMatching{table: make([]int32, slots*n), n: n, sides: sides, matcher: NewMatcher(n),
		rowOf: make([]int, n), rowAt: make([]int, slots), kept: make([]bool, n), ident: make([]int, n)}
	for i := range m.ident {
		m.ident[i] = i
	}
	m.rows = m.ident
	// The table is dist transposed, in blocks of slots a cache line of
	// dist's rows wide, so that neither side is read or written a line at
	// a time per entry.
	const block = 16
	for k0 := 0; k0 < slots; k0 += block {
		if k0%(64*block) == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		k1 := min(k0+block, slots)
		for j, row := range dist {
			for k, d := range row[k0:min(k1, len(row))] {
				m.table[(k0+k)*n+j] = min(d, Inf) // sokoban.Unreachable is Inf
			}
		}
	}
	return m, nil
}

// slot returns the table slot of a box on s with the player on player.
func (m *PushMatching) slot(s, player sokoban.Square) int {
	if m.sides == nil {
		return int(s)
	}
	return int(s)*4 + m.sides.Of(s, player)
}

// Bytes returns the memory the bound's distance table and work arrays take.
func (m *PushMatching) Bytes() int64 {
	n := int64(m.n)
	return 4*int64(len(m.table)) + 8*int64(len(m.rowAt)) + (2+stashSize)*(8+8+4+4+8+8+8+8+1)*n
}

// Bound returns the lower bound for position p, or false if no assignment of
// boxes to distinct goals is possible (a deadlock).
func (m *PushMatching) Bound(p *sokoban.Position) (int32, bool) {
	m.point(p)
	m.rows = m.ident
	return m.matcher.solve(m.n)
}

// point points the matcher's rows at the squares of p's boxes.
func (m *PushMatching) point(p *sokoban.Position) {
	off, pl := m.matcher.off[:m.n], p.Player()
	for i, s := range p.BoxSquares() {
		off[i] = m.slot(s, pl) * m.n
	}
	m.matcher.table = m.table
}

// SetBase returns Bound(p) and keeps its matching for Child. When Keep
// stashed the matching of the state p is, id, it starts from that and
// costs O(n); else when p shares most of its boxes with the previous base
// (as the states a best-first search expands one after another often do),
// the base is repaired like a child rather than solved from scratch.
func (m *PushMatching) SetBase(p *sokoban.Position, id uint32) (int32, bool) {
	for k := range m.stash {
		if st := &m.stash[k]; st.valid && st.id == id {
			m.base, st.state = st.state, m.base // swap, so no arrays are lost
			st.valid = false
			for r := range m.n {
				m.rowAt[m.base.off[r]/m.n] = r
			}
			m.baseOK = true
			break
		}
	}
	h, ok := m.rebase(p)
	m.baseOK = ok
	if ok {
		m.matcher.save(&m.base, m.n)
		for _, r := range m.rowOf {
			m.rowAt[m.base.off[r]/m.n] = r
		}
	}
	return h, ok
}

// Keep stashes the matching the last Child found, for SetBase on the same
// state, id, later. Only the last few are held.
func (m *PushMatching) Keep(id uint32) {
	st := &m.stash[m.next]
	m.next = (m.next + 1) % stashSize
	m.matcher.save(&st.state, m.n)
	st.id, st.valid = id, true
}

// rebase matches p's boxes, repairing the base's matching in the rows of
// the boxes that are not where the base had them, or solving from scratch
// when they are many or there is no base. It sets rowOf.
func (m *PushMatching) rebase(p *sokoban.Position) (int32, bool) {
	boxes, n, pl := p.BoxSquares(), m.n, p.Player()
	if m.baseOK {
		mt := m.matcher
		mt.restore(&m.base, n)
		clear(m.kept)
		moved := 0
		for i, s := range boxes {
			k := m.slot(s, pl)
			r := m.rowAt[k]
			if r < n && mt.off[r] == k*n && !m.kept[r] {
				m.kept[r], m.rowOf[i] = true, r
			} else {
				m.rowOf[i] = -1
				moved++
			}
		}
		if moved <= max(2, n/4) {
			m.free = m.free[:0]
			for r, k := range m.kept {
				if !k {
					mt.unmatch(r)
					m.free = append(m.free, r)
				}
			}
			next := 0
			for i, s := range boxes {
				if m.rowOf[i] < 0 {
					r := m.free[next]
					next++
					m.rowOf[i], mt.off[r] = r, m.slot(s, pl)*n
				}
			}
			m.rows = m.rowOf
			return mt.rematch(n, m.free)
		}
	}
	for i := range m.rowOf {
		m.rowOf[i] = i
	}
	return m.Bound(p)
}

// Child returns Bound(p) for a position p whose boxes are those of the last
// SetBase's position, in the same order (as Position.Apply keeps them),
// except for a few that moved: their rows are repaired from the base's
// matching instead of solving from scratch (with sides, also the rows of
// boxes the player is now on the other side of).
func (m *PushMatching) Child(p *sokoban.Position) (int32, bool) {
	if !m.baseOK {
		return m.Bound(p)
	}
	mt, n, pl := m.matcher, m.n, p.Player()
	mt.restore(&m.base, n)
	m.rows = m.rowOf
	m.free = m.free[:0]
	for i, s := range p.BoxSquares() {
		if r, o := m.rowOf[i], m.slot(s, pl)*n; mt.off[r] != o {
			mt.unmatch(r)
			mt.off[r] = o
			m.free = append(m.free, r)
		}
	}
	return mt.rematch(n, m.free)
}

// Leave returns a lower bound on the pushes of every solution from the
// position last matched (by Bound, SetBase or Child, which found a
// matching) in which each box leaving[k] (an index in p.BoxSquares, in
// increasing order), now on goal goals[k] (an index in Board.Goals), moves
// again, as deadlock.FrozenGoals.MustLeave says it must. Such a box either
// ends on another goal or leaves its goal and comes back, two pushes at
// least. In terms of the matcher's potentials (u, v, with reduced costs
// r = c − u − v ≥ 0 and Σu + Σv the matching's cost), every solution costs
// at least Σu + Σv plus, per leaving box, LeaveCost: each box's pushes are
// at least u plus v of its final goal plus its reduced cost there. The row
// potentials are taken as min over k of c(i, k) − v(k), so the duals are
// feasible whatever the matcher's state, and the result is never above the
// solutions' cost; it can be below the matching, so take the larger.
func (m *PushMatching) Leave(leaving, goals []int) int32 {
	n := m.n
	var total int64
	for _, x := range m.matcher.v[:n] {
		total += x
	}
	k := 0
	for i := range n {
		u, ok := m.rowPotential(i)
		if !ok {
			return Inf // no goal for box i: no solution (Bound said so first)
		}
		total += u
		if k < len(leaving) && leaving[k] == i {
			total += m.leaveCost(i, goals[k], u)
			k++
		}
	}
	return int32(min(max(total, 0), int64(Inf-1)))
}

// LeaveCost returns what Leave adds for box i (an index in p.BoxSquares of
// the position last matched) on goal j if it must move again: the least of
// 2 + r(i, j) and r(i, k) over the other goals k. When it is 0, that box
// leaving raises no bound.
//
// It takes one pass over the row: with r(i, k) = c(i, k) − u − v(k) ≥ 0
// and 0 for some k, the least is 0 unless goal j alone has r = 0, and then
// it is 2 or the second least r if that is smaller.
func (m *PushMatching) LeaveCost(i, j int) int32 {
	mt, n := m.matcher, m.n
	v := mt.v[:n]
	first, second, arg := unreached, unreached, -1 // the two least c − v, and where the least is
	for k, c := range mt.row(m.rows[i], n) {
		if c >= Inf {
			continue
		}
		if x := int64(c) - v[k]; x < first {
			first, second, arg = x, first, k
		} else if x < second {
			second = x
		}
	}
	if arg != j {
		return 0 // another goal is as near, or box i reaches none
	}
	return int32(min(2, second-first))
}

// rowPotential returns u of box i: min over the goals k it reaches of
// c(i, k) − v(k), and false if it reaches none.
func (m *PushMatching) rowPotential(i int) (int64, bool) {
	mt, n := m.matcher, m.n
	v := mt.v[:n]
	u := unreached
	for j, c := range mt.row(m.rows[i], n) {
		if c < Inf {
			u = min(u, int64(c)-v[j])
		}
	}
	return u, u != unreached
}

// leaveCost is LeaveCost with box i's row potential u.
func (m *PushMatching) leaveCost(i, g int, u int64) int64 {
	mt, n := m.matcher, m.n
	v := mt.v[:n]
	pen := unreached
	for j, c := range mt.row(m.rows[i], n) {
		if c >= Inf {
			continue
		}
		r := int64(c) - u - v[j]
		if j == g {
			r += 2
		}
		pen = min(pen, r)
	}
	return pen
}
