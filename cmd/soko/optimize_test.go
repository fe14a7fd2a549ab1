package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"soko/internal/testlevel"
	"soko/verify"
)

// greedy3 is greedy's solution of Microban 3: 15 pushes, 59 moves; the
// optimum is 13 pushes.
const greedy3 = "ruuLLLddllluurRurDrrrddlUruLLLulDllddrrrUdllluurrDrdLuuurDD"

func TestOptimizeCommand(t *testing.T) {
	l := testlevel.Resolve(t, "microban:3")[0]
	if rep, _ := verify.Check(l, greedy3); !rep.Solved {
		t.Fatalf("test solution does not solve microban:3: %s", rep.Reason)
	}
	out, _, err := soko(t, "", "optimize", "microban:3", greedy3)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "pushes   15 →   13") || !strings.Contains(lines[0], "complete") {
		t.Fatalf("optimize:\n%s", out)
	}
	if rep, _ := verify.Check(l, strings.TrimSpace(lines[1])); !rep.Solved || rep.Pushes != 13 {
		t.Errorf("optimized solution: %+v", rep)
	}

	// --from: solved records of bench and solve --json files; others skipped.
	dir := t.TempDir()
	results := filepath.Join(dir, "results.jsonl")
	records := `{"solver":"greedy","level":"microban:3","status":"solved","verified":true,"solution":"` + greedy3 + `"}
{"solver":"bfs","level":"microban:4","status":"time limit","verified":false}
{"algo":"greedy","level":"microban:3","status":"solved","solution":"` + greedy3 + `"}
`
	if err := os.WriteFile(results, []byte(records), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err = soko(t, "", "optimize", "--from", results, "--json")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for line := range strings.SplitSeq(strings.TrimSpace(out), "\n") {
		var r optimized
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		if r.Level != "microban:3" || r.Solver != "greedy" || r.Before.Pushes != 15 || r.After.Pushes != 13 || r.Solution == "" {
			t.Errorf("--from record: %+v", r)
		}
		n++
	}
	if n != 2 {
		t.Errorf("--from: %d records, want 2:\n%s", n, out)
	}

	// --compare: a peers table and another results file, totals on the
	// levels both solve.
	peers := filepath.Join(dir, "peers.tsv")
	table := "level\tfast_status\tfast_pushes\tfast_moves\nmicroban:3\tsolved\t14\t50\nmicroban:4\tsolved\t7\t29\n"
	if err := os.WriteFile(peers, []byte(table), 0o644); err != nil {
		t.Fatal(err)
	}
	peersCSV := filepath.Join(dir, "peers.csv") // the same table with commas, "slow" for "fast"
	if err := os.WriteFile(peersCSV, []byte(strings.NewReplacer("\t", ",", "fast", "slow").Replace(table)), 0o644); err != nil {
		t.Fatal(err)
	}
	optimal := filepath.Join(dir, "optimal.jsonl")
	// Two runs of astar on a level: the shorter counts, whichever comes last.
	if err := os.WriteFile(optimal, []byte(`{"algo":"astar","level":"microban:3","status":"solved","pushes":13,"moves":41}`+"\n"+
		`{"algo":"astar","level":"microban:3","status":"solved","pushes":15,"moves":60}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err = soko(t, "", "optimize", "--from", results, "--compare", peers, "--compare", optimal, "--compare", peersCSV, "--no-solution")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"beside astar on the 1 level both solve: pushes 13 (astar 13), moves 41 (astar 41); at most astar's pushes on 1 (100.0%)",
		"beside fast on the 1 level both solve: pushes 13 (fast 14), moves 41 (fast 50); at most fast's pushes on 1 (100.0%)",
		"beside slow on the 1 level both solve: pushes 13 (slow 14), moves 41 (slow 50); at most slow's pushes on 1 (100.0%)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("--compare: no %q in\n%s", want, out)
		}
	}
	usage(t, "", "optimize", "--from", results, "--compare", filepath.Join(dir, "missing.tsv"))
	// A file that holds no solved level to compare with, or a line that is
	// no record, is an error naming it.
	for name, body := range map[string]string{
		"notes.txt":      "some notes\n",
		"optimized.json": `{"level":"microban:3","metric":"pushes,moves","before":{},"after":{}}` + "\n",
		"other.jsonl":    `{"name":"x"}` + "\n",
	} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, _, err := soko(t, "", "optimize", "--from", results, "--compare", path, "--no-solution"); err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("--compare %s: %v, want an error naming it", name, err)
		}
	}

	usage(t, "", "optimize", "microban:3")
	usage(t, "", "optimize", "microban:3", greedy3, "--metric", "steps")
	usage(t, "", "optimize", "microban:3", greedy3, "--radii", "20,0")
	usage(t, "", "optimize", "--from", filepath.Join(dir, "missing.jsonl"))
	if _, _, err := soko(t, "", "optimize", "microban:3", "RRRR"); err == nil {
		t.Error("a solution that does not solve the level: no error")
	}
}

// Interrupted, optimize still prints the best solution so far (here the
// cheap passes' or the given one), verified, and exits as interrupted.
func TestOptimizeInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errOut bytes.Buffer
	err := run(ctx, []string{"optimize", "microban:3", greedy3}, strings.NewReader(""), &out, &errOut)
	if !errors.Is(err, errInterrupted) {
		t.Errorf("err %v, want interrupted", err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "stopped") {
		t.Fatalf("interrupted optimize:\n%s", out.String())
	}
	l := testlevel.Resolve(t, "microban:3")[0]
	if rep, _ := verify.Check(l, strings.TrimSpace(lines[1])); !rep.Solved || rep.Pushes > 15 {
		t.Errorf("best so far: %+v", rep)
	}
}

// soko solve optimizes by default: greedy's solution of Microban 3 is 15
// pushes and 59 moves, the optimizer's 13 and 41 (push-optimal, as astar
// finds); --optimize off gives greedy's own, and --json carries both.
func TestSolveOptimize(t *testing.T) {
	out, _, err := soko(t, "", "solve", "--algo", "greedy", "microban:3")
	if err != nil {
		t.Fatal(err)
	}
	// One line by default; -v adds the solution found and the optimizer.
	if v, _, err := soko(t, "", "solve", "-v", "--algo", "greedy", "microban:3"); err != nil || !strings.Contains(v, "found 15 pushes, 59 moves in ") || !strings.Contains(v, "; optimizer ") {
		t.Errorf("solve -v: %v\n%s", err, v)
	}
	if !strings.Contains(out, "pushes   13  moves    41") || strings.Contains(out, "found 15 pushes") {
		t.Errorf("solve:\n%s", out)
	}
	l := testlevel.Resolve(t, "microban:3")[0]
	lines := strings.Split(strings.TrimSpace(out), "\n") // the solution comes before the summary
	if rep, _ := verify.Check(l, strings.TrimSpace(lines[len(lines)-2])); !rep.Solved || rep.Pushes != 13 || rep.Moves != 41 {
		t.Errorf("the solution printed: %+v\n%s", rep, out)
	}
	out, _, err = soko(t, "", "solve", "--algo", "greedy", "--optimize", "off", "microban:3")
	if err != nil || !strings.Contains(out, "pushes   15  moves    59") || strings.Contains(out, "found") {
		t.Errorf("--optimize off: %v\n%s", err, out)
	}
	for _, c := range []struct {
		args          []string
		pushes, moves int
		found         bool
	}{
		{[]string{"--optimize=on"}, 13, 41, true},
		{[]string{"--metric", "moves"}, 13, 41, true},
		{[]string{"--optimize=off"}, 15, 59, false},
	} {
		all, _, err := soko(t, "", append([]string{"solve", "--json", "--algo", "greedy", "microban:3"}, c.args...)...)
		// With the optimizer on, the solution found comes first, then the final record.
		lines := strings.Split(strings.TrimSpace(all), "\n")
		var first, r record
		if err != nil || len(lines) != map[bool]int{true: 2, false: 1}[c.found] || json.Unmarshal([]byte(lines[0]), &first) != nil || json.Unmarshal([]byte(lines[len(lines)-1]), &r) != nil {
			t.Fatalf("%v: %v\n%s", c.args, err, all)
		}
		out := lines[len(lines)-1]
		if c.found && (first.Phase != "found" || first.Pushes != 15 || first.Moves != 59 || first.Solution == "" || first.SolveS <= 0 || first.SolveS > r.Seconds) {
			t.Errorf("%v: the found record: %s", c.args, lines[0])
		}
		if r.Phase != "" || r.SolveS <= 0 || r.SolveS > r.Seconds {
			t.Errorf("%v: the final record's phase and times: %s", c.args, out)
		}
		if r.Pushes != c.pushes || r.Moves != c.moves || (r.FoundPushes == 15 && r.FoundMoves == 59) != c.found {
			t.Errorf("%v: %s", c.args, out)
		}
		if !strings.Contains(out, `"found_pushes":`) != !c.found || (c.found && r.Optimizer != "complete") || (!c.found && r.Optimizer != "off") {
			t.Errorf("%v: found_* and optimize fields: %s", c.args, out)
		}
	}
	if msg := usage(t, "", "solve", "--optimize", "maybe", "microban:3"); !strings.Contains(msg, "want on or off") {
		t.Errorf("--optimize maybe: %s", msg)
	}
}

// --out keeps one line per optimized solution and a second run skips the
// levels in it; a half line left by a killed run is cut, and a file that is
// not soko optimize's is refused untouched.
func TestOptimizeOutResumes(t *testing.T) {
	dir := t.TempDir()
	results := filepath.Join(dir, "solve.jsonl")
	out, _, err := soko(t, "", "solve", "--json", "--algo", "greedy", "microban:1-4")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(results, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	kept := filepath.Join(dir, "optimized.jsonl")
	args := []string{"optimize", "--from", results, "--out", kept, "--time", "5s", "--no-solution"}
	if _, _, err := soko(t, "", args...); err != nil || lines(kept) != 4 {
		t.Fatalf("first run: %v, %d lines", err, lines(kept))
	}
	f, err := os.OpenFile(kept, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"level":"microban:9","sol`)
	f.Close()
	text, _, err := soko(t, "", args...)
	if err != nil || lines(kept) != 4 || !strings.Contains(text, "optimized 0 solutions") || !strings.Contains(text, "4 done before") {
		t.Fatalf("second run: %v, %d lines:\n%s", err, lines(kept), text)
	}
	foreign := filepath.Join(dir, "notes.jsonl")
	body := "{\"level\":\"microban:1\"}\nnot json\n{\"level\":\"microban:2\"}\n"
	if err := os.WriteFile(foreign, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	// A JSON object with a level is not yet a result of soko optimize.
	if _, _, err := soko(t, "", "optimize", "--from", results, "--out", foreign); err == nil || !strings.Contains(err.Error(), foreign+":1") {
		t.Errorf("a foreign --out file: %v", err)
	}
	if b, _ := os.ReadFile(foreign); string(b) != body {
		t.Errorf("the foreign file was changed:\n%s", b)
	}
}

// A solution given as LEVEL SOLUTION is done once per --out by its moves,
// however written: the same moves are skipped and said so, another
// solution of the level runs, and one that fails runs again to say why.
func TestOptimizeOutGivenSolution(t *testing.T) {
	kept := filepath.Join(t.TempDir(), "optimized.jsonl")
	run := func(lurd string) (string, string, error) {
		return soko(t, "", "optimize", "microban:1", lurd, "--out", kept, "--time", "1s")
	}
	if _, _, err := run("dlUrrrdLullddrUluRuulDrddrruLdlUU"); err != nil || lines(kept) != 1 {
		t.Fatalf("first: %v, %d lines", err, lines(kept))
	}
	if out, errText, err := run("dlU3rdLullddrUluRuulDrddrruLdlU U"); err != nil || out != "" || !strings.Contains(errText, "this solution's result is already in "+kept+": skipped") || lines(kept) != 1 {
		t.Errorf("the same moves again: %v, %d lines, %q, %q", err, lines(kept), out, errText)
	}
	if out, _, err := run("rrlldlUrrrdLullddrUluRuulDrddrruLdlUU"); err != nil || !strings.Contains(out, "moves    37 →    33") || lines(kept) != 2 {
		t.Errorf("another solution: %v, %d lines:\n%s", err, lines(kept), out)
	}
	for range 2 {
		if out, _, err := run("rrrrrrrr"); err == nil || !strings.Contains(out, "walks into a wall") {
			t.Errorf("a wrong solution: %v:\n%s", err, out)
		}
	}
}

// --out names each result of a soko bench record by the record's key, so
// that two seeds of one solver on a level are two results, both done and
// both skipped on a run again; and it keeps the solutions that
// --no-solution leaves out of the output.
func TestOptimizeOutPerRun(t *testing.T) {
	dir := t.TempDir()
	results := filepath.Join(dir, "bench.jsonl")
	if _, errOut, err := soko(t, "", "bench", "--algo", "greedy", "--seeds", "1-2", "--time", "5s", "-j", "1", "--out", results, "microban:1-2"); err != nil {
		t.Fatal(err, errOut)
	}
	kept := filepath.Join(dir, "optimized.jsonl")
	args := []string{"optimize", "--from", results, "--out", kept, "--time", "5s", "--no-solution", "--json"}
	out, _, err := soko(t, "", args...)
	if err != nil || lines(kept) != 4 || strings.Contains(out, `"solution"`) {
		t.Fatalf("first run: %v, %d lines; the output:\n%s", err, lines(kept), out)
	}
	b, _ := os.ReadFile(kept)
	for line := range strings.SplitSeq(strings.TrimSpace(string(b)), "\n") {
		var r optimized
		if err := json.Unmarshal([]byte(line), &r); err != nil || r.Solution == "" || r.Run == "" {
			t.Errorf("a line of --out without its solution or run: %v %s", err, line)
		}
	}
	_, text, err := soko(t, "", args...)
	if err != nil || lines(kept) != 4 || !strings.Contains(text, "4 done before") {
		t.Errorf("second run: %v, %d lines:\n%s", err, lines(kept), text)
	}
	// A file an older soko wrote (results without run, one per level and
	// solver) is resumed by level and solver.
	legacy := filepath.Join(dir, "legacy.jsonl")
	old := `{"level":"microban:1","solver":"greedy","metric":"pushes,moves","before":{"pushes":8,"moves":33},"after":{"pushes":8,"moves":33},"complete":true,"time_s":0,"searches":0,"expanded":0}` + "\n"
	if err := os.WriteFile(legacy, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, text, err := soko(t, "", "optimize", "--from", results, "--out", legacy, "--time", "5s", "--no-solution")
	if err != nil || lines(legacy) != 3 || !strings.Contains(stdout+text, "2 done before") {
		t.Errorf("a file of an older soko: %v, %d lines:\n%s", err, lines(legacy), text)
	}
}

// A level solved at its start has no moves to shorten: --from says so,
// not that the file was written without its solutions.
func TestOptimizeFromSolvedAtStart(t *testing.T) {
	dir := t.TempDir()
	lv := filepath.Join(dir, "done.xsb")
	if err := os.WriteFile(lv, []byte("#####\n#@ *#\n#####\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err := soko(t, "", "solve", "--json", lv)
	if err != nil {
		t.Fatal(err)
	}
	results := filepath.Join(dir, "r.jsonl")
	if err := os.WriteFile(results, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := soko(t, "", "optimize", "--from", results); err == nil || !strings.Contains(err.Error(), "1 solved at its start, by no move") || strings.Contains(err.Error(), "--no-solution") {
		t.Errorf("--from a level solved at its start: %v", err)
	}
}

// optimize FILE.sok says which solutions it passes over (a section that
// cannot be read, a level that cannot be loaded), as verify does, and
// ends with status 1; a file whose levels are solved at their start has
// nothing to shorten, and says so.
func TestOptimizeSokPassedOver(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "c.sok")
	if err := os.WriteFile(bad, []byte("#####\n#@$.#\n#####\n\nSolution\nR\n\nSolution\nRx\n\n#####\n# $.#\n#####\n\nSolution\nR\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errText, err := soko(t, "", "optimize", bad)
	if !errors.Is(err, errSilent) || !strings.Contains(errText, "c.sok:1: a solution cannot be read") || !strings.Contains(errText, "its solutions are passed over: the level cannot be loaded") || !strings.Contains(out, "2 passed over (said above)") {
		t.Errorf("passed over: %v\n%s\n%s", err, out, errText)
	}
	done := filepath.Join(dir, "done.sok")
	if err := os.WriteFile(done, []byte("#####\n#@ *#\n#####\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, _, err := soko(t, "", "optimize", done); err != nil || !strings.Contains(out, "its 1 level is solved at the start, needing none") {
		t.Errorf("solved at the start: %v\n%s", err, out)
	}
}
