package level

import (
	"slices"
	"strconv"
	"testing"
)

// checkRoundTrip fails unless Parse(Format(l)) gives back l's board, title
// and number (its index when it has none).
func checkRoundTrip(t *testing.T, l *Level) {
	t.Helper()
	text := Format(l)
	ls, err := ParseString(text, "rt")
	if err != nil {
		t.Fatalf("reparse of %q: %v", text, err)
	}
	if len(ls) != 1 {
		t.Fatalf("reparse of %q: %d levels", text, len(ls))
	}
	g := ls[0]
	if g.Width != l.Width || g.Height != l.Height || !slices.Equal(g.Rows, l.Rows) || g.Title != l.Title {
		t.Fatalf("round trip of %q:\ngot  %dx%d %q %q\nwant %dx%d %q %q", text, g.Width, g.Height, g.Rows, g.Title, l.Width, l.Height, l.Rows, l.Title)
	}
	want := l.Number
	if want == "" && l.Index > 0 {
		want = strconv.Itoa(l.Index)
	}
	if g.Number != want {
		t.Fatalf("round trip of %q: number %q, want %q", text, g.Number, want)
	}
}

func TestFormat(t *testing.T) {
	ls, err := ParseString("; 3 'Three'\n  ###\n###@####\n#  $  .#\n########\n", "f")
	if err != nil {
		t.Fatal(err)
	}
	want := "; 3 Three\n  ###\n###@####\n#  $  .#\n########\n"
	if got := Format(ls[0]); got != want {
		t.Errorf("Format:\n%s\nwant\n%s", got, want)
	}
	l := &Level{Title: "No index", Width: 5, Height: 3, Rows: []string{"#####", "#@$.#", "#####"}}
	if got, want := Format(l), "Title: No index\n#####\n#@$.#\n#####\n"; got != want {
		t.Errorf("Format without index: %q, want %q", got, want)
	}
	checkRoundTrip(t, l)
}

func TestFormatTitles(t *testing.T) {
	for _, title := range []string{"", "plain", " lead", "trail ", "'quoted'", "''", "'", "x'", "a\u00a0", "; 5 x", "Title: y"} {
		l := &Level{Index: 42, Title: title, Width: 5, Height: 3, Rows: []string{"#####", "#@$.#", "#####"}}
		checkRoundTrip(t, l)
	}
}
