package qlearn

import (
	"context"

	"soko/level"
	"soko/search"
	"soko/solver"
)

// The parameters, with 001 §3's defaults. p and w are the weighted A*'s own
// (search.MinkowskiParam, search.MoveWParam), passed on to the sub-goal
// search (search.SubGoal); p shapes the rewards too.
var (
	alphaParam  = unitParam("alpha", "0.5", "learning rate α of Eq. 5")
	gammaParam  = unitParam("gamma", "0.6", "discount factor γ")
	epsParam    = unitParam("eps", "0.999", "exploration ε: a random action with probability ε·λ^episode")
	lambdaParam = unitParam("lambda", "0.999", "decay λ of ε per episode")
	pParam      = withDoc(search.MinkowskiParam, "exponent of the Minkowski distances in h1 + h2 (rewards, and qstar's A*)")
	stepsParam  = solver.Param{Name: "steps", Kind: solver.Int, Default: "1000", Min: 1, Max: 1e7,
		Doc: "actions per episode at most"}
	loopsParam = solver.Param{Name: "loops", Kind: solver.Bool, Default: "1",
		Doc: "end an episode that returns to a state it was in, as a deadlock (001 §3's loop detection)"}
	restartParam = solver.Param{Name: "restart", Kind: solver.Int, Default: "0", Min: 0, Max: 1e9,
		Doc: "forget the Q-table and restart ε's decay every T episodes without success (0: never; 001 §2.2.4)"}
	wParam            = withDoc(search.MoveWParam, "weight W of the sub-goal A*'s f = g + W·h")
	subgoalNodesParam = solver.Param{Name: "subgoal-nodes", Kind: solver.Int, Default: "5000", Min: 1, Max: 1e8,
		Doc: "states one sub-goal A* may expand before it fails"}
)

// unitParam declares a real parameter from 0 to 1 (a rate, a factor, a
// probability) with default def.
func unitParam(name, def, doc string) solver.Param {
	return solver.Param{Name: name, Kind: solver.Real, Default: def, Min: 0, Max: 1, Doc: doc}
}

// withDoc returns p described by doc.
func withDoc(p solver.Param, doc string) solver.Param {
	p.Doc = doc
	return p
}

// QLearn is 001 §2.2.2's tabular Q-learning over moves.
type QLearn struct{}

// QStar is 001 §3's Q*: Q-learning whose actions include "run A* to the
// next sub-goal".
type QStar struct{}

// Solve implements solver.Solver.
func (QLearn) Solve(ctx context.Context, l *level.Level, opts solver.Options) (solver.Result, error) {
	return solveWith(ctx, l, opts, false)
}

// Solve implements solver.Solver.
func (QStar) Solve(ctx context.Context, l *level.Level, opts solver.Options) (solver.Result, error) {
	return solveWith(ctx, l, opts, true)
}

// solveWith reads the parameters of Q-learning, or of Q* when qstar is
// set, and runs it on l.
func solveWith(ctx context.Context, l *level.Level, opts solver.Options, qstar bool) (solver.Result, error) {
	cfg, err := readConfig(opts, qstar)
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
		Params: common, New: func() solver.Solver { return QLearn{} }, Iterations: true})
	solver.Register(solver.Entry{Name: "qstar", Summary: "Q*: Q-learning whose actions include weighted A* to the next sub-goal (001 §3)",
		Params: append(common[:len(common):len(common)], wParam, subgoalNodesParam), New: func() solver.Solver { return QStar{} }, Iterations: true})
}
