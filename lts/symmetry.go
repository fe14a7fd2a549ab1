package lts

import (
	"strings"

	"soko/level"
)

// Symmetries is the number of symmetries of the square grid: the
// rotations and reflections. Training learns from each solution in all of
// them, since a good move stays good when the board is turned.
const Symmetries = 8

// transform returns level l turned by symmetry k (bit 0: mirror left to
// right, bit 1: top to bottom, bit 2: then swap rows and columns) and
// its moves turned alike.
func transform(l *level.Level, moves []level.Move, k int) (*level.Level, []level.Move, error) {
	w, h := l.Width, l.Height
	if k&4 != 0 {
		w, h = h, w
	}
	var text strings.Builder
	for y := range h {
		for x := range w {
			a, b := x, y
			if k&4 != 0 {
				a, b = y, x
			}
			if k&1 != 0 {
				a = l.Width - 1 - a
			}
			if k&2 != 0 {
				b = l.Height - 1 - b
			}
			text.WriteByte(l.Rows[b][a])
		}
		text.WriteByte('\n')
	}
	ls, err := level.ParseString(text.String(), l.Source)
	if err != nil {
		return nil, nil, err
	}
	out := make([]level.Move, len(moves))
	for i, mv := range moves {
		out[i] = level.Move{Dir: turn(mv.Dir, k), Push: mv.Push}
	}
	return ls[0], out, nil
}

// turn returns direction d under symmetry k.
func turn(d level.Dir, k int) level.Dir {
	dx, dy := d.Delta()
	if k&1 != 0 {
		dx = -dx
	}
	if k&2 != 0 {
		dy = -dy
	}
	if k&4 != 0 {
		dx, dy = dy, dx
	}
	for e := range level.Dirs {
		if ex, ey := e.Delta(); ex == dx && ey == dy {
			return e
		}
	}
	panic("lts: no direction turns into another")
}
