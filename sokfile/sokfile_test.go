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

// A repeat count on a line of its own within a solution's moves is part
// of them, as ParseLURD reads moves over lines.
func TestCountOnItsOwnLine(t *testing.T) {
	f := read(t, "#####\n#@ $ .#\n#####\n\nSolution\nr\n2\nR\n")
	if s := f.Entries[0].Solutions; len(s) != 1 || s[0].LURD != "r2R" || len(s[0].Notes) != 0 {
		t.Errorf("solutions %+v; want the moves r2R", s)
	}
	// After the last move it repeats nothing: a note, as before.
	f = read(t, "#####\n#@ $ .#\n#####\n\nSolution\nrR\n2\n")
	if s := f.Entries[0].Solutions; len(s) != 1 || s[0].LURD != "rR" || len(s[0].Notes) != 1 || s[0].Notes[0] != "2" {
		t.Errorf("solutions %+v; want the moves rR and the note 2", s)
	}
}

// Control characters in a section's notes, solver, date and snapshot name
// are kept as their escapes, as the level reader keeps a title's.
func TestSectionControlCharacters(t *testing.T) {
	f := read(t, "#####\n#@$.#\n#####\n\nSolution\nR\nSolver: a\x1b[2Jb\nnote\a\n\nSnapshot x\x1by\nR\n")
	e := f.Entries[0]
	if len(e.Solutions) != 1 || e.Solutions[0].Solver != `a\x1b[2Jb` || len(e.Solutions[0].Notes) != 1 || e.Solutions[0].Notes[0] != `note\a` ||
		len(e.Snapshots) != 1 || e.Snapshots[0].Name != `x\x1by` {
		t.Errorf("solutions %+v, snapshots %+v", e.Solutions, e.Snapshots)
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
	// The best there already: replace drops the worse all the same, and
	// keeps it, and only it of those as good.
	e.Solutions = []*Solution{{LURD: "lrR"}, {LURD: "R"}, {LURD: "rlR"}, {LURD: "R", Solver: "someone"}}
	if add("R", true) || len(e.Solutions) != 1 || e.Solutions[0].LURD != "R" || e.Solutions[0].Solver != "" {
		t.Errorf("replace with the best there: %+v", e.Solutions)
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

// TestSolverNote: the note names soko's solver with its parameters in
// one form, and the optimizer's metric only when it ran.
func TestSolverNote(t *testing.T) {
	if got := SolverNote("fess", nil, ""); got != "soko fess" {
		t.Errorf("no optimizer: %q", got)
	}
	if got := SolverNote("wastar", map[string]string{"w": "200", "p": "2"}, "moves"); got != "soko wastar (p=2,w=200), optimized for moves" {
		t.Errorf("optimized: %q", got)
	}
}

// A snapshot section is read with its name, moves, date and notes, kept
// apart from the solutions, and written back in one form that reads back
// the same.
func TestSnapshotRoundTrip(t *testing.T) {
	const text = corridor + `
Solution
lrR

Snapshot
l r
l
Date: 2026-12-01T10:00:00Z

Snapshot 2
lR
Played on a train
`
	f := read(t, text)
	e := f.Entries[0]
	if len(e.Solutions) != 1 || len(e.Snapshots) != 2 || len(e.Unreadable) != 0 {
		t.Fatalf("%d solutions, %d snapshots, %v unreadable; want 1, 2, none", len(e.Solutions), len(e.Snapshots), e.Unreadable)
	}
	s := e.Snapshots[0]
	if s.Name != "" || s.LURD != "lrl" || s.Date != "2026-12-01T10:00:00Z" || s.Line != 8 || len(s.Notes) != 0 {
		t.Errorf("first snapshot %+v", s)
	}
	if s := e.Snapshots[1]; s.Name != "2" || s.LURD != "lR" || s.Line != 13 || len(s.Notes) != 1 || s.Notes[0] != "Played on a train" {
		t.Errorf("second snapshot %+v", s)
	}
	out := string(f.Bytes())
	want := corridor + "\nSolution (1 push, 3 moves)\nlrR\n\nSnapshot (0 pushes, 3 moves)\nlrl\nDate: 2026-12-01T10:00:00Z\n\nSnapshot (0 pushes, 2 moves): 2\nlR\nPlayed on a train\n"
	if out != want {
		t.Fatalf("wrote\n%s\nwant\n%s", out, want)
	}
	g := read(t, out)
	if len(g.Entries[0].Snapshots) != 2 || g.Entries[0].Snapshots[1].Name != "2" || g.Entries[0].Snapshots[0].LURD != "lrl" {
		t.Errorf("read back: %+v", g.Entries[0].Snapshots)
	}
	if again := string(g.Bytes()); again != out {
		t.Errorf("written twice differs:\n%s\nthen\n%s", out, again)
	}
	if _, err := level.ParseString(out, "t.sok"); err != nil {
		t.Errorf("package level does not read the boards: %v", err)
	}
}

// PutSnapshot replaces the snapshot of the same name and keeps the others;
// one without moves only drops. A name reads back as written, even one
// that looks like the counts of a heading.
func TestPutSnapshot(t *testing.T) {
	f := read(t, corridor)
	e := f.Entries[0]
	e.PutSnapshot(&Snapshot{LURD: "l"})
	e.PutSnapshot(&Snapshot{Name: "(1 push, 2 moves)", LURD: "lr"})
	e.PutSnapshot(&Snapshot{LURD: "ll", Date: "2026-12-01T10:00:00Z"})
	if len(e.Snapshots) != 2 || e.Snapshots[1].LURD != "ll" || e.Snapshots[0].Name != "(1 push, 2 moves)" {
		t.Fatalf("snapshots %+v", e.Snapshots)
	}
	back := read(t, string(f.Bytes())).Entries[0].Snapshots
	if len(back) != 2 || back[0].Name != "(1 push, 2 moves)" || back[0].LURD != "lr" || back[1].Name != "" || back[1].Date != "2026-12-01T10:00:00Z" {
		t.Errorf("read back %+v from\n%s", back, f.Bytes())
	}
	e.PutSnapshot(&Snapshot{})
	if len(e.Snapshots) != 1 || e.Snapshots[0].Name == "" {
		t.Errorf("an empty unnamed snapshot did not drop the unnamed one: %+v", e.Snapshots)
	}
	e.Snapshots = []*Snapshot{{Name: "a"}, {}, {Name: "b"}}
	if o := e.ResumeOrder(); len(o) != 3 || o[0].Name != "" || o[1].Name != "b" || o[2].Name != "a" {
		t.Errorf("ResumeOrder: %+v", o)
	}
	e.Snapshots = e.Snapshots[:1]
	if e.DropSnapshot("nothing") || !e.DropSnapshot("a") || len(e.Snapshots) != 0 {
		t.Errorf("DropSnapshot: %+v", e.Snapshots)
	}
}

// CheckSnapshot gives the moves of a snapshot that replays, and for one
// that does not an error naming the file, level and the line of its
// heading, with the step that fails.
func TestCheckSnapshot(t *testing.T) {
	f := read(t, "; one\n#####\n#@$.#\n#####\n\n"+corridor+"\nSnapshot: stuck\nlR\nRRR\n\nSnapshot\nrrlL\n")
	e := f.Entries[1]
	if len(e.Snapshots) != 2 {
		t.Fatalf("%d snapshots, want 2", len(e.Snapshots))
	}
	if _, err := e.CheckSnapshot(e.Snapshots[0]); err == nil || err.Error() != "t.sok:10: level 2: snapshot: does not replay on its level: step 5 (R): push blocked by wall at row 2, column 8" {
		t.Errorf("a snapshot that pushes into a wall: %v", err)
	}
	if moves, err := e.CheckSnapshot(e.Snapshots[1]); err != nil || level.FormatLURD(moves) != "rrlL" {
		t.Errorf("a snapshot with steps in the wrong letter case: %v, %v (its letter case is not checked)", moves, err)
	}
	if _, err := e.CheckSnapshot(&Snapshot{LURD: "lx", Line: 3}); err == nil || !strings.HasPrefix(err.Error(), "t.sok:3: level 2: snapshot: ") {
		t.Errorf("moves that do not parse: %v", err)
	}
	broken := read(t, "#####\n# $.#\n#####\n\nSnapshot\nR\n").Entries[0]
	if _, err := broken.CheckSnapshot(broken.Snapshots[0]); err == nil || err.Error() != "t.sok:5: level 1: snapshot: the level cannot be loaded: no player" {
		t.Errorf("a snapshot of a level that cannot be loaded: %v", err)
	}
	if _, err := Read(strings.NewReader("Snapshot\nR\n\n"+corridor), "t.sok"); err == nil || err.Error() != "t.sok:1: a snapshot before the first level" {
		t.Errorf("a snapshot before the first level: %v", err)
	}
	g := read(t, corridor+"\nSnapshot\nlr!\n")
	if len(g.Entries[0].Unreadable) != 1 || g.Entries[0].Unreadable[0].Error() != "t.sok:6:3: level 1: snapshot section: unexpected character '!' in LURD" || !g.Entries[0].IsSnapshot(g.Entries[0].Unreadable[0]) {
		t.Errorf("a snapshot whose moves cannot be read: %v", g.Entries[0].Unreadable)
	}
	if s := read(t, corridor+"\nSolution\nlr!\n").Entries[0]; len(s.Unreadable) != 1 || s.IsSnapshot(s.Unreadable[0]) {
		t.Errorf("a solution whose moves cannot be read: %v, taken for a snapshot", s.Unreadable)
	}
	if h := read(t, corridor+"\nSnapshots of the level are welcome\n"); len(h.Entries[0].Snapshots) != 0 {
		t.Error("a sentence starting with the word is taken for a snapshot")
	}
}

// CheckSnapshot agrees with an obvious replay on the grid (walls, boxes,
// the player) for random walks on a level with several boxes: a walk is
// resumed exactly when each of its steps is legal, and written as a
// snapshot it reads back to the same moves.
func TestCheckSnapshotDifferential(t *testing.T) {
	const board = "#######\n#     #\n# $$. #\n#@ .  #\n#######\n"
	f := read(t, board)
	e := f.Entries[0]
	legal := func(lurd string) bool {
		rows := strings.Split(strings.TrimSuffix(board, "\n"), "\n")
		grid := make([][]byte, len(rows))
		px, py := 0, 0
		for y, r := range rows {
			grid[y] = []byte(r)
			if x := strings.IndexByte(r, '@'); x >= 0 {
				px, py = x, y
				grid[y][x] = ' '
			}
		}
		free := func(c byte) bool { return c == ' ' || c == '.' }
		for _, c := range strings.ToLower(lurd) {
			dx, dy := map[rune]int{'l': -1, 'r': 1}[c], map[rune]int{'u': -1, 'd': 1}[c]
			nx, ny := px+dx, py+dy
			switch t := grid[ny][nx]; {
			case t == '#':
				return false
			case t == '$' || t == '*':
				if !free(grid[ny+dy][nx+dx]) {
					return false
				}
				grid[ny+dy][nx+dx] = map[bool]byte{true: '*', false: '$'}[grid[ny+dy][nx+dx] == '.']
				grid[ny][nx] = map[bool]byte{true: '.', false: ' '}[t == '*']
			}
			px, py = nx, ny
		}
		return true
	}
	seed := uint32(1)
	next := func(n int) int { seed = seed*1664525 + 1013904223; return int(seed>>16) % n }
	legalSeen, illegalSeen := 0, 0
	for range 2000 {
		var b strings.Builder
		for range 1 + next(12) {
			b.WriteByte("udlr"[next(4)])
		}
		lurd := b.String()
		_, err := e.CheckSnapshot(&Snapshot{LURD: lurd})
		if want := legal(lurd); (err == nil) != want {
			t.Fatalf("%s: CheckSnapshot %v, the obvious replay says legal %v", lurd, err, want)
		} else if want {
			legalSeen++
		} else {
			illegalSeen++
		}
		if err == nil {
			e.Snapshots = nil
			e.PutSnapshot(&Snapshot{LURD: lurd})
			if back := read(t, string(f.Bytes())).Entries[0].Snapshots; len(back) != 1 || back[0].LURD != lurd {
				t.Fatalf("%s read back as %+v", lurd, back)
			}
		}
	}
	if legalSeen < 100 || illegalSeen < 100 {
		t.Errorf("%d legal and %d illegal walks: too few of one to compare", legalSeen, illegalSeen)
	}
}
