package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
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
	netFlags(fs, &o.Net)
	fs.BoolVar(&c.quiet, "quiet", false, "no progress lines")
	return fs, c
}

func runTrainPuct(ctx context.Context, c *trainPuctConfig, specs []string, _ io.Reader, stdout, stderr io.Writer) error {
	if len(specs) > 0 {
		return usagef("train-puct: takes no LEVELS (it generates its own)")
	}
	if c.out == "" {
		return usagef("train-puct: --out FILE is required")
	}
	o := &c.opts
	const most = 1 << 20
	if err := checkRanges("train-puct",
		inRange{"--warm", o.WarmLevels, o.WarmLevels >= 0 && o.WarmLevels <= most, "0 to 1048576"},
		inRange{"--rounds", o.Rounds, o.Rounds >= 0 && o.Rounds <= most, "0 to 1048576"},
		inRange{"--games", o.Games, o.Games >= 1 && o.Games <= most, "1 to 1048576"},
		inRange{"--sims", o.Sims, o.Sims >= 2 && o.Sims <= most, "2 to 1048576 (one simulation expands nothing to learn from)"},
		inRange{"--steps", o.Steps, o.Steps >= 1 && o.Steps <= most, "1 to 1048576"},
		inRange{"--warm-steps", o.WarmSteps, o.WarmSteps >= 1 && o.WarmSteps <= most, "1 to 1048576"},
		inRange{"--window", o.Window, o.Window >= 1 && o.Window <= most, "1 to 1048576"},
		inRange{"--minutes", o.Minutes, o.Minutes >= 0, "at least 0"},
	); err != nil {
		return err
	}
	if err := checkNet("train-puct", o.Net); err != nil {
		return err
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
	interrupted, err := saveModel("train-puct", c.out, m.Save, err, slices.ContainsFunc(rep.Rounds, func(r puct.RoundReport) bool { return r.Steps > 0 }))
	if err != nil {
		return err
	}
	rounds, solved, games, warm := 0, 0, 0, 0
	for _, r := range rep.Rounds {
		if r.Round > 0 {
			rounds++
			solved += r.Solved
			games += r.Games
		} else {
			warm = r.Games // the levels the warm start went through, fewer than asked when interrupted
		}
	}
	fmt.Fprintf(stdout, "trained %s: warm start on %d levels, %d self-play rounds (%d of %d episodes solved) in %.1fs\n",
		netShape(m.Net.Config), warm, rounds, solved, games, time.Since(t0).Seconds())
	if err := printModel(stdout, c.out); err != nil {
		return err
	}
	if interrupted {
		return errInterrupted
	}
	return nil
}
