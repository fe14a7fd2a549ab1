package alphazero

import (
	"context"
	"fmt"
	"math"
	"strconv"

	"soko/level"
	"soko/mcts"
	"soko/nn"
	"soko/sokoban"
	"soko/solver"
)

// DefaultWeight is 003 §3.1's mix: 0.8 of the model's value and 0.2 of the
// distance heuristic's.
const DefaultWeight = 0.8

var (
	cParam = solver.Param{Name: "c", Kind: solver.Real, Default: strconv.FormatFloat(mcts.DefaultPushC, 'g', -1, 64),
		Min: 0, Max: 1e6, Doc: "UCT exploration constant (values are in pushes)"}
	weightParam = solver.Param{Name: "weight", Kind: solver.Real, Default: strconv.FormatFloat(DefaultWeight, 'g', -1, 64),
		Min: 0, Max: 1, Doc: "share of the model in a node's value, the rest the matching heuristic (1: the model alone)"}
)

func init() {
	solver.Register(solver.Entry{
		Name:    "alphazero",
		Summary: "Schokoban MCTS valued by a network trained with soko train, --model FILE (003 §2.4, §3.1); without a model, Schokoban",
		Params:  []solver.Param{cParam, weightParam},
		New:     func() solver.Solver { return Solver{} },
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
	c, err := opts.Real(cParam)
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
	net, err := Load(opts.Model)
	if err != nil {
		return solver.Result{}, err
	}
	return mcts.SolveValued(ctx, l, opts, c, NewEvaluator(net, weight))
}

// Evaluator values positions with a network: weight·(−steps) +
// (1 − weight)·reward, where steps is the network's prediction of the
// pushes needed to reach heuristic value 0 and reward the negative
// matching. It implements mcts.Evaluator.
type Evaluator struct {
	net     *nn.Net
	weight  float64
	w, h    int
	in      []float64
	rewards []float64
	out     []float64
}

// NewEvaluator returns an evaluator of net's values mixed with weight.
func NewEvaluator(net *nn.Net, weight float64) *Evaluator {
	return &Evaluator{net: net, weight: weight}
}

// Add implements mcts.Evaluator.
func (e *Evaluator) Add(p *sokoban.Position, reward float64) {
	b := p.Board()
	e.w, e.h = b.Width, b.Level.Height
	e.in = encode(e.in, p, 0)
	e.rewards = append(e.rewards, reward)
}

// Flush implements mcts.Evaluator. The network sees at most maxSquares
// squares at a time, which bounds its scratch memory on large boards.
func (e *Evaluator) Flush(dst []float64) []float64 {
	size := planes * e.w * e.h
	per := max(1, maxSquares/(e.w*e.h))
	for at := 0; at < len(e.rewards); at += per {
		k := min(per, len(e.rewards)-at)
		var err error
		e.out, err = e.net.Values(context.Background(), e.in[at*size:(at+k)*size], k, e.h, e.w, e.out)
		if err != nil {
			panic(fmt.Sprintf("alphazero: a batch the evaluator built is malformed: %v", err))
		}
		for i, r := range e.rewards[at : at+k] {
			dst = append(dst, e.weight*-Steps(e.out[i])+(1-e.weight)*r)
		}
	}
	e.in, e.rewards = e.in[:0], e.rewards[:0]
	return dst
}

// maxSquares bounds the board squares of one network batch, in inference
// and in training: 64 boards of 10×10 and more, one board of any size.
// The largest scratch matrix, the 3×3 neighbourhoods of every square, then
// takes 9·Channels·maxSquares values.
const maxSquares = 8192

// Steps turns a network output into steps: never negative, and a
// non-finite output (a diverged network) counts as very far.
func Steps(out float64) float64 {
	if math.IsNaN(out) || math.IsInf(out, 0) {
		return 1e6
	}
	return min(max(out*scale, 0), 1e6)
}
