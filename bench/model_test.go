package bench

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"soko/alphazero" // registers alphazero
	"soko/levels"
	"soko/nn"
)

// tinyModel trains and saves an alphazero model of a few rounds, the way
// alphazero's own tests do.
func tinyModel(t *testing.T, path string, seed uint64) {
	t.Helper()
	ls, err := levels.Resolve("microban:2-3", nil)
	if err != nil {
		t.Fatal(err)
	}
	net, _, err := alphazero.Train(context.Background(), ls, alphazero.Options{
		Net: nn.Config{Embed: 4, Channels: 8, Blocks: 1, Hidden: 8}, Seed: seed, Rounds: 2, Iterations: 200, Steps: 4, Batch: 16,
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := net.Save(path); err != nil {
		t.Fatal(err)
	}
}

// TestModelID: a model's id is its base name and a hash of its contents,
// so two files of one name differ, and a copy elsewhere is the same model.
func TestModelID(t *testing.T) {
	dirs := []string{t.TempDir(), t.TempDir(), t.TempDir()}
	os.WriteFile(filepath.Join(dirs[0], "m.bin"), []byte("one"), 0o644)
	os.WriteFile(filepath.Join(dirs[1], "m.bin"), []byte("two"), 0o644)
	os.WriteFile(filepath.Join(dirs[2], "m.bin"), []byte("one"), 0o644)
	var ids []string
	for _, d := range dirs {
		id, err := ModelID(filepath.Join(d, "m.bin"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(id, "m.bin@") || len(id) != len("m.bin@")+8 {
			t.Errorf("id %q; want m.bin@ and 8 hex digits", id)
		}
		ids = append(ids, id)
	}
	if ids[0] == ids[1] || ids[0] != ids[2] {
		t.Errorf("ids %v: want the first and last equal, the middle different", ids)
	}
	missing := filepath.Join(dirs[0], "none.bin")
	if _, err := NewModel(missing); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("a missing model: %v; want an error naming it", err)
	}
}

// TestResumeModel: a model is part of a run's key and label. Runs of
// alphazero without a model, with one and with another are three sets of
// runs in one results file, each resumed on its own; every run reaches the
// solver with its model (a run without says so in its counts) and its
// record names the model.
func TestResumeModel(t *testing.T) {
	lvls, err := levels.Resolve("microban:1-2", nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var models [2]Model
	for i := range models {
		path := filepath.Join(dir, string(rune('a'+i)), "m.bin") // one name, two files
		os.Mkdir(filepath.Dir(path), 0o755)
		tinyModel(t, path, uint64(i+1))
		if models[i], err = NewModel(path); err != nil {
			t.Fatal(err)
		}
	}
	if models[0].ID == models[1].ID {
		t.Fatalf("two models trained with other seeds have one id %s", models[0].ID)
	}
	jobsWith := func(m Model) []Job {
		return planJobs(t, []SolverSpec{{Name: "alphazero", Model: m}}, lvls, Budgets(nil, nil, []int64{20000}), []uint64{1})
	}
	sets := [][]Job{jobsWith(Model{}), jobsWith(models[0]), jobsWith(models[1])}
	if k := sets[0][0].Key(); k != "alphazero|microban:1|"+LevelHash(lvls[0])+"|i=20000|1" {
		t.Errorf("without a model the key %q is not the key it was before models", k)
	}
	if k, want := sets[1][0].Key(), "alphazero(model="+models[0].ID+")|microban:1|"; !strings.HasPrefix(k, want) {
		t.Errorf("with a model the key %q; want it to begin %q", k, want)
	}

	path := filepath.Join(dir, "results.jsonl")
	ctx := context.Background()
	for i, jobs := range sets {
		if sum, todo, err := runInto(t, ctx, path, jobs, 1, nil); err != nil || todo != 2 || sum.Run != 2 {
			t.Fatalf("set %d: %+v of %d, %v; want both levels run", i, sum, todo, err)
		}
	}
	for i, jobs := range sets {
		if _, todo, err := runInto(t, ctx, path, jobs, 1, nil); err != nil || todo != 0 {
			t.Fatalf("set %d resumed: %d pending, %v", i, todo, err)
		}
	}
	recs, err := ReadFiles(nil, path)
	if err != nil {
		t.Fatal(err)
	}
	labels := map[string]int{}
	for _, r := range recs {
		labels[r.SolverLabel()]++
		if !r.Solved() {
			t.Errorf("%s on %s: %s %s", r.SolverLabel(), r.Level, r.Status, r.Error)
		}
		if without := r.Counts[alphazero.WithoutModel] == 1; without != (r.Model == "") {
			t.Errorf("%s on %s: model %q but counts %v", r.SolverLabel(), r.Level, r.Model, r.Counts)
		}
	}
	for _, m := range []Model{{}, models[0], models[1]} {
		label := SolverSpec{Name: "alphazero", Model: m}.Label()
		if labels[label] != 2 {
			t.Errorf("runs by label %v; want 2 of %s", labels, label)
		}
	}
}
