package mcts

import (
	"context"
	"strconv"

	"soko/internal/chunked"
	"soko/level"
	"soko/sokoban"
	"soko/solver"
)

// Evaluator supplies the values of new nodes in place of the matching
// reward: a learned heuristic (003 §2.4, package alphazero). The values of
// all children of a node are asked for at once, when it is expanded, so
// that a network evaluates them as one batch.
type Evaluator interface {
	// Add queues the position p, whose matching reward (the negative
	// Manhattan matching, in pushes) is reward, for evaluation.
	Add(p *sokoban.Position, reward float64)
	// Flush evaluates the queued positions, appends their values to dst in
	// the order they were added, and empties the queue.
	Flush(dst []float64) []float64
}

// valueGame is Schokoban's push-level game (000 §5, one node per state)
// whose node values come from an Evaluator. The children of a node are
// evaluated together when it is expanded; the value is kept per node until
// the loop evaluates that node.
type valueGame struct {
	*pushGame
	eval  Evaluator
	value chunked.Slice[nodeValue] // node -> its value, for nodes added by Expand
	batch []int32
	out   []float64
}

// nodeValue is the value an Expand's batch gave a node, until the loop
// evaluates it.
type nodeValue struct {
	v     float64
	known bool
}

// newValueGame is newPushGame (stop as there) with values from eval.
func newValueGame(b *sokoban.Board, eval Evaluator, stop func() bool) *valueGame {
	pg := newPushGame(b, true, stop)
	if pg == nil {
		return nil
	}
	return &valueGame{pushGame: pg, eval: eval}
}

// Expand implements Game: the push game's expansion, then one batch
// evaluation of the new children. Each child's matching reward takes
// a matching of all the boxes, so the budget is looked at before each.
func (g *valueGame) Expand(t *Tree, x int32) bool {
	if g.pushGame.Expand(t, x) {
		return true
	}
	if g.stopped {
		return false
	}
	g.batch = g.batch[:0]
	for y := t.First(x); y != None; y = t.Next(y) {
		if t.Visits(y) > 0 {
			continue // re-parented with its statistics
		}
		if g.halt() {
			g.stopped = true // the search ends: what is queued is never evaluated
			return false
		}
		m := unpackPush(t.Move(y))
		g.pos.Apply(m)
		g.eval.Add(g.pos, g.reward())
		g.pos.Undo(m)
		g.batch = append(g.batch, y)
	}
	g.out = g.eval.Flush(g.out[:0])
	for i, y := range g.batch {
		for int(y) >= g.value.Len() {
			g.value.Append(nodeValue{})
		}
		*g.value.At(int(y)) = nodeValue{g.out[i], true}
	}
	return false
}

func (g *valueGame) counts() (int64, int64, int64) {
	unique, expansions, bytes := g.pushGame.counts()
	return unique, expansions, bytes + g.value.Bytes() + 4*int64(cap(g.batch)) + 8*int64(cap(g.out))
}

// Evaluate implements Game.
func (g *valueGame) Evaluate(t *Tree, x int32) (float64, bool) {
	r, _ := g.pushGame.Evaluate(t, x) // keeps the best state for progress events
	if int(x) < g.value.Len() && g.value.At(int(x)).known {
		nv := g.value.At(int(x))
		nv.known = false // the slot may be reused for another node
		return nv.v, false
	}
	g.eval.Add(g.pos, r)
	g.out = g.eval.Flush(g.out[:0])
	return g.out[0], false
}

// SolveValued runs Schokoban (000 §5) with UCT constant c whose node
// values come from eval; with a nil eval it is Schokoban itself.
func SolveValued(ctx context.Context, l *level.Level, opts solver.Options, c float64, eval Evaluator) (solver.Result, error) {
	return solveGame(ctx, l, opts, c, true, func(b *sokoban.Board, stop func() bool) sokobanGame {
		g, _ := newSchokoban(b, eval, stop)
		return g
	})
}

// newSchokoban returns Schokoban's game on board b, with its values from
// eval (the matching reward when eval is nil), and the push game under
// it; both are nil when stop ended the set-up (newPushGame).
func newSchokoban(b *sokoban.Board, eval Evaluator, stop func() bool) (sokobanGame, *pushGame) {
	if eval == nil {
		if g := newPushGame(b, true, stop); g != nil {
			return g, g
		}
	} else if g := newValueGame(b, eval, stop); g != nil {
		return g, g.pushGame
	}
	return nil, nil
}

// SolveEvaluated is SolveValued with the evaluator newEval makes, which
// holds need bytes beside the search (a network, its batches, its
// tables): under a memory limit the search's tables get the rest, and when
// need alone does not fit, the solve ends with MemoryLimit before newEval
// runs. A newEval stopped by the budget (solver.Stopped) ends the solve
// with that status. The result counts need in its memory.
func SolveEvaluated(ctx context.Context, l *level.Level, opts solver.Options, c float64, need int64, newEval func() (Evaluator, error)) (solver.Result, error) {
	end := func(st solver.Status) solver.Result {
		res := solver.Result{Status: st, Stats: solver.Stats{Bytes: need}}
		solver.NewGuard(ctx, opts).Finish(&res.Stats)
		return res
	}
	if opts.Budget.Memory > 0 && need >= opts.Budget.Memory {
		return end(solver.MemoryLimit), nil
	}
	eval, err := newEval()
	if err != nil {
		if st, ok := solver.Stopped(err); ok {
			return end(st), nil
		}
		return solver.Result{}, err
	}
	if opts.Budget.Memory > 0 {
		opts.Budget.Memory -= need
	}
	res, err := SolveValued(ctx, l, opts, c, eval)
	res.Stats.Bytes += need
	return res, err
}

// WeightParam declares the weight of Mix, the model's share in a node's
// value, from 0 to 1 with default def.
func WeightParam(def float64, doc string) solver.Param {
	return solver.Param{Name: "weight", Kind: solver.Real, Default: strconv.FormatFloat(def, 'g', -1, 64), Min: 0, Max: 1, Doc: doc}
}

// Mix is the value of a node whose model puts it pushes from the solution
// and whose matching reward is reward, the model's share being weight:
// −weight·pushes + (1 − weight)·reward.
func Mix(weight, pushes, reward float64) float64 { return -weight*pushes + (1-weight)*reward }

// ValueSearch is the search SolveValued runs, driven one iteration at a
// time, for a learner that reads its tree (003 §2.5: training samples come
// from the search tree).
type ValueSearch struct {
	Tree   *Tree
	game   sokobanGame
	push   *pushGame
	search *Search
}

// NewValueSearch starts a search of board b with UCT constant c and random
// seed seed; eval nil means the matching reward alone.
func NewValueSearch(b *sokoban.Board, eval Evaluator, c float64, seed uint64) *ValueSearch {
	v := &ValueSearch{Tree: NewTree(0)}
	v.game, v.push = newSchokoban(b, eval, nil)
	v.search = NewSearch(v.Tree, v.game, seed)
	v.search.C, v.search.Eliminate = c, true
	return v
}

// Iterate runs one iteration; Found means a solved state entered the tree
// (Solution is its node).
func (v *ValueSearch) Iterate() Outcome {
	if v.push.rootSolved() {
		v.push.goal = Root
		return Found
	}
	return v.search.Iterate()
}

// Position returns node x's position and its matching reward. The position
// is the search's working one: valid until the next Iterate.
func (v *ValueSearch) Position(x int32) (*sokoban.Position, float64) {
	g := v.push
	g.pos.Unpack(g.store.Key(v.Tree.State(x)))
	return g.pos, g.reward()
}

// Push returns the push that leads to node x from its parent.
func (v *ValueSearch) Push(x int32) sokoban.Push { return unpackPush(v.Tree.Move(x)) }
