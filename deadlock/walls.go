package deadlock

import "soko/sokoban"

// A wall line is a set of squares that a box standing on one of them can
// never leave: the box can only slide along the line, never away from the
// wall that backs it. If more boxes stand on a line than it has goals, some
// box can never reach a goal.
//
// Two families are built (see the package comment):
//
//   - sweep lines (000 Alg. 3): along each of the four outer walls, the
//     first row or column of the board, swept in from that side, that holds
//     any floor square. Every floor square on it has a wall (or the
//     outside) on the swept side, so a box on it can never be pushed across
//     the line: the player would have to stand in the wall.
//   - wall segments (001 Alg. 2, "between corners along a contiguous wall"):
//     a run of floor squares along a wall, every one with the wall on the
//     same side, ending at both ends in a corner (a wall straight ahead
//     along the run), with no door (a gap in the wall) in between. A box on
//     it can move only along the run and the run's ends are walls.
type wallLine struct {
	squares []sokoban.Square
	goals   int
}

// wallLines holds the lines of one family and, per square, the lines
// through it.
type wallLines struct {
	lines []wallLine
	at    [][]int32 // square -> indices into lines
}

func (w *wallLines) add(b *sokoban.Board, sq []sokoban.Square) {
	id := int32(len(w.lines))
	l := wallLine{squares: sq}
	for _, s := range sq {
		if b.IsGoal(s) {
			l.goals++
		}
		w.at[s] = append(w.at[s], id)
	}
	w.lines = append(w.lines, l)
}

// overfull reports whether some line through s holds more boxes than goals.
func (w *wallLines) overfull(p *sokoban.Position, s sokoban.Square) bool {
	for _, id := range w.at[s] {
		l := &w.lines[id]
		n := 0
		for _, t := range l.squares {
			if p.HasBox(t) {
				n++
			}
		}
		if n > l.goals {
			return true
		}
	}
	return false
}

// sweepLines builds the four sweep lines of 000 Alg. 3. Squares that are
// not indexed (walls, and floor the player can never reach) count as wall.
func sweepLines(b *sokoban.Board) *wallLines {
	w := &wallLines{at: make([][]int32, b.N)}
	if b.N == 0 {
		return w
	}
	minX, minY, maxX, maxY := b.Width, b.Level.Height, -1, -1
	for s := sokoban.Square(0); int(s) < b.N; s++ {
		x, y := b.XY(s)
		minX, maxX = min(minX, x), max(maxX, x)
		minY, maxY = min(minY, y), max(maxY, y)
	}
	line := func(onLine func(x, y int) bool) []sokoban.Square {
		var sq []sokoban.Square
		for s := sokoban.Square(0); int(s) < b.N; s++ {
			if x, y := b.XY(s); onLine(x, y) {
				sq = append(sq, s)
			}
		}
		return sq
	}
	w.add(b, line(func(x, _ int) bool { return x == minX })) // leftmost boundary
	w.add(b, line(func(x, _ int) bool { return x == maxX })) // rightmost
	w.add(b, line(func(_, y int) bool { return y == minY })) // top
	w.add(b, line(func(_, y int) bool { return y == maxY })) // bottom
	return w
}

// wallSegments builds the wall segments of 001 Alg. 2: for every square s
// with a wall in direction d, the run through s along the perpendicular
// axis, kept when every square of it has a wall in direction d (no door)
// and both ends are corners. Each segment is kept once.
func wallSegments(b *sokoban.Board) *wallLines {
	w := &wallLines{at: make([][]int32, b.N)}
	seen := make(map[[2]int32]bool) // (wall direction, first square)
	for s := sokoban.Square(0); int(s) < b.N; s++ {
		for d := range sokoban.Dirs {
			if b.Next(s, d) != sokoban.None {
				continue
			}
			// Perpendicular directions: Up/Down (0,1) <-> Left/Right (2,3).
			e1 := sokoban.Dir(2)
			if d >= 2 {
				e1 = 0
			}
			start, ok := segmentEnd(b, s, d, e1)
			if !ok {
				continue
			}
			if _, ok := segmentEnd(b, s, d, e1+1); !ok {
				continue
			}
			key := [2]int32{int32(d), start}
			if seen[key] {
				continue
			}
			seen[key] = true
			var sq []sokoban.Square
			for t := start; t != sokoban.None; t = b.Next(t, e1+1) {
				sq = append(sq, t)
			}
			w.add(b, sq)
		}
	}
	return w
}

// segmentEnd walks from s in direction e along a wall lying in direction d
// and returns the last square before a wall straight ahead (the corner).
// It fails at a door: a square on the way without the wall in direction d.
func segmentEnd(b *sokoban.Board, s sokoban.Square, d, e sokoban.Dir) (sokoban.Square, bool) {
	for {
		if b.Next(s, d) != sokoban.None {
			return sokoban.None, false
		}
		n := b.Next(s, e)
		if n == sokoban.None {
			return s, true
		}
		s = n
	}
}
