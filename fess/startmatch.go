package fess

import "soko/sokoban"

// startMatcher decides whether the boxes of a backward position can each be
// given a start square of its own from which a lone box can be pushed to
// the box's square: a perfect matching in the bipartite graph of boxes and
// start squares (Kuhn's augmenting paths). The backward search asks it of
// every position it generates; a child differs from its parent by one box,
// so with the parent's matching kept (prepare), a child needs one
// augmenting path from the moved box, O(boxes²), where the least-cost
// matching it replaced (heuristic.PushMatching) solved the whole
// assignment, O(boxes³), and took 60 % of the backward search's time in
// generating positions.
type startMatcher struct {
	reach [][]int16 // square -> the start squares (indices) a box there can come from
	// The parent's matching: boxOf[t] the box (index in squares) on start
	// t, -1 for none; squares the parent's box squares.
	boxOf   []int16
	squares []sokoban.Square
	// taken marks the start squares no box may be matched to: those a box
	// left the board on, in the parking search with the moving sink.
	taken []bool
	// scratch for a child
	try  []int16
	left []int         // boxes the greedy start left unmatched
	seen sokoban.Marks // start squares seen this round
}

// newStartMatcher prepares the matcher from rows: rows[t][s] is the pushes a
// lone box needs from start t to square s (sokoban.Unreachable: none).
func newStartMatcher(n int, rows [][]int32) *startMatcher {
	m := &startMatcher{reach: make([][]int16, n), boxOf: make([]int16, len(rows)), try: make([]int16, len(rows)), taken: make([]bool, len(rows)), seen: sokoban.NewMarks(len(rows))}
	for t, row := range rows {
		for s, d := range row {
			if d < sokoban.Unreachable {
				m.reach[s] = append(m.reach[s], int16(t))
			}
		}
	}
	return m
}

// bytes returns the memory the matcher holds.
func (m *startMatcher) bytes() int64 {
	n := int64(len(m.reach))*24 + int64(len(m.boxOf))*(2+2+4+1)
	for _, r := range m.reach {
		n += 2 * int64(cap(r))
	}
	return n
}

// prepare matches the boxes on squares from scratch and keeps the matching
// for child; it reports whether every box is matched.
func (m *startMatcher) prepare(squares []sokoban.Square) bool {
	m.squares = append(m.squares[:0], squares...)
	for t := range m.boxOf {
		m.boxOf[t] = -1
	}
	// A free start square for each box where there is one first, then
	// augmenting paths for the boxes left: most boxes take the first, so
	// few searches run (the greedy start of Kuhn's algorithm).
	left := m.left[:0]
	for i, s := range m.squares {
		matched := false
		for _, t := range m.reach[s] {
			if m.boxOf[t] < 0 && !m.taken[t] {
				m.boxOf[t], matched = int16(i), true
				break
			}
		}
		if !matched {
			left = append(left, i)
		}
	}
	m.left = left
	for _, i := range left {
		m.round()
		if !m.augment(m.boxOf, i) {
			return false
		}
	}
	return true
}

// child reports whether the boxes can still be matched after the box on
// from (one of prepare's squares, all of which prepare matched) moves to to.
func (m *startMatcher) child(from, to sokoban.Square) bool {
	i := m.unmatch(from)
	m.squares[i] = to
	m.round()
	ok := m.augment(m.try, i)
	m.squares[i] = from
	return ok
}

// leave reports whether the other boxes can still be matched after the box
// on from (as for child) leaves the board, taking start square t (an
// index) with it.
func (m *startMatcher) leave(from sokoban.Square, t int) bool {
	m.unmatch(from)
	j := m.try[t]
	if j < 0 {
		return true
	}
	m.try[t] = -1
	m.taken[t] = true
	m.round()
	ok := m.augment(m.try, int(j))
	m.taken[t] = false
	return ok
}

// unmatch copies the parent's matching into try without the box on from,
// and returns that box's index.
func (m *startMatcher) unmatch(from sokoban.Square) int {
	i := -1
	for k, s := range m.squares {
		if s == from {
			i = k
			break
		}
	}
	copy(m.try, m.boxOf)
	for t, b := range m.try {
		if int(b) == i {
			m.try[t] = -1
		}
	}
	return i
}

// round starts a search for an augmenting path: no start square seen.
func (m *startMatcher) round() { m.seen.Clear() }

// augment looks for an augmenting path from box i in matching boxOf, over
// the start squares not seen this round, applying it when found.
func (m *startMatcher) augment(boxOf []int16, i int) bool {
	for _, t := range m.reach[m.squares[i]] {
		if m.seen.Has(int32(t)) || m.taken[t] {
			continue
		}
		m.seen.Add(int32(t))
		if boxOf[t] < 0 || m.augment(boxOf, int(boxOf[t])) {
			boxOf[t] = int16(i)
			return true
		}
	}
	return false
}
