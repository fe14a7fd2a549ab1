package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"soko/bench"
	"soko/internal/english"
	"soko/levels"
)

func readRuns(t *testing.T, path string) []bench.Record {
	t.Helper()
	recs, err := bench.ReadFiles(nil, path)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// A level file typed another way than in the results file (./, its
// absolute path, a link, from another directory) is the same file: the
// bench resumes it, and its runs keep the name they have there.
func TestBenchResumeSpelling(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	text, _, err := soko(t, "", "show", "microban:1")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir("lv", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("lv/x.xsb", []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("lv/x.xsb", "link.xsb"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("y.xsb", []byte(text), 0o644); err != nil { // the same board in another file
		t.Fatal(err)
	}
	bench := func(level, want string) {
		t.Helper()
		_, errOut, err := soko(t, "", "bench", "--algo", "astar", "--nodes", "1000", "--out", "r.jsonl", level)
		if err != nil || !strings.Contains(errOut, want) {
			t.Fatalf("%s: %v, want %q in\n%s", level, err, want, errOut)
		}
	}
	bench("lv/x.xsb", "1 run, 0 done before, 1 run now")
	for _, typed := range []string{"./lv/x.xsb", filepath.Join(dir, "lv", "x.xsb"), "lv//x.xsb", "link.xsb"} {
		bench(typed, "1 run, 1 done before, 0 run now")
	}
	bench("y.xsb", "1 run, 0 done before, 1 run now")
	var got []string
	for _, r := range readRuns(t, "r.jsonl") {
		got = append(got, r.Level)
	}
	if !slices.Equal(got, []string{"lv/x.xsb:1", "y.xsb:1"}) {
		t.Errorf("levels in the results file: %q", got)
	}

	// From another directory: x.xsb names no file the results file knows,
	// but lv/x.xsb, which names none from there, has its name and board.
	other, _, err := soko(t, "", "show", "microban:2")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir("other", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("other/x.xsb", []byte(other), 0o644); err != nil { // the same name, another board
		t.Fatal(err)
	}
	for _, c := range []struct{ dir, want string }{
		{"lv", "1 run, 1 done before, 0 run now"},
		{"other", "1 run, 0 done before, 1 run now"},
	} {
		t.Chdir(filepath.Join(dir, c.dir))
		_, errOut, err := soko(t, "", "bench", "--algo", "astar", "--nodes", "1000", "--out", "../r.jsonl", "x.xsb")
		if err != nil || !strings.Contains(errOut, c.want) {
			t.Fatalf("x.xsb from %s: %v, want %q in\n%s", c.dir, err, c.want, errOut)
		}
	}
	got = got[:0]
	for _, r := range readRuns(t, "../r.jsonl") {
		got = append(got, r.Level)
	}
	if !slices.Equal(got, []string{"lv/x.xsb:1", "y.xsb:1", "x.xsb:1"}) {
		t.Errorf("levels in the results file: %q", got)
	}
}

func TestBenchResumeReport(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "r.jsonl")
	args := []string{"bench", "--algo", "astar,bfs", "--nodes", "50,5000", "-j", "2", "--out", out, "--levels", "microban:1-5"}
	_, errOut, err := soko(t, "", args...)
	if err != nil {
		t.Fatal(err, errOut)
	}
	if !strings.Contains(errOut, "20 runs, 0 done before, 20 run now") {
		t.Fatalf("first run: %s", errOut)
	}
	recs := readRuns(t, out)
	if len(recs) != 20 {
		t.Fatalf("%d runs in the file", len(recs))
	}
	for _, r := range recs {
		if r.Status == "solved" && (!r.Verified || r.Solution == "" || r.Pushes == 0) {
			t.Errorf("solved run without a verified solution: %+v", r)
		}
	}
	_, errOut, err = soko(t, "", args...)
	if err != nil || !strings.Contains(errOut, "20 done before, 0 run now") {
		t.Fatalf("resume: %v %s", err, errOut)
	}

	stdout, _, err := soko(t, "", "report", out)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"### Levels solved: microban (5 levels)", "| solver | n=50 | n=5000 |", "| astar | ", "| bfs | "} {
		if !strings.Contains(stdout, want) {
			t.Errorf("report lacks %q:\n%s", want, stdout)
		}
	}
	// --compare names two solvers of the results.
	if msg := usage(t, "", "report", "--compare", "astar,bsf", out); !strings.Contains(msg, `no solver bsf in the results (they hold astar, bfs); did you mean "bfs"?`) {
		t.Errorf("--compare astar,bsf: %s", msg)
	}
	if msg := usage(t, "", "report", "--compare", "astar,astar", out); !strings.Contains(msg, "names one solver twice") {
		t.Errorf("--compare astar,astar: %s", msg)
	}
	stdout, _, err = soko(t, "", "report", "--benchstat", out)
	if err != nil || strings.Count(stdout, "BenchmarkSolve/") != 20 {
		t.Fatalf("benchstat: %v\n%s", err, stdout)
	}
	rep := filepath.Join(dir, "rep")
	if _, _, err := soko(t, "", "report", "--out-dir", rep, "--no-plots", out); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"report.md", "levels.md", "summary.csv", "runs.csv", "benchstat.txt"} {
		if _, err := os.Stat(filepath.Join(rep, f)); err != nil {
			t.Error(err)
		}
	}
}

// Shard 3 ways (by flag and by JOB_COMPLETION_INDEX), merge, and report:
// the same summary as the unsharded run.
func TestBenchShardMerge(t *testing.T) {
	dir := t.TempDir()
	common := []string{"bench", "--algo", "astar,bfs", "--nodes", "50,5000", "--seeds", "1-2", "-j", "2", "microban:1-6"}
	whole := filepath.Join(dir, "whole.jsonl")
	if _, e, err := soko(t, "", append(common, "--out", whole)...); err != nil {
		t.Fatal(err, e)
	}
	var parts []string
	for i := range 3 {
		p := filepath.Join(dir, "part"+string(rune('0'+i))+".jsonl")
		args := append(common, "--out", p)
		if i == 2 {
			t.Setenv("JOB_COMPLETION_INDEX", "2")
			args = append(args, "--shard", "3")
		} else {
			args = append(args, "--shard", string(rune('0'+i))+"/3")
		}
		if _, e, err := soko(t, "", args...); err != nil {
			t.Fatal(err, e)
		}
		parts = append(parts, p)
	}
	merged := filepath.Join(dir, "all.jsonl")
	// Files that hold no run (a bench that has not written one yet) are an
	// error, and no merge is written.
	empty := filepath.Join(dir, "empty.jsonl")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := soko(t, "", "bench", "merge", "--out", merged, empty); err == nil || !strings.Contains(err.Error(), "no runs in "+empty) {
		t.Errorf("merge of no runs: %v", err)
	}
	if _, err := os.Stat(merged); err == nil {
		t.Error("a merge of no runs was written")
	}
	_, errOut, err := soko(t, "", append([]string{"bench", "merge", "--out", merged}, parts...)...)
	if err != nil || !strings.Contains(errOut, "48 runs from 3 files") {
		t.Fatalf("merge: %v %s", err, errOut)
	}
	summary := func(file string) string {
		d := filepath.Join(dir, "rep-"+filepath.Base(file))
		if _, e, err := soko(t, "", "report", "--no-plots", "--out-dir", d, file); err != nil {
			t.Fatal(err, e)
		}
		b, err := os.ReadFile(filepath.Join(d, "summary.csv"))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	a, b := summary(whole), summary(merged)
	if a != b {
		t.Fatalf("summaries differ:\nunsharded:\n%s\nmerged:\n%s", a, b)
	}
	if strings.Count(a, "\n") != 5 || !strings.Contains(a, "microban,bfs,n=50,0,50,0,6,2,12,") { // header + 2 solvers x 2 budgets
		t.Fatalf("summary:\n%s", a)
	}
	if _, _, err := soko(t, "", "bench", "merge", "--out", parts[0], parts[0]); err == nil {
		t.Fatal("merge accepted its output as an input")
	}
	// A shard given twice: its runs are kept once, and the duplicates are
	// counted once, by bench.Merge.
	_, errOut, err = soko(t, "", "bench", "merge", "--out", filepath.Join(dir, "twice.jsonl"), parts[0], parts[0])
	if err != nil || strings.Count(errOut, "dropped") != 1 || !strings.HasSuffix(errOut, " dropped: 16 identical to the run kept, 0 differing (the first record of a run is kept)\nbench merge: 16 runs from 2 files\n") {
		t.Fatalf("merge of a shard twice: %v\n%s", err, errOut)
	}
}

// TestBenchHelperProcess is the soko command in a child process, for
// TestBenchInterrupt.
func TestBenchHelperProcess(t *testing.T) {
	if os.Getenv("SOKO_BENCH_HELPER") != "1" {
		t.Skip("helper process")
	}
	if os.Getenv("SOKO_FSIZE_ZERO") == "1" {
		// A disk with no room: every write to a regular file fails (EFBIG;
		// Go ignores SIGXFSZ).
		var lim syscall.Rlimit
		syscall.Getrlimit(syscall.RLIMIT_FSIZE, &lim)
		lim.Cur = 0
		if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
			os.Exit(99)
		}
	}
	i := slices.Index(os.Args, "--")
	os.Exit(process(os.Args[i+1:]))
}

// Interrupt a real bench process halfway with SIGINT and resume: every run
// is in the file exactly once.
func TestBenchInterrupt(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a child process for a few seconds")
	}
	out := filepath.Join(t.TempDir(), "r.jsonl")
	args := []string{"bench", "--algo", "astar,bfs", "--time", "150ms", "-j", "1", "--seeds", "1-3", "--no-solution", "--out", out, "microban:139,144,153"}
	const total = 18
	cmd := exec.Command(os.Args[0], append([]string{"-test.run=^TestBenchHelperProcess$", "--"}, args...)...)
	cmd.Env = append(os.Environ(), "SOKO_BENCH_HELPER=1")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for lines(out) < 3 {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("no results after 30s")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 {
		t.Fatalf("interrupted bench: %v, want exit status 130\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "run the same command again to resume") {
		t.Errorf("stderr: %s", stderr.String())
	}
	before := readRuns(t, out)
	if len(before) >= total {
		t.Fatalf("all %d runs finished before the interrupt; nothing to resume", len(before))
	}

	_, errOut, err := soko(t, "", args...)
	if err != nil {
		t.Fatal(err, errOut)
	}
	after := readRuns(t, out)
	if len(after) != total || lines(out) != total {
		t.Fatalf("after resume: %d runs, %d lines; want %d", len(after), lines(out), total)
	}
	for _, r := range before {
		if !slices.ContainsFunc(after, func(a bench.Record) bool { return a.Key == r.Key && a.WallS == r.WallS }) {
			t.Errorf("run %s was repeated or lost", r.Key)
		}
	}
}

func lines(path string) int {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		n++
	}
	return n
}

func TestBenchExternal(t *testing.T) {
	script, err := filepath.Abs("../../bench/testdata/fake-solver.sh")
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "r.jsonl")
	_, errOut, err := soko(t, "", "bench", "--external", "fake=sh "+script+" {level} {solution}", "--algo", "astar", "--time", "5s", "--out", out, "microban:1-2")
	if err != nil {
		t.Fatal(err, errOut)
	}
	recs := readRuns(t, out)
	solved := 0
	for _, r := range recs {
		if r.Solved() {
			solved++
		}
	}
	if len(recs) != 4 || solved != 4 {
		t.Fatalf("%d runs, %d solved: %+v", len(recs), solved, recs)
	}
	_, _, err = soko(t, "", "bench", "--external", "fake=sh "+script+" {level}", "--time", "5s", "microban:3")
	if !errors.Is(err, errSilent) {
		t.Fatalf("a wrong external solution: %v, want a failure exit", err)
	}
}

func TestBenchPresets(t *testing.T) {
	for _, p := range bench.Presets {
		stdout, _, err := soko(t, "", "bench", "--preset", p.Name, "--dry-run")
		if miss := p.Missing(); len(miss) > 0 {
			if err == nil || !strings.Contains(err.Error(), "not built yet: "+strings.Join(miss, ", ")) {
				t.Errorf("preset %s without %v: %v", p.Name, miss, err)
			}
			continue
		}
		if err != nil || !strings.Contains(stdout, "left to run") {
			t.Errorf("preset %s: %v %s", p.Name, err, stdout)
		}
	}
	stdout, _, err := soko(t, "", "bench", "--preset", "strength", "--dry-run", "--time", "1s")
	if err != nil || !strings.HasPrefix(stdout, "490 runs: 2 solvers x 245 levels x 1 budget x 1 seed") {
		t.Fatalf("strength preset: %v %q", err, stdout)
	}
	// A budget flag replaces its own axis only: the preset's times stay.
	stdout, _, err = soko(t, "", "bench", "--preset", "strength", "--dry-run", "--iterations", "5,6", "microban:1-2")
	if err != nil || !strings.HasPrefix(stdout, "24 runs: 2 solvers x 2 levels x 6 budgets") {
		t.Fatalf("strength preset with iterations: %v %q", err, stdout)
	}
}

func TestBenchUsage(t *testing.T) {
	for _, args := range [][]string{
		{"bench"},
		{"bench", "--algo", "nosuch", "microban:1"},
		{"bench", "--algo", "astar:w=2", "microban:1"},
		{"bench", "--param", "zz=1", "microban:1"},
		{"bench", "--shard", "3/3", "microban:1"},
		{"bench", "--time", "fast", "microban:1"},
		{"bench", "--seeds", "5-1", "microban:1"},
		{"bench", "--preset", "nosuch"},
		{"bench", "--external", "x=true", "microban:1"},
		{"bench", "merge"},
		{"report"},
	} {
		_, _, err := soko(t, "", args...)
		var u usageError
		if !errors.As(err, &u) {
			t.Errorf("%v: %v, want a usage error", args, err)
		}
	}
	stdout, _, err := soko(t, "", "bench", "-h")
	if err != nil || !strings.Contains(stdout, "presets (--preset NAME):") || !strings.Contains(stdout, "  --shard I/N") {
		t.Fatalf("bench -h: %v\n%s", err, stdout)
	}
	stdout, _, err = soko(t, "", "report", "--help")
	if err != nil || !strings.Contains(stdout, "  --out-dir DIR") {
		t.Fatalf("report --help: %v\n%s", err, stdout)
	}
}

// A write of the results that fails (a full disk) ends the bench with an
// error naming the file and the write's error, and the summary counts the
// runs written before it, not the run whose record was lost.
func TestBenchWriteFails(t *testing.T) {
	ctx := context.Background()
	c := &benchConfig{algos: listValue{"astar"}, workers: 1, threads: 1, out: "r.jsonl"}
	solvers, err := benchSolvers(c)
	if err != nil {
		t.Fatal(err)
	}
	lvls, err := levels.ResolveAll(ctx, []string{"microban:1-4"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := bench.NewPlan(solvers, lvls, nil, []bench.Budget{{Nodes: 100000}}, []uint64{1})
	if err != nil {
		t.Fatal(err)
	}
	for _, ok := range []int{0, 2} {
		written := 0
		out := &benchOut{sink: func(bench.Record) error {
			if written == ok {
				return &os.PathError{Op: "write", Path: "r.jsonl", Err: syscall.ENOSPC}
			}
			written++
			return nil
		}}
		var stderr strings.Builder
		err := runPlan(ctx, c, true, plan, out, &stderr, "")
		want := fmt.Sprintf("bench: writing the results to r.jsonl failed after %s written now, 0 before: write r.jsonl: %v", english.Count(ok, "run", "runs"), syscall.ENOSPC)
		if !errors.Is(err, syscall.ENOSPC) || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("a write failing after %d runs: %v, want %q", ok, err, want)
		}
		var u usageError
		if errors.As(err, &u) || errors.Is(err, errSilent) {
			t.Errorf("a write failing after %d runs: %v is silent or a usage error", ok, err)
		}
		if line := fmt.Sprintf("bench: 4 runs, 0 done before, %d run and written now, then a write failed: %d solved,", ok, ok); !strings.HasPrefix(stderr.String(), line) {
			t.Errorf("a write failing after %d runs: stderr %q, want %q", ok, stderr.String(), line)
		}
	}
}
