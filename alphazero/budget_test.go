package alphazero

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"soko/internal/testlevel"
	"soko/nn"
	"soko/solver"
)

// margin is how late a run that stops on its budget may end: on two loaded
// cores, beside other packages' tests, a goroutine can be scheduled out for
// longer than half a second.
const margin = 1500 * time.Millisecond

// saveModel writes an untrained alphazero model of shape c and returns its
// path.
func saveModel(t *testing.T, c nn.Config) string {
	t.Helper()
	c.Planes = planes
	net, err := nn.New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	net.Meta = meta
	path := filepath.Join(t.TempDir(), "m.bin")
	if err := net.Save(path); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestSolveTimeOnBigBoard: on the largest board with the most boxes, where
// one network evaluation of a node's children takes minutes, a run under a
// short time limit or a cancelled context stops within the budget.
func TestSolveTimeOnBigBoard(t *testing.T) {
	model := saveModel(t, DefaultConfig())
	l := testlevel.Open(128, 128, 255)
	e, _ := solver.Lookup("alphazero")
	const budget = 300 * time.Millisecond
	for _, c := range []struct {
		name string
		opts solver.Options
		ctx  func() (context.Context, context.CancelFunc)
		want solver.Status
	}{
		{"time", solver.Options{Budget: solver.Budget{Time: budget}}, func() (context.Context, context.CancelFunc) {
			return context.WithCancel(context.Background())
		}, solver.TimeLimit},
		{"context", solver.Options{}, func() (context.Context, context.CancelFunc) {
			return cancelAfter(budget)
		}, solver.Cancelled},
	} {
		ctx, cancel := c.ctx()
		c.opts.Model, c.opts.Seed = model, 1
		start := time.Now()
		res, err := e.New().Solve(ctx, l, c.opts)
		elapsed := time.Since(start)
		cancel()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		t.Logf("%s: %v after %v", c.name, res.Status, elapsed)
		if res.Status != c.want || elapsed > budget+margin {
			t.Errorf("%s: %v after %v, want %v within %v", c.name, res.Status, elapsed, c.want, budget+margin)
		}
	}
}

// cancelAfter returns a context cancelled after d.
func cancelAfter(d time.Duration) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	stop := time.AfterFunc(d, cancel)
	return ctx, func() { stop.Stop(); cancel() }
}

// TestSolveMemory: a model bigger than the memory budget stops the run at
// once with a memory limit, counting the network; one that fits leaves
// the search the rest, and the network counts in the bytes reported.
func TestSolveMemory(t *testing.T) {
	e, _ := solver.Lookup("alphazero")
	l := testlevel.Resolve(t, "microban:1")[0]
	big := nn.Config{Embed: 16, Channels: 64, Blocks: 4, Hidden: 64}
	model := saveModel(t, big)
	start := time.Now()
	res, err := e.New().Solve(context.Background(), l, solver.Options{Model: model, Budget: solver.Budget{Memory: 1 << 20}})
	if err != nil {
		t.Fatal(err)
	}
	big.Planes = planes
	if res.Status != solver.MemoryLimit || res.Stats.Bytes < 8*int64(big.Weights()) || time.Since(start) > margin {
		t.Errorf("a %d-byte network under 1 MiB: %v, %d bytes, after %v; want a memory limit at once counting the network",
			8*big.Weights(), res.Status, res.Stats.Bytes, time.Since(start))
	}

	small := saveModel(t, DefaultConfig())
	res, err = e.New().Solve(context.Background(), l, solver.Options{Model: small, Budget: solver.Budget{Memory: 4 << 20, Iterations: 2000}})
	if err != nil {
		t.Fatal(err)
	}
	c := DefaultConfig()
	c.Planes = planes
	_, need := plan(c, l, 4<<20)
	if res.Status != solver.Solved || res.Stats.Bytes < need {
		t.Errorf("a small network under 4 MiB: %v, %d bytes; want solved, counting the network's %d bytes", res.Status, res.Stats.Bytes, need)
	}
}

// TestTrainStopsPromptly: training a network whose single step takes tens
// of seconds ends within the budget when its context is cancelled or its
// time is up, and returns the network so far; a cancelled context before
// the start returns the untrained network.
func TestTrainStopsPromptly(t *testing.T) {
	ls := testlevel.Resolve(t, "microban:2")
	big := nn.Config{Embed: 16, Channels: 128, Blocks: 8, Hidden: 32}
	const budget = 300 * time.Millisecond
	for _, c := range []struct {
		name string
		ctx  func() (context.Context, context.CancelFunc)
		time time.Duration
		want error
	}{
		{"cancelled before", func() (context.Context, context.CancelFunc) { return cancelAfter(0) }, 0, context.Canceled},
		{"cancelled during", func() (context.Context, context.CancelFunc) { return cancelAfter(budget) }, 0, context.Canceled},
		{"time limit", func() (context.Context, context.CancelFunc) { return context.WithCancel(context.Background()) }, budget, nil},
	} {
		ctx, cancel := c.ctx()
		start := time.Now()
		net, _, err := Train(ctx, ls, Options{Net: big, Seed: 1, Time: c.time, Rounds: 100, Iterations: 100})
		elapsed := time.Since(start)
		cancel()
		t.Logf("%s: %v after %v", c.name, err, elapsed)
		if net == nil || !errors.Is(err, c.want) && !(c.want == nil && err == nil) || elapsed > budget+margin {
			t.Errorf("%s: network %v, error %v after %v; want a network and %v within %v", c.name, net != nil, err, elapsed, c.want, budget+margin)
		}
	}
}

// TestTrainMemory: a network that cannot train within Options.Memory is
// refused before any work.
func TestTrainMemory(t *testing.T) {
	ls := testlevel.Resolve(t, "microban:2")
	big := nn.Config{Embed: 16, Channels: 64, Blocks: 4, Hidden: 64}
	_, _, err := Train(context.Background(), ls, Options{Net: big, Rounds: 1, Memory: 4 << 20})
	if !errors.Is(err, ErrMemory) {
		t.Errorf("training %d weights within 4 MiB: %v, want ErrMemory", big.Weights(), err)
	}
}
