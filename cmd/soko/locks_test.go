package main

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// waitForLock waits until the process of cmd holds a flock on the file at
// path, as /proc/locks tells (without touching the file, so as not to
// race the lock being taken).
func waitForLock(t *testing.T, cmd *exec.Cmd, stderr *strings.Builder, path string) {
	t.Helper()
	pid := strconv.Itoa(cmd.Process.Pid)
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if st, err := os.Stat(path); err == nil {
			ino := ":" + strconv.FormatUint(st.Sys().(*syscall.Stat_t).Ino, 10)
			b, _ := os.ReadFile("/proc/locks")
			for line := range strings.Lines(string(b)) {
				f := strings.Fields(line)
				if len(f) >= 6 && f[1] == "FLOCK" && f[4] == pid && strings.HasSuffix(f[5], ino) {
					return
				}
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	cmd.Process.Kill()
	cmd.Wait()
	t.Fatalf("the first writer never locked %s:\n%s", path, stderr)
}

// Two writers on one output at once: while a soko process holds the file
// (a results file it appends to, a .sok it merges into, a model, a trace,
// a profile), a second run that would write it stops at once with a
// message naming the first process, before any work, and the file keeps
// exactly what it held: no line spliced, no solution lost.
func TestTwoWritersAtOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("runs child processes")
	}
	if _, err := os.ReadFile("/proc/locks"); err != nil {
		t.Skip("no /proc/locks to see the first writer's lock:", err)
	}
	hard := []string{"--algo", "bfs", "--memory", "256MiB", "--time", "60s", "xsokoban90:50"}
	const sol = "dlUrrrdLullddrUluRuulDrddrruLdlUU" // microban:1
	for _, c := range []struct {
		name   string
		setup  []string // run first, in this process, with FILE for the file; nil: an empty file; "none": no file
		holder []string // the first writer, a child process; "-" reads a standard input nobody writes
		second []string
	}{
		{"bench JSONL", []string{"bench", "--algo", "astar", "--out", "FILE", "microban:1"},
			append([]string{"bench", "--out", "FILE", "-j", "1"}, hard...), []string{"bench", "--algo", "astar", "--out", "FILE", "microban:2"}},
		{"optimize JSONL", nil,
			[]string{"optimize", "--out", "FILE", "--from", "FIFO"}, []string{"optimize", "--out", "FILE", "microban:1", sol}},
		{"solve .sok merge", []string{"solve", "--out", "FILE", "microban:1"},
			[]string{"solve", "--out", "FILE", "-"}, []string{"solve", "--out", "FILE", "microban:2"}},
		{"bench --sok", []string{"solve", "--out", "FILE", "microban:1"},
			[]string{"bench", "--sok", "FILE", "-"}, []string{"bench", "--algo", "astar", "--sok", "FILE", "microban:2"}},
		{"optimize FILE.sok", []string{"solve", "--out", "FILE", "microban:1"},
			[]string{"solve", "--out", "FILE", "-"}, []string{"optimize", "FILE"}},
		{"model", nil,
			[]string{"train", "--rounds", "1", "--out", "FILE", "-"}, []string{"train", "--rounds", "1", "--out", "FILE", "microban:1"}},
		{"trace", nil,
			append([]string{"solve", "--trace", "FILE"}, hard...), []string{"solve", "--trace", "FILE", "microban:1"}},
		{"profile", nil,
			append([]string{"solve", "--cpuprofile", "FILE"}, hard...), []string{"solve", "--memprofile", "FILE", "microban:1"}},
		{"generate", nil,
			[]string{"generate", "--count", "1000000", "--out", "FILE"}, []string{"generate", "--count", "1", "--out", "FILE"}},
		{"bench merge", []string{"bench", "--algo", "astar", "--out", "FILE", "microban:1"},
			append([]string{"bench", "--out", "FILE", "-j", "1"}, hard...), []string{"bench", "merge", "--out", "FILE", "FIFO"}},
		{"new model", []string{"none"},
			[]string{"train", "--rounds", "1", "--out", "FILE", "-"}, []string{"train-puct", "--out", "FILE"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "out")
			fifo := filepath.Join(dir, "fifo")
			if err := syscall.Mkfifo(fifo, 0o600); err != nil {
				t.Skip("no FIFOs here:", err)
			}
			subst := func(args []string) []string {
				out := make([]string, len(args))
				for i, a := range args {
					out[i] = strings.NewReplacer("FILE", path, "FIFO", fifo).Replace(a)
				}
				return out
			}
			held, before := path, ""
			switch {
			case c.setup == nil:
				if err := os.WriteFile(path, nil, 0o644); err != nil {
					t.Fatal(err)
				}
			case c.setup[0] == "none": // held by its lock file until written
				held = filepath.Join(dir, ".out.soko-lock")
			default:
				if _, errOut, err := soko(t, "", subst(c.setup)...); err != nil {
					t.Fatalf("setup: %v\n%s", err, errOut)
				}
			}
			if held == path {
				before = readText(t, path)
			}
			r, w, err := os.Pipe() // standard input that nobody writes
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			cmd, stderr := child(t, r, subst(c.holder)...)
			r.Close()
			waitForLock(t, cmd, stderr, held)

			start := time.Now()
			_, _, err = soko(t, "", subst(c.second)...)
			want := "is being written by process " + strconv.Itoa(cmd.Process.Pid) + " ("
			if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "wait for that one to end") {
				t.Errorf("second writer: %v; want a refusal with %q", err, want)
			}
			if el := time.Since(start); el > 5*time.Second {
				t.Errorf("the second writer was refused only after %s", el)
			}
			cmd.Process.Signal(syscall.SIGINT)
			if code := exitStatus(cmd, 10*time.Second); code != 130 {
				t.Errorf("first writer: exit status %d, want 130\n%s", code, stderr)
			}
			if held != path {
				if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("%s was made: %v", path, err)
				}
			}
			after := ""
			if held == path {
				after = readText(t, path)
			}
			switch c.name {
			case "bench JSONL", "bench merge": // the first may have recorded its interrupted run
				if !strings.HasPrefix(after, before) || strings.Contains(after, "microban:2") {
					t.Errorf("results file was\n%s\nand is\n%s", before, after)
				}
				for line := range strings.Lines(after) {
					if !json.Valid([]byte(line)) {
						t.Errorf("not a whole record: %q", line)
					}
				}
			case "trace", "profile", "generate": // the first's own, written as it ended
			default:
				if after != before {
					t.Errorf("the file was\n%s\nand is\n%s", before, after)
				}
			}
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				if strings.Contains(e.Name(), ".soko-") {
					t.Errorf("temporary or lock file left: %s", e.Name())
				}
			}
		})
	}
}

// A .sok merge reads the file again under its lock before it writes: an
// edit made by hand while soko solve ran (here: after it read the file,
// before it had its levels) is kept beside the new solution, whether the
// editor wrote the file in place or renamed a new one over it.
func TestSokMergeKeepsHandEdits(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a child process")
	}
	if _, err := os.ReadFile("/proc/locks"); err != nil {
		t.Skip("no /proc/locks to see the writer's lock:", err)
	}
	level2, _, err := soko(t, "", "show", "microban:2")
	if err != nil {
		t.Fatal(err)
	}
	for _, byRename := range []bool{false, true} {
		path := filepath.Join(t.TempDir(), "all.sok")
		if _, _, err := soko(t, "", "solve", "--optimize=off", "--out", path, "microban:1"); err != nil {
			t.Fatal(err)
		}
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd, stderr := child(t, r, "solve", "--out", path, "-")
		r.Close()
		waitForLock(t, cmd, stderr, path)
		edited := strings.Replace(readText(t, path), "Solver: soko fess\n", "Solver: my own hand\n", 1)
		if byRename {
			tmp := path + ".new"
			if err := os.WriteFile(tmp, []byte(edited), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(tmp, path); err != nil {
				t.Fatal(err)
			}
		} else if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, level2)
		w.Close()
		if code := exitStatus(cmd, 30*time.Second); code != 0 {
			t.Fatalf("solve: exit status %d\n%s", code, stderr)
		}
		text := readText(t, path)
		if !strings.Contains(text, "Solver: my own hand\n") || strings.Count(text, "\nSolution (") != 2 {
			t.Errorf("edited by rename %v; the file after the run:\n%s", byRename, text)
		}
	}
}

// Two soko solve --out into one file one after the other keep each
// other's solutions, and a resumed bench --sok puts every run of its
// results file in the .sok, those of earlier invocations too.
func TestSokMergesRuns(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "all.sok")
	for _, l := range []string{"microban:1", "microban:2"} {
		if _, _, err := soko(t, "", "solve", "--out", path, l); err != nil {
			t.Fatal(err)
		}
	}
	if text := readText(t, path); strings.Count(text, "\nSolution (") != 2 {
		t.Errorf("after two solves:\n%s", text)
	}

	results, sok := filepath.Join(dir, "r.jsonl"), filepath.Join(dir, "b.sok")
	if _, errOut, err := soko(t, "", "bench", "--algo", "astar", "--out", results, "microban:1"); err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	_, errOut, err := soko(t, "", "bench", "--algo", "astar", "--out", results, "--sok", sok, "microban:1-2")
	if err != nil || !strings.Contains(errOut, "1 done before, 1 run now") {
		t.Fatalf("resumed: %v\n%s", err, errOut)
	}
	if text := readText(t, sok); strings.Count(text, "\nSolution (") != 2 || !strings.Contains(errOut, "2 levels, 2 solutions new or better") {
		t.Errorf("the .sok of a resumed bench:\n%s\n%s", text, errOut)
	}
	// Given other levels, the earlier runs' levels are found again by
	// their address; one whose board changed since is left out, and said.
	lv := filepath.Join(dir, "lv.xsb")
	text, _, err := soko(t, "", "show", "microban:4")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(lv, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := soko(t, "", "bench", "--algo", "astar", "--out", results, lv); err != nil {
		t.Fatal(err)
	}
	changed, _, err := soko(t, "", "show", "microban:5")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(lv, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	sok2 := filepath.Join(dir, "c.sok")
	_, errOut, err = soko(t, "", "bench", "--algo", "astar", "--out", results, "--sok", sok2, "microban:3")
	if text := readText(t, sok2); err != nil || strings.Count(text, "\nSolution (") != 3 ||
		!strings.Contains(errOut, "3 levels, 3 solutions new or better") || !strings.Contains(errOut, "not put in "+sok2+": 1 run of "+results) {
		t.Errorf("a bench --sok given other levels: %v\n%s\n%s", err, text, errOut)
	}
}

// The user's files: a file marked read-only, a file in a read-only
// folder, a level file the run reads, or a plot in no known format, are
// refused by every writer before any work, and left as they were. The
// rule for read-only is the permission bits (no write bit: refused), so
// that it holds when run as root, who may write anything.
func TestUserFilesRefused(t *testing.T) {
	dir := t.TempDir()
	lv := filepath.Join(dir, "lv.xsb")
	text, _, err := soko(t, "", "show", "microban:1")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(lv, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	ro := filepath.Join(dir, "ro")
	if err := os.WriteFile(ro, []byte("mine"), 0o444); err != nil {
		t.Fatal(err)
	}
	roDir := filepath.Join(dir, "rodir")
	if err := os.Mkdir(roDir, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(roDir, 0o755) })
	inRO := filepath.Join(roDir, "m.bin")
	const sol = "dlUrrrdLullddrUluRuulDrddrruLdlUU"
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"solve", "--out", ro, "microban:1"}, "read-only (mode 0444)"},
		{[]string{"optimize", ro}, "read-only (mode 0444)"},
		{[]string{"train", "--rounds", "1", "--out", ro, "microban:1"}, "read-only (mode 0444)"},
		{[]string{"train-dist", "--out", ro}, "read-only (mode 0444)"},
		{[]string{"train-puct", "--out", ro}, "read-only (mode 0444)"},
		{[]string{"bench", "--out", ro, "microban:1"}, "read-only (mode 0444)"},
		{[]string{"bench", "--sok", ro, "microban:1"}, "read-only (mode 0444)"},
		{[]string{"optimize", "--out", ro, "microban:1", sol}, "read-only (mode 0444)"},
		{[]string{"solve", "--trace", ro, "microban:1"}, "read-only (mode 0444)"},
		{[]string{"solve", "--cpuprofile", ro, "microban:1"}, "read-only (mode 0444)"},
		{[]string{"generate", "--out", ro}, "read-only (mode 0444)"},
		{[]string{"train", "--rounds", "1", "--out", inRO, "microban:1"}, "folder " + roDir + " is read-only"},
		{[]string{"train", "--rounds", "1", "--out", filepath.Join(dir, "m.bin"), "--plot", filepath.Join(roDir, "loss.png"), "microban:1"}, "folder " + roDir + " is read-only"},
		{[]string{"solve", "--out", filepath.Join(roDir, "all.sok"), "microban:1"}, "folder " + roDir + " is read-only"},
		{[]string{"report", "--out-dir", roDir, lv}, "read-only"},
		{[]string{"report", "--out-dir", filepath.Join(roDir, "new"), lv}, "read-only"},
		{[]string{"solve", lv, "--trace", lv}, "--trace " + lv + " is also an input"},
		{[]string{"solve", lv + ":1", "--cpuprofile", lv}, "--cpuprofile " + lv + " is also an input"},
		{[]string{"solve", lv, "--memprofile", lv}, "--memprofile " + lv + " is also an input"},
		{[]string{"train", "--rounds", "1", lv, "--out", lv}, "--out " + lv + " is also an input"},
		{[]string{"bench", lv, "--out", lv}, "--out " + lv + " is also an input"},
		{[]string{"optimize", lv, sol, "--out", lv}, "--out " + lv + " is also an input"},
		{[]string{"generate", "--stats-of", lv, "--plot", lv}, "--plot " + lv + " is also an input"},
		{[]string{"solve", "--trace", filepath.Join(dir, "t"), "--cpuprofile", filepath.Join(dir, ".", "t"), "microban:1"}, "--trace and --cpuprofile are the same file"},
		{[]string{"solve", "--out", filepath.Join(dir, "x.sok"), "--trace", filepath.Join(dir, "x.sok"), "microban:1"}, "--trace and --out are the same file"},
		{[]string{"train", "--rounds", "1", "--out", filepath.Join(dir, "m.png"), "--plot", filepath.Join(dir, "m.png"), "microban:1"}, "--out and --plot are the same file"},
		{[]string{"bench", "--out", filepath.Join(dir, "r"), "--sok", filepath.Join(dir, "r"), "microban:1"}, "--out and --sok are the same file"},
		{[]string{"train", "--rounds", "1", "--out", filepath.Join(dir, "m.bin"), "--plot", filepath.Join(dir, "loss.txt"), "microban:1"}, "the extension gives the format"},
		{[]string{"generate", "--stats", "--plot", filepath.Join(dir, "p")}, "the extension gives the format"},
	} {
		start := time.Now()
		out, _, err := soko(t, "", c.args...)
		var u usageError
		if !errors.As(err, &u) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want a usage error with %q", c.args, err, c.want)
		}
		if out != "" || time.Since(start) > 5*time.Second {
			t.Errorf("%q: refused after work (%s):\n%s", c.args, time.Since(start), out)
		}
	}
	if readText(t, ro) != "mine" || readText(t, lv) != text {
		t.Error("a refused run changed a file")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 3 {
		t.Errorf("files left: %v", entries)
	}
}

// failingFile is an output whose every write fails, as on a full disk.
type failingFile struct{}

func (failingFile) Write([]byte) (int, error) { return 0, syscall.ENOSPC }
func (failingFile) Close() error              { return nil }

// A profile or trace that cannot be written fails the run: runtime/pprof
// drops the write errors of a CPU profile, and the run used to exit 0
// with an empty profile.
func TestProfileWriteErrors(t *testing.T) {
	saved := createOutput
	createOutput = func(string) (io.WriteCloser, error) { return failingFile{}, nil }
	defer func() { createOutput = saved }()
	path := filepath.Join(t.TempDir(), "p")
	for _, flag := range []string{"--cpuprofile", "--memprofile", "--trace"} {
		_, _, err := soko(t, "", "solve", "--nodes", "1000", flag, path, "xsokoban90:1")
		if err == nil || !strings.Contains(err.Error(), flag) || !errors.Is(err, syscall.ENOSPC) {
			t.Errorf("solve %s on a full disk: %v, want its write error", flag, err)
		}
	}
}
