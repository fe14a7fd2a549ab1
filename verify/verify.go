// Package verify replays Sokoban solutions on a level and reports whether
// they are legal and solve it.
//
// It is deliberately independent of the solvers: it imports only package
// level (for the board and the LURD moves) and works on a plain copy of the
// board's rows with obvious grid code, so a bug in the fast solving core
// cannot also hide a wrong answer here.
package verify

import (
	"fmt"

	"soko/level"
)

// Report is the result of replaying a move sequence.
type Report struct {
	Solved   bool   // every box is on a goal after the last step and no step was illegal
	Moves    int    // steps taken, pushes included
	Pushes   int    // steps taken that pushed a box
	Steps    int    // steps replayed (the legal prefix)
	FailStep int    // 1-based index of the first illegal step, 0 if none
	Reason   string // why it failed or is not solved; a note on letter case otherwise
	// CaseStep is the 1-based index of the first replayed step whose
	// letter case does not say what it does (a push in lower case, a move
	// in upper case), 0 if none; Case says which ("step 3 (u) pushes a box
	// but is written in lower case") and Miscased how many steps are so.
	// A strict reader (soko verify) refuses such a solution: its pushes
	// and moves as written are not its real ones.
	CaseStep int
	Case     string
	Miscased int
}

// board is a mutable copy of a level.
type board struct {
	rows   []string // the level's rows: walls and goals are read from here
	boxes  [][]bool
	px, py int
}

// square returns the static character at (x, y) of the level, with boxes
// and player left in place; ok is false outside the grid.
func (b *board) square(x, y int) (c byte, ok bool) {
	if y < 0 || y >= len(b.rows) || x < 0 || x >= len(b.rows[y]) {
		return 0, false
	}
	return b.rows[y][x], true
}

func (b *board) wall(x, y int) bool {
	c, ok := b.square(x, y)
	return ok && c == level.Wall
}

func (b *board) goal(x, y int) bool {
	c, _ := b.square(x, y)
	return c == level.Goal || c == level.BoxOnGoal || c == level.PlayerOnGoal
}

func (b *board) box(x, y int) bool {
	_, ok := b.square(x, y)
	return ok && b.boxes[y][x]
}

// newBoard copies l; it fails unless l has exactly one player.
func newBoard(l *level.Level) (*board, string) {
	if l == nil {
		return nil, "no level"
	}
	b := &board{rows: l.Rows, boxes: make([][]bool, len(l.Rows))}
	players := 0
	for y, r := range l.Rows {
		b.boxes[y] = make([]bool, len(r))
		for x := 0; x < len(r); x++ {
			switch r[x] {
			case level.Box, level.BoxOnGoal:
				b.boxes[y][x] = true
			case level.Player, level.PlayerOnGoal:
				players++
				b.px, b.py = x, y
			}
		}
	}
	if players != 1 {
		return nil, fmt.Sprintf("level has %d players, want 1", players)
	}
	return b, ""
}

// Replay plays moves on a copy of l and reports the result. A step into a
// wall, off the board, or pushing a box into a wall or another box is
// illegal and ends the replay. Whether a step pushes is decided by the
// board, not by the letter case of the move; a case that does not match is
// noted in Reason, CaseStep and Case but is not an error here. Steps after the level is solved are
// still replayed, and Solved describes the position after the last step.
// If l does not have exactly one player nothing is replayed and Reason says
// so.
func Replay(l *level.Level, moves []level.Move) Report {
	return replay(l, moves, nil)
}

// Recase returns moves with the letter case of each replayed step set to
// what it does on l: upper case for a push, lower case for a move. Steps
// after an illegal one are returned as written.
func Recase(l *level.Level, moves []level.Move) []level.Move {
	out := append([]level.Move(nil), moves...)
	replay(l, out, func(i int, push bool) { out[i].Push = push })
	return out
}

// replay is Replay; it calls pushed, when not nil, with the index of each
// legal step and whether it pushed a box.
func replay(l *level.Level, moves []level.Move, pushed func(i int, push bool)) Report {
	var r Report
	b, bad := newBoard(l)
	if b == nil {
		r.Reason = bad
		return r
	}
	note := ""
	for i, m := range moves {
		step := fmt.Sprintf("step %d (%c)", i+1, m.Dir.Letter(m.Push))
		fail := func(format string, args ...any) Report {
			r.FailStep = i + 1
			r.Reason = step + ": " + fmt.Sprintf(format, args...)
			return r
		}
		dx, dy := m.Dir.Delta()
		if dx == 0 && dy == 0 {
			return fail("invalid direction %d", m.Dir)
		}
		nx, ny := b.px+dx, b.py+dy
		if _, ok := b.square(nx, ny); !ok {
			return fail("walks off the board at row %d, column %d", ny+1, nx+1)
		}
		if b.wall(nx, ny) {
			return fail("walks into a wall at row %d, column %d", ny+1, nx+1)
		}
		push := b.box(nx, ny)
		if push {
			bx, by := nx+dx, ny+dy
			if _, ok := b.square(bx, by); !ok {
				return fail("pushes a box off the board at row %d, column %d", by+1, bx+1)
			}
			if b.wall(bx, by) {
				return fail("push blocked by wall at row %d, column %d", by+1, bx+1)
			}
			if b.box(bx, by) {
				return fail("push blocked by box at row %d, column %d", by+1, bx+1)
			}
			b.boxes[ny][nx] = false
			b.boxes[by][bx] = true
			r.Pushes++
		}
		if push != m.Push {
			r.Miscased++
		}
		if push != m.Push && note == "" {
			if push {
				note = step + " pushes a box but is written in lower case"
			} else {
				note = step + " pushes nothing but is written in upper case"
			}
			r.CaseStep, r.Case = i+1, note
		}
		if pushed != nil {
			pushed(i, push)
		}
		b.px, b.py = nx, ny
		r.Moves++
		r.Steps++
	}
	onGoal, total := 0, 0
	for y, row := range b.boxes {
		for x, isBox := range row {
			if isBox {
				total++
				if b.goal(x, y) {
					onGoal++
				}
			}
		}
	}
	r.Solved = onGoal == total
	r.Reason = note
	if !r.Solved {
		boxes := "boxes"
		if total == 1 {
			boxes = "box"
		}
		r.Reason = fmt.Sprintf("not solved: %d of %d %s on goals", onGoal, total, boxes)
		if note != "" {
			r.Reason += "; " + note
		}
	}
	return r
}

// Check parses a LURD string and replays it on l. The error is non-nil only
// when lurd cannot be parsed.
func Check(l *level.Level, lurd string) (Report, error) {
	ms, err := level.ParseLURD(lurd)
	if err != nil {
		return Report{}, err
	}
	return Replay(l, ms), nil
}
