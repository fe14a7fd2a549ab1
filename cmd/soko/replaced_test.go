package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"soko/internal/outfile"
	"soko/levels"
	"soko/sokfile"
)

// A results file replaced by a rename while bench appends to it (sed -i,
// an editor, cp and mv) keeps every run: bench follows the path to the new
// file, says so, and its summary names a file that holds all its runs.
// Before, the runs written after the rename went to the old file, gone.
func TestBenchFollowsReplacedResults(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a child process")
	}
	if _, err := os.ReadFile("/proc/locks"); err != nil {
		t.Skip("no /proc/locks to see the writer's lock:", err)
	}
	path := filepath.Join(t.TempDir(), "r.jsonl")
	// microban:1 is written at once; xsokoban90:50 runs to its time limit.
	cmd, stderr := child(t, nil, "bench", "--algo", "bfs", "--memory", "256MiB", "--time", "3s", "-j", "1", "--out", path, "microban:1", "xsokoban90:50")
	deadline := time.Now().Add(30 * time.Second)
	for {
		if b, _ := os.ReadFile(path); strings.Count(string(b), "\n") == 1 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("the first run was never written:\n%s", stderr)
		}
		time.Sleep(10 * time.Millisecond)
	}
	// sed -i: a copy, renamed over the file.
	tmp := filepath.Join(filepath.Dir(path), "sedXYZ")
	if err := os.WriteFile(tmp, []byte(readText(t, path)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
	if code := exitStatus(cmd, 60*time.Second); code != 0 {
		t.Fatalf("bench: exit status %d\n%s", code, stderr)
	}
	text := readText(t, path)
	if strings.Count(text, "\n") != 2 || !strings.Contains(text, `"level":"microban:1"`) || !strings.Contains(text, `"level":"xsokoban90:50"`) {
		t.Errorf("the results file after the run:\n%s", text)
	}
	if !strings.Contains(stderr.String(), path+" was replaced by another file") || !strings.Contains(stderr.String(), "2 runs, 0 done before, 2 run now") {
		t.Errorf("stderr:\n%s", stderr)
	}
}

// optimize --out follows its file when another is renamed over it, as
// bench does: the result written to the old file after the copy was taken
// is put in the new one, and stderr says so; a file removed meanwhile
// stops the run, counting the results gone with it.
func TestOptimizeOutFollowsReplacedFile(t *testing.T) {
	for _, removed := range []bool{false, true} {
		path := filepath.Join(t.TempDir(), "o.jsonl")
		out, err := openOptimizeOut(path)
		if err != nil {
			t.Fatal(err)
		}
		var stderr strings.Builder
		out.stderr = &stderr
		res := func(i int) optimized {
			return optimized{Level: "microban:" + strconv.Itoa(i), Solver: "fess", Metric: "moves"}
		}
		if err := out.write(res(1)); err != nil {
			t.Fatal(err)
		}
		copied := readText(t, path) // sed reads the file ...
		if err := out.write(res(2)); err != nil {
			t.Fatal(err)
		}
		if removed {
			os.Remove(path)
		} else { // ... and renames its copy over it
			tmp := path + ".new"
			if err := os.WriteFile(tmp, []byte(copied), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(tmp, path); err != nil {
				t.Fatal(err)
			}
		}
		err = out.write(res(3))
		out.close()
		if removed {
			if err == nil || !strings.Contains(err.Error(), path+" was removed") || !strings.Contains(err.Error(), "2 results this run wrote went only to the old file") {
				t.Errorf("after the file was removed: %v", err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		text := readText(t, path)
		for i := 1; i <= 3; i++ {
			if strings.Count(text, `"level":"microban:`+strconv.Itoa(i)+`"`) != 1 {
				t.Errorf("result %d is not once in the file:\n%s", i, text)
			}
		}
		if !strings.Contains(stderr.String(), path+" was replaced by another file") || !strings.Contains(stderr.String(), "the 1 result written by this run that it lacked") {
			t.Errorf("stderr: %q", stderr.String())
		}
	}
}

// sokChild is child with its standard error read as it comes: lines gets
// each line.
func sokChild(t *testing.T, stdin *os.File, args ...string) (cmd *exec.Cmd, lines <-chan string, all *strings.Builder) {
	t.Helper()
	cmd = exec.Command(os.Args[0], append([]string{"-test.run=^TestBenchHelperProcess$", "--"}, args...)...)
	cmd.Env = append(os.Environ(), "SOKO_BENCH_HELPER=1")
	cmd.Stdin = stdin
	r, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ch := make(chan string, 100)
	all = new(strings.Builder)
	var mu sync.Mutex
	go func() {
		defer close(ch)
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			mu.Lock()
			all.WriteString(sc.Text() + "\n")
			mu.Unlock()
			ch <- sc.Text()
		}
	}()
	return cmd, ch, all
}

// finish waits for the end of cmd, started by sokChild, once its
// standard error is read to its end, and returns its exit status.
func finish(cmd *exec.Cmd, lines <-chan string) int {
	timer := time.AfterFunc(30*time.Second, func() { cmd.Process.Kill() })
	defer timer.Stop()
	for range lines {
	}
	return exitStatus(cmd, 30*time.Second)
}

// waitLine waits for a line of lines that holds want.
func waitLine(t *testing.T, lines <-chan string, want string) {
	t.Helper()
	timeout := time.After(30 * time.Second)
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("no line with %q: the process ended", want)
			}
			if strings.Contains(l, want) {
				return
			}
		case <-timeout:
			t.Fatalf("no line with %q", want)
		}
	}
}

// A .sok that an editor renames a new file over while solve --out runs,
// and that a second soko then takes (the first cannot see it: its lock is
// on the old file), is merged by the first under the lock of the new
// file: it waits for the second to end, then reads the file again and
// merges, so that every solution is kept and the two merges never
// interleave. Before, the first merged at once, beside the second.
func TestSokSaveLocksReplacedFile(t *testing.T) {
	if testing.Short() {
		t.Skip("runs child processes")
	}
	if _, err := os.ReadFile("/proc/locks"); err != nil {
		t.Skip("no /proc/locks to see the writer's lock:", err)
	}
	path := filepath.Join(t.TempDir(), "all.sok")
	if _, _, err := soko(t, "", "solve", "--optimize=off", "--out", path, "microban:1"); err != nil {
		t.Fatal(err)
	}
	level := func(spec string) string {
		text, _, err := soko(t, "", "show", spec)
		if err != nil {
			t.Fatal(err)
		}
		return text
	}
	r1, w1, _ := os.Pipe()
	first, lines1, stderr1 := sokChild(t, r1, "solve", "--out", path, "-")
	r1.Close()
	defer w1.Close()
	waitForLock(t, first, new(strings.Builder), path)
	text := readText(t, path) // an editor's save: a new file renamed over it
	if err := os.WriteFile(path+"~", []byte(strings.Replace(text, "Solver: soko fess\n", "Solver: my own hand\n", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(path+"~", path); err != nil {
		t.Fatal(err)
	}
	r2, w2, _ := os.Pipe()
	second, lines2, stderr2 := sokChild(t, r2, "solve", "--out", path, "-")
	r2.Close()
	defer w2.Close()
	waitForLock(t, second, new(strings.Builder), path)

	io.WriteString(w1, level("microban:2"))
	w1.Close()
	waitLine(t, lines1, "waiting up to")
	io.WriteString(w2, level("microban:3"))
	w2.Close()
	if code := finish(second, lines2); code != 0 {
		t.Fatalf("second: exit status %d\n%s", code, stderr2)
	}
	if code := finish(first, lines1); code != 0 {
		t.Fatalf("first: exit status %d\n%s", code, stderr1)
	}
	got := readText(t, path)
	if !strings.Contains(got, "Solver: my own hand\n") || strings.Count(got, "\nSolution (") != 3 {
		t.Errorf("the file after both runs:\n%s", got)
	}
	if !strings.Contains(stderr1.String(), "merged into the new one") {
		t.Errorf("first's stderr:\n%s", stderr1)
	}
}

// A save whose .sok another soko still holds after the wait (it took the
// file renamed over the one this run locked) writes this run's solutions
// to NAME.soko-PID.sok beside it and fails naming that file: they are
// never dropped, and the held file is not touched.
func TestSokSaveAside(t *testing.T) {
	dir := t.TempDir()
	from := filepath.Join(dir, "from.sok")
	if _, _, err := soko(t, "", "solve", "--out", from, "microban:2"); err != nil {
		t.Fatal(err)
	}
	read, err := sokfile.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "all.sok")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	o, err := openSokOut(context.Background(), "solve", "--out", path)
	if err != nil {
		t.Fatal(err)
	}
	defer o.close()
	o.add(levels.Entry{Level: read.Entries[0].Level}, read.Entries[0].Solutions[0].LURD, "soko fess")
	defer editedAndHeld(t, path).Close()
	saved := sokSaveWait
	sokSaveWait = 0
	defer func() { sokSaveWait = saved }()
	var stderr strings.Builder
	err = o.write(context.Background(), &stderr)
	side := filepath.Join(dir, fmt.Sprintf("all.soko-%d.sok", os.Getpid()))
	if err == nil || !strings.Contains(err.Error(), "are in "+side+" instead") || !strings.Contains(err.Error(), "1 level and 1 solution") {
		t.Fatalf("save while another holds the new file: %v", err)
	}
	if got := readText(t, side); strings.Count(got, "\nSolution (") != 1 {
		t.Errorf("the side file:\n%s", got)
	}
	if got := readText(t, path); got != "; edited\n" {
		t.Errorf("the held file was changed:\n%s", got)
	}
}

// editedAndHeld renames a file edited by hand over path, as an editor
// saves, and opens it as another soko writing it would (the lock held
// until the file returned is closed).
func editedAndHeld(t *testing.T, path string) *os.File {
	t.Helper()
	if err := os.WriteFile(path+"~", []byte("; edited\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(path+"~", path); err != nil {
		t.Fatal(err)
	}
	other, err := outfile.OpenAppend(path)
	if err != nil {
		t.Fatal(err)
	}
	return other
}
