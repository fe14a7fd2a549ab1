package alphazero

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"soko/internal/grid"
	"soko/internal/testlevel"
	"soko/mcts"
	"soko/nn"
	"soko/sokoban"
	"soko/solver"
)

// slowTargets recomputes the samples of node s from scratch: a breadth-first
// walk of its subtree, the fewest edges to each heuristic value not worse
// than its own.
func slowTargets(v *mcts.ValueSearch, s int32) map[float64]float64 {
	_, r := v.Position(s)
	hs := -r
	out := map[float64]float64{}
	type item struct {
		x     int32
		steps int
	}
	queue := []item{{s, 0}}
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		_, r := v.Position(it.x)
		if h := -r; h <= hs {
			if old, ok := out[h]; !ok || float64(it.steps) < old {
				out[h] = float64(it.steps)
			}
		}
		for y := v.Tree.First(it.x); y != mcts.None; y = v.Tree.Next(y) {
			queue = append(queue, item{y, it.steps + 1})
		}
	}
	return out
}

// TestHarvestMatchesSlowVersion compares the samples harvested from real
// search trees with a per-node recomputation (003 §2.5, Fig. 6).
func TestHarvestMatchesSlowVersion(t *testing.T) {
	for _, name := range []string{"microban:3", "microban:5", "cbc60:30"} {
		l := testlevel.Resolve(t, name)[0]
		b, err := sokoban.NewBoard(l)
		if err != nil {
			t.Fatal(err)
		}
		v := mcts.NewValueSearch(b, nil, 1, 3)
		for range 300 {
			if v.Iterate() != mcts.Continue {
				break
			}
		}
		samples, _, _ := harvest(context.Background(), v, b, 0, 0)
		cancelled, cancel := context.WithCancel(context.Background())
		cancel()
		if _, _, err := harvest(cancelled, v, b, 0, 0); !errors.Is(err, context.Canceled) {
			t.Errorf("a harvest whose context ended: %v", err)
		}
		byKey := map[string]map[float64]float64{}
		for _, s := range samples {
			k := string(s.key)
			if byKey[k] == nil {
				byKey[k] = map[float64]float64{}
			}
			if _, dup := byKey[k][s.target]; dup {
				t.Fatalf("%s: two samples for one state and target %v", name, s.target)
			}
			byKey[k][s.target] = s.steps
		}
		nodes, withPolicy := 0, 0
		var walk func(x int32)
		walk = func(x int32) {
			nodes++
			want := slowTargets(v, x)
			p, _ := v.Position(x)
			got := byKey[string(p.Pack(nil))]
			if len(got) != len(want) {
				t.Fatalf("%s node %d: %d targets, want %d (%v, want %v)", name, x, len(got), len(want), got, want)
			}
			for h, steps := range want {
				if got[h] != steps {
					t.Fatalf("%s node %d target %v: %v steps, want %v", name, x, h, got[h], steps)
				}
			}
			for y := v.Tree.First(x); y != mcts.None; y = v.Tree.Next(y) {
				walk(y)
			}
		}
		walk(mcts.Root)
		for _, s := range samples {
			if s.legal != nil {
				withPolicy++
				sum := 0.0
				for _, q := range s.policy {
					sum += q
				}
				if sum < 0.999999 || sum > 1.000001 {
					t.Errorf("%s: policy target sums to %v", name, sum)
				}
			}
		}
		if nodes < 20 || withPolicy == 0 {
			t.Errorf("%s: a tree of %d nodes, %d policy targets: too small to test", name, nodes, withPolicy)
		}
		for _, keep := range []int{1, 7, len(samples) / 3} {
			last, dropped, _ := harvest(context.Background(), v, b, 0, keep)
			want := samples[len(samples)-keep:]
			if dropped != len(samples)-keep || len(last) != keep {
				t.Fatalf("%s: keeping %d of %d samples: %d kept, %d dropped", name, keep, len(samples), len(last), dropped)
			}
			for i := range last {
				if !bytes.Equal(last[i].key, want[i].key) || last[i].target != want[i].target || last[i].steps != want[i].steps {
					t.Fatalf("%s: keeping %d samples: sample %d is not the %dth last", name, keep, i, keep-i)
				}
			}
		}
	}
}

func trainSmall(t *testing.T, name string, rounds int) *nn.Net {
	t.Helper()
	ls := testlevel.Resolve(t, name)
	net, _, err := Train(context.Background(), ls, Options{
		Net: nn.Config{Embed: 4, Channels: 8, Blocks: 1, Hidden: 8}, Seed: 5, Rounds: rounds, Iterations: 200, Steps: 4, Batch: 16,
	})
	if err != nil {
		t.Fatal(err)
	}
	return net
}

func TestTrainDeterministic(t *testing.T) {
	encode := func(n *nn.Net) []byte {
		var buf bytes.Buffer
		if err := n.Write(&buf); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	a, b := encode(trainSmall(t, "microban:3", 4)), encode(trainSmall(t, "microban:3", 4))
	if !bytes.Equal(a, b) {
		t.Error("two training runs with equal seeds and rounds differ")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	if c := encode(trainSmall(t, "microban:3", 4)); !bytes.Equal(a, c) {
		t.Error("training with one thread differs from training with several")
	}
}

// TestSolverWithModel trains a model, saves it and solves levels with it
// through the registry, which verifies every solution.
func TestSolverWithModel(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.bin")
	if err := trainSmall(t, "microban:1-3", 6).Save(path); err != nil {
		t.Fatal(err)
	}
	e, ok := solver.Lookup("alphazero")
	if !ok {
		t.Fatal("alphazero is not registered")
	}
	for _, l := range testlevel.Resolve(t, "microban:1-5") {
		for _, weight := range []string{"0.8", "1"} {
			opts := solver.Options{Budget: solver.Budget{Iterations: 20000}, Seed: 1, Model: path, Params: map[string]string{"weight": weight}}
			res, err := solver.Run(context.Background(), e.New(), l, opts)
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != solver.Solved {
				t.Errorf("%s weight %s: %v after %d iterations", l.Name(), weight, res.Status, res.Stats.Iterations)
			}
		}
	}
}

// TestWithoutModelIsSchokoban: with no model the solver is Schokoban,
// iteration for iteration.
func TestWithoutModelIsSchokoban(t *testing.T) {
	az, _ := solver.Lookup("alphazero")
	sk, _ := solver.Lookup("schokoban")
	for _, l := range testlevel.Resolve(t, "microban:1-6") {
		opts := solver.Options{Budget: solver.Budget{Iterations: 5000}, Seed: 7}
		a, err := solver.Run(context.Background(), az.New(), l, opts)
		if err != nil {
			t.Fatal(err)
		}
		b, err := solver.Run(context.Background(), sk.New(), l, opts)
		if err != nil {
			t.Fatal(err)
		}
		if a.Status != b.Status || a.Stats.Iterations != b.Stats.Iterations || a.Pushes != b.Pushes {
			t.Errorf("%s: alphazero without a model %v in %d iterations, %d pushes; schokoban %v in %d, %d",
				l.Name(), a.Status, a.Stats.Iterations, a.Pushes, b.Status, b.Stats.Iterations, b.Pushes)
		}
	}
}

// TestModelErrors: a missing file, a file that is not a model and a model
// of another encoding are errors naming the file.
func TestModelErrors(t *testing.T) {
	dir := t.TempDir()
	other := filepath.Join(dir, "other.bin")
	n, err := nn.New(nn.Config{Planes: 3, Embed: 2, Channels: 2, Blocks: 1, Hidden: 2}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := n.Save(other); err != nil {
		t.Fatal(err)
	}
	text := filepath.Join(dir, "text.bin")
	os.WriteFile(text, []byte("hello\n"), 0o644)
	e, _ := solver.Lookup("alphazero")
	l := testlevel.Resolve(t, "microban:1")[0]
	for _, c := range []struct{ path, want string }{
		{filepath.Join(dir, "missing.bin"), "no such file"},
		{text, "not a valid model file"},
		{other, "not an alphazero model"},
	} {
		_, err := e.New().Solve(context.Background(), l, solver.Options{Model: c.path})
		if err == nil || !strings.Contains(err.Error(), c.path) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("model %s: error %v, want one naming the file and saying %q", c.path, err, c.want)
		}
	}
	if _, err := Load(other); !errors.Is(err, errEncoding) {
		t.Errorf("Load of another encoding: %v", err)
	}
	if err := Check(other); !errors.Is(err, errEncoding) {
		t.Errorf("Check of another encoding: %v", err)
	}
}

// TestEvaluatorChunks: a flush of more positions than one network batch
// takes gives each the value it gets alone.
func TestEvaluatorChunks(t *testing.T) {
	net, err := nn.New(DefaultConfig(), 3)
	if err != nil {
		t.Fatal(err)
	}
	net.Meta = meta
	l := testlevel.Resolve(t, "microban:5")[0]
	b, err := sokoban.NewBoard(l)
	if err != nil {
		t.Fatal(err)
	}
	p := b.Start()
	pushes := p.Pushes(nil, nil)
	e, alone := NewEvaluator(context.Background(), net, 0.5, grid.MaxSquares/(b.Width*b.Level.Height)), NewEvaluator(context.Background(), net, 0.5, 1)
	var want []float64
	count := 3*grid.MaxSquares/(b.Width*b.Level.Height) + 5
	for i := range count {
		m := pushes[i%len(pushes)]
		p.Apply(m)
		alone.Add(p, float64(-i))
		want = alone.Flush(want)
		e.Add(p, float64(-i))
		p.Undo(m)
	}
	got := e.Flush(nil)
	if len(got) != count {
		t.Fatalf("%d values for %d positions", len(got), count)
	}
	for i := range got {
		if d := got[i] - want[i]; d > 1e-9 || d < -1e-9 {
			t.Fatalf("position %d: %v in a batch, %v alone", i, got[i], want[i])
		}
	}
	if s := Steps(math.NaN()); s != 1e6 {
		t.Errorf("Steps(NaN) = %v", s)
	}
	if s := Steps(-3); s != 0 {
		t.Errorf("Steps(-3) = %v", s)
	}
}
