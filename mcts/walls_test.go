package mcts

import (
	"soko/internal/testlevel"
	"testing"

	"soko/sokoban"
)

// TestWallLines checks wall deadlocks (000 §4.2.1, Alg. 3) on positions
// that must and must not be reported: a closed run along a wall holding
// more boxes than goals is a deadlock, one holding no more is not, and an
// open run (one with an exit) never is.
func TestWallLines(t *testing.T) {
	for _, tc := range []struct {
		text string
		x, y int
		want bool
	}{
		// Three boxes on the top wall line, which has two goals.
		{"########\n#.$.$$ #\n#     .#\n#@     #\n########\n", 2, 1, true},
		// Two boxes on it: not a deadlock.
		{"########\n#.$.$  #\n#    $.#\n#@     #\n########\n", 2, 1, false},
		// The same three boxes, but the line has an exit upwards at column 6.
		{"########\n###### #\n#.$.$$ #\n#     .#\n#@     #\n########\n", 2, 2, false},
		// Along a left wall, column 2, rows 2-5: two boxes, one goal.
		{"#########\n###  ####\n##$ #####\n##. ..$ #\n##$     #\n##  @   #\n#########\n", 2, 2, true},
	} {
		b, err := sokoban.NewBoard(testlevel.Parse(t, tc.text))
		if err != nil {
			t.Fatal(err)
		}
		w := newWallLines(b)
		if got := w.Deadlocked(b.Start(), b.At(tc.x, tc.y)); got != tc.want {
			t.Errorf("box at column %d, row %d of\n%s: deadlocked %v, want %v", tc.x, tc.y, tc.text, got, tc.want)
		}
	}
}
