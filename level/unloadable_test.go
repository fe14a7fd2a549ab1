package level

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// crowded is a closed level with n boxes, each on a goal, in rows of 16,
// and the player in a row of its own.
func crowded(n int) string {
	var b strings.Builder
	b.WriteString(strings.Repeat("#", 18) + "\n#@" + strings.Repeat(" ", 15) + "#\n")
	for ; n > 0; n -= 16 {
		k := min(n, 16)
		b.WriteString("#" + strings.Repeat("*", k) + strings.Repeat(" ", 16-k) + "#\n")
	}
	b.WriteString(strings.Repeat("#", 18) + "\n")
	return b.String()
}

// A level that cannot be loaded is reported with its position, line and
// reason, and the levels around it still load, whatever the reason.
func TestParseCollectionKeepsGoodLevels(t *testing.T) {
	in := simple + // 1: lines 1-3
		"\n#####\n# $.#\n#####\nTitle: No one\n" + // 2: lines 5-7, no player
		"\n#####\n#@\t$.#\n# $.#\n#####\nTitle: Tabbed\n" + // 3: lines 10-13, a tab in its second row
		"\n" + crowded(8) + "; note\n" + // 4: lines 16-19
		"\n" + "5#|#@$.#|5#|\n" + // 5: line 22, run-length
		"\n#####\n#@$$#\n#..##\n" + // 6: lines 24-26, open below
		"\n; 7 Last\n" + simple // 7: lines 29-31 after its title line
	c, err := ParseCollection(strings.NewReader(in), "dir/c.xsb")
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for _, l := range c.Levels {
		got = append(got, l.Index)
	}
	if want := []int{1, 4, 5, 7}; !slices.Equal(got, want) {
		t.Fatalf("loaded levels %v, want %v", got, want)
	}
	if c.Levels[1].Boxes() != 8 {
		t.Errorf("level 4: %d boxes, want 8", c.Levels[1].Boxes())
	}
	want := []struct {
		pos, line int
		title     string
		msg       string
	}{
		{2, 5, "No one", "dir/c.xsb:5: level 2: no player"},
		{3, 10, "Tabbed", "dir/c.xsb:11:3: level 3: tab character in board"},
		{6, 24, "", "dir/c.xsb:26:2: level 6: level not closed"},
	}
	if len(c.Unloadable) != len(want) {
		t.Fatalf("%d unloadable levels, want %d: %v", len(c.Unloadable), len(want), c.Unloadable)
	}
	for i, w := range want {
		u := c.Unloadable[i]
		if u.Index != w.pos || u.Line != w.line || u.Title != w.title || u.Source != "dir/c.xsb" {
			t.Errorf("unloadable %d: index %d line %d title %q source %q, want index %d line %d title %q",
				i, u.Index, u.Line, u.Title, u.Source, w.pos, w.line, w.title)
		}
		if !strings.HasPrefix(u.Err.Error(), w.msg) {
			t.Errorf("unloadable %d: %q, want it to start with %q", i, u.Err, w.msg)
		}
	}
	if _, err := ParseString(in, "dir/c.xsb"); err == nil || !strings.HasPrefix(err.Error(), want[0].msg) {
		t.Errorf("ParseString: %v, want the first unloadable level's error", err)
	}
}

// Too many boxes is a level's error, not the file's.
func TestParseCollectionTooManyBoxes(t *testing.T) {
	in := simple + "\n; 50 Big\n" + crowded(MaxBoxes+1) + "\n" + simple
	c, err := ParseCollection(strings.NewReader(in), "s.sok")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Levels) != 2 || len(c.Unloadable) != 1 {
		t.Fatalf("%d levels and %d unloadable, want 2 and 1", len(c.Levels), len(c.Unloadable))
	}
	u := c.Unloadable[0]
	// The error names the level by its address, its position; "; 50" is
	// its title.
	want := fmt.Sprintf("s.sok:6: level 2: %d boxes, more than the limit of %d", MaxBoxes+1, MaxBoxes)
	if u.Err.Error() != want || u.Index != 2 || u.Title != "Big" || u.Label() != "50 Big" {
		t.Errorf("got %q (index %d, label %q), want %q at index 2 labelled \"50 Big\"", u.Err, u.Index, u.Label(), want)
	}
	if c.Levels[1].Index != 3 {
		t.Errorf("the level after it has index %d, want 3", c.Levels[1].Index)
	}
}
