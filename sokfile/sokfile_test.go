package sokfile

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"soko/level"
)

// A file as other programs write it: a collection header, a level with a
// title line above it and two solutions (one split over lines, with notes),
// a level that cannot be loaded with a solution, and a plain level.
const foreign = `Title: Tiny
Author: Someone

First
######
#@ $.#
######
Author: Me

Solution/Moves
rR
Solver: YASC
Date: 2020-01-02

Solution 1/1
rlrR

Broken
#####
# $.#
#####

Solution
R

#######
#@ $ .#
#######
Title: Third
`

func read(t *testing.T, text string) *File {
	t.Helper()
	f, err := Read(strings.NewReader(text), "t.sok")
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestRead(t *testing.T) {
	f := read(t, foreign)
	if len(f.Entries) != 3 {
		t.Fatalf("%d entries, want 3", len(f.Entries))
	}
	first, broken, third := f.Entries[0], f.Entries[1], f.Entries[2]
	if first.Level == nil || first.Level.Author != "Me" || len(first.Solutions) != 2 {
		t.Fatalf("first: %+v", first)
	}
	s := first.Solutions[0]
	if s.LURD != "rR" || s.Solver != "YASC" || s.Date != "2020-01-02" || s.Line != 10 {
		t.Errorf("first solution %+v", s)
	}
	if p, m, sound, ok := first.Score(s); p != 1 || m != 2 || !sound || !ok {
		t.Errorf("score %d pushes, %d moves, sound %v, ok %v; want 1, 2, sound", p, m, sound, ok)
	}
	if first.Solutions[1].LURD != "rlrR" {
		t.Errorf("second solution %+v", first.Solutions[1])
	}
	if broken.Unloadable == nil || !strings.Contains(broken.Unloadable.Err.Error(), "t.sok:19: level 2: no player") || len(broken.Solutions) != 1 {
		t.Errorf("broken: %+v", broken)
	}
	if third.Level == nil || third.Level.Title != "Third" || third.Level.Index != 3 || len(third.Solutions) != 0 {
		t.Errorf("third: %+v", third.Level)
	}
	if got := f.Matches(third.Level); len(got) != 1 || got[0] != third {
		t.Errorf("Matches gave %v", got)
	}
}

// Writing gives back everything that was read, with the solution sections
// in one form; reading that again gives the same levels and solutions, and
// writing it again the same text.
func TestWriteReadsBack(t *testing.T) {
	f := read(t, foreign)
	text := string(f.Bytes())
	for _, want := range []string{"Title: Tiny\nAuthor: Someone\n\nFirst\n######\n", "Author: Me\n\nSolution (1 push, 2 moves)\nrR\nSolver: YASC\nDate: 2020-01-02\n\nSolution (1 push, 4 moves)\nrlrR\n\nBroken\n", "\n#######\n#@ $ .#\n#######\nTitle: Third\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("written text lacks %q:\n%s", want, text)
		}
	}
	g := read(t, text)
	if len(g.Entries) != 3 || len(g.Entries[0].Solutions) != 2 || len(g.Entries[1].Solutions) != 1 || g.Entries[2].Level.Title != "Third" {
		t.Fatalf("read back:\n%s", text)
	}
	if again := string(g.Bytes()); again != text {
		t.Errorf("written twice differs:\n%s\nthen\n%s", text, again)
	}
}

// corridor is a level with room to walk about: the box one push from its
// goal, the player two squares left of it.
const corridor = "########\n#  @$. #\n########\n"

// Add keeps one solution per length that something else does not beat.
func TestAdd(t *testing.T) {
	e := read(t, corridor).Entries[0]
	add := func(lurd string, replace bool) bool { return e.Add(&Solution{LURD: lurd}, replace) }
	if !add("lrR", false) || add("lrR", true) {
		t.Fatal("the first solution is added once")
	}
	if !add("R", false) || len(e.Solutions) != 2 {
		t.Fatalf("a better one without replace is added beside: %d", len(e.Solutions))
	}
	if add("llrrR", true) {
		t.Error("a worse one was added")
	}
	e.Solutions = e.Solutions[:1] // lrR
	if !add("R", true) || len(e.Solutions) != 1 || e.Solutions[0].LURD != "R" {
		t.Errorf("replace: %+v", e.Solutions)
	}
	for _, bad := range []string{"x", "RR", "L", "r", "lRr"} {
		if add(bad, false) {
			t.Errorf("%s, which does not parse, is illegal, does not solve or is in the wrong case, was added", bad)
		}
	}
}

// Solutions are compared by replay, not by letter case: one written in
// lower case has its real pushes, is not sound, and never keeps a sound
// one out; a sound one as good replaces it.
func TestAddByReplay(t *testing.T) {
	e := read(t, corridor).Entries[0]
	e.Solutions = []*Solution{{LURD: "r"}} // one push written as a move
	if p, m, sound, ok := e.Score(e.Solutions[0]); p != 1 || m != 1 || sound || !ok {
		t.Errorf("score of r: %d pushes, %d moves, sound %v, ok %v; want 1, 1, not sound", p, m, sound, ok)
	}
	if !e.Add(&Solution{LURD: "R"}, true) || len(e.Solutions) != 1 || e.Solutions[0].LURD != "R" {
		t.Errorf("the sound solution did not replace the mis-cased one: %+v", e.Solutions)
	}
	e.Solutions = []*Solution{{LURD: "r"}}
	if !e.Add(&Solution{LURD: "lrR"}, false) || len(e.Solutions) != 2 {
		t.Errorf("a mis-cased shorter solution kept a sound one out: %+v", e.Solutions)
	}
	if text := string(read(t, corridor+"\nSolution\nr\n").Bytes()); !strings.Contains(text, "Solution (1 push, 1 move)\nr\n") {
		t.Errorf("a lower-case push is headed by its letters, not its replay:\n%s", text)
	}
}

// A new file holds the levels appended, each with its title above and as
// a Title: line, and package level reads its boards.
func TestAppendAndWriteFile(t *testing.T) {
	ls, err := level.ParseString("; 1 One\n#####\n#@$.#\n#####\n\n; 2 ###\n#######\n#@ $ .#\n#######\n", "in.xsb")
	if err != nil {
		t.Fatal(err)
	}
	f := New()
	for _, l := range ls {
		f.Append(l)
	}
	f.Entries[0].Add(&Solution{LURD: "R", Solver: "soko fess", Date: "2026-11-26T18:40:00Z"}, true)
	path := filepath.Join(t.TempDir(), "out.sok")
	if err := WriteFile(path, f); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := "One\n#####\n#@$.#\n#####\nTitle: One\n\nSolution (1 push, 1 move)\nR\nSolver: soko fess\nDate: 2026-11-26T18:40:00Z\n\n#######\n#@ $ .#\n#######\nTitle: ###\n"
	if string(b) != want {
		t.Errorf("wrote\n%s\nwant\n%s", b, want)
	}
	back, err := level.ParseString(string(b), path)
	if err != nil || len(back) != 2 || back[0].Title != "One" || back[1].Title != "###" {
		t.Errorf("level reads %d levels, %v", len(back), err)
	}
	if err := WriteFile(t.TempDir(), f); err == nil {
		t.Error("WriteFile over a folder succeeded")
	}
	if m, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*")); len(m) != 0 {
		t.Errorf("temporary files left: %v", m)
	}
	// Through a symbolic link, the file it points to is written.
	link := filepath.Join(t.TempDir(), "link.sok")
	if err := os.Symlink(path, link); err != nil {
		t.Skip(err)
	}
	f.Entries[1].Add(&Solution{LURD: "rRR"}, true)
	if err := WriteFile(link, f); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v", err)
	}
	if b, _ := os.ReadFile(path); !strings.Contains(string(b), "\nrRR\n") {
		t.Errorf("the file linked to was not written:\n%s", b)
	}
}

func TestReadErrors(t *testing.T) {
	for text, want := range map[string]string{
		"Solution\nR\n\n#####\n#@$.#\n#####\n":                             "t.sok:1: a solution before the first level",
		strings.Repeat(strings.Repeat("x", 99)+"\n", level.MaxInput/100+1): "input larger than the limit",
		strings.Repeat("x", level.MaxLine+1):                               "t.sok:1: line longer than",
		// A file of one-letter lines took 1.6 GB to read (60 MB of them).
		strings.Repeat("y\n", MaxLines+1):     fmt.Sprintf("t.sok:%d: more than %d lines", MaxLines+1, MaxLines),
		strings.Repeat("y\r", MaxLines) + "y": "more than",
	} {
		if _, err := Read(strings.NewReader(text), "t.sok"); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%.20q: %v, want %q", text, err, want)
		}
	}
	if _, err := Read(strings.NewReader(strings.Repeat("; y\n", MaxLines-3)+"#####\n#@$.#\n#####"), "t.sok"); err != nil {
		t.Errorf("a file of MaxLines lines: %v", err)
	}
	// A large collection with solutions, more than a million lines, reads.
	var big strings.Builder
	for i := range 128000 {
		fmt.Fprintf(&big, "; %d\n\n#####\n#@$.#\n#####\n\nSolution (1 pushes, 1 moves)\nR\n\n", i+1)
	}
	if f, err := Read(strings.NewReader(big.String()), "t.sok"); err != nil || len(f.Entries) != 128000 {
		t.Errorf("128,000 levels with solutions: %v", err)
	}
	// A "Solution" line with no moves under it is text, not a section.
	f := read(t, "#####\n#@$.#\n#####\n\nSolution is simple\n")
	if len(f.Entries[0].Solutions) != 0 || !strings.Contains(string(f.Bytes()), "Solution is simple\n") {
		t.Errorf("text taken for a solution: %+v", f.Entries[0].Solutions)
	}
}

// A solution section whose moves cannot be read is an error of its level,
// with its line and column, and is written back as it was; notes and text
// are not.
func TestUnreadableSection(t *testing.T) {
	const lvl = "######\n#@ $.#\n######\n\n" // lines 1-4; a section's heading is line 5
	for _, tc := range []struct {
		name, section string
		want          string // the error, "" for none
		solutions     int
	}{
		{"stray character", "Solution\nrR!\n", "t.sok:6:3: level 1: solution section: unexpected character '!' in LURD", 0},
		{"stray character on a later line", "Solution (1 push, 2 moves)\nr\nR x\n", "t.sok:7:3: level 1: solution section: unexpected character 'x' in LURD", 0},
		{"text where the moves should be", "Solution\nnot a solution\n", `t.sok:6: level 1: solution section: "not a solution" is not moves (LURD) or a "Key: value" note`, 0},
		{"notes only", "Solution\nSolver: nobody\n", "", 0},
		{"a heading that is text", "Solution is simple\n", "", 0},
		{"moves and a note", "Solution\nrR\nFound by YASS\n", "", 1},
		{"moves and a key", "Solution\nrR\nComment: rudl\n", "", 1},
		{"a sentence that starts with the word", "Solution hints:\nTry the box first.\n", "", 0},
		{"a sentence, then broken moves", "Solution hints:\nrR!\n", "t.sok:6:3: level 1: solution section: unexpected character '!' in LURD", 0},
	} {
		f := read(t, lvl+tc.section)
		e := f.Entries[0]
		var got string
		if len(e.Unreadable) > 0 {
			got = e.Unreadable[0].Error()
		}
		if got != tc.want || len(e.Solutions) != tc.solutions || len(e.Unreadable) > 1 {
			t.Errorf("%s: unreadable %q, %d solutions; want %q, %d", tc.name, got, len(e.Solutions), tc.want, tc.solutions)
		}
		if tc.want != "" && !strings.Contains(string(f.Bytes()), tc.section) {
			t.Errorf("%s: the section is not written back as it was:\n%s", tc.name, f.Bytes())
		}
	}
	if _, err := Read(strings.NewReader("Solution\nrX\n\n"+lvl), "t.sok"); err == nil || !strings.Contains(err.Error(), "t.sok:2:2:") {
		t.Errorf("an unreadable section before the first level: %v", err)
	}
	if f := read(t, "Solution files by hand\nfrom 2020\n\n"+lvl); len(f.Entries) != 1 || len(f.Entries[0].Unreadable) != 0 {
		t.Errorf("a header line that starts with the word: %+v", f.Entries)
	}
}

// Read keeps a line of text in a few tens of bytes: its lines are not
// copied and their slice does not grow by doubling. 1 Mi one-letter lines
// took 99 bytes a line, 31 since.
func TestReadMemoryPerLine(t *testing.T) {
	const n = 1 << 20
	text := strings.Repeat("y\n", n)
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f, err := Read(strings.NewReader(text), "t.sok")
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	runtime.KeepAlive(f)
	if per := (after.TotalAlloc - before.TotalAlloc) / n; per > 64 {
		t.Errorf("%d bytes allocated a line, want at most 64", per)
	}
}

// TestSolverNote: the note names soko's solver, and the optimizer's metric
// only when it ran.
func TestSolverNote(t *testing.T) {
	if got := SolverNote("fess", ""); got != "soko fess" {
		t.Errorf("no optimizer: %q", got)
	}
	if got := SolverNote("wastar (w=200)", "moves"); got != "soko wastar (w=200), optimized for moves" {
		t.Errorf("optimized: %q", got)
	}
}
