package main

import (
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
	for _, bad := range [][]string{{"--size", "10"}, {"--size", "2x2"}, {"--boxes", "0"}, {"--count", "0"}, {"--min-pushes", "-1"}, {"extra"}} {
		usage(t, "", append([]string{"generate"}, bad...)...)
	}
}
