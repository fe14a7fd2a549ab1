package deadlock

import "soko/sokoban"

// pullReach finds the squares from which a lone box can be pushed onto a
// goal, with some squares walls (the frozen boxes): a breadth-first search
// backwards from the goal, pulling the box, over (box square, player side)
// states rather than (box square, player square) ones. Which sides of a
// square the player can walk between with the box on it comes from the
// articulation points of one depth-first search of the free squares per
// set of walls (as fess's macro-moves find them), so a goal costs O(N), not
// O(N²). It keeps scratch space.
type pullReach struct {
	b      *sokoban.Board
	wall   []bool
	num    []int32 // depth-first number from 1, 0: not free
	low    []int32
	last   []int32 // the greatest number in the square's subtree
	parent []sokoban.Square
	stack  []pullFrame
	part   []int8 // square*4+side: the least side joined with it, -1 none
	parted []bool // part is computed for the square
	seen   []uint32
	round  uint32
	queue  []int32
}

type pullFrame struct {
	s sokoban.Square
	d sokoban.Dir
}

func newPullReach(b *sokoban.Board, wall []bool) *pullReach {
	n := b.N
	return &pullReach{b: b, wall: wall, num: make([]int32, n), low: make([]int32, n), last: make([]int32, n),
		parent: make([]sokoban.Square, n), part: make([]int8, 4*n), parted: make([]bool, n), seen: make([]uint32, 4*n)}
}

// bytes returns the memory of the scratch space.
func (r *pullReach) bytes() int64 {
	return int64(r.b.N)*(4*4+4+1+4*4) + 4*int64(cap(r.queue)) + 8*int64(cap(r.stack))
}

func (r *pullReach) free(s sokoban.Square) bool { return s != sokoban.None && !r.wall[s] }

// prepare numbers the free squares, the walls as they stand now.
func (r *pullReach) prepare() {
	b := r.b
	clear(r.num)
	clear(r.parted)
	count := int32(0)
	for root := sokoban.Square(0); int(root) < b.N; root++ {
		if !r.free(root) || r.num[root] != 0 {
			continue
		}
		count++
		r.num[root], r.low[root], r.parent[root] = count, count, sokoban.None
		stack := append(r.stack[:0], pullFrame{s: root})
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			s := f.s
			if f.d < 4 {
				c := b.Next(s, f.d)
				f.d++
				switch {
				case !r.free(c):
				case r.num[c] == 0:
					count++
					r.num[c], r.low[c], r.parent[c] = count, count, s
					stack = append(stack, pullFrame{s: c})
				case c != r.parent[s]:
					r.low[s] = min(r.low[s], r.num[c])
				}
				continue
			}
			r.last[s] = count
			stack = stack[:len(stack)-1]
			if p := r.parent[s]; p != sokoban.None {
				r.low[p] = min(r.low[p], r.low[s])
			}
		}
		r.stack = stack
	}
}

// sides computes part for square s: with a box on s, its free neighbours
// fall into the parts of the free squares without s: the subtree of a
// child that s cuts off, or the rest of s's tree.
func (r *pullReach) sides(s sokoban.Square) {
	if r.parted[s] {
		return
	}
	r.parted[s] = true
	const wall, above = -2, -1
	var label [4]int32
	for d := range sokoban.Dirs {
		c := r.b.Next(s, d)
		label[d] = above
		switch {
		case !r.free(c):
			label[d] = wall
		case r.num[c] > r.num[s]: // below s, in a child's subtree or not
			for e := range sokoban.Dirs {
				ch := r.b.Next(s, e)
				if r.free(ch) && r.parent[ch] == s && r.num[ch] <= r.num[c] && r.num[c] <= r.last[ch] {
					if r.low[ch] >= r.num[s] {
						label[d] = r.num[ch] // cut off (every child of a root is)
					}
					break
				}
			}
		}
	}
	for d := 0; d < 4; d++ {
		r.part[int(s)*4+d] = -1
		if label[d] == wall {
			continue
		}
		for e := 0; e < 4; e++ {
			if label[e] == label[d] {
				r.part[int(s)*4+d] = int8(e)
				break
			}
		}
	}
}

// from returns the squares a lone box reaches pulled from goal, the player
// starting on any side of it: those from which it can be pushed onto goal.
// After prepare.
func (r *pullReach) from(goal sokoban.Square) []bool {
	b := r.b
	r.round++
	if r.round == 0 {
		clear(r.seen)
		r.round = 1
	}
	reach := make([]bool, b.N)
	q := r.queue[:0]
	enter := func(s sokoban.Square, d sokoban.Dir) {
		r.sides(s)
		label := r.part[int(s)*4+int(d)]
		for e := int32(0); e < 4; e++ {
			st := int32(s)*4 + e
			if r.part[st] == label && r.seen[st] != r.round {
				r.seen[st] = r.round
				q = append(q, st)
			}
		}
	}
	for d := range sokoban.Dirs {
		if r.free(b.Next(goal, d)) {
			reach[goal] = true
			enter(goal, d)
		}
	}
	for h := 0; h < len(q); h++ {
		s, d := sokoban.Square(q[h]/4), sokoban.Dir(q[h]%4)
		// The player on the d side steps away in direction d, the box
		// following onto the square the player left.
		to := b.Next(s, d)
		if !r.free(b.Next(to, d)) {
			continue
		}
		reach[to] = true
		enter(to, d)
	}
	r.queue = q
	return reach
}
