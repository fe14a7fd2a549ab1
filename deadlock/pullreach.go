package deadlock

import "soko/sokoban"

// pullReach finds the squares from which a lone box can be pushed onto a
// goal, with some squares walls (the frozen boxes): sokoban's pull search
// (Puller) backwards from the goal, over (box square, player side) states
// rather than (box square, player square) ones. Which sides of a square
// the player can walk between with the box on it comes from the
// articulation points of one depth-first search of the free squares per
// set of walls (sokoban.Cuts), so a goal costs O(N), not O(N²). It keeps
// scratch space.
type pullReach struct {
	b     *sokoban.Board
	wall  []bool
	cuts  sokoban.Cuts
	links []int8 // square*4+side: the least side joined with it, -1 none (Cuts.Links)
	pull  *sokoban.Puller
}

func newPullReach(b *sokoban.Board, wall []bool) *pullReach {
	r := &pullReach{b: b, wall: wall, cuts: sokoban.NewCuts(b.N), links: make([]int8, 4*b.N)}
	r.pull = b.NewPuller(r.links, wall)
	return r
}

// bytes returns the memory of the scratch space.
func (r *pullReach) bytes() int64 {
	return int64(r.b.N) * (sokoban.CutsBytes + 4 + sokoban.PullerBytes)
}

func (r *pullReach) free(s sokoban.Square) bool { return s != sokoban.None && !r.wall[s] }

// prepare numbers the free squares, the walls as they stand now, and
// links their sides.
func (r *pullReach) prepare() {
	r.cuts.Visit.Clear()
	r.cuts.Met = r.cuts.Met[:0]
	count := int32(0)
	for root := sokoban.Square(0); int(root) < r.b.N; root++ {
		if r.free(root) && !r.cuts.Visit.Has(int32(root)) {
			count = r.cuts.Number(r.b, r.wall, root, count, 0)
		}
	}
	for s := sokoban.Square(0); int(s) < r.b.N; s++ {
		l := [4]int8{-1, -1, -1, -1}
		if r.free(s) {
			l = r.cuts.Links(r.b, r.wall, s)
		}
		copy(r.links[int(s)*4:], l[:])
	}
}

// from returns the squares a lone box reaches pulled from goal, the player
// starting on any side of it: those from which it can be pushed onto goal.
// After prepare.
func (r *pullReach) from(goal sokoban.Square) []bool {
	r.pull.Search([]sokoban.Square{goal})
	reach := make([]bool, r.b.N)
	for _, st := range r.pull.Reached() {
		reach[st/4] = true
	}
	return reach
}
