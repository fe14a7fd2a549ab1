package fess

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"soko/guide"
	"soko/internal/testlevel"
	"soko/solver"
)

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
