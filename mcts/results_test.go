package mcts

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"os"
	"testing"

	"soko/internal/testlevel"
	"soko/solver"
)

// committedRun is the part of a line of results/schokoban-tables.jsonl.gz
// (soko bench --preset schokoban) that a rerun must reproduce.
type committedRun struct {
	Solver string            `json:"solver"`
	Params map[string]string `json:"params"`
	Level  string            `json:"level"`
	Budget struct {
		Iterations int64 `json:"iterations"`
	} `json:"budget"`
	Seed       uint64 `json:"seed"`
	Status     string `json:"status"`
	Pushes     int    `json:"pushes"`
	Iterations int64  `json:"iterations"`
	TreeSize   int64  `json:"tree_size"`
	Unique     int64  `json:"unique_states"`
}

// TestCommittedThesisTables reruns part of the committed reproduction of
// 000 Tables 6.1/6.2 (seed 1, budgets up to 1000 iterations, every level of
// both collections) and requires the same status, pushes, iterations, tree
// size and unique states. Runs are deterministic per seed and iterations
// are the only budget, so any difference is a change of behaviour: of the
// MCTS core, the push game, or the deadlock rules it takes from package
// deadlock. A deliberate change must regenerate the file (results/README.md
// gives the command) and say why the tables moved.
func TestCommittedThesisTables(t *testing.T) {
	f, err := os.Open("../results/schokoban-tables.jsonl.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(z)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	checked := 0
	for sc.Scan() {
		var want committedRun
		if err := json.Unmarshal(sc.Bytes(), &want); err != nil {
			t.Fatalf("results/schokoban-tables.jsonl.gz: %v", err)
		}
		if want.Seed != 1 || want.Budget.Iterations > 1000 {
			continue
		}
		e, ok := solver.Lookup(want.Solver)
		if !ok {
			t.Fatalf("solver %q is not registered", want.Solver)
		}
		l := testlevel.Resolve(t, want.Level)[0]
		got := run(t, e.New(), l, solver.Options{
			Budget: solver.Budget{Iterations: want.Budget.Iterations}, Seed: want.Seed, Params: want.Params,
		})
		st := got.Stats
		if got.Status.String() != want.Status || (got.Status == solver.Solved && got.Pushes != want.Pushes) ||
			st.Iterations != want.Iterations || st.TreeSize != want.TreeSize || st.UniqueStates != want.Unique {
			t.Errorf("%s %v on %s at %d iterations: %s, %d pushes, %d iterations, tree %d, %d unique; committed %s, %d, %d, %d, %d",
				want.Solver, want.Params, want.Level, want.Budget.Iterations,
				got.Status, got.Pushes, st.Iterations, st.TreeSize, st.UniqueStates,
				want.Status, want.Pushes, want.Iterations, want.TreeSize, want.Unique)
		}
		checked++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if checked < 1000 {
		t.Fatalf("only %d committed runs checked", checked)
	}
}
