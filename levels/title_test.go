package levels

import (
	"testing"

	"soko/level"
)

// TestTitle checks the titles of untitled levels: the collection's name
// and the level's number, for every embedded collection and for files.
func TestTitle(t *testing.T) {
	for _, n := range Names() {
		if _, ok := collectionTitles[n]; !ok {
			t.Errorf("embedded collection %s has no title name", n)
		}
	}
	m, err := Resolve("microban:1", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := Title(m[0]); got != "Microban 1" {
		t.Errorf("microban:1: %q, want Microban 1", got)
	}
	x, err := Resolve("xsokoban90:2", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := Title(x[0]); got != "XSokoban 2" {
		t.Errorf("xsokoban90:2: %q, want XSokoban 2", got)
	}
	for _, c := range []struct {
		l    level.Level
		want string
	}{
		{level.Level{Source: "dir/mine.xsb", Index: 3}, "mine 3"},
		{level.Level{Source: "dir/mine.xsb", Index: 1, Number: "12"}, "mine 12"},
		{level.Level{Source: "dir/mine.xsb", Index: 1, Title: " Dune "}, "Dune"},
		{level.Level{Source: StdinSource, Index: 2}, "Level 2"},
	} {
		if got := Title(&c.l); got != c.want {
			t.Errorf("%+v: %q, want %q", c.l, got, c.want)
		}
	}
}
