package deadlock

import "soko/sokoban"

// The two detectors here are special cases of the frozen-box rule (Freeze):
// every position they report is one Freeze reports too. They are kept as
// separate, separately switchable detectors because the seed documents use
// them on their own (004 §3 with Fig. 3, 003 §2.3.2), so that experiments
// can reproduce those solvers and measure what the general rule adds.

// block2x2 reports whether the box on s completes a 2×2 block of boxes and
// walls holding a box off its goal (004 §3, Fig. 3). None of the boxes of
// such a block can ever move first: each has a box or wall beside it along
// both axes, inside the block.
func block2x2(p *sokoban.Position, s sokoban.Square) bool {
	b := p.Board()
	x, y := b.XY(s)
	for _, q := range [4][2]int{{-1, -1}, {1, -1}, {-1, 1}, {1, 1}} {
		cells := [3]sokoban.Square{b.At(x+q[0], y), b.At(x, y+q[1]), b.At(x+q[0], y+q[1])}
		solid, off := true, !b.IsGoal(s)
		for _, c := range cells {
			if c == sokoban.None {
				continue
			}
			if !p.HasBox(c) {
				solid = false
				break
			}
			if !b.IsGoal(c) {
				off = true
			}
		}
		if solid && off {
			return true
		}
	}
	return false
}

// wallPair reports whether the box on s and a box beside it both have a
// wall on the same side, across the line that joins them, with one of them
// off its goal (003 §2.3.2): neither can be pushed away from the wall nor
// along it, since the other blocks it. It is the 2×2 block with two walls.
func wallPair(p *sokoban.Position, s sokoban.Square) bool {
	b := p.Board()
	for a := range sokoban.Dirs {
		n := b.Next(s, a)
		if n == sokoban.None || !p.HasBox(n) || (b.IsGoal(s) && b.IsGoal(n)) {
			continue
		}
		w := sokoban.Dir(2) // the two directions across a: Left/Right for Up/Down
		if a >= 2 {
			w = 0
		}
		for _, d := range [2]sokoban.Dir{w, w + 1} {
			if b.Next(s, d) == sokoban.None && b.Next(n, d) == sokoban.None {
				return true
			}
		}
	}
	return false
}
