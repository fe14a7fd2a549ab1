package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"soko/level"
	"soko/verify"
)

// soko generate is deterministic per seed whatever -j, and every level it
// writes carries a solution the verifier accepts.
func TestGenerate(t *testing.T) {
	one, _, err := soko(t, "", "generate", "--count", "6", "--seed", "9", "--size", "9x8", "--boxes", "3")
	if err != nil {
		t.Fatal(err)
	}
	two, _, err := soko(t, "", "generate", "--count", "6", "--seed", "9", "--size", "9x8", "--boxes", "3", "-j", "2")
	if err != nil || two != one {
		t.Fatalf("-j 2 differs from -j 1 (%v)", err)
	}
	coll, err := level.ParseCollection(strings.NewReader(one), "gen")
	if err != nil || len(coll.Levels) != 6 {
		t.Fatalf("%v, %d levels", err, len(coll.Levels))
	}
	// Level i does not depend on --count either.
	three, _, err := soko(t, "", "generate", "--count", "3", "--seed", "9", "--size", "9x8", "--boxes", "3")
	if err != nil {
		t.Fatal(err)
	}
	first, err := level.ParseCollection(strings.NewReader(three), "gen")
	if err != nil || len(first.Levels) != 3 {
		t.Fatalf("%v, %d levels", err, len(first.Levels))
	}
	for i, l := range first.Levels {
		if !slices.Equal(l.Rows, coll.Levels[i].Rows) || !slices.Equal(l.Comments, coll.Levels[i].Comments) {
			t.Fatalf("level %d of --count 3 differs from level %d of --count 6", i+1, i+1)
		}
	}
	for _, l := range coll.Levels {
		if l.Width != 9 || l.Height != 8 || l.Boxes() != 3 || len(l.Comments) != 1 {
			t.Fatalf("level %d: %dx%d, %d boxes, comments %q", l.Index, l.Width, l.Height, l.Boxes(), l.Comments)
		}
		_, lurd, _ := strings.Cut(l.Comments[0], "): ")
		rep, err := verify.Check(l, lurd)
		if err != nil || !rep.Solved {
			t.Fatalf("level %d: solution %q: %v %s", l.Index, lurd, err, rep.Reason)
		}
	}
	for _, bad := range [][]string{{"--size", "10"}, {"--size", "2x2"}, {"--boxes", "0"}, {"--count", "0"}, {"--min-pushes", "-1"}, {"extra"},
		{"--max-expanded", "-1"}, {"--min-pushes", "12", "--max-pushes", "10"}, {"--effort", "nope"}, {"--stats-of", "nope-collection"}} {
		usage(t, "", append([]string{"generate"}, bad...)...)
	}
}

// The band flags keep only levels in the band, as the header and each
// level's comment say; --stats prints the distributions of the levels
// made, and --stats-of those of a collection.
func TestGenerateBandAndStats(t *testing.T) {
	out, errOut, err := soko(t, "", "generate", "--count", "5", "--seed", "4", "--min-pushes", "13", "--max-pushes", "15", "--stats")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "optimal pushes 13 to 15") {
		t.Fatalf("the header does not name the band:\n%s", out)
	}
	coll, err := level.ParseCollection(strings.NewReader(out), "gen")
	if err != nil || len(coll.Levels) != 5 {
		t.Fatalf("%v, %d levels", err, len(coll.Levels))
	}
	for _, l := range coll.Levels {
		var opt int
		if _, err := fmt.Sscanf(l.Comments[0][strings.Index(l.Comments[0], "optimal pushes"):], "optimal pushes %d", &opt); err != nil || opt < 13 || opt > 15 {
			t.Fatalf("level %d: %q: outside the band", l.Index, l.Comments[0])
		}
	}
	for _, want := range []string{"generated, 10x10, 4 boxes, seed 4: 5 levels", "optimal pushes", "boxes off goals", "astar expanded", "floor squares"} {
		if !strings.Contains(errOut, want) {
			t.Fatalf("--stats does not print %q:\n%s", want, errOut)
		}
	}
	// Boxoban unfiltered test 000, levels 1-2: 13 and 14 optimal pushes.
	out, _, err = soko(t, "", "generate", "--stats-of", "boxoban-unfiltered-test-000:1-2", "--effort", "greedy")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"boxoban-unfiltered-test-000:1-2: 2 levels", "13.50", "greedy expanded"} {
		if !strings.Contains(out, want) {
			t.Fatalf("--stats-of does not print %q:\n%s", want, out)
		}
	}
	// Two sets: a table each, and one plot of both.
	png := filepath.Join(t.TempDir(), "pushes.png")
	out, _, err = soko(t, "", "generate", "--stats-of", "boxoban-unfiltered-test-000:1-2", "--stats-of", "boxoban-medium-valid-000:1", "--plot", png)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "1-2: 2 levels") || !strings.Contains(out, "boxoban-medium-valid-000:1: 1 level\n") {
		t.Fatalf("--stats-of twice does not print both tables:\n%s", out)
	}
	if b, err := os.ReadFile(png); err != nil || !bytes.HasPrefix(b, []byte("\x89PNG")) {
		t.Fatalf("--plot wrote no PNG: %v", err)
	}
	usage(t, "", "generate", "--plot", png)
	// Flags that would be ignored are refused: --stats-of writes no
	// levels, --measure no model, and training starts from no --model;
	// one simulation of puct's search expands nothing to learn from.
	dir := t.TempDir()
	for _, args := range [][]string{
		{"generate", "--stats-of", "microban:1", "--out", filepath.Join(dir, "g.txt")},
		{"train-dist", "--measure", "--out", filepath.Join(dir, "x.model"), "microban:1"},
		{"train-dist", "--out", filepath.Join(dir, "x.model"), "--model", filepath.Join(dir, "m.model")},
		{"train-puct", "--out", filepath.Join(dir, "p.model"), "--sims", "1"},
	} {
		usage(t, "", args...)
	}
}
