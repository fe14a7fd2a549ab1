package main

import (
	"context"
	"crypto/sha256"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"soko/alphazero"
	"soko/internal/english"
	"soko/internal/progress"
	"soko/levels"
	"soko/nn"
	"soko/solver"
)

const trainDoc = `Trains the alphazero solver's network (003 §2.4-§2.5) on search trees of
LEVELS: each round runs one MCTS search with the plain heuristic on the next
level, takes the training samples of its tree, and trains on random batches
of the recent samples. One level is 003's per-board training; many levels
(e.g. from soko generate) train across levels. Writes the model to --out and
the loss curve to --plot (default: the model's name with .png). The run is
the same for equal seeds and rounds; --time ends it after as many rounds as
fit, and an interrupt (Ctrl-C) ends it within a training step and saves the
model trained so far. --memory bounds the network, the samples and the
searches: a network too big for it is refused before training starts. Use
the model with 'soko solve --algo alphazero --model FILE'.
`

type trainConfig struct {
	out, plot string
	opts      alphazero.Options
	rounds    int64
	iter      int64
	steps     int64
	quiet     bool
	flags     *flag.FlagSet // the set that fills c: which flags were given
}

func trainFlags() (*flag.FlagSet, *trainConfig) {
	c := &trainConfig{}
	fs := flag.NewFlagSet("train", flag.ContinueOnError)
	c.flags = fs
	fs.StringVar(&c.out, "out", "", "write the model to `FILE` (required)")
	fs.StringVar(&c.plot, "plot", "", "write the loss curve to `FILE.png` (default: --out with .png)")
	c.opts.Time = 5 * time.Minute
	fs.Var(durationValue{&c.opts.Time}, "time", "stop training after `D`, e.g. 90s, 5m (0: no limit; then --rounds; not given with --rounds: no limit, so that the rounds decide)")
	fs.Var(countValue{&c.rounds}, "rounds", "stop after `N` rounds (0: no limit)")
	c.iter = alphazero.DefaultIterations
	fs.Var(countValue{&c.iter}, "iterations", "MCTS iterations `N` per round's search")
	c.steps = alphazero.DefaultSteps
	fs.Var(countValue{&c.steps}, "steps", "training steps `N` of 64 samples per round")
	c.opts.Seed = 1
	fs.Var(seedValue{&c.opts.Seed}, "seed", "random seed `N` of the weights, searches and batches")
	c.opts.Net = alphazero.DefaultConfig()
	netFlags(fs, &c.opts.Net)
	for name, paper := range map[string]int{"embed": 16, "channels": 64, "blocks": 10} { // 003's network
		fs.Lookup(name).Usage += fmt.Sprintf(" (003: %d)", paper)
	}
	fs.Var(sizeValue{&c.opts.Memory}, "memory", "memory limit `SIZE` of the run, e.g. 512MiB, 4GiB (0: none; default: a third of physical memory)")
	fs.BoolVar(&c.quiet, "quiet", false, "no progress bar")
	return fs, c
}

// roundsDecide drops the default time limit when --rounds is given and
// --time is not: equal --seed and --rounds then give the same model on any
// machine.
func (c *trainConfig) roundsDecide() {
	timeSet := false
	c.flags.Visit(func(f *flag.Flag) { timeSet = timeSet || f.Name == "time" })
	if c.rounds > 0 && !timeSet {
		c.opts.Time = 0
	}
}

func runTrain(ctx context.Context, c *trainConfig, specs []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if c.out == "" {
		return usagef("train: --out FILE is required")
	}
	c.roundsDecide()
	if c.opts.Time == 0 && c.rounds == 0 {
		return usagef("train: --time 0 needs --rounds N")
	}
	if c.rounds > 1<<30 || c.iter > 1<<30 || c.iter < 1 || c.steps > 1<<30 || c.steps < 1 {
		return usagef("train: --rounds, --iterations and --steps go from 1 to %d", 1<<30)
	}
	c.opts.Rounds, c.opts.Iterations, c.opts.Steps = int(c.rounds), int(c.iter), int(c.steps)
	if err := checkNet("train", c.opts.Net); err != nil {
		return err
	}
	if !isSet(c.flags, "memory") {
		c.opts.Memory = solver.DefaultMemory(1)
	}
	setMemoryLimit(1, c.opts.Memory)
	if c.plot == "" {
		c.plot = strings.TrimSuffix(c.out, ".bin") + ".png"
	}
	if err := notAnInput("train", stdin, specs, nil, output{"--out", c.out}, output{"--plot", c.plot}); err != nil {
		return err
	}
	if err := distinctOutputs("train", stdout, output{"--out", c.out}, output{"--plot", c.plot}); err != nil {
		return err
	}
	for _, out := range []struct {
		output
		kind fileKind
	}{{output{"--out", c.out}, kindModel}, {output{"--plot", c.plot}, kindAny}} {
		lock, err := takeOut("train", out.flag, out.path, out.kind)
		if err != nil {
			return err
		}
		defer lock.Close()
	}
	if err := checkPlot("train", "--plot", c.plot); err != nil {
		return err
	}
	lvls, err := levels.ResolveAll(ctx, specs, stdin)
	if err != nil {
		return err
	}
	bar := &trainBar{}
	if !c.quiet && progress.IsTerminal(stderr) {
		bar.w = stderr
	}
	c.opts.Progress = bar.update
	net, rep, err := alphazero.Train(ctx, lvls, c.opts)
	bar.done()
	if errors.Is(err, alphazero.ErrMemory) {
		return usagef("train: %v; give a smaller --embed, --channels, --blocks or --hidden, or a larger --memory", err)
	}
	if net == nil {
		return err
	}
	interrupted, err := saveModel("train", c.out, net.Save, err, rep.Steps > 0)
	if err != nil {
		return err
	}
	if len(rep.Curve) > 0 {
		title := fmt.Sprintf("soko train: %s, %s", english.Count(len(lvls), "level", "levels"), netShape(net.Config))
		if err := alphazero.PlotLoss(rep.Curve, title, c.plot); err != nil {
			return err
		}
	}
	persec := 0.0
	if s := rep.Train.Seconds(); s > 0 {
		persec = float64(rep.Trained) / s
	}
	fmt.Fprintf(stdout, "trained %s on %s: %d rounds, %d searches (%d solved), %d samples harvested, %d training steps of %d in %.1fs (%.0f samples/s in training steps)\n",
		netShape(net.Config), english.Count(len(lvls), "level", "levels"), rep.Rounds, rep.Searches, rep.Solved, rep.Samples, rep.Steps, alphazero.DefaultBatch,
		rep.Elapsed.Seconds(), persec)
	if rep.Steps == 0 {
		fmt.Fprintf(stderr, "train: no training step finished, so the model in %s has its initial weights: give more --time, or a smaller network\n", c.out)
	}
	if n := len(rep.Curve); n > 0 {
		last := rep.Curve[n-1]
		fmt.Fprintf(stdout, "final losses: value %.4f, policy %.4f (first round: %.4f, %.4f)\n", last.Value, last.Policy, rep.Curve[0].Value, rep.Curve[0].Policy)
		fmt.Fprintf(stdout, "loss curve: %s\n", c.plot)
	}
	fmt.Fprintf(stdout, "model: %s\n", c.out)
	if interrupted {
		return errInterrupted
	}
	return nil
}

// checkModel reads the model file of soko solve --model once before any
// level is solved, as each of the solvers given will read it, so that a
// missing or broken file, or a model of another kind, is one clear error.
func checkModel(path string, readers ...solver.Entry) error {
	if path == "" {
		return nil
	}
	// The model is read again by each run, and a FIFO or device would not
	// give the same bytes twice (or would never end).
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		return fmt.Errorf("model %s is not a regular file", path)
	}
	if err := inputExists("--model", "model file", path); err != nil {
		return err
	}
	for _, e := range readers {
		if err := e.CheckModel(path); err != nil {
			return fmt.Errorf("--model for solver %s: %w", e.Name, err)
		}
	}
	return nil
}

// netFlags declares the flags of a trainer's network shape on fs, with
// c's fields as their defaults.
func netFlags(fs *flag.FlagSet, c *nn.Config) {
	fs.IntVar(&c.Embed, "embed", c.Embed, "embedding channels `N`")
	fs.IntVar(&c.Channels, "channels", c.Channels, "channels `N` of the residual tower")
	fs.IntVar(&c.Blocks, "blocks", c.Blocks, "residual blocks `N`")
	fs.IntVar(&c.Hidden, "hidden", c.Hidden, "units `N` of the value head's hidden layer")
}

// checkNet refuses, as a usage error of cmd, a network shape that nn
// cannot build; the trainer sets the input planes itself.
func checkNet(cmd string, c nn.Config) error {
	c.Planes = 1
	if err := c.Check(); err != nil {
		return usagef("%s: %v", cmd, err)
	}
	return nil
}

// saveModel writes a trainer's model to path with save once training has
// ended with err: nil, or an interrupt (context.Canceled), after which the
// model trained so far is kept and interrupted is set; but an interrupt
// before any training step (trained false) does not replace a file already
// at path with starting weights: it writes nothing and returns an error
// saying so. Any other error is returned as it is, and nothing
// is written.
func saveModel(cmd, path string, save func(string) error, err error, trained bool) (interrupted bool, _ error) {
	interrupted = errors.Is(err, context.Canceled)
	if err != nil && !interrupted {
		return false, err
	}
	if interrupted && !trained {
		if _, serr := os.Stat(path); serr == nil {
			// Nothing learned: the model there stays, rather than be
			// replaced by starting weights.
			return true, fmt.Errorf("%s: interrupted before any training step; nothing saved (%s is as it was): %w", cmd, path, errInterrupted)
		}
	}
	if err := save(path); err != nil {
		return false, fmt.Errorf("%s: writing the model to %s: %w", cmd, path, err)
	}
	return interrupted, nil
}

// printModel prints the model file's path and its SHA-256, by which a run
// that should give the same model can be checked.
func printModel(w io.Writer, path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "model: %s (sha256 %x)\n", path, sha256.Sum256(b))
	return nil
}

func netShape(c nn.Config) string {
	return fmt.Sprintf("embed %d, %d blocks of %d channels, hidden %d (%d weights)", c.Embed, c.Blocks, c.Channels, c.Hidden, c.Weights())
}

// trainBar is the one-line progress bar of soko train on a terminal.
type trainBar struct {
	w     io.Writer
	drawn bool
}

func (b *trainBar) update(p alphazero.Progress) {
	if b.w == nil {
		return
	}
	frac := 0.0
	if p.Time > 0 {
		frac = p.Elapsed.Seconds() / p.Time.Seconds()
	}
	if p.Rounds > 0 {
		frac = max(frac, float64(p.Round)/float64(p.Rounds))
	}
	frac = min(frac, 1)
	const width = 24
	full := int(frac * width)
	fmt.Fprintf(b.w, "\r\x1b[K[%s%s] %3.0f%% round %d, %d samples, %d solved, loss %.4f + %.4f",
		strings.Repeat("#", full), strings.Repeat(".", width-full), 100*frac, p.Round, p.Samples, p.Solved, p.Value, p.Policy)
	b.drawn = true
}

func (b *trainBar) done() {
	if b.drawn {
		fmt.Fprint(b.w, "\r\x1b[K")
	}
}
