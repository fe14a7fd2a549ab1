package sokoban

// Unreachable is the distance of a square from which a lone box can never be
// pushed to the goal in question.
const Unreachable int32 = 1 << 28

// sideLinks returns, for every square s and direction d, a label such that
// with a box on s and no other boxes, the player can walk from the
// neighbour of s in direction d to the neighbour in direction e exactly when
// both labels are equal and not -1 (-1: that neighbour is a wall).
func (b *Board) sideLinks() []int8 {
	links := make([]int8, b.N*4)
	mark := make([]int32, b.N)
	stack := make([]Square, 0, b.N)
	for s := Square(0); int(s) < b.N; s++ {
		for d := Dir(0); d < 4; d++ {
			links[int(s)*4+int(d)] = -1
		}
		stamp := s + 1 // distinct for every s; squares are marked with stamp*4+label
		for d := Dir(0); d < 4; d++ {
			start := b.Next(s, d)
			if start < 0 {
				continue
			}
			if m := mark[start]; m/4 == stamp && m > 0 {
				links[int(s)*4+int(d)] = int8(m % 4)
				continue
			}
			label := int32(d)
			mark[start] = stamp*4 + label
			links[int(s)*4+int(d)] = int8(label)
			stack = append(stack[:0], start)
			for len(stack) > 0 {
				c := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				for e := Dir(0); e < 4; e++ {
					n := b.Next(c, e)
					if n >= 0 && n != s && mark[n] != stamp*4+label {
						mark[n] = stamp*4 + label
						stack = append(stack, n)
					}
				}
			}
		}
	}
	return links
}

// Splits reports whether a box on s cuts the board along direction d: with
// that box (and no other) on s, the player cannot walk from the square
// behind s to the square in front of it. Both must be floor.
func (b *Board) Splits(s Square, d Dir) bool {
	b.linksOnce.Do(func() { b.links = b.sideLinks() })
	back, front := b.links[int(s)*4+int(d^1)], b.links[int(s)*4+int(d)]
	return back >= 0 && front >= 0 && back != front
}

// PullDistances returns, for every square, the least number of pushes that
// moves a lone box from that square onto each goal: dist[g][s] for the g-th
// goal of Goals(), or Unreachable. The player's access is respected: a box
// can be pushed only from a side the player can walk to around it.
//
// It is a breadth-first search backwards from each goal that pulls the box
// (000 §4.2.1, Alg. 2): the box starts on the goal with the player on any
// free side; a pull moves the box one square towards the player, who steps
// back one more square. Squares never reached from any goal are the dead
// squares ("locking tiles").
func (b *Board) PullDistances() [][]int32 {
	links := b.sideLinks()
	dist := make([][]int32, len(b.goals))
	state := make([]int32, b.N*4) // BFS distance per (box square, player side)
	queue := make([]int32, 0, b.N*4)
	for gi, g := range b.goals {
		for i := range state {
			state[i] = Unreachable
		}
		queue = queue[:0]
		for d := Dir(0); d < 4; d++ {
			if links[int(g)*4+int(d)] >= 0 {
				state[int(g)*4+int(d)] = 0
				queue = append(queue, g*4+int32(d))
			}
		}
		for head := 0; head < len(queue); head++ {
			st := queue[head]
			s := st / 4
			label := links[st]
			for d := Dir(0); d < 4; d++ {
				// The player stands on the d side of the box (reachable from
				// where he is) and pulls the box one square in direction d,
				// stepping back one more square himself.
				if links[int(s)*4+int(d)] != label {
					continue
				}
				to := b.Next(s, d)
				back := b.Next(to, d)
				if back < 0 {
					continue
				}
				ns := to*4 + int32(d)
				if state[ns] == Unreachable {
					state[ns] = state[st] + 1
					queue = append(queue, ns)
				}
			}
		}
		row := make([]int32, b.N)
		for s := range row {
			m := Unreachable
			for d := 0; d < 4; d++ {
				m = min(m, state[s*4+d])
			}
			row[s] = m
		}
		dist[gi] = row
	}
	return dist
}
