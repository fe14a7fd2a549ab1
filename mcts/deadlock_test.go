package mcts

import (
	"soko/internal/testlevel"
	"testing"

	"soko/sokoban"
)

// TestPushGameDeadlocks checks the push game's dynamic deadlock rules
// (000 §4.2.1) on positions that must and must not be reported: a closed
// wall line holding more boxes than goals is a wall deadlock (Alg. 3,
// generalised to inner walls), one holding no more is not, an open run (one
// with an exit) never is, and a 2×2 block of boxes off goals is locked.
func TestPushGameDeadlocks(t *testing.T) {
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
		// A 2×2 block of boxes in the open, none on a goal: locked.
		{"#########\n#       #\n#  $$   #\n#  $$   #\n#@ .... #\n#########\n", 3, 2, true},
		// Three of them: every box can still move.
		{"#########\n#       #\n#  $$   #\n#  $  $ #\n#@ .... #\n#########\n", 3, 2, false},
	} {
		b, err := sokoban.NewBoard(testlevel.Parse(t, tc.text))
		if err != nil {
			t.Fatal(err)
		}
		g := newPushGame(b, false, nil)
		if got := g.check.Deadlocked(b.Start(), b.At(tc.x, tc.y)); got != tc.want {
			t.Errorf("box at column %d, row %d of\n%s: deadlocked %v, want %v", tc.x, tc.y, tc.text, got, tc.want)
		}
	}
}
