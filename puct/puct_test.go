package puct

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"soko/generate"
	"soko/internal/testlevel"
	"soko/level"
	"soko/nn"
	"soko/solver"
	"soko/verify"
)

func parse(t *testing.T, s string) *level.Level {
	t.Helper()
	ls, err := level.ParseString(s, "test")
	if err != nil {
		t.Fatal(err)
	}
	return ls[0]
}

// TestChooseByHand checks PUCT's selection against scores worked out by
// hand. The root has 10 visits and mean value 0.45; leaf values seen span
// [0.2, 0.6], so Q̂ = (Q − 0.2)/0.4; √10 = 3.1623.
//
//	a: P 0.5, 6 visits, Q 0.4 → Q̂ 0.5,  U = 1.25·0.5·3.1623/7 = 0.2823, 0.7823
//	b: P 0.3, 3 visits, Q 0.5 → Q̂ 0.75, U = 1.25·0.3·3.1623/4 = 0.2965, 1.0465
//	c: P 0.2, unvisited, the root's Q̂ 0.625, U = 1.25·0.2·3.1623 = 0.7906, 1.4156
func TestChooseByHand(t *testing.T) {
	s := &Search{c: 1.25, lo: 0.2, hi: 0.6}
	s.setNodes([]node{
		{parent: none, first: 1, count: 3, n: 10, w: 4.5, expanded: true},
		{parent: 0, prior: 0.5, n: 6, w: 6 * 0.4},
		{parent: 0, prior: 0.3, n: 3, w: 3 * 0.5},
		{parent: 0, prior: 0.2},
	})
	const a, b, c = 1, 2, 3
	if got := s.choose(0); got != c {
		t.Errorf("chose child %d, want %d (c: 1.4156 beats b: 1.0465 and a: 0.7823)", got, c)
	}
	s.at(c).dead = true
	if got := s.choose(0); got != b {
		t.Errorf("with c dead, chose child %d, want %d (b: 1.0465 beats a: 0.7823)", got, b)
	}
	s.at(c).dead = false
	s.c = 0
	if got := s.choose(0); got != b {
		t.Errorf("with C = 0, chose child %d, want %d, the highest Q̂ (0.75)", got, b)
	}
	s.at(a).w = 6 * 0.58 // Q̂ 0.95
	if got := s.choose(0); got != a {
		t.Errorf("with C = 0 and a's Q̂ 0.95, chose child %d, want %d", got, a)
	}
	s.c = 10 // the priors decide: c's U = 10·0.2·3.1623 = 6.32 against a's 2.26 and b's 2.37
	if got := s.choose(0); got != c {
		t.Errorf("with C = 10, chose child %d, want %d", got, c)
	}
}

// TestKillPropagates: a node all of whose children are dead is dead, up
// to the root; a node with a live child is not.
func TestKillPropagates(t *testing.T) {
	s := &Search{}
	s.setNodes([]node{
		{parent: none, first: 1, count: 2, expanded: true},
		{parent: 0, first: 3, count: 2, expanded: true},
		{parent: 0},
		{parent: 1},
		{parent: 1},
	})
	s.kill(3)
	if s.at(1).dead || s.at(0).dead {
		t.Fatal("a node with a live child was killed")
	}
	s.kill(4)
	if !s.at(1).dead || s.at(0).dead {
		t.Fatal("node 1 has no live child left and must be dead; the root has node 2")
	}
	s.kill(2)
	if !s.at(0).dead {
		t.Fatal("the root has no live child and must be dead")
	}
}

func TestGammaSampleMean(t *testing.T) {
	rng := newRand(3)
	for _, a := range []float64{0.3, 1, 2.5} {
		sum := 0.0
		const n = 20000
		for range n {
			sum += gammaSample(rng, a)
		}
		if mean := sum / n; mean < 0.93*a || mean > 1.07*a {
			t.Errorf("Gamma(%g) sample mean %g, want about %g", a, mean, a)
		}
	}
}

// solveAll runs the puct solver on levels through solver.Run (which
// replays every solution with the verifier) and fails on any unsolved.
func solveAll(t *testing.T, levels []*level.Level, model string, iterations int64) {
	t.Helper()
	for _, l := range levels {
		var first solver.Result
		for run := range 2 {
			opts := solver.Options{Budget: solver.Budget{Iterations: iterations}, Model: model}
			res, err := solver.Run(context.Background(), Solver{}, l, opts)
			if err != nil {
				t.Fatalf("%s: %v", l.Name(), err)
			}
			if res.Status != solver.Solved {
				t.Errorf("%s (model %q): %s after %d iterations", l.Name(), model, res.Status, res.Stats.Iterations)
				break
			}
			if rep := verify.Replay(l, res.Moves); !rep.Solved || rep.Pushes != res.Pushes {
				t.Errorf("%s: the solution does not replay (%s)", l.Name(), rep.Reason)
			}
			if run == 0 {
				first = res
			} else if res.Pushes != first.Pushes || res.Stats.Iterations != first.Stats.Iterations || res.Stats.Expanded != first.Stats.Expanded {
				t.Errorf("%s: two runs differ", l.Name())
			}
		}
	}
}

func generated(t *testing.T, seed uint64, n int) []*level.Level {
	t.Helper()
	var out []*level.Level
	for i := 1; i <= n; i++ {
		g, err := generate.One(context.Background(), generate.Config{Seed: seed}, i)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, g.Level)
	}
	return out
}

// TestSolveWithoutModel: uniform priors and the bound solve small levels,
// with verified solutions, the same way twice.
func TestSolveWithoutModel(t *testing.T) {
	levels := append(testlevel.Resolve(t, "microban:1-3"), generated(t, 11, 3)...)
	solveAll(t, levels, "", 3000)
}

// TestNoSolution: a box on a dead square makes the root dead at once.
func TestNoSolution(t *testing.T) {
	l := parse(t, "#####\n#$ .#\n#@  #\n#####\n")
	res, err := solver.Run(context.Background(), Solver{}, l, solver.Options{Budget: solver.Budget{Iterations: 100}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != solver.NoSolution {
		t.Errorf("status %s, want no solution", res.Status)
	}
}

// tinyTraining is a training run small enough for a test.
func tinyTraining(workers int) TrainOptions {
	return TrainOptions{Net: nn.Config{Embed: 4, Channels: 8, Blocks: 1, Hidden: 8}, Seed: 5,
		WarmLevels: 4, WarmSteps: 10, Rounds: 1, Games: 3, Sims: 8, Steps: 5, Batch: 8, Workers: workers}
}

// TestTrainDeterministicAndSolves trains a tiny model twice, with one
// worker and with two: the files are equal, the loss is finite, and the
// model solves small levels with verified solutions.
func TestTrainDeterministicAndSolves(t *testing.T) {
	dir := t.TempDir()
	var files [2][]byte
	for i, workers := range []int{1, 2} {
		m, rep, err := Train(context.Background(), tinyTraining(workers))
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Rounds) != 2 || rep.Rounds[0].Samples == 0 || rep.Rounds[1].Games != 3 || rep.Rounds[1].Evaluated == 0 {
			t.Fatalf("report %+v: want the warm start with samples and one round of 3 games", rep.Rounds)
		}
		path := filepath.Join(dir, "m.bin")
		if err := m.Save(path); err != nil {
			t.Fatal(err)
		}
		if files[i], err = os.ReadFile(path); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(files[0], files[1]) {
		t.Fatal("training with one worker and with two wrote different models")
	}
	path := filepath.Join(dir, "m.bin")
	solveAll(t, append(testlevel.Resolve(t, "microban:1-2"), generated(t, 12, 2)...), path, 3000)
}

// TestLoadRejectsBadFiles: garbage, a truncated model and a network of
// another encoding are clear errors naming what is wrong.
func TestLoadRejectsBadFiles(t *testing.T) {
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage.bin")
	if err := os.WriteFile(garbage, []byte("this is not a model file at all"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(garbage); !errors.Is(err, nn.ErrFormat) {
		t.Errorf("garbage: %v, want an error wrapping nn.ErrFormat", err)
	}
	net, err := nn.New(DefaultConfig(), 1)
	if err != nil {
		t.Fatal(err)
	}
	net.Meta = "soko distance v1: something else"
	other := filepath.Join(dir, "other.bin")
	if err := net.Save(other); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(other); !errors.Is(err, ErrEncoding) {
		t.Errorf("a network of another encoding: %v, want an error wrapping ErrEncoding", err)
	}
	if err := Check(other); !errors.Is(err, ErrEncoding) || !strings.Contains(err.Error(), other) {
		t.Errorf("Check of another encoding: %v, want an error naming the file and wrapping ErrEncoding", err)
	}
	if err := Check(garbage); !errors.Is(err, nn.ErrFormat) {
		t.Errorf("Check of garbage: %v, want an error wrapping nn.ErrFormat", err)
	}
	net.Meta = meta
	good := filepath.Join(dir, "good.bin")
	if err := net.Save(good); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(good); err != nil {
		t.Fatalf("a good model: %v", err)
	}
	b, _ := os.ReadFile(good)
	cut := filepath.Join(dir, "cut.bin")
	if err := os.WriteFile(cut, b[:len(b)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(cut); !errors.Is(err, nn.ErrFormat) {
		t.Errorf("a truncated model: %v, want an error wrapping nn.ErrFormat", err)
	}
	if _, err := solver.Run(context.Background(), Solver{}, testlevel.Resolve(t, "microban:1")[0], solver.Options{Model: cut}); !errors.Is(err, nn.ErrFormat) {
		t.Errorf("the solver with a truncated model: %v, want an error wrapping nn.ErrFormat", err)
	}
}

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 1)) }

// setNodes makes ns the search's tree.
func (s *Search) setNodes(ns []node) {
	for _, n := range ns {
		s.nodes.Append(n)
	}
}
