package deadlock

import "soko/sokoban"

// pullReach finds the squares from which a lone box can be pushed onto a
// goal, with some squares walls (the frozen boxes): a breadth-first search
// backwards from the goal, pulling the box, over (box square, player side)
// states rather than (box square, player square) ones. Which sides of a
// square the player can walk between with the box on it comes from the
// articulation points of one depth-first search of the free squares per
// set of walls (sokoban.Cuts, as fess's macro-moves find them), so a goal
// costs O(N), not O(N²). It keeps scratch space.
type pullReach struct {
	b      *sokoban.Board
	wall   []bool
	cuts   sokoban.Cuts
	part   []int8 // square*4+side: the least side joined with it, -1 none
	parted []bool // part is computed for the square
	seen   []uint32
	round  uint32
	queue  []int32
}

func newPullReach(b *sokoban.Board, wall []bool) *pullReach {
	n := b.N
	return &pullReach{b: b, wall: wall, cuts: sokoban.NewCuts(n), part: make([]int8, 4*n), parted: make([]bool, n), seen: make([]uint32, 4*n)}
}

// bytes returns the memory of the scratch space.
func (r *pullReach) bytes() int64 {
	return int64(r.b.N)*(sokoban.CutsBytes+4+1+4*4) + 4*int64(cap(r.queue))
}

func (r *pullReach) free(s sokoban.Square) bool { return s != sokoban.None && !r.wall[s] }

// prepare numbers the free squares, the walls as they stand now.
func (r *pullReach) prepare() {
	r.cuts.Visit.Clear()
	r.cuts.Met = r.cuts.Met[:0]
	clear(r.parted)
	count := int32(0)
	for root := sokoban.Square(0); int(root) < r.b.N; root++ {
		if r.free(root) && !r.cuts.Visit.Has(int32(root)) {
			count = r.cuts.Number(r.b, r.wall, root, count, 0)
		}
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
	l := r.cuts.Links(r.b, r.wall, s)
	copy(r.part[int(s)*4:], l[:])
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
