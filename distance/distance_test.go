package distance

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"soko/generate"
	"soko/internal/grid"
	"soko/internal/testlevel"
	"soko/level"
	"soko/search"
	"soko/sokoban"
	"soko/solver"
	"soko/verify"
)

// tiny is a level whose planes and distances are known by hand: one box
// two pushes left of its goal, the player left of the box.
const tiny = `#######
#@ $ .#
#######
`

func parse(t *testing.T, s string) *level.Level {
	t.Helper()
	ls, err := level.ParseString(s, "test")
	if err != nil || len(ls) != 1 {
		t.Fatalf("parse: %v", err)
	}
	return ls[0]
}

func TestEncodeTinyLevel(t *testing.T) {
	l := parse(t, tiny)
	b, err := sokoban.NewBoard(l)
	if err != nil {
		t.Fatal(err)
	}
	bd, err := NewBoard(context.Background(), b)
	if err != nil {
		t.Fatal(err)
	}
	p := b.Start()
	h, ok := bd.Bound(p)
	if !ok || h != 2 {
		t.Fatalf("bound = %d, %v; want 2, true", h, ok)
	}
	in := bd.Encode(nil, p, h)
	w, hw := b.Width, b.Width*b.Level.Height
	if len(in) != planes*hw {
		t.Fatalf("%d plane values, want %d", len(in), planes*hw)
	}
	at := func(plane, x, y int) float64 { return in[plane*hw+y*w+x] }
	want := []struct {
		plane, x, y int
		v           float64
	}{
		{grid.Wall, 0, 0, 1}, {grid.Wall, 1, 1, 0}, {grid.Goal, 5, 1, 1}, {grid.Goal, 3, 1, 0},
		{grid.Box, 3, 1, 1}, {grid.Box, 4, 1, 0}, {grid.Reach, 1, 1, 1}, {grid.Reach, 2, 1, 1},
		{grid.Reach, 4, 1, 0}, // beyond the box
		{planeNear, 3, 1, 0.2}, {planeNear, 2, 1, 0}, {planeBound, 0, 0, 0.2}, {planeBound, 5, 1, 0.2},
		{planeDead, 1, 1, 1}, {planeDead, 3, 1, 0}, // a box on the far-left square can never be pushed right
	}
	for _, c := range want {
		if got := at(c.plane, c.x, c.y); got != c.v {
			t.Errorf("plane %d at (%d,%d) = %g, want %g", c.plane, c.x, c.y, got, c.v)
		}
	}
	// Its dataset: the path's two positions with 2 and 1 pushes to go, no
	// gap above the bound.
	d := label(context.Background(), l, 1000, 100, 0, nil)
	if d.err != nil || d.unsolved {
		t.Fatalf("label: %v, unsolved %v", d.err, d.unsolved)
	}
	if len(d.examples) != 2 {
		t.Fatalf("%d examples, want 2", len(d.examples))
	}
	for i, x := range d.examples {
		if x.Pushes != 2-i || x.Bound != 2-i || x.Target() != 0 || !x.OnPath || x.Dead() {
			t.Errorf("example %d = %+v, want %d pushes, bound %d, on the path", i, x, 2-i, 2-i)
		}
	}
	if dead := (Example{Pushes: -1, Bound: 3}); !dead.Dead() || dead.Target() != DeadGap {
		t.Errorf("a dead example's target = %g, want %d", dead.Target(), DeadGap)
	}
}

// TestLabelerAgreesWithAstar checks the labeller's optimal pushes against
// astar's on generated levels, from their start and from positions off
// the path.
func TestLabelerAgreesWithAstar(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 1; i <= 6; i++ {
		g, err := generate.One(ctx, generate.Config{Seed: 5}, i)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := sokoban.NewBoard(g.Level)
		bd, err := NewBoard(ctx, b)
		if err != nil {
			t.Fatal(err)
		}
		lb := newLabeler(bd)
		p := b.Start()
		for step := range 4 {
			if step > 0 {
				moves := bd.Children(p, nil)
				if len(moves) == 0 {
					break
				}
				p.Apply(moves[rng.IntN(len(moves))])
			}
			got, ok := lb.solve(ctx, p, 50000)
			ls, _ := level.ParseString(joinRows(p.Rows()), "pos")
			res, err := search.AStar{}.Solve(ctx, ls[0], solver.Options{Budget: solver.Budget{Nodes: 50000}})
			if err != nil {
				t.Fatal(err)
			}
			want := res.Pushes
			if res.Status == solver.NoSolution {
				want = -1
			}
			if !ok || res.Status != solver.Solved && res.Status != solver.NoSolution || got != want {
				t.Errorf("level %d, %d pushes off: labeller %d (%v), astar %d (%s)", i, step, got, ok, want, res.Status)
			}
		}
	}
}

func joinRows(rows []string) string {
	var b bytes.Buffer
	for _, r := range rows {
		b.WriteString(r + "\n")
	}
	return b.String()
}

func tinySet(t *testing.T) *Dataset {
	t.Helper()
	ds, err := Build(context.Background(), DataConfig{Sets: DefaultSets(), Count: 6, Seed: 3, Excursions: 1, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(ds.Levels) == 0 || len(ds.Examples) < 50 {
		t.Fatalf("%d levels, %d examples", len(ds.Levels), len(ds.Examples))
	}
	for _, x := range ds.Examples {
		if x.Target() < 0 {
			t.Fatalf("example %+v is below its bound: the bound is not admissible or the label is wrong", x)
		}
	}
	return ds
}

func TestBuildDoesNotDependOnWorkers(t *testing.T) {
	one, err := Build(context.Background(), DataConfig{Sets: DefaultSets(), Count: 6, Seed: 3, Excursions: 1, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	two := tinySet(t)
	if len(one.Examples) != len(two.Examples) {
		t.Fatalf("%d examples with one worker, %d with two", len(one.Examples), len(two.Examples))
	}
	for i := range one.Examples {
		a, b := one.Examples[i], two.Examples[i]
		if a.Board != b.Board || !bytes.Equal(a.Key, b.Key) || a.Pushes != b.Pushes || a.Bound != b.Bound {
			t.Fatalf("example %d differs: %+v, %+v", i, a, b)
		}
	}
}

// TestTrainReducesLossDeterministically trains twice on a fixed tiny set:
// the loss falls, and equal seeds give equal model files.
func TestTrainReducesLossDeterministically(t *testing.T) {
	ds := tinySet(t)
	dir := t.TempDir()
	var files [2][]byte
	for i := range files {
		m, rep, err := Train(context.Background(), ds, TrainOptions{Net: DefaultConfig(), Seed: 7, Steps: 2 * ProgressEvery, Batch: 8})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Curve) != 2 || rep.Curve[1] >= rep.Curve[0] {
			t.Fatalf("loss curve %v: want two points, falling", rep.Curve)
		}
		path := filepath.Join(dir, "m.bin")
		if err := m.Save(path); err != nil {
			t.Fatal(err)
		}
		if files[i], err = os.ReadFile(path); err != nil {
			t.Fatal(err)
		}
		if _, err := Load(path); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(files[0], files[1]) {
		t.Error("two runs with the same seed wrote different models")
	}
}

// tinyModel trains a model on tinySet for a few steps and saves it,
// returning the set, the model and its file.
func tinyModel(t *testing.T) (*Dataset, *Model, string) {
	t.Helper()
	ds := tinySet(t)
	m, _, err := Train(context.Background(), ds, TrainOptions{Net: DefaultConfig(), Seed: 1, Steps: 20, Batch: 8})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "m.bin")
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	return ds, m, path
}

// TestSolversVerified runs mcts-dist and greedy-dist with and without a
// small model: every solution replays, and equal seeds give equal runs.
func TestSolversVerified(t *testing.T) {
	ds, _, path := tinyModel(t)
	levels := append(testlevel.Resolve(t, "microban:1-2"), ds.Levels[:2]...)
	for _, s := range []struct {
		name string
		solv solver.Solver
		opts solver.Options
	}{
		{"mcts-dist", MCTS{}, solver.Options{Budget: solver.Budget{Iterations: 1000}, Seed: 4}},
		{"greedy-dist", Greedy{}, solver.Options{Budget: solver.Budget{Nodes: 1000}}},
	} {
		for _, model := range []string{"", path} {
			for _, l := range levels {
				opts := s.opts
				opts.Model = model
				var first solver.Result
				for run := range 2 {
					res, err := s.solv.Solve(context.Background(), l, opts)
					if err != nil {
						t.Fatalf("%s on %s: %v", s.name, l.Name(), err)
					}
					if res.Status != solver.Solved {
						t.Errorf("%s (model %q) on %s: %s", s.name, model, l.Name(), res.Status)
						continue
					}
					if rep := verify.Replay(l, res.Moves); !rep.Solved {
						t.Errorf("%s on %s: the solution does not replay: %s", s.name, l.Name(), rep.Reason)
					}
					if run == 0 {
						first = res
					} else if res.Pushes != first.Pushes || len(res.Moves) != len(first.Moves) || res.Stats.Expanded != first.Stats.Expanded {
						t.Errorf("%s on %s: two runs with one seed differ", s.name, l.Name())
					}
				}
			}
		}
	}
}

// TestFarStartIsNotDead: a start 60 pushes or more from the goals is live.
// greedy-dist once took an estimate at Unsolvable for a dead position and
// said "no solution" on microban:84 and xsokoban90:1 with 0 expansions,
// with or without a model. Only an infeasible bound is dead, and a dead
// position queued with a far live one is estimated behind it.
func TestFarStartIsNotDead(t *testing.T) {
	_, m, path := tinyModel(t)
	for _, l := range append(testlevel.Resolve(t, "microban:84"), testlevel.Resolve(t, "xsokoban90:1")...) {
		b, err := sokoban.NewBoard(l)
		if err != nil {
			t.Fatal(err)
		}
		for _, model := range []*Model{nil, m} {
			e, err := NewEstimator(context.Background(), context.Background(), model, b)
			if err != nil {
				t.Fatal(err)
			}
			start := b.Start()
			if h, live := e.One(start); !live || h < Unsolvable {
				t.Fatalf("%s (model %v): start estimated %g, live %v; want live and at least %d", l.Name(), model != nil, h, live, Unsolvable)
			}
			// A dead position near the start: pushes away, a box on a
			// square from which its bound is infeasible.
			var dead *sokoban.Position
			for ps := []*sokoban.Position{start}; dead == nil && len(ps) > 0 && len(ps) < 10000; {
				var next []*sokoban.Position
				for _, q := range ps {
					for _, mv := range q.Pushes(nil, nil) {
						p := q.Clone()
						p.Apply(mv)
						if _, ok := e.bd.Bound(p); !ok {
							dead = p
						}
						next = append(next, p)
					}
				}
				ps = next
			}
			if dead == nil {
				t.Fatalf("%s: no pushes from the start make the bound infeasible", l.Name())
			}
			e.Add(start)
			e.Add(dead)
			v := e.Flush(nil)
			if _, live := e.One(dead); live || v[1] < v[0]+DeadGap {
				t.Errorf("%s (model %v): live %g, dead %g (live %v); want the dead one dead and %d behind", l.Name(), model != nil, v[0], v[1], live, DeadGap)
			}
		}
		for _, model := range []string{"", path} {
			res, err := solver.Run(context.Background(), Greedy{}, l, solver.Options{Budget: solver.Budget{Nodes: 2000}, Model: model})
			if err != nil {
				t.Fatal(err)
			}
			if res.Status == solver.NoSolution || res.Stats.Expanded == 0 {
				t.Errorf("greedy-dist (model %q) on %s: %v after %d expansions", model, l.Name(), res.Status, res.Stats.Expanded)
			}
		}
	}
}

// PathNodes bounds the search for each level's optimal path: with one
// expansion no level of several pushes is solved, and none gives examples.
func TestPathNodesBoundsThePath(t *testing.T) {
	ds, err := Build(context.Background(), DataConfig{Sets: DefaultSets(), Count: 3, Seed: 3, PathNodes: 1, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if ds.Unsolved != 3 || len(ds.Examples) != 0 {
		t.Errorf("%d of 3 levels unsolved, %d examples; want 3 and none", ds.Unsolved, len(ds.Examples))
	}
}
