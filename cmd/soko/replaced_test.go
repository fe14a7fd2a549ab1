package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
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
