package main

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Two report --out-dir on one folder at once: the second is refused,
// naming the first, before it writes anything, so that the folder never
// holds one run's report.md beside the other's plots.
func TestReportOutDirLocked(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a child process")
	}
	if _, err := os.ReadFile("/proc/locks"); err != nil {
		t.Skip("no /proc/locks to see the first report's lock:", err)
	}
	dir := t.TempDir()
	results := filepath.Join(dir, "r.jsonl")
	if _, errOut, err := soko(t, "", "bench", "--algo", "astar", "--out", results, "microban:1"); err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	out := filepath.Join(dir, "out")
	// The first holds the folder while it waits for its input.
	first, stderr := child(t, nil, "report", "--out-dir", out, "--no-plots", fifo)
	waitForLock(t, first, stderr, out)
	_, _, err := soko(t, "", "report", "--out-dir", out, "--no-plots", results)
	want := out + " is being written by process " + strconv.Itoa(first.Process.Pid) + " ("
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("second report: %v; want a refusal with %q", err, want)
	}
	if entries, _ := os.ReadDir(out); len(entries) != 0 {
		t.Errorf("the refused report wrote %d files", len(entries))
	}
	if err := os.WriteFile(fifo, []byte(readText(t, results)), 0o600); err != nil {
		t.Fatal(err)
	}
	if code := exitStatus(first, 30*time.Second); code != 0 {
		t.Fatalf("first report: exit status %d\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "report.md")); err != nil {
		t.Error(err)
	}
}

// report --out-dir checks every file it will write before it writes any:
// a read-only runs.csv stops it with nothing written; and a read-only
// folder is named as the folder.
func TestReportOutDirCheckedFirst(t *testing.T) {
	dir := t.TempDir()
	results := filepath.Join(dir, "r.jsonl")
	if _, errOut, err := soko(t, "", "bench", "--algo", "astar", "--out", results, "microban:1"); err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	out := filepath.Join(dir, "out")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	ro := filepath.Join(out, "runs.csv")
	if err := os.WriteFile(ro, []byte("mine\n"), 0o444); err != nil {
		t.Fatal(err)
	}
	stdout, _, err := soko(t, "", "report", "--out-dir", out, results)
	var u usageError // exit status 2, as for bench --out on such a file
	if !errors.As(err, &u) || !strings.Contains(err.Error(), ro+" is read-only") || !strings.Contains(err.Error(), "no file of the report was written") {
		t.Errorf("report into a folder with a read-only runs.csv: %v", err)
	}
	if entries, _ := os.ReadDir(out); len(entries) != 1 || stdout != "" {
		t.Errorf("files written before the refusal: %v; stdout %q", entries, stdout)
	}
	if readText(t, ro) != "mine\n" {
		t.Error("the read-only file was changed")
	}
	notes := filepath.Join(dir, "notes")
	if err := os.Mkdir(notes, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(notes, "report.md"), []byte("my notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := soko(t, "", "report", "--out-dir", notes, results); !errors.As(err, &u) || !strings.Contains(err.Error(), "was not written by soko report") {
		t.Errorf("report into a folder with the user's report.md: %v", err)
	}

	roDir := filepath.Join(dir, "rodir")
	if err := os.Mkdir(roDir, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(roDir, 0o755) })
	_, _, err = soko(t, "", "report", "--out-dir", roDir, results)
	if err == nil || !strings.Contains(err.Error(), roDir+" is a read-only folder") || strings.Contains(err.Error(), filepath.Join(roDir, "x")) {
		t.Errorf("report into a read-only folder: %v", err)
	}
}
