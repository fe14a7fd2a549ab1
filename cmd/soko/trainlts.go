package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
	"time"

	"soko/internal/progress"
	"soko/lts"
)

const trainLTSDoc = `Trains the context model of the lts solver (Levin tree search, Orseau,
Hutter and Lelis 2023) from scratch by the bootstrap: it generates --levels
levels with soko generate's generator (one in three like Boxoban
unfiltered, two in three in the medium-like band; never a test collection),
then in rounds searches every level not yet solved with LTS on the current
policy within --budget expansions (the first round's policy is uniform),
and makes --epochs passes of gradient steps of the log loss on every
solution found so far; a round that solves fewer than --min-new of the
levels it tried doubles the budget, up to --max-budget, where training
ends. Equal flags give the same model, byte for byte, whatever -j;
--minutes ends training after the round that passes it. Progress goes to
standard error when it is a terminal. Use the model with 'soko solve
--algo lts --model FILE'.
`

type trainLTSConfig struct {
	out    string
	opts   lts.TrainOptions
	levels int64
	budget int64
	maxB   int64
	bits   int
	quiet  bool
}

func trainLTSFlags() (*flag.FlagSet, *trainLTSConfig) {
	c := &trainLTSConfig{}
	fs := flag.NewFlagSet("train-lts", flag.ContinueOnError)
	o := &c.opts
	fs.StringVar(&c.out, "out", "", "write the model to `FILE` (required)")
	o.Seed = 1
	fs.Var(seedValue{&o.Seed}, "seed", "random seed `N` of the levels and of the order of the gradient steps")
	c.levels = lts.DefaultLevels
	fs.Var(countValue{&c.levels}, "levels", "generated training levels `N`")
	c.budget = lts.DefaultBudget
	fs.Var(countValue{&c.budget}, "budget", "expansions `N` a level in the first round")
	c.maxB = lts.DefaultMaxBudget
	fs.Var(countValue{&c.maxB}, "max-budget", "expansions `N` a level past which the budget never doubles; training ends there")
	fs.IntVar(&o.Epochs, "epochs", lts.DefaultEpochs, "passes `N` over the solutions found after each round")
	fs.Float64Var(&o.Rate, "rate", lts.DefaultRate, "step size `R` of the gradient steps")
	fs.Float64Var(&o.MinNew, "min-new", lts.DefaultMinNew, "share `S` of the levels tried that a round must solve, or the budget doubles")
	fs.IntVar(&o.Rounds, "rounds", 0, "most rounds `N` (0: until the budget passes --max-budget or every level is solved)")
	fs.Float64Var(&o.Minutes, "minutes", 0, "end after the round that passes `M` minutes (0: no limit)")
	fs.IntVar(&c.bits, "bits", lts.DefaultBits, "the weight table has 2^`N` rows")
	o.Workers = 2
	fs.Var(workersValue{&o.Workers}, "j", "goroutines `N` that search (the model does not depend on it)")
	fs.BoolVar(&c.quiet, "quiet", false, "no progress lines")
	return fs, c
}

func runTrainLTS(ctx context.Context, c *trainLTSConfig, specs []string, _ io.Reader, stdout, stderr io.Writer) error {
	if len(specs) > 0 {
		return usagef("train-lts: takes no LEVELS (it generates its own)")
	}
	if c.out == "" {
		return usagef("train-lts: --out FILE is required")
	}
	o := &c.opts
	if err := checkRanges("train-lts",
		inRange{"--levels", c.levels, c.levels >= 1 && c.levels <= 1<<24, "1 to 16777216"},
		inRange{"--budget", c.budget, c.budget >= 1, "at least 1"},
		inRange{"--max-budget", c.maxB, c.maxB >= c.budget, fmt.Sprintf("at least --budget (%d)", c.budget)},
		inRange{"--epochs", o.Epochs, o.Epochs >= 0 && o.Epochs <= 1000, "0 to 1000"},
		inRange{"--rate", o.Rate, o.Rate > 0 && o.Rate <= 10, "above 0, at most 10"},
		inRange{"--min-new", o.MinNew, o.MinNew >= 0 && o.MinNew <= 1, "0 to 1"},
		inRange{"--rounds", o.Rounds, o.Rounds >= 0, "at least 0"},
		inRange{"--minutes", o.Minutes, o.Minutes >= 0, "at least 0"},
		inRange{"--bits", c.bits, c.bits >= 8 && c.bits <= 28, "8 to 28"},
	); err != nil {
		return err
	}
	lock, err := takeOut("train-lts", "--out", c.out, kindModel)
	if err != nil {
		return err
	}
	defer lock.Close()
	o.Levels, o.Budget, o.MaxBudget, o.Bits = int(c.levels), c.budget, c.maxB, uint(c.bits)
	o.Workers = capWorkers(stderr, "train-lts", o.Workers, o.Levels)
	t0 := time.Now()
	if !c.quiet && progress.IsTerminal(stderr) {
		o.Progress = func(r lts.RoundReport) {
			fmt.Fprintf(stderr, "train-lts: round %d, budget %d: %d of %d tried solved, %d of %d in all; %d steps, log loss %.4f → %.4f; %.0fs\n",
				r.Round, r.Budget, r.New, r.Tried, r.Solved, r.Levels, r.Steps, r.Loss, r.LossEnd, time.Since(t0).Seconds())
		}
	}
	m, rep, err := lts.Train(ctx, *o)
	stepped := slices.ContainsFunc(rep.Rounds, func(r lts.RoundReport) bool { return r.Steps > 0 })
	interrupted, err := saveModel("train-lts", c.out, m.Save, err, stepped)
	if err != nil {
		return err
	}
	solved, budget, loss := 0, int64(0), "no solution to learn from: the model has its starting weights"
	if n := len(rep.Rounds); n > 0 {
		solved, budget = rep.Rounds[n-1].Solved, rep.Rounds[n-1].Budget
	}
	if solved > 0 && o.Epochs == 0 {
		loss = "no training step (--epochs 0): the model has its starting weights"
	}
	for _, r := range slices.Backward(rep.Rounds) {
		if r.Steps > 0 { // the loss of the last round that learned
			loss = fmt.Sprintf("log loss %.4f", r.LossEnd)
			break
		}
	}
	fmt.Fprintf(stdout, "trained a context model of 2^%d rows: %d rounds, %d of %d generated levels solved (last budget %d expansions), %s, in %.1fs\n",
		c.bits, len(rep.Rounds), solved, o.Levels, budget, loss, time.Since(t0).Seconds())
	if err := printModel(stdout, c.out); err != nil {
		return err
	}
	if interrupted {
		return errInterrupted
	}
	return nil
}
