package fess

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"soko/guide"
	"soko/internal/testlevel"
	"soko/sokoban"
	"soko/solver"
)

// TestGuideExamples: the examples of a solution name, at each choice, a
// move among two or more, each with all of its contexts' rows, one example
// at most per box change of the solution.
func TestGuideExamples(t *testing.T) {
	ctx := context.Background()
	examples := 0
	for _, l := range testlevel.Resolve(t, "microban:1-20") {
		res, err := solver.Run(ctx, FESS{}, l, solver.Options{Budget: solver.Budget{Nodes: 100_000, Time: time.Minute}})
		if err != nil || res.Status != solver.Solved {
			t.Fatalf("%s: %v %v", l.Name(), res.Status, err)
		}
		b, _ := sokoban.NewBoard(l)
		pushes, err := b.PushesOf(res.Moves)
		if err != nil {
			t.Fatal(err)
		}
		changes := 1
		for i := 1; i < len(pushes); i++ {
			if pushes[i].Box != b.Next(pushes[i-1].Box, pushes[i-1].Dir) {
				changes++
			}
		}
		ex, err := GuideExamples(ctx, l, pushes, 12)
		if err != nil {
			t.Fatalf("%s: %v", l.Name(), err)
		}
		if len(ex) > changes {
			t.Errorf("%s: %d examples from %d box changes", l.Name(), len(ex), changes)
		}
		examples += len(ex)
		for _, e := range ex {
			if len(e.Moves) < 2 || e.Taken < 0 || e.Taken >= len(e.Moves) {
				t.Fatalf("%s: an example of %d moves takes %d", l.Name(), len(e.Moves), e.Taken)
			}
			for _, rows := range e.Moves {
				if len(rows) != ctxAtToPacked+1 {
					t.Fatalf("%s: %d rows, want %d", l.Name(), len(rows), ctxAtToPacked+1)
				}
			}
		}
	}
	if examples < 20 {
		t.Fatalf("%d examples from the solutions of 20 levels", examples)
	}
}

// TestGuideSwitch: with the guide's parameter off, a search given a model
// is the search without one, expansion for expansion; with it on, the
// search changes and its solution is still verified.
func TestGuideSwitch(t *testing.T) {
	ctx := context.Background()
	ls := testlevel.Resolve(t, "microban:1-30")
	var ex []guide.Example
	for _, l := range ls[:20] {
		res, err := solver.Run(ctx, FESS{}, l, solver.Options{Budget: solver.Budget{Nodes: 100_000, Time: time.Minute}})
		if err != nil || res.Status != solver.Solved {
			t.Fatalf("%s: %v %v", l.Name(), res.Status, err)
		}
		b, _ := sokoban.NewBoard(l)
		pushes, _ := b.PushesOf(res.Moves)
		more, err := GuideExamples(ctx, l, pushes, guide.DefaultBits)
		if err != nil {
			t.Fatal(err)
		}
		ex = append(ex, more...)
	}
	m, _, err := guide.Train(ctx, ex, guide.TrainOptions{Epochs: 2, Rate: 0.05, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "guide.bin")
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	differ := 0
	for _, l := range ls {
		run := func(model, on string) solver.Result {
			opts := solver.Options{Budget: solver.Budget{Nodes: 20_000, Time: time.Minute}, Model: model,
				Params: map[string]string{"strategies": "plan", "guide": on}}
			res, err := solver.Run(ctx, FESS{}, l, opts)
			if err != nil {
				t.Fatalf("%s: %v", l.Name(), err)
			}
			return res
		}
		plain, off, on := run("", "1"), run(path, "0"), run(path, "1")
		if plain.Status != off.Status || plain.Stats.Expanded != off.Stats.Expanded {
			t.Errorf("%s: guide=0 with a model: %v in %d expansions; without a model %v in %d", l.Name(), off.Status, off.Stats.Expanded, plain.Status, plain.Stats.Expanded)
		}
		if on.Stats.Expanded != plain.Stats.Expanded {
			differ++
		}
	}
	if differ == 0 {
		t.Error("the guide changed no search")
	}
}

// The guide's table comes out of the memory budget: a model larger than
// --memory ends the run on the memory limit, one that fits leaves the
// search the rest.
func TestGuideCountsAgainstMemory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "guide.bin")
	if err := guide.NewModel(20).Save(path); err != nil { // 4 MiB of weights
		t.Fatal(err)
	}
	l := testlevel.Resolve(t, "microban:1")[0]
	run := func(memory int64) solver.Result {
		res, err := solver.Run(context.Background(), FESS{}, l, solver.Options{Model: path, Budget: solver.Budget{Time: 10 * time.Second, Memory: memory}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	if res := run(2 << 20); res.Status != solver.MemoryLimit {
		t.Errorf("a 4 MiB guide under 2 MiB: %v", res.Status)
	}
	if res := run(64 << 20); res.Status != solver.Solved {
		t.Errorf("a 4 MiB guide under 64 MiB: %v", res.Status)
	}
}
