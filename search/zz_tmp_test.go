package search

import (
	"context"
	"os"
	"testing"
	"time"

	"soko/internal/testlevel"
	"soko/solver"
)

func TestZZBound(t *testing.T) {
	spec := os.Getenv("ZZLEVEL")
	if spec == "" {
		t.Skip()
	}
	l := testlevel.Resolve(t, spec)[0]
	last := -1
	opts := solver.Options{Budget: solver.Budget{Time: 30 * time.Second},
		Progress: func(p solver.Progress) {
			if p.Stats.Bound != last {
				last = p.Stats.Bound
				t.Logf("%v bound %d expanded %d stored %d", p.Stats.Elapsed.Round(time.Second), p.Stats.Bound, p.Stats.Expanded, p.Stats.Stored)
			}
		}}
	res, err := solver.Run(context.Background(), AStar{}, l, opts)
	t.Log(res.Status, res.Pushes, res.Stats.Expanded, err)
}
