package mcts

import (
	"math/rand/v2"

	"soko/internal/chunked"
	"soko/internal/hashtab"
	"soko/level"
	"soko/sokoban"
)

// moveVariant selects one of 002's configurations.
type moveVariant int8

const (
	plainMCTS   moveVariant = iota // mcts: plain UCT
	noveltyMCTS                    // mcts-n: novelty bonus in the reward
	noDupMCTS                      // mcts-nd: never add a state already in the tree
	reversible                     // mcts-r: reversibility checking and compression
)

// moveGame is the single-move Sokoban of 002 §V: an action is one player
// step (a push when a box is in the way); a state is the boxes plus the
// exact player square, identified by its 64-bit Zobrist hash as in 002. No
// domain knowledge: no deadlock detection, no distances.
//
// Evaluation is a random rollout of at most rolloutDepth steps; the reward is
// the share of goals covered at its end, c/t (002 §V.A), plus for mcts-n the
// novelty bonus, 0.9·c/t + 0.1·n/s with n the rollout's states not in the
// tree and s all its states. A rollout or an expansion that reaches a solved
// state ends the search: the solution is the path to the node followed by
// the rollout's steps.
//
// Per node the game keeps the state's hash (own) and, for mcts-r, the node's
// action list and the extra hashes merged into it (see reversal.go);
// node.move holds the step for the other variants.
type moveGame struct {
	b       *sokoban.Board
	pos     *sokoban.Position // the working state
	root    *sokoban.Position
	scratch *sokoban.Position
	variant moveVariant
	depth   int // rollout cap
	rng     *rand.Rand

	// seen holds every state ever added to the tree, by hash, as the
	// nodes are known: a sokoban.Store of the packed positions would be
	// exact but takes 2.4 times the memory (BenchmarkStatesSeen: 12
	// bytes a state held against 29, and 90-230 ns a state met against
	// 180-200).
	seen *hashtab.Set

	own   chunked.Slice[uint64]       // node -> state hash
	acts  chunked.Slice[[]level.Dir]  // mcts-r: node -> action list from its parent
	extra chunked.Slice[*hashtab.Set] // mcts-r: node -> hashes merged into it, or nil

	dirs     []level.Dir
	trail    []uint64 // rollout states, for the novelty bonus
	tail     []level.Dir
	goal     int32       // node the solution passes through, once found
	goalTail []level.Dir // rollout steps after goal

	expansions, compressions int64

	// stop, when not nil, is asked every rolloutCheck rollout steps
	// whether the search must end (the budget or the context; budget.stop).
	stop func() bool

	// The evaluated state with the most boxes on goals, for progress events.
	bestOnGoal            int
	bestBoxes             []sokoban.Square
	bestPlayer            sokoban.Square
	extraBytes, actsBytes int64 // mcts-r: memory of the extra hash sets and action lists
	path                  []int32
}

// newMoveGame returns the game of variant on b with rollouts of at most
// depth steps; stop, if not nil, says when a long rollout must end.
func newMoveGame(b *sokoban.Board, variant moveVariant, depth int, seed uint64, stop func() bool) *moveGame {
	g := &moveGame{
		b: b, pos: b.Start(), root: b.Start(), scratch: b.Start(),
		variant: variant, depth: depth, goal: None, bestOnGoal: -1, stop: stop,
		rng:  rand.New(rand.NewPCG(seed, 0x726f6c6c)),
		seen: hashtab.New[struct{}](1 << 12),
	}
	g.seen.Add(g.root.HashExact())
	g.grow(Root)
	*g.own.At(int(Root)) = g.root.HashExact()
	return g
}

// grow makes the per-node tables cover node x.
func (g *moveGame) grow(x int32) {
	for int(x) >= g.own.Len() {
		g.own.Append(0)
		if g.variant == reversible {
			g.acts.Append(nil)
			g.extra.Append(nil)
		}
	}
}

// add creates a child of x for the working state, reached by steps.
func (g *moveGame) add(t *Tree, x int32, steps []level.Dir) int32 {
	var move uint32
	if len(steps) == 1 {
		move = uint32(steps[0])
	}
	y := t.Add(x, move, 0)
	g.grow(y)
	*g.own.At(int(y)) = g.pos.HashExact()
	if g.variant == reversible {
		g.setActs(y, append([]level.Dir(nil), steps...))
		*g.extra.At(int(y)) = nil
	}
	g.seen.Add(g.pos.HashExact())
	return y
}

// Reset implements Game.
func (g *moveGame) Reset() { g.pos.Set(g.root) }

// Play implements Game.
func (g *moveGame) Play(t *Tree, x int32) {
	if g.variant == reversible {
		for _, d := range *g.acts.At(int(x)) {
			step(g.pos, d)
		}
		return
	}
	step(g.pos, level.Dir(t.at(x).move))
}

// Expand implements Game: one child per legal step (mcts-nd: per legal step
// to a state not yet in the tree).
func (g *moveGame) Expand(t *Tree, x int32) bool {
	t.MarkExpanded(x)
	g.expansions++
	g.dirs = legal(g.pos, g.dirs[:0])
	g.scratch.Set(g.pos)
	for _, d := range g.dirs {
		step(g.pos, d)
		if g.variant == noDupMCTS && g.seen.Has(g.pos.HashExact()) {
			g.pos.Set(g.scratch)
			continue
		}
		one := [1]level.Dir{d}
		y := g.add(t, x, one[:])
		if g.pos.Solved() {
			g.goal, g.goalTail = y, nil
			return true
		}
		g.pos.Set(g.scratch)
	}
	return false
}

// Evaluate implements Game: a random rollout from the working state.
func (g *moveGame) Evaluate(t *Tree, x int32) (float64, bool) {
	if g.pos.OnGoal() > g.bestOnGoal {
		g.bestOnGoal, g.bestPlayer = g.pos.OnGoal(), g.pos.Player()
		g.bestBoxes = append(g.bestBoxes[:0], g.pos.BoxSquares()...)
	}
	if g.pos.Solved() {
		g.goal, g.goalTail = x, nil
		return 1, true
	}
	g.tail = g.tail[:0]
	g.trail = g.trail[:0]
	for i := range g.depth {
		if i%rolloutCheck == rolloutCheck-1 && g.stop != nil && g.stop() {
			break
		}
		g.dirs = legal(g.pos, g.dirs[:0])
		if len(g.dirs) == 0 {
			break
		}
		d := g.dirs[g.rng.IntN(len(g.dirs))]
		step(g.pos, d)
		g.tail = append(g.tail, d)
		if g.pos.Solved() {
			g.goal, g.goalTail = x, g.tail
			return 1, true
		}
		if g.variant == noveltyMCTS {
			g.trail = append(g.trail, g.pos.HashExact())
		}
	}
	r := covered(g.pos)
	if g.variant == noveltyMCTS {
		novel := 0
		for _, h := range g.trail {
			if !g.seen.Has(h) {
				novel++
			}
		}
		nov := 0.0
		if len(g.trail) > 0 {
			nov = float64(novel) / float64(len(g.trail))
		}
		r = 0.9*r + 0.1*nov
	}
	return r, false
}

// rolloutCheck is how many rollout steps pass between looks at the budget.
const rolloutCheck = 1024

// best draws the evaluated state with the most boxes on goals.
func (g *moveGame) best() []string {
	if g.bestOnGoal < 0 {
		return nil
	}
	return g.b.PositionOf(g.bestBoxes, g.bestPlayer).Rows()
}

// steps appends to dst the steps from the root to x.
func (g *moveGame) steps(t *Tree, dst []level.Dir, x int32) []level.Dir {
	g.path = t.Path(g.path[:0], x)
	for _, y := range g.path {
		if g.variant == reversible {
			dst = append(dst, *g.acts.At(int(y))...)
		} else {
			dst = append(dst, level.Dir(t.at(y).move))
		}
	}
	return dst
}

// solution returns the moves of the solution found.
func (g *moveGame) solution(t *Tree) []level.Move {
	dirs := g.steps(t, nil, g.goal)
	dirs = append(dirs, g.goalTail...)
	p := g.b.Start()
	moves := make([]level.Move, len(dirs))
	for i, d := range dirs {
		moves[i] = level.Move{Dir: d, Push: step(p, d)}
	}
	return moves
}

// bytes returns the memory held by the game's tables and buffers (the
// rollout's steps and states, the path of the node being expanded).
func (g *moveGame) bytes() int64 {
	n := g.seen.Bytes() + g.own.Bytes()
	n += int64(cap(g.tail)+cap(g.goalTail)+cap(g.dirs)) + 8*int64(cap(g.trail)) + 4*int64(cap(g.path))
	if g.variant == reversible {
		n += g.acts.Bytes() + g.extra.Bytes() + g.actsBytes + g.extraBytes
	}
	return n
}
