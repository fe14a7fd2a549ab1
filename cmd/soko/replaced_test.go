package main

import (
	"os"
	"path/filepath"
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
