package search

import (
	"context"
	"os"
	"strconv"
	"testing"

	"soko/levels"
	"soko/solver"
)

func TestZZProbe(t *testing.T) {
	spec := os.Getenv("PROBE")
	if spec == "" {
		t.Skip()
	}
	ls, err := levels.Resolve(spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int64{1, 1000, 10000, 100000, 300000, 1000000, 3000000} {
		if m, _ := strconv.ParseInt(os.Getenv("PROBEMAX"), 10, 64); m > 0 && n > m {
			break
		}
		r, err := AStar{}.Solve(context.Background(), ls[0], solver.Options{Budget: solver.Budget{Nodes: n}})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("nodes %d status %v bound %d stored %d", n, r.Status, r.Stats.Bound, r.Stats.Stored)
	}
}
