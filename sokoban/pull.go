package sokoban

import "context"

// Unreachable is the distance of a square from which a lone box can never be
// pushed to the goal in question.
const Unreachable int32 = 1 << 28

// sideLinks returns, for every square s and direction d, a label such that
// with a box on s and no other boxes, the player can walk from the
// neighbour of s in direction d to the neighbour in direction e exactly when
// both labels are equal and not -1 (-1: that neighbour is a wall). The
// label of a neighbour is the first direction, in the order of Dir, whose
// neighbour lies in the same part of the board without s.
//
// It takes one depth-first search over the squares, O(N): with a box on s
// the board falls apart along the articulation points of Hopcroft and
// Tarjan. Number the squares in the order the search first meets them and
// let low(c) be the least number reachable from c's subtree by one edge
// that is not a tree edge. Without s, the subtree of a child c of s is cut
// off from the rest exactly when low(c) >= number(s) (or s is the root);
// otherwise it hangs on to the part holding s's ancestors. Every other
// neighbour of s is an ancestor (in that part) or lies in the subtree of
// one child.
func (b *Board) sideLinks() []int8 {
	n := b.N
	links := make([]int8, n*4)
	if n == 0 {
		return links
	}
	num := make([]int32, n)  // order of discovery, from 1; 0: not yet met
	low := make([]int32, n)  // low(s), see above
	last := make([]int32, n) // the largest number in s's subtree
	parent := make([]Square, n)
	type frame struct {
		s Square
		d Dir // the next direction to look at
	}
	stack := make([]frame, 1, 64)
	count := int32(1)
	num[0], low[0], parent[0] = 1, 1, None
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		s := f.s
		if f.d < 4 {
			c := b.next[s][f.d]
			f.d++
			switch {
			case c == None:
			case num[c] == 0:
				count++
				num[c], low[c], parent[c] = count, count, s
				stack = append(stack, frame{s: c})
			case c != parent[s]:
				low[s] = min(low[s], num[c])
			}
			continue
		}
		last[s] = count
		stack = stack[:len(stack)-1]
		if p := parent[s]; p != None {
			low[p] = min(low[p], low[s])
		}
	}
	const wall, above = -2, -1 // part keys besides a child's number
	for s := Square(0); int(s) < n; s++ {
		var part [4]int32
		for d := range 4 {
			c := b.next[s][d]
			switch {
			case c == None:
				part[d] = wall
			case num[c] < num[s]: // the parent, or an ancestor
				part[d] = above
			default: // in the subtree of one child of s
				for _, ch := range b.next[s] {
					if ch != None && parent[ch] == s && num[ch] <= num[c] && num[c] <= last[ch] {
						part[d] = num[ch]
						if parent[s] != None && low[ch] < num[s] {
							part[d] = above
						}
						break
					}
				}
			}
		}
		for d := range 4 {
			links[int(s)*4+d] = -1
			if part[d] == wall {
				continue
			}
			for e := range 4 {
				if part[e] == part[d] {
					links[int(s)*4+d] = int8(e)
					break
				}
			}
		}
	}
	return links
}

// sides returns sideLinks, computed once.
func (b *Board) sides() []int8 {
	b.linksOnce.Do(func() { b.links = b.sideLinks() })
	return b.links
}

// Splits reports whether a box on s cuts the board along direction d: with
// that box (and no other) on s, the player cannot walk from the square
// behind s to the square in front of it. Both must be floor.
func (b *Board) Splits(s Square, d Dir) bool {
	links := b.sides()
	back, front := links[int(s)*4+int(d^1)], links[int(s)*4+int(d)]
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
// squares ("locking tiles"); NearestGoal finds them with one search.
//
// The table takes PullBytes bytes and O(goals·N) time, a few milliseconds
// per goal on the largest boards. It looks at ctx before each goal and
// returns ctx.Err() once ctx is done.
func (b *Board) PullDistances(ctx context.Context) ([][]int32, error) {
	dist := make([][]int32, len(b.goals))
	pl := b.newPuller()
	for gi, g := range b.goals {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		dist[gi] = pl.pull([]Square{g})
	}
	return dist, nil
}

// NearestGoal returns, for every square, the least number of pushes that
// moves a lone box from it onto the nearest goal, or Unreachable for the
// dead squares: the minimum over the goals of PullDistances, found by one
// search pulling from every goal at once, in O(N).
func (b *Board) NearestGoal() []int32 {
	return b.newPuller().pull(b.goals)
}

// puller holds the scratch space of the pull searches.
type puller struct {
	b     *Board
	links []int8
	state []int32 // distance per (box square, player side)
	queue []int32
}

func (b *Board) newPuller() *puller {
	return &puller{b: b, links: b.sides(), state: make([]int32, b.N*4), queue: make([]int32, 0, b.N*4)}
}

// pull returns the least pulls from the goals in from to every square.
func (pl *puller) pull(from []Square) []int32 {
	b, links, state := pl.b, pl.links, pl.state
	for i := range state {
		state[i] = Unreachable
	}
	queue := pl.queue[:0]
	for _, g := range from {
		for d := Dir(0); d < 4; d++ {
			if links[int(g)*4+int(d)] >= 0 {
				state[int(g)*4+int(d)] = 0
				queue = append(queue, g*4+int32(d))
			}
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
	pl.queue = queue
	row := make([]int32, b.N)
	for s := range row {
		m := Unreachable
		for d := 0; d < 4; d++ {
			m = min(m, state[s*4+d])
		}
		row[s] = m
	}
	return row
}

// PullBytes returns the memory the table of PullDistances takes.
func (b *Board) PullBytes() int64 {
	return 4 * int64(len(b.goals)) * int64(b.N)
}
