package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"soko/fess"
	"soko/guide"
	"soko/internal/english"
	"soko/internal/progress"
	"soko/level"
	"soko/levels"
	"soko/solver"
)

const trainGuideDoc = `Trains the learned guide of fess (package guide) from scratch on fess's own
solutions: it generates --levels levels of five sizes (10x10 with 4 boxes
to 18x18 with 12) and reads LEVELS, if given (the development sets, say;
never a held-out collection), solves each with fess's default
portfolio, one thread, within --nodes expansions, and at each position of
each solution where it starts to move another box, takes the macro-move
it took against the others the FESS expansion makes there. It then fits
the guide's weights by --epochs passes of gradient steps of the log loss.
Equal flags and levels give the same model, byte for byte, whatever -j.
Use it with 'soko solve --algo fess --model FILE' ('--param guide=0'
switches it off). Progress goes to standard error when it is a terminal.
`

type trainGuideConfig struct {
	out    string
	opts   guide.TrainOptions
	levels int64
	nodes  int64
	bits   int
	jobs   int
	quiet  bool
}

// Defaults of soko train-guide: those of the model docs/learning.md
// measures (not tuned).
const (
	defaultGuideLevels = 2000
	defaultGuideNodes  = 50000
)

func trainGuideFlags() (*flag.FlagSet, *trainGuideConfig) {
	c := &trainGuideConfig{}
	fs := flag.NewFlagSet("train-guide", flag.ContinueOnError)
	o := &c.opts
	fs.StringVar(&c.out, "out", "", "write the model to `FILE` (required)")
	o.Seed = 1
	fs.Var(seedValue{&o.Seed}, "seed", "random seed `N` of the generated levels and of the order of the gradient steps")
	c.levels = defaultGuideLevels
	fs.Var(countValue{&c.levels}, "levels", "generated training levels `N` (0: only LEVELS)")
	c.nodes = defaultGuideNodes
	fs.Var(countValue{&c.nodes}, "nodes", "expansions `N` fess may take on each level")
	fs.IntVar(&o.Epochs, "epochs", guide.DefaultEpochs, "passes `N` of gradient steps over the examples")
	fs.Float64Var(&o.Rate, "rate", guide.DefaultRate, "step size `R` of the gradient steps")
	fs.IntVar(&c.bits, "bits", guide.DefaultBits, "the weight table has 2^`N` rows")
	c.jobs = 2
	fs.Var(workersValue{&c.jobs}, "j", "levels `N` solved at once (the model does not depend on it)")
	fs.BoolVar(&c.quiet, "quiet", false, "no progress lines")
	return fs, c
}

func runTrainGuide(ctx context.Context, c *trainGuideConfig, specs []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if c.out == "" {
		return usagef("train-guide: --out FILE is required")
	}
	o := &c.opts
	if err := checkRanges("train-guide",
		inRange{"--levels", c.levels, c.levels >= 0 && c.levels <= 1<<24, "0 to 16777216"},
		inRange{"--nodes", c.nodes, c.nodes >= 1, "at least 1"},
		inRange{"--epochs", o.Epochs, o.Epochs >= 0 && o.Epochs <= 1000, "0 to 1000"},
		inRange{"--rate", o.Rate, o.Rate > 0 && o.Rate <= 10, "above 0, at most 10"},
		inRange{"--bits", c.bits, c.bits >= 8 && c.bits <= 26, "8 to 26"},
	); err != nil {
		return err
	}
	if c.levels == 0 && len(specs) == 0 {
		return usagef("train-guide: --levels 0 needs LEVELS")
	}
	if err := notAnInput("train-guide", stdin, specs, nil, output{"--out", c.out}); err != nil {
		return err
	}
	lock, err := takeOut("train-guide", "--out", c.out, kindModel)
	if err != nil {
		return err
	}
	defer lock.Close()
	var more []*level.Level
	if len(specs) > 0 {
		if more, err = levels.ResolveAll(ctx, specs, stdin); err != nil {
			return err
		}
	}
	jobs := capWorkers(stderr, "train-guide", c.jobs, int(c.levels)+len(more))
	lvls, err := guide.Levels(ctx, int(c.levels), o.Seed, jobs)
	if err != nil {
		return err
	}
	lvls = append(lvls, more...)
	o.Bits = uint(c.bits)
	memory := solver.DefaultMemory(jobs)
	setMemoryLimit(jobs, memory)
	t0 := time.Now()
	var done func(n, solved int)
	if !c.quiet && progress.IsTerminal(stderr) {
		last := time.Time{}
		done = func(n, solved int) {
			if now := time.Now(); now.Sub(last) > time.Second || n == len(lvls) {
				last = now
				fmt.Fprintf(stderr, "\rtrain-guide: %d of %d levels solved, %d tried, %.0fs ", solved, len(lvls), n, now.Sub(t0).Seconds())
			}
		}
	}
	data, err := fess.CollectGuideData(ctx, lvls, c.nodes, memory, o.Bits, jobs, done)
	if done != nil {
		fmt.Fprintln(stderr)
	}
	if err != nil {
		return err
	}
	var ex []guide.Example
	for _, e := range data.Examples {
		ex = append(ex, e...)
	}
	m, rep, err := guide.Train(ctx, ex, *o)
	interrupted, err := saveModel("train-guide", c.out, m.Save, err, rep.Examples > 0)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "trained the guide (2^%d rows) on %s of %s (%s), in %.1fs\n", c.bits, english.Count(rep.Examples, "choice", "choices"),
		english.Count(data.Solved, "solution", "solutions"), english.Count(len(lvls), "level", "levels"), time.Since(t0).Seconds())
	switch {
	case data.Solved == 0:
		fmt.Fprintln(stdout, "no solution to learn from (none found within --nodes): the model is the zero model, every move alike")
	case rep.Examples == 0:
		fmt.Fprintln(stdout, "no choice to learn from in the solutions found (their levels need no macro-move chosen among others): the model is the zero model, every move alike")
	default:
		fmt.Fprintf(stdout, "log loss %.4f → %.4f (uniform %.4f); its best move the one taken %.1f%% of the time (uniform %.1f%%)\n",
			rep.LossFirst, rep.LossLast, rep.ChanceLoss, 100*rep.TopAfter, 100*rep.ChanceTopOne)
	}
	if err := printModel(stdout, c.out); err != nil {
		return err
	}
	if interrupted {
		return errInterrupted
	}
	return nil
}
