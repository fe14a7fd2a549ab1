package mcts

import "soko/sokoban"

// wallLines detects wall deadlocks (000 §4.2.1, Alg. 3), generalised from
// the four outer walls to every wall line.
//
// A wall line is a maximal run of squares along one axis that all have a
// wall on the same side d and whose two ends are closed by walls. A box in
// such a run can never leave it: it cannot be pushed towards d (a wall) nor
// away from d (the player would have to stand in the wall), and pushes along
// the axis keep it inside the closed run. So a run holding more boxes than
// goals is a deadlock. Alg. 3's sweep along an outer boundary finds the runs
// against the outermost walls; this finds those and the ones along inner
// walls too (such as 000 Fig. 4.6). Runs without goals are already dead
// squares.
type wallLines struct {
	runOf [4][]int32         // runOf[d][s]: run index of s for wall side d, or -1
	runs  [][]sokoban.Square // squares of each run
	goals []int              // goals in each run
}

func newWallLines(b *sokoban.Board) *wallLines {
	w := &wallLines{}
	for d := sokoban.Dir(0); d < 4; d++ {
		w.runOf[d] = make([]int32, b.N)
		for s := range w.runOf[d] {
			w.runOf[d][s] = -1
		}
	}
	for d := sokoban.Dir(0); d < 4; d++ {
		// The run's axis is perpendicular to d: along Left/Right for a wall
		// Up or Down, along Up/Down for a wall Left or Right.
		back, fwd := sokoban.Dir(2), sokoban.Dir(3)
		if d >= 2 {
			back, fwd = 0, 1
		}
		walled := func(s sokoban.Square) bool { return s >= 0 && b.Next(s, d) < 0 }
		for s := sokoban.Square(0); int(s) < b.N; s++ {
			if !walled(s) || walled(b.Next(s, back)) {
				continue // not walled, or not the start of a run
			}
			if b.Next(s, back) >= 0 {
				continue // the run is open at this end
			}
			var run []sokoban.Square
			t := s
			for ; walled(t); t = b.Next(t, fwd) {
				run = append(run, t)
			}
			if t >= 0 {
				continue // the run ends on a square without the wall: open
			}
			goals := 0
			for _, q := range run {
				if b.IsGoal(q) {
					goals++
				}
			}
			if goals == 0 || goals >= b.Boxes() {
				continue // dead squares already, or can never hold too many boxes
			}
			id := int32(len(w.runs))
			w.runs = append(w.runs, run)
			w.goals = append(w.goals, goals)
			for _, q := range run {
				w.runOf[d][q] = id
			}
		}
	}
	return w
}

// bytes returns the memory the lines take.
func (w *wallLines) bytes() int64 {
	n := 4*4*int64(len(w.runOf[0])) + 32*int64(len(w.runs))
	for _, r := range w.runs {
		n += 4 * int64(len(r))
	}
	return n
}

// Deadlocked reports whether the box just pushed onto s overfills a wall
// line. Only runs through s can have become overfull.
func (w *wallLines) Deadlocked(p *sokoban.Position, s sokoban.Square) bool {
	if len(w.runs) == 0 {
		return false
	}
	for d := 0; d < 4; d++ {
		r := w.runOf[d][s]
		if r < 0 {
			continue
		}
		boxes := 0
		for _, q := range w.runs[r] {
			if p.HasBox(q) {
				boxes++
			}
		}
		if boxes > w.goals[r] {
			return true
		}
	}
	return false
}
