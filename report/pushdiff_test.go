package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"soko/bench"
)

// The push-count difference compares the solvers' own solutions
// (found_pushes) by default: optimized, both solutions here are 10 pushes,
// and the difference would be 0 everywhere; with Options.Optimized it
// compares the optimized ones, and the title says which.
func TestPushDiffOwnSolutions(t *testing.T) {
	var recs []bench.Record
	for _, r := range []struct {
		solver        string
		found, foundM int
	}{{"fess", 14, 50}, {"greedy", 20, 90}} {
		rec := bench.Record{Solver: r.solver, Level: "microban:7", Budget: bench.Budget{Time: time.Second}, Seed: 1, Status: "solved", Verified: true,
			Pushes: 10, Moves: 40, FoundPushes: r.found, FoundMoves: r.foundM, OptimizeS: 0.5, SolveS: 0.001, WallS: 0.501}
		rec.Key = rec.RunKey()
		recs = append(recs, rec)
	}
	for _, tc := range []struct {
		optimized bool
		diff      float64
		ratio     float64
		what      string
	}{
		{false, -6, 50.0 / 90, "the solvers' own solutions (before the optimizer)"},
		{true, 0, 1, "the optimized solutions (after soko's optimizer)"},
	} {
		d := newDataset(recs)
		d.optimized = tc.optimized
		pds := d.pushDiffs("fess", "greedy")
		if len(pds) != 1 || len(pds[0].diffs) != 1 || pds[0].diffs[0] != tc.diff || pds[0].moveRatios[0] != tc.ratio {
			t.Fatalf("optimized %v: %+v; want a difference of %g, moves ratio %g", tc.optimized, pds, tc.diff, tc.ratio)
		}
		p, err := pushDiffPlot(pds[0])
		if err != nil || !strings.Contains(p.Title.Text, tc.what) {
			t.Errorf("optimized %v: title %q, %v; want it to say %q", tc.optimized, p.Title.Text, err, tc.what)
		}
		var md bytes.Buffer
		if err := Write(&md, recs, Options{Optimized: tc.optimized}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(md.String(), "Compared: "+tc.what+".") {
			t.Errorf("optimized %v: the report does not say what it compares:\n%s", tc.optimized, md.String())
		}
	}
	// runs.csv has both solutions and every time.
	var rc bytes.Buffer
	if err := newDataset(recs).runsCSV(&rc); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(rc.String(), ",fess,t=1s,1,solved,true,10,40,14,50,0.001000,0.500000,0.501000,") {
		t.Errorf("runs.csv:\n%s", rc.String())
	}
	// Records without the optimizer's fields (optimize off, or written
	// before it) compare pushes, and say no optimizer ran.
	for i := range recs {
		recs[i].FoundPushes, recs[i].FoundMoves, recs[i].OptimizeS = 0, 0, 0
	}
	recs[0].Pushes = 8
	pds := newDataset(recs).pushDiffs("fess", "greedy")
	if pds[0].diffs[0] != -2 || !strings.Contains(pds[0].solutions, "no optimizer ran") {
		t.Errorf("without the optimizer: %+v", pds[0])
	}
}
