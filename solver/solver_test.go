package solver_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"soko/level"
	"soko/solver"
)

// fixed is a fake solver that returns a fixed answer.
type fixed struct {
	status solver.Status
	lurd   string
}

func (f fixed) Solve(ctx context.Context, l *level.Level, opts solver.Options) (solver.Result, error) {
	moves, err := level.ParseLURD(f.lurd)
	if err != nil {
		return solver.Result{}, err
	}
	return solver.Result{Status: f.status, Moves: moves}, nil
}

const corridor = "#######\n#@ $ .#\n#######\n"

func level1(t *testing.T) *level.Level {
	t.Helper()
	ls, err := level.ParseString(corridor, "test")
	if err != nil {
		t.Fatal(err)
	}
	return ls[0]
}

func TestRunVerifiesSolutions(t *testing.T) {
	l := level1(t)
	res, err := solver.Run(context.Background(), fixed{solver.Solved, "rRR"}, l, solver.Options{})
	if err != nil || res.Pushes != 2 || len(res.Moves) != 3 {
		t.Fatalf("a correct solution: %+v, %v", res, err)
	}
	for _, bad := range []string{"rR", "rRRR", "lRR", ""} {
		if _, err := solver.Run(context.Background(), fixed{solver.Solved, bad}, l, solver.Options{}); err == nil {
			t.Errorf("solution %q was accepted", bad)
		} else if !strings.Contains(err.Error(), "invalid solution") {
			t.Errorf("solution %q: error %v", bad, err)
		}
	}
	res, err = solver.Run(context.Background(), fixed{solver.TimeLimit, "rRRRR"}, l, solver.Options{})
	if err != nil || res.Status != solver.TimeLimit || res.Moves != nil {
		t.Fatalf("an unsolved result keeps its status and drops moves: %+v, %v", res, err)
	}
}

func TestStatusText(t *testing.T) {
	all := solver.Statuses()
	if all[len(all)-1] != solver.GaveUp {
		t.Fatalf("Statuses ends with %v, want gave up", all[len(all)-1])
	}
	for _, s := range all {
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		var back solver.Status
		if err := json.Unmarshal(b, &back); err != nil || back != s {
			t.Fatalf("%v: round trip gave %v, %v", s, back, err)
		}
	}
	if solver.NoSolution.String() != "no solution" || solver.MemoryLimit.String() != "memory limit" || solver.GaveUp.String() != "gave up" {
		t.Fatal("status names changed")
	}
	var s solver.Status
	if err := s.UnmarshalText([]byte("bogus")); err == nil {
		t.Fatal("unknown status accepted")
	}
}

func TestDefaultMemory(t *testing.T) {
	if m := solver.DefaultMemory(2); m <= 0 || m > solver.PhysicalMemory()/2 {
		t.Fatalf("default memory for two workers: %d of %d", m, solver.PhysicalMemory())
	}
}
