package qlearn

import (
	"context"

	"soko/level"
	"soko/solver"
)

// The parameters, with 001 §3's defaults.
var (
	alphaParam = solver.Param{Name: "alpha", Kind: solver.Real, Default: "0.5", Min: 0, Max: 1,
		Doc: "learning rate α of Eq. 5"}
	gammaParam = solver.Param{Name: "gamma", Kind: solver.Real, Default: "0.6", Min: 0, Max: 1,
		Doc: "discount factor γ"}
	epsParam = solver.Param{Name: "eps", Kind: solver.Real, Default: "0.999", Min: 0, Max: 1,
		Doc: "exploration ε: a random action with probability ε·λ^episode"}
	lambdaParam = solver.Param{Name: "lambda", Kind: solver.Real, Default: "0.999", Min: 0, Max: 1,
		Doc: "decay λ of ε per episode"}
	pParam = solver.Param{Name: "p", Kind: solver.Real, Default: "2", Min: 1, Max: 64,
		Doc: "exponent of the Minkowski distances in h1 + h2 (rewards, and qstar's A*)"}
	stepsParam = solver.Param{Name: "steps", Kind: solver.Int, Default: "1000", Min: 1, Max: 1e7,
		Doc: "actions per episode at most"}
	loopsParam = solver.Param{Name: "loops", Kind: solver.Bool, Default: "1",
		Doc: "end an episode that returns to a state it was in, as a deadlock (001 §3's loop detection)"}
	restartParam = solver.Param{Name: "restart", Kind: solver.Int, Default: "0", Min: 0, Max: 1e9,
		Doc: "forget the Q-table and restart ε's decay every T episodes without success (0: never; 001 §2.2.4)"}
	wParam = solver.Param{Name: "w", Kind: solver.Real, Default: "200", Min: 0, Max: 10000,
		Doc: "weight W of the sub-goal A*'s f = g + W·h"}
	subgoalNodesParam = solver.Param{Name: "subgoal-nodes", Kind: solver.Int, Default: "5000", Min: 1, Max: 1e8,
		Doc: "states one sub-goal A* may expand before it fails"}
)

// QLearn is 001 §2.2.2's tabular Q-learning over moves.
type QLearn struct{}

// QStar is 001 §3's Q*: Q-learning whose actions include "run A* to the
// next sub-goal".
type QStar struct{}

// Solve implements solver.Solver.
func (QLearn) Solve(ctx context.Context, l *level.Level, opts solver.Options) (solver.Result, error) {
	cfg, err := readConfig(opts, false)
	if err != nil {
		return solver.Result{}, err
	}
	return solve(ctx, l, opts, cfg)
}

// Solve implements solver.Solver.
func (QStar) Solve(ctx context.Context, l *level.Level, opts solver.Options) (solver.Result, error) {
	cfg, err := readConfig(opts, true)
	if err != nil {
		return solver.Result{}, err
	}
	return solve(ctx, l, opts, cfg)
}

func readConfig(opts solver.Options, qstar bool) (config, error) {
	cfg := config{qstar: qstar}
	for _, r := range []struct {
		p  solver.Param
		to *float64
	}{{alphaParam, &cfg.alpha}, {gammaParam, &cfg.gamma}, {epsParam, &cfg.eps}, {lambdaParam, &cfg.lambda}, {pParam, &cfg.p}} {
		v, err := opts.Real(r.p)
		if err != nil {
			return cfg, err
		}
		*r.to = v
	}
	steps, err := opts.Int(stepsParam)
	if err != nil {
		return cfg, err
	}
	cfg.steps = steps
	if cfg.restart, err = opts.Int(restartParam); err != nil {
		return cfg, err
	}
	if cfg.loops, err = opts.Bool(loopsParam); err != nil {
		return cfg, err
	}
	if !qstar {
		return cfg, nil
	}
	if cfg.w, err = opts.Real(wParam); err != nil {
		return cfg, err
	}
	nodes, err := opts.Int(subgoalNodesParam)
	cfg.subgoalNodes = int64(nodes)
	return cfg, err
}

func init() {
	common := []solver.Param{alphaParam, gammaParam, epsParam, lambdaParam, pParam, stepsParam, loopsParam, restartParam}
	solver.Register(solver.Entry{Name: "qlearn", Summary: "tabular Q-learning over moves, ε-greedy, 001's rewards (001 §2.2.2, Alg. 7)",
		Params: common, New: func() solver.Solver { return QLearn{} }})
	solver.Register(solver.Entry{Name: "qstar", Summary: "Q*: Q-learning whose actions include weighted A* to the next sub-goal (001 §3)",
		Params: append(common[:len(common):len(common)], wParam, subgoalNodesParam), New: func() solver.Solver { return QStar{} }})
}
