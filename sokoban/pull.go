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
// neighbour lies in the same part of the board without s. It takes one
// depth-first search over the squares, O(N): with a box on s the board
// falls apart along the cut squares of the floor (floorCuts).
func (b *Board) sideLinks() []int8 {
	n := b.N
	links := make([]int8, n*4)
	if n == 0 {
		return links
	}
	c := b.floorCuts()
	for s := Square(0); int(s) < n; s++ {
		l := c.Links(b, nil, s)
		copy(links[int(s)*4:], l[:])
	}
	return links
}

// floorCuts returns the depth-first numbering of the floor without boxes,
// from square 0 (the floor is one area: the player's).
func (b *Board) floorCuts() *Cuts {
	c := NewCuts(b.N)
	c.Number(b, make([]bool, b.N), 0, 0, 0)
	return &c
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
	return b.perGoal(ctx, func(pl *Puller, g Square) []int32 { return pl.pull([]Square{g}) })
}

// perGoal is a table of one row per goal of Goals(), each made by row with
// one Puller, looking at ctx before each goal: ctx.Err() once ctx is done.
func (b *Board) perGoal(ctx context.Context, row func(pl *Puller, g Square) []int32) ([][]int32, error) {
	dist := make([][]int32, len(b.goals))
	pl := b.newPuller()
	for gi, g := range b.goals {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		dist[gi] = row(pl, g)
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

// Puller is the scratch space of a pull search: a breadth-first search
// backwards from the goals over (box square, player side) states, pulling
// a lone box (PullDistances), with the sides of a square that the player
// walks between with the box on it given by side links, and, where the
// caller says so, some squares walls (the frozen boxes of
// deadlock.FrozenGoals).
type Puller struct {
	b     *Board
	links []int8
	wall  []bool
	state []int32 // distance per (box square, player side)
	queue []int32
}

func (b *Board) newPuller() *Puller { return b.NewPuller(b.sides(), nil) }

// NewPuller returns a Puller on b with the given side links (links[s·4+d]:
// Cuts.Links of square s with the walls; -1 for a side that is a wall) and
// walls (nil: none). The search reads both as they are at each Search.
func (b *Board) NewPuller(links []int8, wall []bool) *Puller {
	state := make([]int32, b.N*4)
	for i := range state {
		state[i] = Unreachable
	}
	return &Puller{b: b, links: links, wall: wall, state: state, queue: make([]int32, 0, b.N*4)}
}

// pull returns the least pulls from the goals in from to every square.
func (pl *Puller) pull(from []Square) []int32 {
	state := pl.Search(from)
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

// Search returns the least pulls from the goals in from to every state
// (box square·4 + the player's side), or Unreachable, in scratch space of
// pl that the next Search overwrites.
func (pl *Puller) Search(from []Square) []int32 {
	b, links, wall, state := pl.b, pl.links, pl.wall, pl.state
	for _, st := range pl.queue { // only what the last search reached is set
		state[st] = Unreachable
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
			if back < 0 || wall != nil && wall[back] {
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

// Reached returns the states the last Search reached, in the order it met
// them, in scratch space of pl that the next Search overwrites.
func (pl *Puller) Reached() []int32 { return pl.queue }

// PullerBytes is the memory a Puller takes per square.
const PullerBytes = 4*4 + 4*4

// PullBytes returns the memory the table of PullDistances takes.
func (b *Board) PullBytes() int64 {
	return 4 * int64(len(b.goals)) * int64(b.N)
}
