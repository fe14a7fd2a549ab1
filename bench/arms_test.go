package bench

import (
	"bytes"
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// armRecord is one run of astar on a Microban level, ending in status.
func armRecord(level, status string, pushes int) Record {
	r := Record{Solver: "astar", Level: level, LevelHash: "h" + level, Budget: Budget{Time: time.Second}, Seed: 1,
		Status: status, Verified: status == "solved", Pushes: pushes, WallS: 0.1}
	r.Key = r.RunKey()
	return r
}

// Two files that run the same bench again with other results (two builds)
// are not shards: ReadFilesContext keeps the first file's runs, counts the
// second's repeats and names both files on the log; a repeat with the same
// results (a shard given twice) is not counted.
func TestReadFilesCountsRepeats(t *testing.T) {
	dir := t.TempDir()
	one, two := armRecord("microban:1", "solved", 8), armRecord("microban:2", "solved", 5)
	a := writeRecords(t, filepath.Join(dir, "a.jsonl"), one, two)
	b := writeRecords(t, filepath.Join(dir, "b.jsonl"), armRecord("microban:1", "time limit", 0), two)
	var log bytes.Buffer
	recs, repeats, err := ReadFilesContext(context.Background(), &log, a, b)
	if err != nil || len(recs) != 2 || repeats != 1 {
		t.Fatalf("%d runs, %d repeats, %v; want 2 runs, 1 repeat", len(recs), repeats, err)
	}
	if want := b + ": 1 run repeats a run of " + a + " with other results"; !strings.Contains(log.String(), want) {
		t.Errorf("log %q, want %q in it", log.String(), want)
	}
	if recs[0].Status != "solved" {
		t.Errorf("kept %s, want the first file's solved run", recs[0].Status)
	}
	log.Reset()
	if _, repeats, err := ReadFilesContext(context.Background(), &log, a, a); err != nil || repeats != 0 || log.Len() > 0 {
		t.Errorf("one file twice: %d repeats, %v, log %q; want none", repeats, err, log.String())
	}
}

// ReadArms keeps every file's runs, each labelled with its file's arm, so
// that the same run in two files is two runs of two solver labels.
func TestReadArms(t *testing.T) {
	dir := t.TempDir()
	a := writeRecords(t, filepath.Join(dir, "base.jsonl"), armRecord("microban:1", "solved", 8))
	b := writeRecords(t, filepath.Join(dir, "new.jsonl"), armRecord("microban:1", "time limit", 0), armRecord("microban:1", "solved", 3))
	recs, err := ReadArms(context.Background(), nil, []string{"base", "new"}, []string{a, b})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range recs {
		got = append(got, r.SolverLabel()+" "+r.Status)
	}
	if want := []string{"astar@base solved", "astar@new time limit"}; !slices.Equal(got, want) {
		t.Errorf("runs %q, want %q (within a file, the first record of a run)", got, want)
	}
	if kept, dups := Dedup(recs); len(kept) != 2 || dups != 0 {
		t.Errorf("Dedup keeps %d of the two arms' runs of one key (%d dropped): the report would show one", len(kept), dups)
	}
}

// An arm is its file's base name without .gz and .jsonl; files that would
// share one keep their paths, so cut; a file given twice is refused.
func TestArmNames(t *testing.T) {
	for _, tc := range []struct {
		paths, want []string
	}{
		{[]string{"runs/base.jsonl.gz", "new.jsonl", "other.txt"}, []string{"base", "new", "other.txt"}},
		{[]string{"a/run.jsonl", "b/run.jsonl.gz", "c.jsonl"}, []string{"a/run", "b/run", "c"}},
	} {
		got, err := ArmNames(tc.paths)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("ArmNames(%q) = %q, %v; want %q", tc.paths, got, err, tc.want)
		}
	}
	if _, err := ArmNames([]string{"a/run.jsonl", "./a/run.jsonl"}); err == nil || !strings.Contains(err.Error(), "one file given twice") {
		t.Errorf("one file twice: %v", err)
	}
}
