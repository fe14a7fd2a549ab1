package lts

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"soko/deadlock"
	"soko/generate"
	"soko/level"
	"soko/sokoban"
	"soko/solver"
)

// The defaults of TrainOptions, measured in docs/learning.md.
const (
	DefaultLevels    = 4000
	DefaultBudget    = 2000
	DefaultMaxBudget = 16000
	DefaultEpochs    = 2
	DefaultRate      = 0.02
	DefaultMinNew    = 0.05
)

// trainPrune is the detectors whose proven deadlocks the bootstrap's
// searches, and the softmax its gradient steps fit, leave out: frozen boxes
// alone, as the default model was trained and measured (docs/learning.md).
// The solver's search (searchPrune) leaves out more; its moves are a subset
// of these, over which the policy is renormalised.
var trainPrune = deadlock.Core()

// TrainOptions configure Train.
type TrainOptions struct {
	Levels    int     // generated training levels
	Seed      uint64  // the levels and the order of the gradient steps
	Bits      uint    // table size (DefaultBits when 0)
	Budget    int64   // expansions a level in the first round
	MaxBudget int64   // the budget is never doubled past this; training ends there
	Epochs    int     // passes over the solutions found after each round
	Rate      float64 // step size of the gradient steps
	MinNew    float64 // share of the still unsolved levels a round must solve, or the budget doubles
	Rounds    int     // most rounds (0: until done)
	Minutes   float64 // end after the round that passes this (0: no limit)
	Workers   int     // goroutines that search (the model does not depend on it)
	// Progress, when set, is called after each round.
	Progress func(RoundReport)
}

// RoundReport says what one round of the bootstrap did.
type RoundReport struct {
	Round    int
	Budget   int64   // expansions a level this round
	Tried    int     // levels searched (those not solved before)
	New      int     // of them solved
	Solved   int     // levels solved so far
	Levels   int     // training levels
	Expanded int64   // expansions of the round's searches
	Steps    int     // gradient steps after the round
	Loss     float64 // mean log loss of the solutions' moves in the round's first epoch, each taken before its step
	LossEnd  float64 // the same in its last epoch
}

// Report is what Train did.
type Report struct {
	Rounds []RoundReport
}

// TrainSets are the generator configurations the levels are drawn from,
// in turn: one like Boxoban unfiltered, two in the medium-like band (those
// of the distance model, package distance).
func TrainSets() []generate.Config {
	plain := generate.Config{}
	medium := generate.Config{MinPushes: 10, MinExpanded: 22}
	return []generate.Config{plain, medium, medium}
}

// Levels generates the n training levels of seed, in the order of
// TrainSets, with workers goroutines; the levels do not depend on workers.
func Levels(ctx context.Context, n int, seed uint64, workers int) ([]generate.Level, error) {
	sets := TrainSets()
	out := make([]generate.Level, n)
	err := parallel(ctx, n, workers, func(i int) error {
		set := sets[i%len(sets)]
		set.Seed = seed + uint64(i%len(sets))
		g, err := generate.One(ctx, set, i/len(sets)+1)
		if err != nil {
			return err
		}
		out[i] = g
		return nil
	})
	return out, err
}

// parallel calls f(i) for every i below n on workers goroutines and
// returns the first error.
func parallel(ctx context.Context, n, workers int, f func(i int) error) error {
	var (
		mu   sync.Mutex
		next int
		errs []error
		wg   sync.WaitGroup
	)
	for range max(1, min(workers, n)) {
		wg.Go(func() {
			for {
				mu.Lock()
				i := next
				next++
				stop := len(errs) > 0
				mu.Unlock()
				if i >= n || stop || ctx.Err() != nil {
					return
				}
				if err := f(i); err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	if len(errs) > 0 {
		return errs[0]
	}
	return ctx.Err()
}

// trajectory is a solution to learn from: its level's board and moves.
type trajectory struct {
	bd    *Board
	moves []level.Move
}

// Train runs the bootstrap from the uniform policy on o.Levels generated
// levels. Equal options give the same model whatever o.Workers. When ctx
// is cancelled it returns the model so far with ctx's error.
func Train(ctx context.Context, o TrainOptions) (*Model, Report, error) {
	bits := o.Bits
	if bits == 0 {
		bits = DefaultBits
	}
	m := NewModel(bits)
	var rep Report
	levels, err := Levels(ctx, o.Levels, o.Seed, o.Workers)
	if err != nil {
		return m, rep, err
	}
	sols := make([][]*trajectory, len(levels))
	rng := rand.New(rand.NewPCG(o.Seed, 0x175))
	start := time.Now()
	budget := o.Budget
	solved := 0
	for round := 1; o.Rounds == 0 || round <= o.Rounds; round++ {
		r := RoundReport{Round: round, Budget: budget, Levels: len(levels)}
		var todo []int
		for i, s := range sols {
			if s == nil {
				todo = append(todo, i)
			}
		}
		if len(todo) == 0 {
			break
		}
		found := make([][]*trajectory, len(todo))
		expanded := make([]int64, len(todo))
		trained := m
		if round == 1 {
			trained = nil // the uniform policy, without looking up rows
		}
		err := parallel(ctx, len(todo), o.Workers, func(k int) error {
			res, _, err := search(ctx, levels[todo[k]].Level, trained, solver.Options{Budget: solver.Budget{Nodes: budget}}, trainPrune)
			if err != nil {
				return err
			}
			expanded[k] = res.Stats.Expanded
			if res.Status == solver.Solved {
				found[k], err = symmetric(levels[todo[k]].Level, res.Moves)
			}
			return err
		})
		if err != nil {
			return m, rep, err
		}
		r.Tried = len(todo)
		for k, t := range found {
			r.Expanded += expanded[k]
			if t != nil {
				sols[todo[k]] = t
				r.New++
			}
		}
		solved += r.New
		r.Solved = solved
		var all []*trajectory
		for _, s := range sols {
			all = append(all, s...)
		}
		for e := range o.Epochs {
			if r.New == 0 {
				break // nothing new to learn from
			}
			rng.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
			n, loss, err := epoch(ctx, m, all, o.Rate)
			r.Steps += n
			if err != nil {
				if r.Steps > 0 { // a round cut short in its steps still trained the model
					rep.Rounds = append(rep.Rounds, r)
				}
				return m, rep, err
			}
			if e == 0 {
				r.Loss = loss
			}
			r.LossEnd = loss
		}
		rep.Rounds = append(rep.Rounds, r)
		if o.Progress != nil {
			o.Progress(r)
		}
		if r.New == 0 || float64(r.New) < o.MinNew*float64(r.Tried) { // nothing new: the model stays, so a round again would too
			if budget >= o.MaxBudget {
				break
			}
			budget = min(2*budget, o.MaxBudget)
		}
		if o.Minutes > 0 && time.Since(start).Minutes() >= o.Minutes {
			break
		}
	}
	return m, rep, nil
}

// symmetric returns the trajectories of moves in level l under every
// symmetry.
func symmetric(l *level.Level, moves []level.Move) ([]*trajectory, error) {
	ts := make([]*trajectory, Symmetries)
	for k := range Symmetries {
		tl, tm, err := transform(l, moves, k)
		if err != nil {
			return nil, err
		}
		b, err := sokoban.NewBoard(tl)
		if err != nil {
			return nil, err
		}
		ts[k] = &trajectory{bd: NewBoard(b, trainPrune), moves: tm}
	}
	return ts, nil
}

// walk replays t's moves from its level's start, calling f with each
// position's contexts, legal moves and the move taken.
func walk(t *trajectory, bits uint, rows []uint32, f func(rows []uint32, legal uint8, taken int) error) error {
	pos := t.bd.b.Start()
	last := noMove
	for i, mv := range t.moves {
		rows = t.bd.Contexts(pos, last, bits, rows[:0])
		legal := t.bd.Legal(pos)
		d := int(mv.Dir)
		if legal&(1<<d) == 0 {
			return fmt.Errorf("lts: move %d of a solution is not one the search makes", i+1)
		}
		if err := f(rows, legal, d); err != nil {
			return err
		}
		last = t.bd.play(pos, mv.Dir)
	}
	return nil
}

// epoch makes one gradient step per move of every trajectory, in order,
// and returns the steps made and their mean log loss, each taken before
// its step.
func epoch(ctx context.Context, m *Model, ts []*trajectory, eta float64) (int, float64, error) {
	steps, sum := 0, 0.0
	var rows []uint32
	for _, t := range ts {
		if err := ctx.Err(); err != nil {
			return steps, 0, err
		}
		err := walk(t, m.Bits, rows, func(rows []uint32, legal uint8, taken int) error {
			sum += m.step(rows, legal, taken, eta)
			steps++
			return nil
		})
		if err != nil {
			return steps, 0, err
		}
	}
	return steps, sum / float64(max(steps, 1)), nil
}
