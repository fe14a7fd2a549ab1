package report

import (
	"bytes"
	"encoding/csv"
	"slices"
	"strings"
	"testing"
	"time"

	"soko/bench"
)

// TestUnmeasuredCPU: runs whose CPU time was not measured (several
// threads beside other runs) have no cpu-sec/op in benchstat and an empty
// cpu_s in runs.csv.
func TestUnmeasuredCPU(t *testing.T) {
	var recs []bench.Record
	for _, lvl := range []string{"microban:1", "microban:2"} {
		r := bench.Record{Solver: "portfolio", Threads: 2, Level: lvl, Budget: bench.Budget{Nodes: 20000}, Seed: 1,
			Status: "solved", Verified: true, Pushes: 8, Moves: 30, WallS: 0.01, CPUScope: bench.CPUNone}
		r.Key = r.RunKey()
		recs = append(recs, r)
	}
	var bs bytes.Buffer
	if err := WriteBenchstat(&bs, recs, SolveTime); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(bs.String(), "cpu-sec/op") || !strings.Contains(bs.String(), "ns/op\t") {
		t.Errorf("benchstat lines of runs without CPU time:\n%s", bs.String())
	}
	var out bytes.Buffer
	if err := newDataset(recs).runsCSV(&out); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&out).ReadAll()
	if err != nil || len(rows) != 3 {
		t.Fatalf("runs.csv: %d rows, %v", len(rows), err)
	}
	col := slices.Index(rows[0], "cpu_s")
	for _, row := range rows[1:] {
		if col < 0 || row[col] != "" || row[col-1] == "" {
			t.Errorf("runs.csv %v; want cpu_s empty after wall_s", row)
		}
	}
}

// With --time cpu, solved runs whose CPU time was not measured are left
// out of the times, counted in a note, and PAR-2 is "—" (it would count
// them as nothing); the solve time has them.
func TestUnmeasuredCPUTime(t *testing.T) {
	var recs []bench.Record
	for _, lvl := range []string{"microban:1", "microban:2"} {
		r := bench.Record{Solver: "portfolio", Threads: 2, Level: lvl, Budget: bench.Budget{Time: time.Second}, Seed: 1,
			Status: "solved", Verified: true, Pushes: 8, Moves: 30, SolveS: 0.01, WallS: 0.02, CPUScope: bench.CPUNone}
		r.Key = r.RunKey()
		recs = append(recs, r)
	}
	for _, tc := range []struct {
		kind Time
		want []string
	}{
		{CPUTime, []string{"| portfolio(threads=2) | 2 | — |", "| 2 | 2 | — | — | — | 10.0 ms | 20.0 ms |",
			"2 solved runs without a measured CPU time (cpu_scope none: several threads beside other runs, or not Linux) are left out of the CPU times; PAR-2 is — where one is."}},
		{SolveTime, []string{"| portfolio(threads=2) | 2 | 10.0 ms |", "| 2 | 2 | 10.0 ms | 10.0 ms | 10.0 ms | 20.0 ms | — |",
			"are left out of the CPU times."}},
	} {
		var md bytes.Buffer
		if err := Write(&md, recs, Options{Time: tc.kind}); err != nil {
			t.Fatal(err)
		}
		for _, w := range tc.want {
			if !strings.Contains(md.String(), w) {
				t.Errorf("--time %s: the report lacks %q:\n%s", tc.kind, w, md.String())
			}
		}
	}
}
