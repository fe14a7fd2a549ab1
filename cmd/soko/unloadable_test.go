package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"soko/bench"
	"soko/level"
)

// unloadableFile writes a collection of four levels whose third has one
// box more than a level may have, and returns its path.
func unloadableFile(t *testing.T) string {
	t.Helper()
	good := "#####\n#@$.#\n#####\n"
	var big strings.Builder
	big.WriteString(strings.Repeat("#", 18) + "\n#@" + strings.Repeat(" ", 15) + "#\n")
	for n := level.MaxBoxes + 1; n > 0; n -= 16 {
		k := min(n, 16)
		big.WriteString("#" + strings.Repeat("*", k) + strings.Repeat(" ", 16-k) + "#\n")
	}
	big.WriteString(strings.Repeat("#", 18) + "\n")
	path := filepath.Join(t.TempDir(), "c.xsb")
	text := good + "\n; 2 Second\n" + good + "\n; 3 Big\n" + big.String() + "\n" + good
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// The unloadable level's reason and error, as the commands give them.
var (
	bigReason = fmt.Sprintf("%d boxes, more than the limit of %d", level.MaxBoxes+1, level.MaxBoxes)
	bigError  = ":11: level 3: " + bigReason
)

// One level that cannot be loaded is an error of that level: solve, list,
// show and bench do the others and exit with status 1, and a selection
// that leaves it out works as if it were not there.
func TestUnloadableLevel(t *testing.T) {
	path := unloadableFile(t)

	out, _, err := soko(t, "", "solve", "--time", "5s", path)
	if !errors.Is(err, errSilent) || strings.Count(out, "solved       pushes") != 3 || !strings.Contains(out, path+":3 (Big)") ||
		!strings.Contains(out, "error: "+path+bigError) || !strings.Contains(out, "solved 3 of 4 levels") {
		t.Errorf("solve: %v\n%s", err, out)
	}

	// Its --json record says "error", as bench's does, never the zero
	// status, "solved".
	out, _, _ = soko(t, "", "solve", "--json", "--time", "5s", "--optimize", "off", path+":3")
	var rec struct{ Status, Error string }
	if err := json.Unmarshal([]byte(out), &rec); err != nil || rec.Status != bench.StatusError || rec.Error != path+bigError {
		t.Errorf("solve --json of the bad level: %+v, %v\n%s", rec, err, out)
	}

	out, _, err = soko(t, "", "list", path)
	if !errors.Is(err, errSilent) || strings.Count(out, "\n") != 4 ||
		!strings.Contains(out, path+":3 cannot load: line 11: "+bigReason+"  (Big)") {
		t.Errorf("list: %v\n%s", err, out)
	}

	out, errOut, err := soko(t, "", "show", path)
	if !errors.Is(err, errSilent) || strings.Count(out, "#@$.#") != 3 || !strings.Contains(errOut, path+bigError) {
		t.Errorf("show: %v\n%s\nstderr: %s", err, out, errOut)
	}

	for _, cmd := range []string{"solve", "list", "show"} {
		if _, _, err := soko(t, "", cmd, path+":1-2,4"); err != nil {
			t.Errorf("%s %s:1-2,4: %v", cmd, path, err)
		}
	}
	if _, _, err := soko(t, "", "analyze", path+":3"); err == nil || !strings.HasSuffix(err.Error(), path+bigError) {
		t.Errorf("analyze of the bad level: %v, want its error", err)
	}

	results := filepath.Join(t.TempDir(), "r.jsonl")
	_, errOut, err = soko(t, "", "bench", "--time", "5s", "-j", "1", "--out", results, path)
	if !errors.Is(err, errSilent) || !strings.Contains(errOut, "3 solved, 1 error") {
		t.Fatalf("bench: %v\n%s", err, errOut)
	}
	recs := readRuns(t, results)
	bad := 0
	for _, r := range recs {
		if r.Level == path+":3" {
			bad++
			if r.Status != bench.StatusError || r.Error != path+bigError || r.Title != "Big" {
				t.Errorf("bench record of the bad level: %+v", r)
			}
		} else if !r.Solved() {
			t.Errorf("bench record %s: %s", r.Level, r.Status)
		}
	}
	if len(recs) != 4 || bad != 1 {
		t.Errorf("bench: %d records, %d of the bad level; want 4 and 1", len(recs), bad)
	}
	// Run again, nothing is left to do: the error record counts as done.
	_, errOut, _ = soko(t, "", "bench", "--time", "5s", "-j", "1", "--out", results, path)
	if !strings.Contains(errOut, "4 done before, 0 run now") {
		t.Errorf("bench resumed: %s", errOut)
	}
}
