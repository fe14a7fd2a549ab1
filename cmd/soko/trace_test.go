package main

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSolveTrace: --trace writes one JSON record a line for every level,
// from the workers of -j together, each stamped with its level, and fess's
// strategies each end theirs; a trace whose folder does not exist is a
// usage error before any level is solved.
func TestSolveTrace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "trace.jsonl")
	out, _, err := soko(t, "", "solve", "--trace", path, "-j", "2", "--nodes", "300", "--time", "0", "xsokoban90:14,29")
	if err != nil || strings.Count(out, "node limit") != 2 {
		t.Fatalf("solve: %v\n%s", err, out)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ends := map[string]int{}
	for line := range strings.SplitSeq(strings.TrimSuffix(string(b), "\n"), "\n") {
		var r struct{ Level, Strategy, Event string }
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		if r.Event == "end" {
			ends[r.Level]++
		}
	}
	// Seven of the default strategies run fess's engine: dive, plan,
	// imagine, back, park, sink and order.
	if ends["xsokoban90:14"] != 7 || ends["xsokoban90:29"] != 7 {
		t.Errorf("end records per level %v, want seven for each of xsokoban90:14 and 29", ends)
	}

	missing := filepath.Join(t.TempDir(), "no", "trace.jsonl")
	out, _, err = soko(t, "", "solve", "--trace", missing, "microban:1")
	var u usageError
	if !errors.As(err, &u) || !strings.Contains(err.Error(), "--trace") || out != "" {
		t.Errorf("solve --trace %s: %v, %q; want a usage error naming the flag before any work", missing, err, out)
	}
}
