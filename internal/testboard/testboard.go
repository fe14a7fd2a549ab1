// Package testboard builds, for tests, levels together with a known
// solution made through package sokoban: a solution that is easy to check
// and far from the shortest, for the optimizer and the solve policy.
package testboard

import (
	"strings"
	"testing"

	"soko/internal/testlevel"
	"soko/level"
	"soko/sokoban"
)

// Detours is an open 120×120 room with boxes in rows, each beside its
// goal to the right, and a solution that takes every box down, right and up
// onto its goal: three pushes where one does.
func Detours(t testing.TB, boxes int) (*level.Level, []level.Move) {
	const w, h = 120, 120
	rows := make([][]byte, h)
	for y := range rows {
		rows[y] = []byte(strings.Repeat(" ", w))
		rows[y][0], rows[y][w-1] = '#', '#'
	}
	for x := range w {
		rows[0][x], rows[h-1][x] = '#', '#'
	}
	rows[1][1] = '@'
	var at [][2]int
	for i := range boxes {
		x, y := 4+4*(i%25), 4+4*(i/25)
		rows[y][x], rows[y][x+1] = '$', '.'
		at = append(at, [2]int{x, y})
	}
	var text strings.Builder
	for _, r := range rows {
		text.Write(r)
		text.WriteByte('\n')
	}
	l := testlevel.Parse(t, text.String())
	b, err := sokoban.NewBoard(l)
	if err != nil {
		t.Fatal(err)
	}
	var pushes []sokoban.Push
	for _, xy := range at {
		s := b.At(xy[0], xy[1])
		pushes = append(pushes, sokoban.Push{Box: s, Dir: level.Down})
		s = b.Next(s, level.Down)
		pushes = append(pushes, sokoban.Push{Box: s, Dir: level.Right})
		s = b.Next(s, level.Right)
		pushes = append(pushes, sokoban.Push{Box: s, Dir: level.Up})
	}
	moves, err := b.Expand(pushes)
	if err != nil {
		t.Fatal(err)
	}
	return l, moves
}
