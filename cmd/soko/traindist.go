package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"soko/distance"
	"soko/levels"
)

const trainDistDoc = `Trains the distance model of the mcts-dist and greedy-dist solvers (003's
future work, §4.2.2): it generates --levels levels with soko generate's
generator (one in three like Boxoban unfiltered, two in three in the
medium-like band), solves each push-optimally, labels the positions of the
optimal path with their remaining pushes, their children with astar's
pushes or as dead (the deadlock detectors' finds and the positions astar
proves unsolvable), and random excursions off the path the same way; then
fits the network to the pushes above the pull-distance matching bound in
--steps steps. Then it measures the model's error on --held levels of
another seed, never trained on. Equal flags give the same model, byte for
byte, whatever -j. Use the model with 'soko solve --algo mcts-dist --model
FILE' (or greedy-dist).

With --measure, it trains nothing: it prints the error of --model (none:
the bound alone) on the optimal paths of LEVELS that astar solves.
`

type trainDistConfig struct {
	out, model          string
	measure             bool
	data                distance.DataConfig
	train               distance.TrainOptions
	count, held, steps  int64
	labelNodes, nodes   int64
	excursions, workers int
	quiet               bool
}

func trainDistFlags() (*flag.FlagSet, *trainDistConfig) {
	c := &trainDistConfig{}
	fs := flag.NewFlagSet("train-dist", flag.ContinueOnError)
	fs.StringVar(&c.out, "out", "", "write the model to `FILE` (required unless --measure)")
	fs.BoolVar(&c.measure, "measure", false, "measure --model's error on LEVELS instead of training")
	fs.StringVar(&c.model, "model", "", "the model `FILE` --measure measures (none: the bound alone)")
	c.count = 2000
	fs.Var(countValue{&c.count}, "levels", "generated levels `N` to train on")
	c.held = 300
	fs.Var(countValue{&c.held}, "held", "generated levels `N` of seed+1000 to measure the model on after training (0: none)")
	c.data.Seed = 1
	fs.Var(seedValue{&c.data.Seed}, "seed", "random seed `N` of the levels, the excursions, the weights and the batches")
	c.steps = distance.DefaultSteps
	fs.Var(countValue{&c.steps}, "steps", "training steps `N` of 64 examples")
	c.labelNodes = distance.DefaultLabelNodes
	fs.Var(countValue{&c.labelNodes}, "label-nodes", "expansions `N` of the search that labels one position")
	c.nodes = 20000
	fs.Var(countValue{&c.nodes}, "nodes", "astar's expansions `N` to find a level's optimal path")
	fs.IntVar(&c.excursions, "excursions", distance.DefaultExcursions, "random excursions `N` off the path from each of its positions")
	c.workers = 2
	fs.Var(workersValue{&c.workers}, "j", "goroutines `N` that make the data (the data does not depend on it)")
	c.train.Net = distance.DefaultConfig()
	netFlags(fs, &c.train.Net)
	fs.BoolVar(&c.quiet, "quiet", false, "no progress lines")
	return fs, c
}

func runTrainDist(ctx context.Context, c *trainDistConfig, specs []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if c.measure {
		if len(specs) == 0 {
			return usagef("train-dist: --measure needs LEVELS")
		}
		if c.out != "" {
			return usagef("train-dist: --measure trains nothing and writes no --out")
		}
		return measureDist(ctx, c, specs, stdin, stdout)
	}
	if c.model != "" {
		return usagef("train-dist: --model is the model --measure measures; training starts from scratch")
	}
	if len(specs) > 0 {
		return usagef("train-dist: takes no LEVELS unless --measure (it generates its own)")
	}
	if c.out == "" {
		return usagef("train-dist: --out FILE is required")
	}
	if err := checkRanges("train-dist",
		inRange{"--levels", c.count, c.count >= 1 && c.count <= 1<<24, "1 to 16777216"},
		inRange{"--held", c.held, c.held <= 1<<24, "0 to 16777216"},
		inRange{"--steps", c.steps, c.steps >= 1 && c.steps <= 1<<30, "1 to 1073741824"},
		inRange{"--label-nodes", c.labelNodes, c.labelNodes >= 1, "at least 1"},
		inRange{"--nodes", c.nodes, c.nodes >= 1, "at least 1"},
		inRange{"--excursions", c.excursions, c.excursions >= 0 && c.excursions <= 100, "0 to 100"},
	); err != nil {
		return err
	}
	if err := checkNet("train-dist", c.train.Net); err != nil {
		return err
	}
	lock, err := takeOut("train-dist", "--out", c.out, kindModel)
	if err != nil {
		return err
	}
	defer lock.Close()
	c.data.Sets = distance.DefaultSets()
	c.workers = capWorkers(stderr, "train-dist", c.workers, int(max(c.count, c.held)))
	c.data.Count, c.data.LabelNodes, c.data.PathNodes, c.data.Excursions, c.data.Workers = int(c.count), c.labelNodes, c.nodes, c.excursions, c.workers
	t0 := time.Now()
	ds, err := distance.Build(ctx, c.data)
	if err != nil {
		return err
	}
	kinds := map[string]int{}
	dead := 0
	for _, x := range ds.Examples {
		kinds[x.Found]++
		if x.Dead() {
			dead++
		}
	}
	fmt.Fprintf(stdout, "data: %d levels (%d not solved by astar, left out), %d examples: %d on optimal paths, %d labelled by search, %d deadlocked by the detectors; %d dead in all; %d positions left unlabelled; %.1fs\n",
		len(ds.Levels), ds.Unsolved, len(ds.Examples), kinds["path"], kinds["astar"], kinds["detector"], dead, ds.Skipped, time.Since(t0).Seconds())
	c.train.Seed, c.train.Steps = c.data.Seed, int(c.steps)
	if !c.quiet {
		c.train.Progress = func(step int, loss float64) {
			if step%(10*distance.ProgressEvery) == 0 {
				fmt.Fprintf(stderr, "train-dist: step %d, loss %.4f, %.0fs\n", step, loss, time.Since(t0).Seconds())
			}
		}
	}
	m, rep, err := distance.Train(ctx, ds, c.train)
	interrupted, err := saveModel("train-dist", c.out, m.Save, err, rep.Steps > 0)
	if err != nil {
		return err
	}
	if n := len(rep.Curve); n > 0 {
		fmt.Fprintf(stdout, "trained %s: %d steps of %d in %.1fs (%.0f examples/s); loss %.4f at the first %d steps, %.4f at the last\n",
			netShape(m.Net.Config), rep.Steps, distance.DefaultBatch, rep.Elapsed.Seconds(), float64(rep.Trained)/max(rep.Elapsed.Seconds(), 1e-9),
			rep.Curve[0], distance.ProgressEvery, rep.Curve[n-1])
	}
	if err := printModel(stdout, c.out); err != nil {
		return err
	}
	if interrupted {
		return errInterrupted
	}
	if c.held > 0 {
		held := c.data
		held.Seed, held.Count, held.Excursions = c.data.Seed+1000, int(c.held), 0
		hd, err := distance.Build(ctx, held)
		if err != nil {
			return err
		}
		for _, who := range []*distance.Model{m} {
			e, err := distance.Measure(ctx, who, hd.Levels, c.nodes)
			if err != nil {
				return err
			}
			printErrors(stdout, fmt.Sprintf("held-back generated levels (seed %d)", held.Seed), e)
		}
	}
	fmt.Fprintf(stdout, "total %.1fs\n", time.Since(t0).Seconds())
	return nil
}

func measureDist(ctx context.Context, c *trainDistConfig, specs []string, stdin io.Reader, stdout io.Writer) error {
	var m *distance.Model
	if c.model != "" {
		if err := checkModel(c.model); err != nil { // a FIFO would be waited on for ever
			return fmt.Errorf("train-dist: %w", err)
		}
		var err error
		if m, err = distance.Load(c.model); err != nil {
			return err
		}
	}
	lvls, err := levels.ResolveAll(ctx, specs, stdin)
	if err != nil {
		return err
	}
	e, err := distance.Measure(ctx, m, lvls, c.nodes)
	if err != nil {
		return err
	}
	printErrors(stdout, fmt.Sprintf("%d levels", len(lvls)), e)
	return nil
}

func printErrors(w io.Writer, what string, e distance.Errors) {
	fmt.Fprintf(w, "error on %s: %d solved by astar (%d not), %d positions on optimal paths: MAE %.3f, RMSE %.3f, bias %+.3f pushes; the bound alone: MAE %.3f, RMSE %.3f\n",
		what, e.Levels, e.Unsolved, e.Positions, e.MAE, e.RMSE, e.Bias, e.BoundMAE, e.BoundRMSE)
}
