package deadlock

import (
	"soko/level"
	"soko/sokoban"
)

// CornerSquares returns the dangerous cells of 001 §2.1.1 as that document
// finds them: corners (Alg. 1) and squares against a wall that, walked
// along both ways, reaches a corner before the wall has a door (Alg. 2, 3).
// As in the document, only the first wall found (up, left, down, right) is
// examined. Two guards the document leaves implicit keep levels with goals
// in corners or along walls solvable: a goal is never dangerous, and a
// stretch with a goal on it is not.
//
// Every such square is dead (DeadSquares finds them all and more); the
// weighted A* of 001 prunes with these alone so that it searches as the
// document does.
func CornerSquares(b *sokoban.Board) []bool {
	dangerous := make([]bool, b.N)
	for t := range sokoban.Square(b.N) {
		if !b.IsGoal(t) {
			dangerous[t] = isCorner(b, t) || betweenCorners(b, t)
		}
	}
	return dangerous
}

// isCorner is 001 Alg. 1: a wall above or below and one to the left or right.
func isCorner(b *sokoban.Board, t sokoban.Square) bool {
	vertical := b.Next(t, level.Up) < 0 || b.Next(t, level.Down) < 0
	horizontal := b.Next(t, level.Left) < 0 || b.Next(t, level.Right) < 0
	return vertical && horizontal
}

// betweenCorners is 001 Alg. 2: t lies against a wall, and walking along
// that wall both ways reaches a corner before the wall has a door. Only the
// first wall found (up, left, down, right) is examined. A stretch with a
// goal on it is not dangerous.
func betweenCorners(b *sokoban.Board, t sokoban.Square) bool {
	for _, side := range [4]sokoban.Dir{level.Up, level.Left, level.Down, level.Right} {
		if b.Next(t, side) >= 0 {
			continue
		}
		along := [2]sokoban.Dir{level.Left, level.Right}
		if side == level.Left || side == level.Right {
			along = [2]sokoban.Dir{level.Up, level.Down}
		}
		for _, d := range along {
			for c := t; ; {
				if b.IsGoal(c) {
					return false
				}
				if c != t && isCorner(b, c) {
					break
				}
				if b.Next(c, side) >= 0 {
					return false // a door in the wall
				}
				n := b.Next(c, d)
				if n < 0 {
					break // the stretch ends in a wall: c was a corner
				}
				c = n
			}
		}
		return true
	}
	return false
}
