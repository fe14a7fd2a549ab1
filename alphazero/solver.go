package alphazero

import (
	"context"
	"fmt"
	"math"

	"soko/internal/grid"
	"soko/level"
	"soko/mcts"
	"soko/nn"
	"soko/sokoban"
	"soko/solver"
)

// DefaultWeight is 003 §3.1's mix: 0.8 of the model's value and 0.2 of the
// distance heuristic's.
const DefaultWeight = 0.8

var weightParam = mcts.WeightParam(DefaultWeight, "share of the model in a node's value, the rest the matching heuristic (1: the model alone)")

func init() {
	solver.Register(solver.Entry{
		Name:    "alphazero",
		Summary: "Schokoban MCTS valued by a network trained with soko train, --model FILE (003 §2.4, §3.1); without a model, Schokoban",
		Params:  []solver.Param{mcts.PushCParam, weightParam},
		New:     func() solver.Solver { return Solver{} },

		CheckModel:   Check,
		WithoutModel: "Schokoban",
		Iterations:   true,
	})
}

// WithoutModel is the count (Stats.Counts) that a run without a model,
// and so a run of Schokoban, reports as 1.
const WithoutModel = "without_model"

// Solver is the alphazero solver: Schokoban's MCTS whose node values are
// weight·model + (1 − weight)·heuristic, the model being the network of
// the file Options.Model (none: the heuristic alone, which is Schokoban).
type Solver struct{}

// Solve implements solver.Solver.
func (Solver) Solve(ctx context.Context, l *level.Level, opts solver.Options) (solver.Result, error) {
	c, err := opts.Real(mcts.PushCParam)
	if err != nil {
		return solver.Result{}, err
	}
	weight, err := opts.Real(weightParam)
	if err != nil {
		return solver.Result{}, err
	}
	if opts.Model == "" {
		res, err := mcts.SolveValued(ctx, l, opts, c, nil)
		if res.Stats.Counts == nil {
			res.Stats.Counts = map[string]int64{}
		}
		res.Stats.Counts[WithoutModel] = 1 // say so in solve's stats and bench's records
		return res, err
	}
	// The time limit runs from here, so that loading the model counts, and
	// reaches into the network's evaluations through the context: the
	// search's guard reads its deadline as the time limit.
	if opts.Budget.Time > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.Budget.Time)
		defer cancel()
	}
	cfg, err := nn.ReadConfig(opts.Model)
	if err != nil {
		return solver.Result{}, err
	}
	// The network alone may not fit: then the weights are never read.
	batch, need := plan(cfg, l, opts.Budget.Memory)
	return mcts.SolveEvaluated(ctx, l, opts, c, need, func() (mcts.Evaluator, error) {
		net, err := Load(opts.Model)
		if err != nil {
			return nil, err
		}
		return NewEvaluator(ctx, net, weight, batch), nil
	})
}

// plan returns the boards of one network batch on level l and the memory
// the network then holds: its weights, its working memory and the
// evaluator's. A batch holds at most grid.MaxSquares squares, and under a
// memory limit its working memory takes at most a quarter of what the
// weights leave, so that most of the budget goes to the search; it holds
// at least one board.
func plan(cfg nn.Config, l *level.Level, memory int64) (int, int64) {
	hw := l.Width * l.Height
	need := func(count int) int64 { return cfg.Bytes(count, hw, false) + evaluatorBytes(l, count) }
	count := max(1, grid.MaxSquares/hw)
	if memory > 0 {
		weights := need(0)
		perBoard := max(1, need(1)-weights)
		count = int(min(int64(count), max(1, (memory-weights)/4/perBoard)))
	}
	return count, need(count)
}

// evaluatorBytes bounds an Evaluator's memory on level l with batches of
// count boards: the planes of one batch, and the positions of one flush
// (the children of a node, four pushes a box at most) with their rewards.
func evaluatorBytes(l *level.Level, count int) int64 {
	queued := int64(4*l.Boxes() + 1)
	key := int64(2 * (l.Boxes() + 1)) // sokoban.Board.KeySize, at most
	return 8*int64(planes*l.Width*l.Height*count+count) + queued*(key+8)
}

// Evaluator values positions with a network: weight·(−steps) +
// (1 − weight)·reward, where steps is the network's prediction of the
// pushes needed to reach heuristic value 0 and reward the negative
// matching. It implements mcts.Evaluator.
//
// Queued positions are kept packed and encoded a batch at a time, so that
// the children of a node with hundreds of boxes on a large board do not
// take a board's planes each at once. Once its context ends, the network
// stops within a layer and every value left is the matching reward alone:
// the search then stops at its next look at the clock.
type Evaluator struct {
	ctx     context.Context
	net     *nn.Net
	weight  float64
	batch   int               // boards per network batch
	pos     *sokoban.Position // decodes the queued positions
	keys    []byte            // the queued positions, packed
	rewards []float64
	in, out []float64
	stopped bool
}

// NewEvaluator returns an evaluator of net's values mixed with weight,
// that runs the network on at most batch boards at a time until ctx ends.
func NewEvaluator(ctx context.Context, net *nn.Net, weight float64, batch int) *Evaluator {
	return &Evaluator{ctx: ctx, net: net, weight: weight, batch: max(1, batch)}
}

// Add implements mcts.Evaluator.
func (e *Evaluator) Add(p *sokoban.Position, reward float64) {
	if e.pos == nil || e.pos.Board() != p.Board() {
		e.pos = p.Board().Start()
	}
	e.keys = p.PackExact(e.keys) // the player's own square: no flood fill here, encode does one
	e.rewards = append(e.rewards, reward)
}

// Flush implements mcts.Evaluator.
func (e *Evaluator) Flush(dst []float64) []float64 {
	if len(e.rewards) == 0 {
		return dst
	}
	b := e.pos.Board()
	w, h, size := b.Width, b.Level.Height, b.KeySize()
	for at := 0; at < len(e.rewards); at += e.batch {
		rewards := e.rewards[at:min(at+e.batch, len(e.rewards))]
		if !e.stopped {
			e.in = e.in[:0]
			for i := range rewards {
				e.pos.Unpack(e.keys[(at+i)*size:][:size])
				e.in = encode(e.in, e.pos, 0)
			}
			var err error
			e.out, err = e.net.Values(e.ctx, e.in, len(rewards), h, w, e.out)
			if err != nil && e.ctx.Err() == nil {
				panic(fmt.Sprintf("alphazero: a batch the evaluator built is malformed: %v", err))
			}
			e.stopped = err != nil
		}
		for i, r := range rewards {
			if e.stopped {
				dst = append(dst, r)
			} else {
				dst = append(dst, mcts.Mix(e.weight, Steps(e.out[i]), r))
			}
		}
	}
	e.keys, e.rewards = e.keys[:0], e.rewards[:0]
	return dst
}

// Steps turns a network output into steps: never negative, and a
// non-finite output (a diverged network) counts as very far.
func Steps(out float64) float64 {
	if math.IsNaN(out) || math.IsInf(out, 0) {
		return 1e6
	}
	return min(max(out*scale, 0), 1e6)
}
