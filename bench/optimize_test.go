package bench

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"soko/levels"
	"soko/verify"
)

// By default a registered solver's solution is optimized within the run's
// time: greedy's 15 pushes and 59 moves on Microban 3 become 13 and 41,
// with found_pushes and found_moves saying what greedy found; optimize=off
// is another solver label and key with greedy's own solution.
func TestRunnerOptimizes(t *testing.T) {
	lvls, err := levels.Resolve("microban:3", nil)
	if err != nil {
		t.Fatal(err)
	}
	off, err := ParseSolverSpec("greedy:optimize=off")
	if err != nil || off.Label() != "greedy(optimize=off)" || len(off.Params) != 0 {
		t.Fatalf("%+v %v", off, err)
	}
	if _, err := ParseSolverSpec("greedy:optimize=maybe"); err == nil {
		t.Error("accepted optimize=maybe")
	}
	moves, _ := ParseSolverSpec("greedy:optimize=moves")
	if pushes, _ := ParseSolverSpec("greedy:optimize=pushes"); pushes.Label() != "greedy" || moves.Label() != "greedy(optimize=moves)" {
		t.Errorf("labels %q and %q", pushes.Label(), moves.Label())
	}
	p, err := NewPlan([]SolverSpec{{Name: "greedy"}, off, moves}, lvls, nil, Budgets([]time.Duration{10 * time.Second}, nil, nil), []uint64{1})
	if err != nil {
		t.Fatal(err)
	}
	var recs []Record
	r := &Runner{Workers: 1, Write: func(rec Record) error { recs = append(recs, rec); return nil }}
	if _, err := r.Run(context.Background(), int(p.Len()), p.Jobs(nil)); err != nil {
		t.Fatal(err)
	}
	if len(recs) != 3 {
		t.Fatalf("%d records", len(recs))
	}
	byLabel := map[string]Record{}
	for _, rec := range recs {
		byLabel[rec.SolverLabel()] = rec
		if rep, _ := verify.Check(lvls[0], rec.Solution); !rep.Solved || rep.Pushes != rec.Pushes || rep.Moves != rec.Moves || !rec.Verified {
			t.Errorf("%s: %d pushes, %d moves, solved %v", rec.Key, rep.Pushes, rep.Moves, rep.Solved)
		}
		if rec.WallS > 10 || rec.OptimizeS > rec.WallS {
			t.Errorf("%s: wall %v s, optimizer %v s", rec.Key, rec.WallS, rec.OptimizeS)
		}
	}
	on, raw := byLabel["greedy"], byLabel["greedy(optimize=off)"]
	if on.Pushes != 13 || on.Moves != 41 || on.FoundPushes != 15 || on.FoundMoves != 59 || on.Optimize != "" || !strings.HasPrefix(on.Key, "greedy|") {
		t.Errorf("default: %+v", on)
	}
	if raw.Pushes != 15 || raw.Moves != 59 || raw.FoundPushes != 0 || raw.Optimize != "off" || !strings.HasPrefix(raw.Key, "greedy(optimize=off)|") {
		t.Errorf("off: %+v", raw)
	}
	if m := byLabel["greedy(optimize=moves)"]; m.Optimize != "moves" || m.FoundMoves != 59 || m.Moves > 41 {
		t.Errorf("moves: %+v", m)
	}

	// A record written before the optimizer ran by default reads as it
	// did: the solver's own solution, no found_* fields, the same label.
	old := `{"key":"fess|microban:3|x|t=10s|1","solver":"fess","level":"microban:3","level_hash":"x","budget":{"time_s":10},"seed":1,"status":"solved","verified":true,"pushes":15,"moves":59,"wall_s":0.01,"cpu_s":0.01,"peak_bytes":1}`
	olds, err := ReadRecords(strings.NewReader(old+"\n"), "old.jsonl")
	if err != nil || len(olds) != 1 || olds[0].SolverLabel() != "fess" || olds[0].FoundPushes != 0 || olds[0].Pushes != 15 {
		t.Fatalf("old record: %+v %v", olds, err)
	}
	b, _ := json.Marshal(olds[0])
	if strings.Contains(string(b), "found_") || strings.Contains(string(b), "optimize") {
		t.Errorf("old record written back: %s", b)
	}
}
