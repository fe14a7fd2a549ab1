package mcts

import (
	"context"
	"fmt"
	"strconv"

	"soko/level"
	"soko/sokoban"
	"soko/solver"
)

func init() {
	solver.Register(solver.Entry{
		Name:       "vanillaban",
		Summary:    "MCTS over pushes, matching reward, no rollouts, node elimination (000 §4)",
		Params:     []solver.Param{pushCParam, cyclesParam},
		New:        func() solver.Solver { return Vanillaban{} },
		Iterations: true,
	})
	solver.Register(solver.Entry{
		Name:       "schokoban",
		Summary:    "Vanillaban with one node per state and subtree re-parenting (000 §5)",
		Params:     []solver.Param{pushCParam},
		New:        func() solver.Solver { return Schokoban{} },
		Iterations: true,
	})
}

// DefaultPushC is the UCT constant of Vanillaban and Schokoban. Their values
// are in pushes (negative Manhattan matching), so c weighs exploration
// against one push of progress.
const DefaultPushC = 1.0

// maxC bounds the UCT constant: far above any useful setting, and small
// enough that c·√(2 ln n) stays finite.
const maxC = 1e6

// cParam declares the UCT exploration constant c with default def.
func cParam(def float64) solver.Param {
	return solver.Param{Name: "c", Kind: solver.Real, Default: strconv.FormatFloat(def, 'g', -1, 64),
		Min: 0, Max: maxC, Doc: "UCT exploration constant"}
}

// PushCParam is c for the solvers built on Schokoban's push game whose
// values are in pushes (alphazero, mcts-dist).
var PushCParam = func() solver.Param {
	p := cParam(DefaultPushC)
	p.Doc += " (values are in pushes)"
	return p
}()

var (
	pushCParam  = cParam(DefaultPushC)
	cyclesParam = solver.Param{Name: "cycles", Kind: solver.Bool, Default: "0",
		Doc: "leave out a child whose state is on its own path from the root"}
)

// Vanillaban is 000 §4: MCTS over push-level equivalence states, every legal
// push expanded, the negative Manhattan matching as the value of a new node,
// no rollouts, UCT with unvisited children first, backup by averaging
// without negation, deadlocked states terminal and Recursive Node
// Elimination. A state may appear in the tree many times. With parameter
// cycles=1 a child whose state already lies on its own path from the root is
// not added, as the thesis's published code does (the text does not say so);
// the default, 0, adds every legal push as §4 describes.
type Vanillaban struct{}

// Schokoban is 000 §5: Vanillaban with a table from state to node, so that
// each state is in the tree at most once, at the least depth found so far
// (Alg. 4, with the statistics corrections of §5.2).
type Schokoban struct{}

// Solve implements solver.Solver.
func (Vanillaban) Solve(ctx context.Context, l *level.Level, opts solver.Options) (solver.Result, error) {
	c, err := opts.Real(pushCParam)
	if err != nil {
		return solver.Result{}, err
	}
	cycles, err := opts.Bool(cyclesParam)
	if err != nil {
		return solver.Result{}, err
	}
	return solveGame(ctx, l, opts, c, true, func(b *sokoban.Board, stop func() bool) sokobanGame {
		g := newPushGame(b, false, stop)
		if g == nil {
			return nil
		}
		g.cycles = cycles
		return g
	})
}

// Solve implements solver.Solver.
func (Schokoban) Solve(ctx context.Context, l *level.Level, opts solver.Options) (solver.Result, error) {
	c, err := opts.Real(pushCParam)
	if err != nil {
		return solver.Result{}, err
	}
	return SolveValued(ctx, l, opts, c, nil)
}

// solveGame is one MCTS solve of l under opts: it starts the budget, builds
// the board and the game newGame makes of it, which looks at the budget
// with stop while it builds its tables and is nil when that ended them,
// and runs the search with UCT constant c (eliminate as Search.Eliminate).
func solveGame(ctx context.Context, l *level.Level, opts solver.Options, c float64, eliminate bool,
	newGame func(b *sokoban.Board, stop func() bool) sokobanGame) (solver.Result, error) {
	r := startBudget(ctx, opts)
	b, err := sokoban.NewBoard(l)
	if err != nil {
		return solver.Result{}, err
	}
	if b.Impossible != "" {
		return r.finish(solver.NoSolution), nil
	}
	g := newGame(b, r.stop)
	if g == nil {
		return r.finish(r.halted), nil
	}
	return r.search(opts, g, c, eliminate)
}

// sokobanGame is a Sokoban game the MCTS loop drives: a Game that also
// reports whether its root is solved, its counters and its solution.
type sokobanGame interface {
	Game
	rootSolved() bool
	counts() (unique, expansions, bytes int64)
	moves(t *Tree) ([]level.Move, error)
	best() []string // the most promising state so far, for progress events
}

func (g *pushGame) rootSolved() bool { return g.pos.Solved() }

func (g *pushGame) counts() (int64, int64, int64) {
	return int64(g.store.Len()), g.expansions, g.bytes()
}

func (g *pushGame) moves(t *Tree) ([]level.Move, error) {
	moves, _, err := g.solution(t, g.goal)
	return moves, err
}

func (g *moveGame) rootSolved() bool { return g.root.Solved() }

func (g *moveGame) counts() (int64, int64, int64) {
	return int64(g.seen.Len()), g.expansions, g.bytes() + g.b.Bytes() + g.pos.Bytes() + g.root.Bytes() + g.scratch.Bytes()
}

func (g *moveGame) moves(t *Tree) ([]level.Move, error) { return g.solution(t), nil }

// budget enforces one solve's limits. Its guard starts before the board and
// the game's tables are built, so that set-up counts against the time
// limit and shows in the time reported, and stop lets work that runs
// between two of the loop's Ticks (set-up, the pushes of one expansion, a
// long rollout) look at the clock and the context itself.
type budget struct {
	guard  *solver.Guard
	stats  solver.Stats
	halted solver.Status // the status a look by stop ended with; Solved while none has
}

// startBudget starts the clock of a solve under opts.
func startBudget(ctx context.Context, opts solver.Options) *budget {
	return &budget{guard: solver.NewGuard(ctx, opts)}
}

// stop looks at the clock and the context now and reports whether the
// search must end; then halted holds the status it ends with.
func (r *budget) stop() bool {
	st, stop := r.guard.Check(&r.stats)
	if stop {
		r.halted = st
	}
	return stop
}

// finish returns the result with status st and the statistics so far.
func (r *budget) finish(st solver.Status) solver.Result {
	r.guard.Finish(&r.stats)
	return solver.Result{Status: st, Stats: r.stats}
}

// revisitsCount is the count of iterations that evaluated again a node
// with no children (Search.Revisits).
const revisitsCount = "revisits"

// search runs MCTS iterations on g, built with r.stop, under the options'
// budget until a solution enters the tree, the tree is exhausted, or the
// budget ends.
func (r *budget) search(opts solver.Options, g sokobanGame, c float64, eliminate bool) (solver.Result, error) {
	r.guard.Best(g.best)
	t := NewTree(0)
	r.stats = solver.Stats{TreeSize: 1, UniqueStates: 1, Stored: 1}
	stats := &r.stats
	if g.rootSolved() {
		return r.finish(solver.Solved), nil
	}
	s := NewSearch(t, g, opts.Seed)
	s.C, s.Eliminate = c, eliminate
	update := func() {
		unique, expansions, bytes := g.counts()
		stats.TreeSize = int64(t.Len())
		stats.UniqueStates, stats.Stored = unique, unique
		stats.Generated = t.Added() - 1
		stats.Expanded = expansions
		stats.Bytes = t.Bytes() + bytes
		if n := s.Revisits(); n > 0 {
			if stats.Counts == nil {
				stats.Counts = map[string]int64{}
			}
			stats.Counts[revisitsCount] = n
		}
	}
	for {
		update()
		if st, stop := r.guard.Tick(stats); stop {
			return r.finish(st), nil
		}
		// Under a node limit an iteration that adds nothing to the tree
		// (Revisits, the count revisitsCount) counts as an expansion, so
		// that a tree that has stopped growing (mcts-nd's) still ends on
		// the limit.
		if n := opts.Budget.Nodes; n > 0 && stats.Expanded+s.Revisits() >= n {
			return r.finish(solver.NodeLimit), nil
		}
		out := s.Iterate()
		stats.Iterations++
		switch out {
		case Found:
			update()
			moves, err := g.moves(t)
			if err != nil {
				return solver.Result{}, err
			}
			res := r.finish(solver.Solved)
			res.Moves = moves
			for _, mv := range moves {
				if mv.Push {
					res.Pushes++
				}
			}
			return res, nil
		case Exhausted:
			return r.finish(solver.NoSolution), nil
		}
		// A long rollout or expansion that looked at the budget itself and
		// was told to stop ended the iteration early (Stopped, or a
		// shortened rollout).
		if r.halted != solver.Solved {
			update()
			return r.finish(r.halted), nil
		}
	}
}

// DefaultMoveC and DefaultRolloutDepth are 002 §V.A's settings for all four
// move-level configurations.
const (
	DefaultMoveC        = 1.0
	DefaultRolloutDepth = 50
)

// MaxRolloutDepth caps the rollout depth parameter: two hundred times 002's
// 50, long enough to cross any level soko accepts many times over, and
// short enough that one rollout takes well under a millisecond and its
// buffers a few kilobytes.
const MaxRolloutDepth = 10000

var (
	moveCParam = cParam(DefaultMoveC)
	depthParam = solver.Param{Name: "depth", Kind: solver.Int, Default: strconv.Itoa(DefaultRolloutDepth),
		Min: 0, Max: MaxRolloutDepth, Doc: "steps per random rollout (0: evaluate the new node itself)"}
)

// eliminateParam declares the "eliminate" switch with variant v's default
// (eliminateDefault).
func eliminateParam(v moveVariant) solver.Param {
	return solver.Param{Name: "eliminate", Kind: solver.Bool, Default: strconv.Itoa(eliminateDefault(v)),
		Doc: "delete an expanded node that got no children (Recursive Node Elimination)"}
}

// MoveMCTS is one of 002 §V.A's MCTS configurations over single player
// moves: plain UCT (mcts), with the novelty bonus (mcts-n), without
// duplicate states (mcts-nd), or MCTS-R with reversibility compression
// (mcts-r, 002 §III).
type MoveMCTS struct {
	Variant string // "mcts", "mcts-n", "mcts-nd" or "mcts-r"
}

var moveVariants = map[string]moveVariant{
	"mcts": plainMCTS, "mcts-n": noveltyMCTS, "mcts-nd": noDupMCTS, "mcts-r": reversible,
}

func init() {
	for _, e := range []struct{ name, summary string }{
		{"mcts", "plain UCT over single moves, rollouts of 50, goals-covered reward (002 §V.A)"},
		{"mcts-n", "mcts with the novelty bonus 0.9·c/t + 0.1·n/s (002 §V.A)"},
		{"mcts-nd", "mcts that never adds a state already in the tree (002 §V.A)"},
		{"mcts-r", "MCTS with reversibility compression over single moves (002 §III)"},
	} {
		name := e.name
		solver.Register(solver.Entry{
			Name:       name,
			Summary:    e.summary,
			Params:     []solver.Param{moveCParam, depthParam, eliminateParam(moveVariants[name])},
			New:        func() solver.Solver { return MoveMCTS{Variant: name} },
			Iterations: true,
		})
	}
}

// Solve implements solver.Solver.
func (m MoveMCTS) Solve(ctx context.Context, l *level.Level, opts solver.Options) (solver.Result, error) {
	variant, ok := moveVariants[m.Variant]
	if !ok {
		return solver.Result{}, fmt.Errorf("mcts: unknown variant %q", m.Variant)
	}
	c, err := opts.Real(moveCParam)
	if err != nil {
		return solver.Result{}, err
	}
	depth, err := opts.Int(depthParam)
	if err != nil {
		return solver.Result{}, err
	}
	eliminate, err := opts.Bool(eliminateParam(variant))
	if err != nil {
		return solver.Result{}, err
	}
	return solveGame(ctx, l, opts, c, eliminate, func(b *sokoban.Board, stop func() bool) sokobanGame {
		return newMoveGame(b, variant, depth, opts.Seed, stop)
	})
}

// eliminateDefault is the default of the "eliminate" parameter: whether an
// expanded node that got no children is deleted with Recursive Node
// Elimination (000 §4.2.3) rather than evaluated again. 002 does not say
// what to do with one. In MCTS-R such a node holds a closed class, every
// step from every state in it leading back into it, a dead end; we
// eliminate it. In the baselines we keep it as 002 §V.A describes them, as
// plain MCTS with one change each: an mcts-nd node whose steps all lead to
// states already in the tree is then a leaf that rollouts start from again
// and again. (In mcts and mcts-n a node always has children unless the
// player cannot move at all.)
func eliminateDefault(v moveVariant) int {
	if v == reversible {
		return 1
	}
	return 0
}
