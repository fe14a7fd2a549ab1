package testlevel

import (
	"strings"

	"soko/level"
)

// Open returns a width×height level of open floor inside a wall border,
// the largest kind of board soko accepts, with the player near the top left
// corner, boxes boxes in rows along the top and their goals mirrored along
// the bottom. Tests use it to check that set-up and searches honour their
// budgets on big boards. The boxes must fit: in rows of (width-6)/2 above
// the middle.
func Open(width, height, boxes int) *level.Level {
	rows := make([][]byte, height)
	for y := range rows {
		rows[y] = []byte(strings.Repeat(" ", width))
		rows[y][0], rows[y][width-1] = level.Wall, level.Wall
	}
	for x := range width {
		rows[0][x], rows[height-1][x] = level.Wall, level.Wall
	}
	rows[1][1] = level.Player
	for i := range boxes {
		k := (width - 6) / 2
		x, y := 3+2*(i%k), 3+2*(i/k)
		rows[y][x] = level.Box
		rows[height-1-y][x] = level.Goal
	}
	l := &level.Level{Source: "test", Width: width, Height: height}
	for _, r := range rows {
		l.Rows = append(l.Rows, string(r))
	}
	return l
}
