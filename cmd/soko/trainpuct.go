package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"soko/puct"
)

const trainPuctDoc = `Trains the network of the puct solver (AlphaZero's PUCT search) from
scratch on levels of soko generate's generator (those of train-dist: one in
three like Boxoban unfiltered, two in three in the medium-like band). A
warm start first fits the policy to the optimal push and the value to the
remaining pushes on the push-optimal paths of --warm levels (--warm 0: none),
in --warm-steps steps. Then --rounds rounds of self-play: --games episodes on
fresh levels, each push chosen after a search of --sims simulations with
Dirichlet noise at the root; the root's visit counts are the policy target,
the episode's remaining pushes (or a far target when it fails) the value
target; --steps training steps after each round, on the last rounds' samples.
Equal flags give the same model, byte for byte, whatever -j; --minutes ends
training after the round that passes it (the report says how many ran).
Use the model with 'soko solve --algo puct --model FILE'.
`

type trainPuctConfig struct {
	out   string
	opts  puct.TrainOptions
	seed  uint64
	quiet bool
}

func trainPuctFlags() (*flag.FlagSet, *trainPuctConfig) {
	c := &trainPuctConfig{}
	fs := flag.NewFlagSet("train-puct", flag.ContinueOnError)
	o := &c.opts
	fs.StringVar(&c.out, "out", "", "write the model to `FILE` (required)")
	c.seed = 1
	fs.Var(seedValue{&c.seed}, "seed", "random seed `N` of the levels, the weights, the noise and the batches")
	fs.IntVar(&o.WarmLevels, "warm", puct.DefaultWarmLevels, "levels `N` of the supervised warm start (0: none)")
	fs.IntVar(&o.WarmSteps, "warm-steps", puct.DefaultWarmSteps, "training steps `N` of the warm start")
	fs.IntVar(&o.Rounds, "rounds", puct.DefaultRounds, "self-play rounds `N`")
	fs.IntVar(&o.Games, "games", puct.DefaultGames, "self-play episodes `N` a round")
	fs.IntVar(&o.Sims, "sims", puct.DefaultSims, "simulations `N` of the search before each self-play push")
	fs.IntVar(&o.Steps, "steps", puct.DefaultSteps, "training steps `N` after each round")
	fs.IntVar(&o.Window, "window", puct.DefaultWindow, "rounds `N` whose samples a step draws from")
	fs.Float64Var(&o.Minutes, "minutes", 0, "end after the round that passes `M` minutes (0: no limit)")
	o.Workers = 2
	fs.Var(workersValue{&o.Workers}, "j", "goroutines `N` that play (the model does not depend on it)")
	o.Net = puct.DefaultConfig()
	fs.IntVar(&o.Net.Embed, "embed", o.Net.Embed, "embedding channels `N`")
	fs.IntVar(&o.Net.Channels, "channels", o.Net.Channels, "channels `N` of the residual tower")
	fs.IntVar(&o.Net.Blocks, "blocks", o.Net.Blocks, "residual blocks `N`")
	fs.IntVar(&o.Net.Hidden, "hidden", o.Net.Hidden, "units `N` of the value head's hidden layer")
	fs.BoolVar(&c.quiet, "quiet", false, "no progress lines")
	return fs, c
}

func runTrainPuct(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs, c := trainPuctFlags()
	specs, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(specs) > 0 {
		return usagef("train-puct: takes no LEVELS (it generates its own)")
	}
	if c.out == "" {
		return usagef("train-puct: --out FILE is required")
	}
	o := &c.opts
	if o.WarmLevels < 0 || o.WarmLevels > 1<<20 || o.Rounds < 0 || o.Rounds > 1<<20 || o.Games < 1 || o.Games > 1<<20 ||
		o.Sims < 1 || o.Sims > 1<<20 || o.Steps < 1 || o.WarmSteps < 1 || o.Window < 1 || o.Minutes < 0 {
		return usagef("train-puct: --warm and --rounds must be at least 0, --games, --sims, --steps, --warm-steps and --window at least 1")
	}
	o.Net.Planes = 1 // set by Train; checked here for the other fields
	if err := o.Net.Check(); err != nil {
		return usagef("train-puct: %v", err)
	}
	lock, err := takeOut("train-puct", "--out", c.out, kindModel)
	if err != nil {
		return err
	}
	defer lock.Close()
	o.Workers = capWorkers(stderr, "train-puct", o.Workers, max(o.Games, o.WarmLevels))
	o.Seed = c.seed
	t0 := time.Now()
	if !c.quiet {
		o.Progress = func(r puct.RoundReport) {
			what := fmt.Sprintf("round %d: %d of %d episodes solved", r.Round, r.Solved, r.Games)
			if r.Round == 0 {
				what = fmt.Sprintf("warm start: %d of %d levels solved by astar", r.Solved, r.Games)
			}
			fmt.Fprintf(stderr, "train-puct: %s, %d samples, %d evaluations; %d steps, loss value %.4f policy %.4f; %.0fs\n",
				what, r.Samples, r.Evaluated, r.Steps, r.Value, r.Policy, time.Since(t0).Seconds())
		}
	}
	m, rep, err := puct.Train(ctx, *o)
	interrupted := errors.Is(err, context.Canceled)
	if err != nil && !interrupted {
		return err
	}
	if err := m.Save(c.out); err != nil {
		return fmt.Errorf("train-puct: writing the model to %s: %w", c.out, err)
	}
	rounds, solved, games := 0, 0, 0
	for _, r := range rep.Rounds {
		if r.Round > 0 {
			rounds++
			solved += r.Solved
			games += r.Games
		}
	}
	fmt.Fprintf(stdout, "trained %s: warm start on %d levels, %d self-play rounds (%d of %d episodes solved) in %.1fs\n",
		netShape(m.Net.Config), o.WarmLevels, rounds, solved, games, time.Since(t0).Seconds())
	sum, err := fileHash(c.out)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "model: %s (sha256 %s)\n", c.out, sum)
	if interrupted {
		return errInterrupted
	}
	return nil
}
