// Package sokfile reads and writes .sok files: a collection of levels in
// the format of YASC, JSoko, Sokoban++ and the Sokoban Wiki, where each
// level may be followed by its solutions.
//
// A level is its board (read by package level, with the same rules and
// errors as any collection file), a title line above it and "Title:",
// "Author:" lines below it. A solution is a section after its level: a
// heading line starting with "Solution" ("Solution (8 pushes, 33 moves)",
// "Solution/Moves", "Solution 33/8"), then lines of LURD and "Key: value"
// notes such as "Solver:" and "Date:", up to a blank line or the next
// board (or a "Title:" or "Author:" line, which is the level's). The
// numbers in a heading are not trusted: pushes and moves are counted by
// replaying the LURD on the level (Entry.Score), never from the letter
// case, and the verifier has the last word. A heading with nothing under
// it, or only notes, is left as text. A section whose moves cannot be read
// (a line of moves with a stray character, or, under a bare heading, a
// first line that is neither moves nor a note) is an Unreadable of its
// level, kept as text, so that soko verify reports it instead of skipping
// it.
//
// A saved game, a level played part of the way, is a section of the same
// form headed "Snapshot" (Sokoban File Format 0.19, "Saved Game or
// Solution": a title line, the moves, notes), optionally with a name
// ("Snapshot: before the corner") and a "Date:" note: its moves are those
// played so far, which need not solve the level. Entry.CheckSnapshot
// replays one and says, naming the file, level and line, where it stops
// being legal.
//
// The package is separate from level because a level file knows nothing of
// solutions: level reads the boards of a .sok file like any other
// collection (so soko solve FILE.sok works), and sokfile adds the solutions
// and writes the file back. Everything it does not understand (comments,
// notes, a level that cannot be loaded) is written back as it was read;
// only the solution and snapshot sections are rewritten, each in the form
// Add and PutSnapshot keep.
package sokfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"soko/internal/outfile"
	"soko/level"
	"soko/verify"
)

// File is a .sok file: the text before its first level and its levels in
// file order, each with its solutions.
type File struct {
	prefix  []string // lines before the first level
	Entries []*Entry
}

// Entry is one level of a File, its solutions and its snapshots. Exactly
// one of Level and Unloadable is set.
type Entry struct {
	Level      *level.Level
	Unloadable *level.Unloadable // a level that cannot be loaded: kept as its text
	Solutions  []*Solution
	Snapshots  []*Snapshot
	Unreadable []*level.Error // sections whose moves cannot be read, with file, line and column
	lines      []string       // the level's text without its sections, as read or made by Append
	// badGames are those of Unreadable that are snapshot sections.
	badGames map[*level.Error]bool
}

// IsSnapshot reports whether u, one of e.Unreadable, is a snapshot
// section (a game in progress), not a solution.
func (e *Entry) IsSnapshot(u *level.Error) bool { return e.badGames[u] }

// Solution is one solution section.
type Solution struct {
	LURD   string   // the moves, without blanks
	Solver string   // the "Solver:" note
	Date   string   // the "Date:" note
	Notes  []string // the section's other lines, written back as they were
	Line   int      // the line of its heading in the file read; 0 for one added
}

// Snapshot is one snapshot section: a game in progress.
type Snapshot struct {
	Name  string   // the words after "Snapshot" in its heading, "" for none
	LURD  string   // the moves played, without blanks
	Date  string   // the "Date:" note
	Notes []string // the section's other lines, written back as they were
	Line  int      // the line of its heading in the file read; 0 for one added
}

// Score replays s on e's level: its pushes and moves as the board has them
// (a push written in lower case counts as a push), and whether it is
// sound: it solves the level and every step's letter case says what it
// does. ok is false when that cannot be known: the LURD does not parse, a
// step is illegal, or the entry's level cannot be loaded.
func (e *Entry) Score(s *Solution) (pushes, moves int, sound, ok bool) {
	if e.Level == nil {
		return 0, 0, false, false
	}
	rep, err := verify.Check(e.Level, s.LURD)
	if err != nil || rep.FailStep > 0 {
		return 0, 0, false, false
	}
	return rep.Pushes, rep.Moves, rep.Solved && rep.CaseStep == 0, true
}

// CheckSnapshot replays s on e's level and returns the moves, or an error
// naming the file, level and line of its heading when they cannot be
// resumed there: a step is illegal, the moves do not parse, or the level
// cannot be loaded. Letter case is not checked: a snapshot's moves are
// played again as steps, and each step pushes what it meets.
func (e *Entry) CheckSnapshot(s *Snapshot) ([]level.Move, error) {
	if e.Level == nil {
		u := e.Unloadable
		return nil, &level.Error{File: u.Source, Level: u.Index, Line: s.Line, Msg: "snapshot: the level cannot be loaded: " + u.Err.Msg}
	}
	fail := func(msg string) error {
		return &level.Error{File: e.Level.Source, Level: e.Level.Index, Line: s.Line, Msg: "snapshot: " + msg}
	}
	moves, err := level.ParseLURD(s.LURD)
	if err != nil {
		var le *level.Error
		if errors.As(err, &le) {
			return nil, fail(le.Msg)
		}
		return nil, fail(err.Error())
	}
	if rep := verify.Replay(e.Level, moves); rep.FailStep > 0 {
		return nil, fail(fmt.Sprintf("does not replay on its level: %s", rep.Reason))
	}
	return moves, nil
}

// ResumeOrder is e's snapshots in the order a player offers them to
// resume: the unnamed one first (the game soko play and the web page
// save), then the named ones, the last in the file first.
func (e *Entry) ResumeOrder() []*Snapshot {
	var order []*Snapshot
	for _, s := range e.Snapshots {
		if s.Name == "" {
			order = append(order, s)
		}
	}
	for i := len(e.Snapshots) - 1; i >= 0; i-- {
		if e.Snapshots[i].Name != "" {
			order = append(order, e.Snapshots[i])
		}
	}
	return order
}

// PutSnapshot gives e the snapshot s in place of those of the same name
// (a game saved again replaces the one it continues). A snapshot without
// moves, a game at its start, only drops them: a section needs moves.
func (e *Entry) PutSnapshot(s *Snapshot) {
	e.DropSnapshot(s.Name)
	if s.LURD != "" {
		e.Snapshots = append(e.Snapshots, s)
	}
}

// DropSnapshot removes e's snapshots named name; it reports whether there
// was one.
func (e *Entry) DropSnapshot(name string) bool {
	kept := e.Snapshots[:0]
	for _, o := range e.Snapshots {
		if o.Name != name {
			kept = append(kept, o)
		}
	}
	dropped := len(kept) < len(e.Snapshots)
	clear(e.Snapshots[len(kept):])
	e.Snapshots = kept
	return dropped
}

// New returns an empty file that levels can be appended to.
func New() *File { return &File{} }

// MaxLines is the most lines Read takes. A File keeps every line to write
// it back: some 30 bytes a line of text, but a level with its solution
// (9 lines of a small one) takes some 800 bytes kept and 1.9 KB allocated
// to read, and soko solve --out about 2.6 KB of RSS to merge. 4 Mi lines
// hold some 260,000 Boxoban levels with solutions (16 lines each) or
// 520,000 small ones, merged in about 1.4 GB at worst; 64 MiB of short
// lines that are no collection ("y") are refused after counting them,
// before any is kept.
const MaxLines = 4 << 20

// Read reads a .sok file. Only input that cannot be read, is larger than
// level.MaxInput, has more than MaxLines lines or a line longer than
// level.MaxLine, or has a solution before the first level is an error (a
// *level.Error); a level that cannot be loaded is an Entry with its
// Unloadable, as in level.ParseCollection.
func Read(r io.Reader, source string) (*File, error) {
	data, err := io.ReadAll(io.LimitReader(r, level.MaxInput+1))
	if err != nil {
		return nil, &level.Error{File: source, Msg: "read error: " + err.Error(), Err: err}
	}
	text, err := level.Text(data, source)
	if err != nil {
		return nil, err
	}
	n := countLines(text)
	if n > MaxLines {
		return nil, &level.Error{File: source, Line: MaxLines + 1, Msg: fmt.Sprintf("more than %d lines, the most a .sok file may have", MaxLines)}
	}
	c, err := level.ParseCollection(bytes.NewReader(data), source)
	if err != nil {
		return nil, err
	}
	f := &File{}
	lines := splitLines(text, n)
	inSection, unreadable := sections(lines, source)

	// The levels in file order, each starting at its preamble: the text
	// lines right above its board.
	var starts []int // 0-based line of each entry's first line
	li, ui := 0, 0
	for li < len(c.Levels) || ui < len(c.Unloadable) {
		e := &Entry{}
		var board int
		if ui < len(c.Unloadable) && (li == len(c.Levels) || c.Unloadable[ui].Line < c.Levels[li].Line) {
			e.Unloadable, board = c.Unloadable[ui], c.Unloadable[ui].Line-1
			ui++
		} else {
			e.Level, board = c.Levels[li], c.Levels[li].Line-1
			li++
		}
		start := board
		for start > 0 && strings.TrimSpace(lines[start-1]) != "" && inSection[start-1] == nil && !isBoardRow(lines[start-1]) {
			start--
		}
		if start > 0 && strings.TrimSpace(lines[start-1]) != "" {
			// Without a blank line above, these lines follow the level
			// above, whose Title: and Author: they may give (package level).
			start = board
		}
		f.Entries = append(f.Entries, e)
		starts = append(starts, start)
	}
	end := len(lines)
	if len(starts) > 0 {
		end = starts[0]
	}
	for i := 0; i < end; i++ {
		if s := inSection[i]; s != nil && s.snap != nil {
			return nil, &level.Error{File: source, Line: s.line, Msg: "a snapshot before the first level"}
		} else if s != nil {
			return nil, &level.Error{File: source, Line: s.line, Msg: "a solution before the first level"}
		}
		if u := unreadable[i]; u != nil {
			return nil, u
		}
	}
	f.prefix = lines[:end]
	for k, e := range f.Entries {
		end := len(lines)
		if k+1 < len(starts) {
			end = starts[k+1]
		}
		for i := starts[k]; i < end; i++ {
			if u := unreadable[i]; u != nil {
				u.Level = entryIndex(e)
				e.Unreadable = append(e.Unreadable, u)
				if headingKind(lines[i]) != solutionWord {
					if e.badGames == nil {
						e.badGames = map[*level.Error]bool{}
					}
					e.badGames[u] = true
				}
			}
			switch s := inSection[i]; {
			case s == nil:
				e.lines = append(e.lines, lines[i])
			case s.line == i+1 && s.sol != nil:
				e.Solutions = append(e.Solutions, s.sol)
			case s.line == i+1:
				e.Snapshots = append(e.Snapshots, s.snap)
			}
		}
		e.lines = trimBlank(e.lines)
	}
	return f, nil
}

// entryIndex is the position of e's level in its file.
func entryIndex(e *Entry) int {
	if e.Level != nil {
		return e.Level.Index
	}
	return e.Unloadable.Index
}

// countLines is how many lines splitLines makes of text.
func countLines(text string) int {
	n := strings.Count(text, "\n") + strings.Count(text, "\r") - strings.Count(text, "\r\n")
	if len(text) > 0 && text[len(text)-1] != '\n' && text[len(text)-1] != '\r' {
		n++ // a last line without its end
	}
	return n
}

// splitLines splits text at LF, CRLF or CR, as level.ParseCollection
// does, so that line numbers agree. n, the lines expected, sizes the
// slice once: a line costs its string header and no growth garbage.
func splitLines(text string, n int) []string {
	lines := make([]string, 0, n)
	for text != "" {
		i := strings.IndexAny(text, "\r\n")
		switch {
		case i < 0:
			lines, text = append(lines, text), ""
		case text[i] == '\r' && i+1 < len(text) && text[i+1] == '\n':
			lines, text = append(lines, text[:i]), text[i+2:]
		default:
			lines, text = append(lines, text[:i]), text[i+1:]
		}
	}
	return lines
}

// section is a solution or snapshot section as read.
type section struct {
	sol  *Solution // set for a solution section
	snap *Snapshot // set for a snapshot section
	line int       // its heading's line
}

// sections finds the solution and snapshot sections: for each line that
// belongs to one, its section. A section whose moves cannot be read is
// left as text, and its error is given at the line of its heading in
// unreadable.
func sections(lines []string, source string) (in []*section, unreadable map[int]*level.Error) {
	in = make([]*section, len(lines))
	unreadable = map[int]*level.Error{}
	for i := 0; i < len(lines); i++ {
		kind := headingKind(lines[i])
		if kind == "" {
			continue
		}
		var lurd strings.Builder
		var bad *level.Error
		var solver, date string
		var notes []string
		j := i + 1
		for ; j < len(lines); j++ {
			t := strings.TrimSpace(lines[j])
			if t == "" || headingKind(t) != "" || isBoardRow(lines[j]) || j+1 < len(lines) && !isLURD(t) && isBoardRow(lines[j+1]) {
				break // a blank line, the next section, or the next level
			}
			key, val, isKey := strings.Cut(t, ":")
			k := strings.ToLower(strings.TrimSpace(key))
			if isKey && (k == "title" || k == "author") {
				break // the level's, as package level reads it
			}
			if bad == nil && !isLURD(t) && !isKey && (j == i+1 && (bareHeading(lines[i]) || looksLikeLURD(t)) || lurd.Len() > 0 && looksLikeLURD(t)) {
				bad = badMoves(source, kind, j+1, lines[j])
			}
			switch {
			case isLURD(t) || lurd.Len() > 0 && isCount(t) && j+1 < len(lines) && isLURD(strings.TrimSpace(lines[j+1])): // a count may stand on a line of its own before the move it repeats, as ParseLURD reads it
				lurd.WriteString(strings.Map(dropBlank, t))
			case isKey && k == "solver" && kind == solutionWord:
				solver = level.Printable(strings.TrimSpace(val))
			case isKey && k == "date":
				date = level.Printable(strings.TrimSpace(val))
			default:
				notes = append(notes, level.Printable(t))
			}
		}
		if bad != nil {
			unreadable[i] = bad
			i = j - 1
			continue // left as text
		}
		if lurd.Len() == 0 {
			continue // a heading without moves is text
		}
		sec := &section{line: i + 1}
		if kind == solutionWord {
			sec.sol = &Solution{LURD: lurd.String(), Solver: solver, Date: date, Notes: notes, Line: i + 1}
		} else {
			sec.snap = &Snapshot{Name: level.Printable(snapshotName(lines[i])), LURD: lurd.String(), Date: date, Notes: notes, Line: i + 1}
		}
		for k := i; k < j; k++ {
			in[k] = sec
		}
		i = j - 1
	}
	return in, unreadable
}

// looksLikeLURD reports whether t, a line that is not LURD, was meant to
// be: at least half of its letters are LURD letters, and it is not a
// "Key: value" note.
func looksLikeLURD(t string) bool {
	letters, lurd := 0, 0
	for i := 0; i < len(t); i++ {
		if c := t[i]; isLetter(c) {
			letters++
			if strings.IndexByte("udlrUDLR", c) >= 0 {
				lurd++
			}
		}
	}
	return !strings.Contains(t, ":") && lurd > 0 && 2*lurd >= letters
}

// badMoves is the error of a solution section's line n, text, that should
// hold moves and does not: where its first stray character is.
func badMoves(source, kind string, n int, text string) *level.Error {
	e := &level.Error{File: source, Line: n, Msg: fmt.Sprintf("%s section: %q is not moves (LURD) or a \"Key: value\" note", kind, strings.TrimSpace(text))}
	if !looksLikeLURD(strings.TrimSpace(text)) {
		return e
	}
	if _, err := level.ParseLURD(text); err != nil {
		var le *level.Error
		if errors.As(err, &le) && le.Col > 0 {
			e.Col = le.Col
			e.Msg = kind + " section: " + le.Msg
		}
	}
	return e
}

// bareHeading reports whether a heading is only a heading ("Solution",
// "Solution (8 pushes, 33 moves)", "Solution/Moves", "Solution 33/8",
// "Snapshot: name"), not a sentence that starts with the word ("Solution
// hints:"): the line after it must be its moves.
func bareHeading(line string) bool {
	rest := strings.TrimSpace(strings.TrimSpace(line)[8:])
	return rest == "" || strings.IndexByte("(/:0123456789", rest[0]) >= 0
}

// The words that head a section: both have eight letters.
const (
	solutionWord = "solution"
	snapshotWord = "snapshot"
)

// headingKind returns the word a line starting a section starts with
// (solutionWord or snapshotWord), "" for any other line.
func headingKind(line string) string {
	t := strings.TrimSpace(line)
	if len(t) < 8 || len(t) > 8 && isLetter(t[8]) {
		return ""
	}
	for _, w := range []string{solutionWord, snapshotWord} {
		if strings.EqualFold(t[:8], w) {
			return w
		}
	}
	return ""
}

// isHeading reports whether a line starts a section.
func isHeading(line string) bool { return headingKind(line) != "" }

// snapshotCounts is the counts Bytes writes in a snapshot's heading,
// before the colon and name; reading, they are not part of the name.
var snapshotCounts = regexp.MustCompile(`^\s*\(\d+ push(es)?, \d+ moves?\)`)

// snapshotName is the name a snapshot heading gives: its words after
// "Snapshot", the counts Bytes writes and a colon.
func snapshotName(heading string) string {
	rest := snapshotCounts.ReplaceAllString(strings.TrimSpace(heading)[8:], "")
	return strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(rest), ":"))
}

// isCount reports whether t is a repeat count alone: digits and blanks,
// with at least one digit.
func isCount(t string) bool {
	return strings.Trim(t, " \t") != "" && strings.Trim(t, "0123456789 \t") == ""
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// isLURD reports whether t is made of LURD letters, repeat counts and
// blanks only, with at least one letter.
func isLURD(t string) bool {
	letter := false
	for i := 0; i < len(t); i++ {
		switch c := t[i]; {
		case strings.IndexByte("udlrUDLR", c) >= 0:
			letter = true
		case c >= '0' && c <= '9', c == ' ', c == '\t':
		default:
			return false
		}
	}
	return letter
}

// isBoardRow reports whether package level reads a line as a board row,
// good or bad: only board characters, with a wall, or blanks, floor and
// counts and then a wall.
func isBoardRow(line string) bool {
	t := strings.TrimRight(line, " \t")
	if strings.IndexByte(t, level.Wall) < 0 || strings.HasPrefix(strings.TrimLeft(t, " \t"), ";") {
		return false
	}
	return strings.Trim(t, "# $.*@+-_|0123456789") == "" || strings.TrimLeft(t, " \t-_0123456789")[0] == level.Wall
}

func dropBlank(r rune) rune {
	if r == ' ' || r == '\t' {
		return -1
	}
	return r
}

// trimBlank drops blank lines at the end.
func trimBlank(lines []string) []string {
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// Matches returns the entries whose board is l's, in file order: those
// with l's title first.
func (f *File) Matches(l *level.Level) []*Entry {
	var same, other []*Entry
	for _, e := range f.Entries {
		switch {
		case e.Level == nil || !sameBoard(e.Level, l):
		case e.Level.Title == l.Title:
			same = append(same, e)
		default:
			other = append(other, e)
		}
	}
	return append(same, other...)
}

func sameBoard(a, b *level.Level) bool {
	if a.Height != b.Height {
		return false
	}
	for y := range a.Rows {
		if strings.TrimRight(a.Rows[y], " ") != strings.TrimRight(b.Rows[y], " ") {
			return false
		}
	}
	return true
}

// Append adds l at the end of the file, with no solutions: its title on the
// line above the board (when it cannot be mistaken for anything else), the
// board, then "Title:" and "Author:" lines.
func (f *File) Append(l *level.Level) *Entry {
	e := &Entry{Level: l}
	if t := oneLine(l.Title); t != "" && safeTitleLine(t) {
		e.lines = append(e.lines, t)
	}
	for _, r := range l.Rows {
		e.lines = append(e.lines, strings.TrimRight(r, " "))
	}
	if t := oneLine(l.Title); t != "" {
		e.lines = append(e.lines, "Title: "+t)
	}
	if a := oneLine(l.Author); a != "" {
		e.lines = append(e.lines, "Author: "+a)
	}
	f.Entries = append(f.Entries, e)
	return e
}

// safeTitleLine reports whether t, written alone on a line, reads back as
// free text: not a board row, comment, key, solution heading or LURD.
func safeTitleLine(t string) bool {
	return !isBoardRow(t) && !isHeading(t) && !isLURD(t) && !strings.ContainsAny(t, ":;#")
}

func oneLine(s string) string {
	return strings.TrimSpace(strings.NewReplacer("\r", " ", "\n", " ").Replace(s))
}

// Add gives e the solution s unless e has it already or has one at least as
// good in both pushes and moves; it reports whether s was added. With
// replace, the solutions s is at least as good as in both are dropped.
// Solutions are compared by replay (Score): only a sound one, which
// solves the level with every step in its right letter case, is added or
// keeps another out. One that is not is never better than another and is
// kept beside them (soko verify reports it), except that with replace a
// sound one at least as good in its replayed counts replaces one that
// replays but is unsound (a wrong letter case, a level left unsolved).
// With replace and s not added, the one solution that kept it out stays
// and the others s is at least as good as are dropped all the same: the
// file ends the same whether or not the best was in it already.
func (e *Entry) Add(s *Solution, replace bool) bool {
	sp, sm, sound, _ := e.Score(s)
	if !sound {
		return false
	}
	var keeper *Solution // one already here, s itself or at least as good
	for _, o := range e.Solutions {
		if o.LURD == s.LURD {
			keeper = o
			break
		}
		if op, om, sound, _ := e.Score(o); sound && op <= sp && om <= sm {
			keeper = o
			break
		}
	}
	if replace {
		kept := e.Solutions[:0]
		for _, o := range e.Solutions {
			if op, om, _, ok := e.Score(o); o == keeper || !ok || op < sp || om < sm {
				kept = append(kept, o)
			}
		}
		e.Solutions = kept
	}
	if keeper != nil {
		return false
	}
	e.Solutions = append(e.Solutions, s)
	return true
}

// Bytes returns the file's text: what was read, with every solution and
// snapshot section rewritten, and the appended levels. Levels are
// separated by a blank line, and each section follows a blank line,
// solutions first:
//
//	Solution (8 pushes, 33 moves)
//	dlUrrrdLullddrUluRuulDrddrruLdlUU
//	Solver: soko fess
//	Date: 2026-11-26T18:40:00Z
func (f *File) Bytes() []byte {
	var b bytes.Buffer
	for _, l := range f.prefix {
		b.WriteString(l + "\n")
	}
	for i, e := range f.Entries {
		if i > 0 {
			b.WriteString("\n")
		}
		for _, l := range e.lines {
			b.WriteString(l + "\n")
		}
		for _, s := range e.Solutions {
			b.WriteString("\n")
			e.writeSolution(&b, s)
		}
		for _, s := range e.Snapshots {
			b.WriteString("\n")
			e.writeSnapshot(&b, s)
		}
	}
	return b.Bytes()
}

// writeSnapshot writes one snapshot section, headed with its pushes and
// moves when it replays on the level, and its name after a colon:
//
//	Snapshot (1 push, 5 moves): before the corner
//	dlUrr
//	Date: 2026-11-26T18:40:00Z
func (e *Entry) writeSnapshot(b *bytes.Buffer, s *Snapshot) {
	b.WriteString("Snapshot")
	if e.Level != nil {
		if rep, err := verify.Check(e.Level, s.LURD); err == nil && rep.FailStep == 0 {
			fmt.Fprintf(b, " (%s, %s)", count(rep.Pushes, "push", "pushes"), count(rep.Moves, "move", "moves"))
		}
	}
	if n := oneLine(s.Name); n != "" {
		b.WriteString(": " + n)
	}
	b.WriteString("\n" + s.LURD + "\n")
	if s.Date != "" {
		b.WriteString("Date: " + oneLine(s.Date) + "\n")
	}
	for _, n := range s.Notes {
		b.WriteString(oneLine(n) + "\n")
	}
}

// writeSolution writes one section, headed with its pushes and moves as a
// replay counts them, or "Solution" alone when they cannot be counted.
func (e *Entry) writeSolution(b *bytes.Buffer, s *Solution) {
	if p, m, _, ok := e.Score(s); ok {
		fmt.Fprintf(b, "Solution (%s, %s)\n", count(p, "push", "pushes"), count(m, "move", "moves"))
	} else {
		b.WriteString("Solution\n")
	}
	b.WriteString(s.LURD + "\n")
	if s.Solver != "" {
		b.WriteString("Solver: " + oneLine(s.Solver) + "\n")
	}
	if s.Date != "" {
		b.WriteString("Date: " + oneLine(s.Date) + "\n")
	}
	for _, n := range s.Notes {
		b.WriteString(oneLine(n) + "\n")
	}
}

func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// WriteFile writes f to path through a temporary file in the same folder,
// renamed over path once complete, so that path holds the old file or the
// new one, never a part (outfile.Replace: a target that is not a regular
// file is refused, a symbolic link is followed).
func WriteFile(path string, f *File) error {
	return outfile.Replace(path, func(w io.Writer) error {
		_, err := w.Write(f.Bytes())
		return err
	})
}

// ReadFile reads the .sok file at path.
func ReadFile(path string) (*File, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	return Read(fh, path)
}

// SolverNote is the "Solver:" note soko writes (soko solve --out, soko
// bench --sok, the web page) for a solution its solver name found, with
// its parameters: "soko fess", "soko wastar (p=2,w=200)", with ",
// optimized for pushes" (or moves) when the optimizer shortened it,
// metric naming what it shortened first ("" when it did not run).
func SolverNote(name string, params map[string]string, metric string) string {
	note := "soko " + name
	if len(params) > 0 {
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(params)) {
			parts = append(parts, k+"="+params[k])
		}
		note += " (" + strings.Join(parts, ",") + ")"
	}
	if metric != "" {
		note += ", optimized for " + metric
	}
	return note
}
