package level

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"soko/internal/english"
)

// MaxInput is the largest input, in bytes, that Parse reads; longer input is
// rejected with an error that wraps ErrTooLarge.
const MaxInput = 64 << 20

// ErrTooLarge is wrapped by the error for an input over MaxInput.
var ErrTooLarge = fmt.Errorf("input larger than the limit of %d bytes", MaxInput)

// TooLargeError is the error for source's input over MaxInput.
func TooLargeError(source string) *Error {
	return &Error{File: source, Msg: ErrTooLarge.Error(), Err: ErrTooLarge}
}

// MaxLine is the longest line, in bytes without its end, that Parse reads;
// a longer line is an error naming it. Board rows are at most MaxWidth
// bytes (a whole level written on one line with '|', about 16 KiB), and the
// longest line of the collections the project holds is 125 bytes; the
// limit leaves room for a solution of a million moves on one line of a
// .sok file.
const MaxLine = 1 << 20

// MaxCommentBytes and MaxCommentLines bound the comment and free-text lines
// kept for one level (Level.Comments) and for the collection's header
// (Collection.Header): a line that would pass either is dropped and
// counted (Level.CommentsDropped, Collection.HeaderDropped), so that a file
// of text without levels reads in bounded memory. The collections the
// project holds have at most 2 KiB of comments in a block.
const (
	MaxCommentBytes = 1 << 20
	MaxCommentLines = 10000
)

// Collection is a parsed collection file.
type Collection struct {
	Name   string   // file name without directory and extension
	Header []string // comment lines before the first level, without the leading ';'
	// HeaderDropped counts the header lines left out of Header past
	// MaxCommentBytes or MaxCommentLines.
	HeaderDropped int
	Levels        []*Level // the levels that loaded, in file order
	// Unloadable holds the levels that could not be loaded, in file order:
	// one bad level does not make the others of its file unusable.
	Unloadable []*Unloadable
}

// Unloadable is a level of a collection file that could not be loaded
// (too many boxes, no player, a bad character, ...).
type Unloadable struct {
	Source string // as Level.Source
	Index  int    // as Level.Index: its position among all the levels of the file
	Number string // as Level.Number
	Line   int    // first board row
	Title  string // as Level.Title, when the file gives one
	Err    *Error // why: file, line, column, level and reason
}

// Label is Level.Label for the level that could not be loaded.
func (u *Unloadable) Label() string { return Label(u.Index, u.Number, u.Title) }

// Parse reads a collection file and returns its levels. The source name is
// used in the levels' Source field and in error messages. Every error is an
// *Error; Parse fails on the first level that cannot be loaded.
func Parse(r io.Reader, source string) ([]*Level, error) {
	c, err := ParseCollection(r, source)
	if err != nil {
		return nil, err
	}
	if len(c.Unloadable) > 0 {
		return nil, c.Unloadable[0].Err
	}
	return c.Levels, nil
}

// ParseString is Parse on a string.
func ParseString(s, source string) ([]*Level, error) {
	return Parse(strings.NewReader(s), source)
}

// ParseCollection is like Parse but also returns the collection's header
// comments, and it fails only when the input cannot be read or is too
// large: a level that cannot be loaded is left out of Levels and reported
// in Unloadable, and the rest of the file is read as usual (the rows of a
// board with a bad row are skipped up to the end of that level). The
// collection is named after source, without directory and extension.
func ParseCollection(r io.Reader, source string) (*Collection, error) {
	var levels []*Level
	var bad []*Unloadable
	c, err := ScanCollection(r, source, func(l *Level, u *Unloadable) error {
		if l != nil {
			levels = append(levels, l)
		} else {
			bad = append(bad, u)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	c.Levels, c.Unloadable = levels, bad
	return c, nil
}

// ScanCollection reads a collection as ParseCollection does, but hands
// each level to fn as soon as it is complete, in file order, instead of
// keeping it: a level that loaded as l (u nil), one that did not as u (l
// nil). Its memory does not grow with the input, so that a large file of
// small levels can be listed. The Collection it returns has the name and
// the header but no levels. An error of fn stops the reading and is
// returned; an input over MaxInput is an error after the levels before
// the limit were handed over, and so is a NUL byte, which no text holds
// (a binary file).
func ScanCollection(r io.Reader, source string, fn func(l *Level, u *Unloadable) error) (*Collection, error) {
	name := filepath.Base(source)
	name = strings.TrimSuffix(name, filepath.Ext(name))
	p := &parser{file: source, coll: &Collection{Name: name}, emit: fn}
	r, err := decoded(r, source)
	if err != nil {
		return nil, err
	}
	in := &countingReader{r: io.LimitReader(r, MaxInput+1)}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 64<<10), MaxLine+2) // room for the line's end
	sc.Split(splitLines)
	tooLarge := TooLargeError(source)
	tooLong := func(n int) *Error {
		if in.nul { // /dev/zero: a binary file, more than a long line
			return &Error{File: source, Line: n, Msg: "a NUL byte: a binary file, not level text"}
		}
		return &Error{File: source, Line: n, Msg: fmt.Sprintf("line longer than %d bytes", MaxLine)}
	}
	n := 1
	for ; sc.Scan(); n++ {
		if in.n > MaxInput {
			return nil, tooLarge
		}
		if len(sc.Bytes()) > MaxLine {
			return nil, tooLong(n)
		}
		if i := bytes.IndexByte(sc.Bytes(), 0); i >= 0 {
			return nil, &Error{File: source, Line: n, Col: i + 1, Msg: "a NUL byte: a binary file, not level text"}
		}
		// A byte order mark starts the file, or a line where files were
		// put together (cat a.xsb b.xsb): never part of a level.
		line := strings.TrimPrefix(sc.Text(), "\uFEFF")
		p.line(line, n)
		if p.err != nil {
			return nil, p.err
		}
	}
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		return nil, tooLong(n)
	} else if err != nil {
		return nil, &Error{File: source, Msg: "read error: " + err.Error(), Err: err}
	}
	if in.n > MaxInput {
		return nil, tooLarge
	}
	p.endLevel()
	p.flush()
	if p.err != nil {
		return nil, p.err
	}
	return p.coll, nil
}

// splitLines is a bufio.SplitFunc for lines ended by "\n", "\r\n" or a
// lone "\r", without their ends; a last line needs no end.
func splitLines(data []byte, atEOF bool) (advance int, token []byte, err error) {
	i := bytes.IndexAny(data, "\r\n")
	switch {
	case i < 0 && atEOF && len(data) > 0:
		return len(data), data, nil
	case i < 0:
		return 0, nil, nil
	case data[i] == '\n':
		return i + 1, data[:i], nil
	case i+1 < len(data) && data[i+1] == '\n':
		return i + 2, data[:i], nil
	case i+1 < len(data) || atEOF:
		return i + 1, data[:i], nil
	}
	return 0, nil, nil // a "\r" at the end of what was read: a "\n" may follow
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r   io.Reader
	n   int64
	nul bool // a NUL byte was read: a binary file, whatever else goes wrong
}

func (c *countingReader) Read(p []byte) (int, error) {
	k, err := c.r.Read(p)
	c.n += int64(k)
	c.nul = c.nul || bytes.IndexByte(p[:k], 0) >= 0
	return k, err
}

// titleLine is a comment of the form "; <n>" or "; <n> <title>".
type titleLine struct {
	ok    bool
	n     string // the digits as written
	title string
	kept  bool // the line is the last of the pending comments, not dropped
}

// textBlock is comment lines kept up to MaxCommentBytes and
// MaxCommentLines, and a count of those dropped past them.
type textBlock struct {
	lines   []string
	bytes   int
	dropped int
}

// add keeps s if the block has room for it, counts it dropped otherwise,
// and reports whether it was kept.
func (b *textBlock) add(s string) bool {
	if len(b.lines) >= MaxCommentLines || b.bytes+len(s) > MaxCommentBytes {
		b.dropped++
		return false
	}
	b.lines = append(b.lines, s)
	b.bytes += len(s)
	return true
}

// parser holds the state between lines.
type parser struct {
	file string
	coll *Collection

	pending    textBlock   // comment and note lines for the next level
	header     textBlock   // the collection's header so far
	prevTitle  titleLine   // the previous line, if it was a title comment
	title      *string     // pending Title: value for the next level
	author     *string     // pending Author: value for the next level
	cur        *builder    // level whose rows are being read
	last       *Level      // level just ended, until the next blank line
	lastBad    *Unloadable // why last could not be loaded, when it could not
	seenLevel  bool        // a level has started
	levelCount int         // levels started so far
	skipping   bool        // skipping the remaining rows of a board with a bad row

	emit func(*Level, *Unloadable) error // hands over a complete level
	err  error                           // emit's error, which stops the parse
}

const boardChars = "# $.*@+-_|0123456789"

func (p *parser) line(s string, n int) {
	s = strings.TrimRight(s, " \t")
	trimmed := strings.TrimLeft(s, " \t")
	prevTitle := p.prevTitle
	p.prevTitle = titleLine{}
	bad := strings.IndexFunc(s, notBoardChar)
	isBoard := trimmed != "" && trimmed[0] != ';' && bad < 0 && strings.IndexByte(s, Wall) >= 0
	if p.skipping && (isBoard || trimmed != "" && trimmed[0] != ';' && looksLikeBoard(s)) {
		return // the rest of a board already refused
	}
	p.skipping = false
	switch {
	case trimmed == "":
		p.blank()
		return
	case trimmed[0] == ';':
		p.endLevel()
		text := Printable(strings.TrimPrefix(trimmed[1:], " "))
		kept := p.pending.add(text)
		p.prevTitle = parseTitleLine(Printable(trimmed[1:]))
		p.prevTitle.kept = kept
		return
	case isBoard:
		if err := p.board(s, n, prevTitle); err != nil {
			p.reject(err, true)
		}
		return
	}
	if key, val, ok := strings.Cut(trimmed, ":"); ok {
		key = strings.ToLower(strings.TrimSpace(key))
		if key == "title" || key == "author" {
			p.endLevel()
			p.keyValue(key, Printable(strings.TrimSpace(val)))
			return
		}
	}
	if looksLikeBoard(s) {
		p.reject(p.badBoardLine(s, n, bad, prevTitle), true)
		return
	}
	p.endLevel()
	p.pending.add(Printable(trimmed))
}

// reject records the level being read as unloadable for err. midBoard says
// the error is in a row, so that the level's remaining rows are skipped
// rather than read as a new level.
func (p *parser) reject(err *Error, midBoard bool) {
	l := p.cur.lvl
	p.cur = nil
	p.last = l // a Title: or Author: line right after it is its own
	p.lastBad = &Unloadable{Source: l.Source, Index: l.Index, Number: l.Number, Line: l.Line, Err: err}
	p.skipping = midBoard
}

// flush hands over the level just read, if any: it is complete once a
// Title: or Author: line can no longer follow it (a blank line, the next
// level, the end).
func (p *parser) flush() {
	l, bad := p.last, p.lastBad
	p.last, p.lastBad = nil, nil
	if l == nil || p.err != nil {
		return
	}
	if bad != nil {
		bad.Title = l.Title
		p.err = p.emit(nil, bad)
		return
	}
	p.err = p.emit(l, nil)
}

func (p *parser) blank() {
	p.endLevel()
	p.flush()
	if !p.seenLevel {
		h := &p.header
		for _, s := range p.pending.lines {
			h.add(s)
		}
		h.dropped += p.pending.dropped
		if p.title != nil {
			h.add("Title: " + *p.title)
		}
		if p.author != nil {
			h.add("Author: " + *p.author)
		}
		p.coll.Header, p.coll.HeaderDropped = h.lines, h.dropped
		p.pending, p.title, p.author = textBlock{}, nil, nil
	}
}

// keyValue records a Title: or Author: line: it belongs to the level just
// read if there was no blank line since, otherwise to the next level.
func (p *parser) keyValue(key, val string) {
	if p.last != nil {
		if key == "title" {
			p.last.Title = val
		} else {
			p.last.Author = val
		}
		return
	}
	if key == "title" {
		p.title = &val
	} else {
		p.author = &val
	}
}

// Printable returns s with each control character but tab written as its
// Go escape (\x1b, \a): titles, authors and comments are printed to
// terminals, where a file's escape sequences would recolour the output or
// retitle the window.
func Printable(s string) string {
	if !strings.ContainsFunc(s, isControl) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if isControl(r) {
			b.WriteString(strings.Trim(strconv.QuoteRune(r), "'"))
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isControl(r rune) bool { return r != '\t' && unicode.IsControl(r) }

// parseTitleLine recognises the text after ';' of a "; <n> <title>" comment.
func parseTitleLine(s string) titleLine {
	s = strings.TrimLeft(s, " \t")
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 || (i < len(s) && s[i] != ' ' && s[i] != '\t') {
		return titleLine{}
	}
	n := s[:i]
	title := strings.TrimSpace(s[i:])
	if len(title) >= 2 && title[0] == '\'' && title[len(title)-1] == '\'' {
		title = title[1 : len(title)-1]
	}
	return titleLine{ok: true, n: n, title: title}
}

// notBoardChar reports whether r may not appear in a board line.
func notBoardChar(r rune) bool {
	return r >= utf8.RuneSelf || strings.IndexByte(boardChars, byte(r)) < 0
}

// looksLikeBoard reports whether s starts like a board row: optional blanks,
// floor markers and counts, then a wall.
func looksLikeBoard(s string) bool {
	i := 0
	for i < len(s) && strings.IndexByte(" \t-_0123456789", s[i]) >= 0 {
		i++
	}
	return i < len(s) && s[i] == Wall
}

// startLevel begins a new level whose first row is on line n.
func (p *parser) startLevel(n int, prevTitle titleLine) {
	p.flush()
	p.levelCount++
	l := &Level{Index: p.levelCount, Source: p.file, Line: n}
	if prevTitle.ok {
		l.Number = prevTitle.n
		l.Title = prevTitle.title
		if prevTitle.kept {
			pl := &p.pending
			pl.bytes -= len(pl.lines[len(pl.lines)-1])
			pl.lines = pl.lines[:len(pl.lines)-1]
		} else {
			p.pending.dropped--
		}
	}
	if p.title != nil {
		l.Title = *p.title
	}
	if p.author != nil {
		l.Author = *p.author
	}
	l.Comments, l.CommentsDropped = p.pending.lines, p.pending.dropped
	p.pending, p.title, p.author = textBlock{}, nil, nil
	p.cur = &builder{lvl: l}
	p.seenLevel = true
}

func (p *parser) errorf(line, col int, format string, args ...any) *Error {
	e := &Error{File: p.file, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
	if p.cur != nil {
		e.Level = p.cur.lvl.Index
	}
	return e
}

// badBoardLine reports the character at byte i, which is not allowed in s,
// a line that starts like a board row.
func (p *parser) badBoardLine(s string, n, i int, prevTitle titleLine) *Error {
	if p.cur == nil {
		p.startLevel(n, prevTitle)
	}
	if s[i] == '\t' {
		return p.errorf(n, i+1, "tab character in board (tabs are not allowed in boards; use spaces)")
	}
	r, size := utf8.DecodeRuneInString(s[i:])
	if r == utf8.RuneError && size == 1 {
		return p.errorf(n, i+1, "byte 0x%02X in board, which is not UTF-8 text (a file in another encoding, such as Latin-1?)", s[i])
	}
	return p.errorf(n, i+1, "unknown character %q in board", r)
}

// board decodes one board line: one row, or several separated by '|', with
// optional run-length counts.
func (p *parser) board(s string, n int, prevTitle titleLine) *Error {
	if p.cur == nil {
		p.startLevel(n, prevTitle)
	}
	b := p.cur
	var buf [MaxWidth]byte
	var cols [MaxWidth]int32
	i := 0
	for {
		start := i
		x := 0
		count, countCol := -1, 0
		wall := false
		for i < len(s) && s[i] != '|' {
			c := s[i]
			if c >= '0' && c <= '9' {
				if count < 0 {
					count, countCol = 0, i+1
				}
				count = count*10 + int(c-'0')
				if count > MaxWidth {
					return p.errorf(n, countCol, "run-length count larger than the maximum width %d", MaxWidth)
				}
				i++
				continue
			}
			k := 1
			if count >= 0 {
				if count == 0 {
					return p.errorf(n, countCol, "run-length count 0")
				}
				k, count = count, -1
			}
			if c == '-' || c == '_' {
				c = Floor
			}
			for ; k > 0; k-- {
				if x < MaxWidth {
					buf[x], cols[x] = c, int32(i+1)
				} else if c != Floor {
					return p.errorf(n, i+1, "row wider than the maximum width %d", MaxWidth)
				}
				x++
			}
			wall = wall || c == Wall
			i++
		}
		if count >= 0 {
			return p.errorf(n, countCol, "run-length count not followed by a board character")
		}
		last := i == len(s)
		if x == 0 && last && start > 0 {
			return nil // a trailing '|' ends the line
		}
		if !wall {
			return p.errorf(n, start+1, "board row without a wall")
		}
		if len(b.rows) == MaxHeight {
			return p.errorf(n, start+1, "level higher than the maximum height %d", MaxHeight)
		}
		w := min(x, MaxWidth)
		row := strings.TrimRight(string(buf[:w]), " ")
		b.rows = append(b.rows, row)
		b.info = append(b.info, rowInfo{line: n, cols: append([]int32(nil), cols[:w]...), end: i + 1})
		if last {
			return nil
		}
		i++ // skip '|'
	}
}

// rowInfo maps the cells of one decoded row back to the source text.
type rowInfo struct {
	line int
	cols []int32 // 1-based source column of each decoded cell
	end  int     // 1-based source column just after the row
}

// builder collects the rows of the level being read.
type builder struct {
	lvl  *Level
	rows []string // without padding
	info []rowInfo
}

// pos returns the source position of cell (x, y).
func (b *builder) pos(x, y int) (line, col int) {
	ri := b.info[y]
	if x < len(ri.cols) {
		return ri.line, int(ri.cols[x])
	}
	return ri.line, ri.end + x - len(ri.cols)
}

// endLevel validates and stores the level being read, if any.
func (p *parser) endLevel() {
	b := p.cur
	if b == nil {
		return
	}
	l := b.lvl
	for _, r := range b.rows {
		l.Width = max(l.Width, len(r))
	}
	l.Height = len(b.rows)
	l.Rows = make([]string, l.Height)
	for y, r := range b.rows {
		l.Rows[y] = r + strings.Repeat(" ", l.Width-len(r))
	}
	if err := p.validate(); err != nil {
		p.reject(err, false)
		return
	}
	p.cur = nil
	p.last = l
}

// validate checks the level being read for players, boxes, goals and
// enclosure.
func (p *parser) validate() *Error {
	b := p.cur
	l := b.lvl
	players, boxes, goals := 0, 0, 0
	px, py := 0, 0
	for y, r := range l.Rows {
		for x := 0; x < len(r); x++ {
			switch r[x] {
			case Player, PlayerOnGoal:
				players++
				if players == 1 {
					px, py = x, y
				} else if players == 2 {
					line, col := b.pos(x, y)
					return p.errorf(line, col, "two players (second at row %d, column %d)", y+1, x+1)
				}
			}
			switch r[x] {
			case Box, BoxOnGoal:
				boxes++
			}
			switch r[x] {
			case Goal, BoxOnGoal, PlayerOnGoal:
				goals++
			}
		}
	}
	switch {
	case players == 0:
		return p.errorf(l.Line, 0, "no player")
	case boxes > MaxBoxes:
		return p.errorf(l.Line, 0, "%d boxes, more than the limit of %d", boxes, MaxBoxes)
	case boxes == 0:
		return p.errorf(l.Line, 0, "no boxes")
	case boxes != goals:
		return p.errorf(l.Line, 0, "%s but %s", english.Count(boxes, "box", "boxes"), english.Count(goals, "goal", "goals"))
	}
	// Breadth-first flood fill from the player over non-wall squares.
	seen := make([]bool, l.Width*l.Height)
	queue := []int{py*l.Width + px}
	seen[queue[0]] = true
	for len(queue) > 0 {
		x, y := queue[0]%l.Width, queue[0]/l.Width
		queue = queue[1:]
		if x == 0 || y == 0 || x == l.Width-1 || y == l.Height-1 || x >= len(b.rows[y]) {
			line, col := b.pos(x, y)
			return p.errorf(line, col, "level not closed: the player can walk off the board at row %d, column %d", y+1, x+1)
		}
		for _, d := range [4][2]int{{0, -1}, {0, 1}, {-1, 0}, {1, 0}} {
			i := (y+d[1])*l.Width + x + d[0]
			if !seen[i] && l.Rows[y+d[1]][x+d[0]] != Wall {
				seen[i] = true
				queue = append(queue, i)
			}
		}
	}
	return nil
}
