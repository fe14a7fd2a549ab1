package main

import (
	"compress/gzip"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// gunzipText returns the uncompressed content of the gzip file at path:
// of a pprof file, the protocol buffer whose string table holds the sample
// types and the function names.
func gunzipText(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s is not gzip: %v", path, err)
	}
	b, err := io.ReadAll(z)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return string(b)
}

// TestSolveProfiles: --cpuprofile and --memprofile write pprof profiles
// that show the solver's own functions, and a profile path that cannot be
// written is an error before any level is solved.
func TestSolveProfiles(t *testing.T) {
	if f := flag.Lookup("test.cpuprofile"); f != nil && f.Value.String() != "" {
		t.Skip("go test -cpuprofile holds the CPU profiler")
	}
	dir := t.TempDir()
	cpu, mem := filepath.Join(dir, "cpu.pprof"), filepath.Join(dir, "mem.pprof")
	// A fixed amount of work: A* stopped after 50,000 expansions, about a
	// quarter of a second of CPU, some 25 samples at pprof's 100 Hz.
	out, _, err := soko(t, "", "solve", "--cpuprofile", cpu, "--memprofile", mem,
		"--algo", "astar", "--time", "0", "--nodes", "50000", "xsokoban90:2")
	if err != nil || !strings.Contains(out, "node limit") {
		t.Fatalf("solve: %v\n%s", err, out)
	}
	c := gunzipText(t, cpu)
	for _, want := range []string{"samples", "nanoseconds", "soko/search.bestFirst"} {
		if !strings.Contains(c, want) {
			t.Errorf("the CPU profile does not mention %q", want)
		}
	}
	m := gunzipText(t, mem)
	for _, want := range []string{"alloc_space", "inuse_space", "soko/sokoban.(*Store).Intern"} {
		if !strings.Contains(m, want) {
			t.Errorf("the heap profile does not mention %q", want)
		}
	}

	missing := filepath.Join(dir, "no", "such", "dir", "p.pprof")
	for _, flagName := range []string{"--cpuprofile", "--memprofile"} {
		out, _, err := soko(t, "", "solve", flagName, missing, "microban:1")
		var u usageError
		if !errors.As(err, &u) || !strings.Contains(err.Error(), flagName) || !strings.Contains(err.Error(), missing) {
			t.Errorf("solve %s %s: %v, want a usage error naming the flag and the file", flagName, missing, err)
		}
		if out != "" {
			t.Errorf("solve %s %s solved before failing:\n%s", flagName, missing, out)
		}
	}
}
