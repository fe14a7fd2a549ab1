package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"soko/level"
	"soko/solver"
	"soko/verify"
)

// child starts soko in a child process (this test binary acting as soko,
// through the same signal handling as the real one) with stdin as given.
func child(t *testing.T, stdin *os.File, args ...string) (*exec.Cmd, *strings.Builder) {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"-test.run=^TestBenchHelperProcess$", "--"}, args...)...)
	cmd.Env = append(os.Environ(), "SOKO_BENCH_HELPER=1")
	cmd.Stdin = stdin
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, &stderr
}

// exitStatus waits for cmd, killing it after limit, and returns its exit
// status (-1 when it had to be killed).
func exitStatus(cmd *exec.Cmd, limit time.Duration) int {
	timer := time.AfterFunc(limit, func() { cmd.Process.Kill() })
	defer timer.Stop()
	err := cmd.Wait()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee) && ee.Exited():
		return ee.ExitCode()
	}
	return -1
}

// Input that never ends — standard input that nobody writes, a FIFO
// without a writer given as a level or solution file — ends at the first
// SIGINT or SIGTERM, with exit status 130.
func TestNeverEndingInput(t *testing.T) {
	if testing.Short() {
		t.Skip("runs child processes")
	}
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	cases := [][]string{
		{"solve", "--time", "1s", "-"},
		{"verify", "microban:1", "-"},
		{"show", "-"},
		{"analyze", "-"},
		{"optimize", "microban:1", "-"},
		{"bench", "--nodes", "10", "-"},
		{"list", "-"},
		{"solve", fifo},
		{"verify", "microban:1", fifo},
		{"optimize", "--from", fifo},
	}
	var wg sync.WaitGroup
	for i, args := range cases {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, w, err := os.Pipe() // a writer that never writes
			if err != nil {
				t.Error(err)
				return
			}
			defer r.Close()
			defer w.Close()
			cmd, stderr := child(t, r, args...)
			time.Sleep(1500 * time.Millisecond) // well into the wait for input, even with ten children starting on two loaded cores
			sig := os.Interrupt
			if i%2 == 1 {
				sig = syscall.SIGTERM
			}
			cmd.Process.Signal(sig)
			if code := exitStatus(cmd, 5*time.Second); code != 130 {
				t.Errorf("%q after %v: exit status %d, want 130\n%s", args, sig, code, stderr)
			}
		}()
	}
	wg.Wait()
}

// Every command that writes a file refuses, before any work, a target that
// exists and is not a regular file, and leaves it as it was.
func TestOutputTargets(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(fifo, link); err != nil {
		t.Fatal(err)
	}
	results := filepath.Join(dir, "r.jsonl")
	if err := os.WriteFile(results, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{fifo, link, dir} {
		for _, args := range [][]string{
			{"train", "microban:2", "--rounds", "1", "--out", target},
			{"train", "microban:2", "--rounds", "1", "--out", filepath.Join(dir, "m.bin"), "--plot", target},
			{"bench", "--nodes", "10", "--out", target, "microban:1"},
			{"bench", "merge", "--out", target, results},
			{"generate", "--count", "1", "--out", target},
			{"optimize", "--out", target, "microban:2", "rRR"},
			{"solve", "--cpuprofile", target, "microban:1"},
			{"solve", "--memprofile", target, "microban:1"},
			{"solve", "--trace", target, "microban:1"},
		} {
			start := time.Now()
			_, _, err := soko(t, "", args...)
			if err == nil || !strings.Contains(err.Error(), "not a regular file") {
				t.Errorf("%q: %v, want a refusal naming the target", args, err)
			}
			if el := time.Since(start); el > 5*time.Second {
				t.Errorf("%q: refused only after %s", args, el)
			}
		}
	}
	if _, _, err := soko(t, "", "report", "--out-dir", results, results); err == nil || !strings.Contains(err.Error(), "exists and is a regular file, not a folder") {
		t.Errorf("report --out-dir on a file: %v", err)
	}
	if st, err := os.Lstat(fifo); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: %v", err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v", err)
	}
}

// Workers are capped by the work: a million workers on one level solve
// it with the whole default memory, and a bench record says so.
func TestWorkersCapped(t *testing.T) {
	out, _, err := soko(t, "", "solve", "-j", "1000000", "--json", "--algo", "astar", "microban:1")
	if err != nil || !strings.Contains(out, `"status":"solved"`) {
		t.Fatalf("solve -j 1000000: %v\n%s", err, out)
	}
	path := filepath.Join(t.TempDir(), "r.jsonl")
	if _, errOut, err := soko(t, "", "bench", "-j", "1000000", "--algo", "astar", "--nodes", "100000", "--out", path, "microban:1"); err != nil {
		t.Fatal(err, errOut)
	}
	recs := readRuns(t, path)
	if len(recs) != 1 || recs[0].Status != "solved" || recs[0].MemoryLimit != solver.DefaultMemory(1) {
		t.Fatalf("bench -j 1000000: %+v, want solved with memory %d", recs, solver.DefaultMemory(1))
	}
	if _, errOut, err := soko(t, "", "generate", "-j", "100000", "--count", "2"); err != nil || !strings.Contains(errOut, "with 2 workers") {
		t.Errorf("generate -j 100000 --count 2: %v %s", err, errOut)
	}
}

// A bench of over a billion runs is planned without listing them.
func TestBenchLazyPlan(t *testing.T) {
	out, _, err := soko(t, "", "bench", "--seeds", "1-1000000", "--algo", "greedy,astar,bfs", "--time", "1ms,2ms,3ms", "--nodes", "1", "--dry-run", "microban")
	want := "1395000000 runs: 3 solvers x 155 levels x 3 budgets x 1000000 seeds; 1395000000 left to run"
	if err != nil || !strings.Contains(out, want) {
		t.Fatalf("%v\n%s", err, out)
	}
}

// An interrupted generate --out holds whole, verified levels only, and
// says how many. They are written to a temporary file, put in the file's
// place when the run ends.
func TestGenerateInterrupted(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a child process")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "g.xsb")
	cmd, stderr := child(t, nil, "generate", "--count", "100000", "-j", "2", "--out", path)
	temp := filepath.Join(dir, fmt.Sprintf(".g.xsb.soko-tmp-%d", cmd.Process.Pid))
	deadline := time.Now().Add(30 * time.Second)
	for {
		if st, err := os.Stat(temp); err == nil && st.Size() > 5000 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("no levels after 30s")
		}
		time.Sleep(10 * time.Millisecond)
	}
	cmd.Process.Signal(os.Interrupt)
	if code := exitStatus(cmd, 10*time.Second); code != 130 {
		t.Fatalf("exit status %d, want 130\n%s", code, stderr)
	}
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lvls, err := level.ParseString(string(text), path)
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("; interrupted: %d of the 100000 levels were written\n", len(lvls)); !strings.HasSuffix(string(text), want) {
		t.Errorf("the file does not end with %q", want)
	}
	for _, l := range lvls {
		lurd := ""
		for _, c := range l.Comments {
			if _, after, ok := strings.Cut(c, "): "); ok && strings.HasPrefix(c, "solution") {
				lurd = after
			}
		}
		if rep, err := verify.Check(l, lurd); err != nil || !rep.Solved {
			t.Fatalf("level %d of %d is cut or unsolved: %v", l.Index, len(lvls), err)
		}
	}
}

// The frictions a new user met: list takes files and refuses unknown
// names as usage errors, numbers are plain decimals and their flags say
// what they want, a parameter given twice is refused, play's speed has a
// floor, a model given to solvers that read none is refused.
func TestFrictions(t *testing.T) {
	file := filepath.Join(t.TempDir(), "two.xsb")
	if err := os.WriteFile(file, []byte("#####\n#@$.#\n#####\n\n######\n#@$ .#\n######\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err := soko(t, "", "list", file)
	if err != nil || strings.Count(out, "\n") != 2 || !strings.Contains(out, file+":2") {
		t.Errorf("list FILE: %v\n%s", err, out)
	}
	usage(t, "", "list", "nosuch")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"generate", "--seed", "-1"}, `bad --seed "-1": want a whole number from 0`},
		{[]string{"generate", "--count", "1_0"}, `bad --count "1_0": want a whole number in decimal`},
		{[]string{"generate", "--count", "+5"}, `bad --count "+5"`},
		{[]string{"solve", "--nodes", "+5", "microban:1"}, `bad --nodes "+5"`},
		{[]string{"solve", "-j", "+2", "microban:1"}, `bad -j "+2"`},
		{[]string{"play", "--speed", "0x10", "microban:1"}, `bad --speed "0x10": want a decimal number`},
		{[]string{"play", "--speed", "1e-308", "microban:1"}, "want steps per second from 0.5"},
		{[]string{"solve", "--algo", "wastar", "--param", "w=2", "--w", "3", "microban:1"}, "parameter w given twice"},
		{[]string{"solve", "--algo", "wastar", "--param", "w=1_0", "microban:1"}, "not a decimal number"},
		{[]string{"solve", "--algo", "astar", "--param", "deadlocks=all,none", "microban:1"}, "stands alone"},
		{[]string{"solve", "--algo", "astar", "--model", "m.bin", "microban:1"}, "solver astar reads no model (those that do: alphazero, fess,"},
		{[]string{"bench", "--algo", "astar,greedy", "--model", "m.bin", "microban:1"}, "none of the solvers given reads a model"},
	} {
		if msg := usage(t, "", c.args...); !strings.Contains(msg, c.want) {
			t.Errorf("%q: %q, want %q", c.args, msg, c.want)
		}
	}
	out, _, err = soko(t, "", "solve", "-v", "--no-solution", "microban:1")
	if err != nil || !strings.Contains(out, "solved by fess (") {
		t.Errorf("the default solver's line does not name fess and its member:\n%s", out)
	}
}

// Under nohup (SIGHUP ignored from the start) a hang-up does not stop a
// long run; SIGINT still does.
func TestNohupKeepsRunning(t *testing.T) {
	nohup, err := exec.LookPath("nohup")
	if err != nil || testing.Short() {
		t.Skip("needs nohup and a child process")
	}
	cmd := exec.Command(nohup, os.Args[0], "-test.run=^TestBenchHelperProcess$", "--", "solve", "--time", "20s", "--no-solution", "xsokoban90:29")
	cmd.Env = append(os.Environ(), "SOKO_BENCH_HELPER=1")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan int, 1)
	go func() { done <- exitStatus(cmd, 10*time.Second) }()
	time.Sleep(time.Second) // started, signal handlers in place, solving
	cmd.Process.Signal(syscall.SIGHUP)
	select {
	case code := <-done:
		t.Fatalf("the hang-up stopped soko under nohup (exit status %d)", code)
	case <-time.After(500 * time.Millisecond):
	}
	cmd.Process.Signal(os.Interrupt)
	if code := <-done; code != 130 {
		t.Errorf("SIGINT after the hang-up: exit status %d, want 130", code)
	}
}

// A file's name that holds control characters is printed escaped, as a
// title is, in list, solve and their errors: printing it cannot drive the
// terminal or split a result line.
func TestFileNameControlsEscaped(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "e\x1b]0;pwn\ax.xsb")
	if err := os.WriteFile(bad, []byte("####\n#@ #\n####\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(dir, "n\nSolution\nRRRR.xsb")
	if err := os.WriteFile(good, []byte("#####\n#@$.#\n#####\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"list", bad}, {"solve", "--time", "1s", bad}, {"solve", "--time", "1s", good}} {
		out, errText, _ := soko(t, "", args...)
		if all := out + errText; strings.ContainsAny(all, "\x1b\a") || strings.Contains(all, "\nSolution\n") || !strings.Contains(all, `\x1b]0;pwn\a`) && !strings.Contains(all, `n\nSolution\nRRRR.xsb:1 `) {
			t.Errorf("%q printed a name raw:\n%q", args[0], all)
		}
	}
}
