package mcts

import (
	"soko/deadlock"
	"soko/heuristic"
	"soko/internal/chunked"
	"soko/level"
	"soko/sokoban"
)

// pushGame is the push-level Sokoban MDP of 000 §4.1 shared by Vanillaban
// and Schokoban. A state is an equivalence state: the boxes plus the region
// the player can walk in, stored as the canonical player square (§4.1.1). An
// action is a walk followed by one push; node.move holds the push as box
// square << 2 | direction, node.state the state's id in a sokoban.Store.
//
// A node's evaluation is its state's reward, the negative minimum-cost
// perfect matching of boxes to goals by Manhattan distance (§4.1.2, no
// rollout, §4.3.1). Values are in pushes: a push changes one box's Manhattan
// distance by exactly one, so siblings' rewards differ by at most one, and
// the UCT constant c is measured against that unit. A solved state has the
// highest reward, 0.
//
// Deadlocked states (§4.2.1: a box on a locking tile, an overfull wall line,
// a frozen box off its goal) are terminal and never kept: expansion drops
// them at once, which is Recursive Node Elimination of a deadlocked leaf
// (§4.2.3); a node left with no children is then eliminated by the loop.
//
// With transpositions (Schokoban, 000 §5) the game keeps a table from state
// to node, nodeOf, and follows Alg. 4 when expansion of node i meets a state
// already in the tree at node j: if depth(i)+1 ≥ depth(j) the new node is
// discarded, otherwise j's subtree is re-parented under i (Tree.Reparent,
// with the §5.2 corrections) and Recursive Node Elimination runs from j's
// former parent. A state whose node was eliminated stays in the table as
// dead: every successor of an eliminated state was a deadlock, is dead too,
// or is in the tree, so meeting it again is discarded like a duplicate.
type pushGame struct {
	board *sokoban.Board
	pos   *sokoban.Position
	root  []byte // packed root state
	store *sokoban.Store
	dead  []bool
	check *deadlock.Checker

	manhattan []int32 // goal*N + square
	cost      []int32
	matcher   *heuristic.Matcher

	transpose bool
	nodeOf    chunked.Slice[int32] // store id -> node, or notInTree / deadState
	cycles    bool                 // drop a child whose state is on its own root path

	pushes []sokoban.Push
	key    []byte
	goal   int32 // the solved node, once found
	elim   func(int32)

	expansions int64
	static     int64 // memory of the tables built before the search

	// stop, when not nil, is asked during set-up and every expandCheck
	// pushes of an expansion whether the search must end (budget.stop);
	// stopped records that an expansion ended part way for it.
	stop    func() bool
	stopped bool

	bestReward float64 // the highest reward evaluated, for progress events
	bestKey    []byte  // its state, packed
	reparents  int64
}

const (
	notInTree int32 = -1
	deadState int32 = -2
)

// detectors are the dynamic deadlock rules of 000 §4.2.1, run by a
// deadlock.Checker after every push: wall deadlocks (Alg. 3's sweep,
// generalised from the outer walls to every closed wall segment, which is
// deadlock.KindWallSegment) and locked boxes (deadlock.KindFreeze). Locking
// tiles (Alg. 2) are the dead squares, which push generation avoids.
var detectors = deadlock.Detectors{WallSegment: true, Freeze: true}

// newPushGame builds the game of b and its tables. stop, if not nil, is
// asked between the tables and every setUpRows rows of the distance table
// whether to give up (a board may have a thousand goals and sixteen
// thousand squares); newPushGame then returns nil.
func newPushGame(b *sokoban.Board, transpose bool, stop func() bool) *pushGame {
	g := &pushGame{
		board:     b,
		pos:       b.Start(),
		store:     sokoban.NewStore(b.KeySize()),
		transpose: transpose,
		goal:      None,
		stop:      stop,
	}
	if g.halt() {
		return nil
	}
	g.dead = deadlock.DeadSquares(b)
	g.check = deadlock.NewChecker(b, g.dead, detectors)
	goals := b.Goals()
	xs, ys := make([]int32, b.N), make([]int32, b.N)
	for s := range b.N {
		x, y := b.XY(sokoban.Square(s))
		xs[s], ys[s] = int32(x), int32(y)
	}
	g.manhattan = make([]int32, len(goals)*b.N)
	for gi, gs := range goals {
		if gi%setUpRows == 0 && g.halt() {
			return nil
		}
		gx, gy := xs[gs], ys[gs]
		row := g.manhattan[gi*b.N : (gi+1)*b.N]
		for s := range row {
			row[s] = abs(xs[s]-gx) + abs(ys[s]-gy)
		}
	}
	n := b.Boxes()
	g.cost = make([]int32, n*n)
	g.static = b.Bytes() + g.check.Bytes() + 4*int64(len(g.manhattan)+len(g.cost))
	g.matcher = heuristic.NewMatcher(n)
	g.root = g.pos.Pack(nil)
	g.store.Intern(g.root, g.pos.Hash())
	g.nodeOf.Append(Root)
	return g
}

// setUpRows is how many rows of the distance table (one per goal, a
// square each) are filled between two looks at the budget, and
// expandCheck how many pushes of one expansion are tried between two:
// each is well under a millisecond of work, and a look costs a few
// nanoseconds.
const (
	setUpRows   = 64
	expandCheck = 16
)

// halt asks stop, if there is one, whether the search must end.
func (g *pushGame) halt() bool { return g.stop != nil && g.stop() }

// Stopped implements Stopper.
func (g *pushGame) Stopped() bool { return g.stopped }

func abs(x int32) int32 {
	if x < 0 {
		return -x
	}
	return x
}

// reward is the negative Manhattan matching of the working position.
func (g *pushGame) reward() float64 {
	boxes := g.pos.BoxSquares()
	n, N := len(boxes), g.board.N
	for i, s := range boxes {
		row := g.cost[i*n : i*n+n]
		for j := range row {
			row[j] = g.manhattan[j*N+int(s)]
		}
	}
	total, _ := g.matcher.Solve(g.cost, n)
	return -float64(total)
}

func packPush(m sokoban.Push) uint32 { return uint32(m.Box)<<2 | uint32(m.Dir) }

func unpackPush(v uint32) sokoban.Push {
	return sokoban.Push{Box: sokoban.Square(v >> 2), Dir: sokoban.Dir(v & 3)}
}

// Reset implements Game.
func (g *pushGame) Reset() { g.pos.Unpack(g.root) }

// Play implements Game.
func (g *pushGame) Play(t *Tree, x int32) { g.pos.Apply(unpackPush(t.at(x).move)) }

// Evaluate implements Game.
func (g *pushGame) Evaluate(t *Tree, x int32) (float64, bool) {
	r := g.reward()
	if g.bestKey == nil || r > g.bestReward {
		g.bestReward, g.bestKey = r, g.pos.Pack(g.bestKey[:0])
	}
	return r, false
}

// best draws the state with the highest reward evaluated so far.
func (g *pushGame) best() []string {
	if g.bestKey == nil {
		return nil
	}
	q := g.pos.Board().Start()
	q.Unpack(g.bestKey)
	return q.Rows()
}

// Removed implements Remover: an eliminated state is dead for good.
func (g *pushGame) Removed(t *Tree, x int32) {
	if g.transpose {
		*g.nodeOf.At(int(t.at(x).state)) = deadState
	}
}

// Expand implements Game: one child per legal push that does not deadlock.
// A node with hundreds of boxes has hundreds of pushes, each checked for
// deadlocks and interned, so the budget is looked at every expandCheck of
// them.
func (g *pushGame) Expand(t *Tree, x int32) bool {
	t.MarkExpanded(x)
	g.expansions++
	g.pushes = g.pos.Pushes(g.pushes[:0], g.dead)
	depth := t.at(x).depth
	for i, m := range g.pushes {
		if i%expandCheck == expandCheck-1 && g.halt() {
			// Half expanded: the search ends here (Stopped).
			g.stopped = true
			return false
		}
		to := g.pos.Apply(m)
		if g.check.Deadlocked(g.pos, to) {
			g.pos.Undo(m)
			continue
		}
		g.key = g.pos.Pack(g.key[:0])
		id, fresh := g.store.Intern(g.key, g.pos.Hash())
		if fresh {
			g.nodeOf.Append(notInTree)
		}
		if g.cycles && !g.transpose && g.onPath(t, x, id) {
			g.pos.Undo(m)
			continue
		}
		if !g.transpose || *g.nodeOf.At(int(id)) == notInTree {
			y := t.Add(x, packPush(m), id)
			if g.transpose {
				*g.nodeOf.At(int(id)) = y
			}
			if g.pos.Solved() {
				g.goal = y
				g.pos.Undo(m)
				return true
			}
		} else if j := *g.nodeOf.At(int(id)); j >= 0 && depth+1 < t.at(j).depth {
			// A shorter path to a state in the tree: move j's subtree here.
			old := t.Reparent(j, x)
			g.reparents++
			t.at(j).move = packPush(m)
			if t.at(old).first == None {
				if g.elim == nil {
					g.elim = func(y int32) { g.Removed(t, y) }
				}
				t.Eliminate(old, g.elim)
			}
		}
		g.pos.Undo(m)
	}
	return false
}

// onPath reports whether state id is held by x or one of its ancestors.
func (g *pushGame) onPath(t *Tree, x int32, id uint32) bool {
	for ; x != None; x = t.at(x).parent {
		if t.at(x).state == id {
			return true
		}
	}
	return false
}

// solution returns the pushes from the root to node x, expanded into moves.
func (g *pushGame) solution(t *Tree, x int32) ([]level.Move, int, error) {
	path := t.Path(nil, x)
	pushes := make([]sokoban.Push, len(path))
	for i, y := range path {
		pushes[i] = unpackPush(t.at(y).move)
	}
	moves, err := g.board.Expand(pushes)
	if err != nil {
		return nil, 0, err
	}
	return moves, len(pushes), nil
}

// bytes returns the memory held by the game's tables.
func (g *pushGame) bytes() int64 {
	return g.static + g.store.Bytes() + g.nodeOf.Bytes()
}
