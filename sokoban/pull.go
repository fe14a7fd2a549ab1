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
	t := b.newFloorTree()
	for s := Square(0); int(s) < n; s++ {
		var part [4]int32
		for d := range 4 {
			part[d] = t.part(b, s, b.next[s][d])
		}
		for d := range 4 {
			links[int(s)*4+d] = -1
			if part[d] == partWall {
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

// floorTree is a depth-first tree of the floor, without boxes: for each
// square its number in the order the search first meets it, low (the least
// number reachable from its subtree by one edge that is not a tree edge),
// the largest number in its subtree, and its parent.
type floorTree struct {
	num, low, last []int32
	parent         []Square
}

func (b *Board) newFloorTree() *floorTree {
	n := b.N
	t := &floorTree{num: make([]int32, n), low: make([]int32, n), last: make([]int32, n), parent: make([]Square, n)}
	num, low, last, parent := t.num, t.low, t.last, t.parent
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
		if f.d < Dirs {
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
	return t
}

// Part keys of floorTree.part besides a child's number.
const partWall, partAbove = -2, -1

// part returns a key of the part of the board without s that holds square
// c (c != s): partWall for None, partAbove for the part holding s's
// ancestors, or the number of the child of s whose subtree is cut off and
// holds c.
func (t *floorTree) part(b *Board, s, c Square) int32 {
	num := t.num
	switch {
	case c == None:
		return partWall
	case num[c] < num[s] || num[c] > t.last[s]: // an ancestor, or outside s's subtree
		return partAbove
	}
	for _, ch := range b.next[s] {
		if ch != None && t.parent[ch] == s && num[ch] <= num[c] && num[c] <= t.last[ch] {
			if t.parent[s] != None && t.low[ch] < num[s] {
				return partAbove
			}
			return num[ch]
		}
	}
	return partAbove // unreachable: c is in s's subtree, so in one child's
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
	state := pl.search(from)
	row := make([]int32, pl.b.N)
	for s := range row {
		m := Unreachable
		for d := 0; d < 4; d++ {
			m = min(m, state[s*4+d])
		}
		row[s] = m
	}
	return row
}

// search returns the least pulls from the goals in from to every state
// (box square·4 + the player's side), in scratch space of pl.
func (pl *puller) search(from []Square) []int32 {
	b, links, state := pl.b, pl.links, pl.state
	for i := range state {
		state[i] = Unreachable
	}
	queue := pl.queue[:0]
	for _, g := range from {
		for d := range Dirs {
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
		for d := range Dirs {
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
	return state
}

// PullBytes returns the memory the table of PullDistances takes.
func (b *Board) PullBytes() int64 {
	return 4 * int64(len(b.goals)) * int64(b.N)
}
