// Package level reads and writes Sokoban levels: XSB boards (with the
// run-length encoded form), collection files with titles and comments, and
// LURD move strings. Errors name the file, the level and the line/column.
//
// # Collection files
//
// A file holds levels separated by blank lines. Board rows use the XSB
// characters "# $.*@+", with '-' and '_' also accepted for floor; a decimal
// count repeats the character after it ("4#", "3-") and '|' separates rows
// within one line ("5#|#@$.#|5#"). A line is a board row when it consists of
// these characters only and contains a wall. Lines starting with ';' are
// comments: a comment "; <n>" or "; <n> <title>" right before a board gives
// the level's Number and Title (surrounding single quotes are removed);
// "Title:" and "Author:" lines (any letter case) set the title and author of
// the level just above them, or, after a blank line, of the next level. Other
// comments and free text become the next level's Comments, or, before the
// first blank line that precedes the first level, the collection's Header.
// LF, CRLF and lone CR line endings are accepted, as is a UTF-8 byte order
// mark; text with a UTF-16 byte order mark is decoded from UTF-16 (Text). Trailing blanks are removed and rows are padded with spaces to the
// level's width.
//
// Tabs are rejected in board rows (except trailing ones, which are removed
// like spaces): their width is ambiguous, and guessing would silently shift
// walls. A line that starts like a board row (blanks, floor markers and
// counts, then '#') but contains any other character is an error naming the
// character and its column. Every row of a level must contain a wall, so
// that Format's output always reads back as the same board.
//
// Each level is validated: exactly one player, at least one box, as many
// boxes as goals, at most MaxWidth x MaxHeight squares and MaxBoxes boxes,
// and closed: a flood fill from the player over non-wall squares must not
// reach the edge of the grid or the padding beyond a row's end. Boxes on
// goals that the player can never reach are allowed (Microban 155 has ten).
// A level that breaks one of these rules is that level's error: Parse fails
// on it, while ParseCollection reports it in Collection.Unloadable and reads
// the other levels of the file. Input larger than MaxInput bytes is
// rejected as a whole, and so is a line longer than MaxLine bytes, with an
// error naming it. At most MaxCommentBytes and MaxCommentLines of comments
// are kept per level and for the header; the lines past them are dropped
// and counted (Level.CommentsDropped, Collection.HeaderDropped): comments
// are notes, and a file of text without levels must not take memory in
// proportion to its size.
//
// # Addresses
//
// A level's address is its position in its file: Index, counting the
// levels that cannot be loaded too, so "file.xsb:3" is the third level of
// file.xsb whatever its comments say. The number of a "; <n>" comment is a
// title the file gives the level (Number), shown beside the address by
// Label, never used to find a level: files cut from collections, written
// by hand or merged number their levels in any order, with gaps and
// repeats.
//
// A parsed Level is a plain rectangular grid of XSB characters; it carries no
// search tables. The solving core (package sokoban) builds its own indexed
// representation from it.
package level

import (
	"strconv"
	"strings"
)

// Board characters, as written in XSB.
const (
	Wall         = '#'
	Floor        = ' '
	Box          = '$'
	Goal         = '.'
	BoxOnGoal    = '*'
	Player       = '@'
	PlayerOnGoal = '+'
)

// Size limits enforced by the parser. A level larger than this is rejected
// with an error rather than allowed to exhaust memory in the solvers.
//
// No box index is stored in fewer than 16 bits (sokoban.Position's boxAt
// is int16), so the core would take any box count a 128×128 board can hold
// (at most 15,875). MaxBoxes bounds the tables that grow with the goals
// instead: the largest, the pull distances (4 bytes per goal and floor
// square), stays within 64 MiB on the largest board (1,024 × 15,876 × 4
// bytes = 62 MiB). That is 3.5 times the largest level of the collections
// the project runs (Sasquatch VI 50: 288 boxes, which Festival and YASS
// load too).
const (
	MaxWidth  = 128
	MaxHeight = 128
	MaxBoxes  = 1024
)

// Level is one validated Sokoban board.
//
// Rows holds Height rows of exactly Width bytes each, using only the seven
// XSB characters above (floor is always ' '; rows are right-padded with ' ').
// Squares outside the walls are ' ' too. A Level returned by Parse always has
// exactly one player, as many boxes as goals (at least one), and no floor
// square reachable by the player that lies on the edge of the grid.
type Level struct {
	Title    string   // from "; 12 Title", a Title: line, or empty
	Author   string   // from an Author: line, or empty
	Comments []string // other comment lines attached to the level, without the leading ';'
	Index    int      // 1-based position in its file, unloadable levels counted: the level's address
	Number   string   // n of a "; n" or "; n title" comment above the board, as written, "" if none: a title, not an address
	Source   string   // file or collection name, for messages
	Line     int      // 1-based line of the first board row in the source
	Width    int
	Height   int
	Rows     []string

	// CommentsDropped counts the comment lines left out of Comments past
	// MaxCommentBytes or MaxCommentLines.
	CommentsDropped int
}

// At returns the XSB character at column x, row y (0-based); outside the grid
// it returns Floor.
func (l *Level) At(x, y int) byte {
	if y < 0 || y >= l.Height || x < 0 || x >= l.Width {
		return Floor
	}
	return l.Rows[y][x]
}

// Boxes returns the number of boxes, on goals or not.
func (l *Level) Boxes() int {
	n := 0
	for _, r := range l.Rows {
		n += strings.Count(r, string(Box)) + strings.Count(r, string(BoxOnGoal))
	}
	return n
}

// Name is a short human name: the address "source:index", then the label
// in parentheses when there is one ("mine.xsb:1 (12)"), so that a title
// that is a number is not taken for the address.
func (l *Level) Name() string {
	n := l.Source
	if l.Index > 0 {
		n += ":" + strconv.Itoa(l.Index)
	}
	if t := l.Label(); t != "" {
		n += " (" + t + ")"
	}
	return n
}

// Label is what the file calls the level, shown beside its address: the
// title, after the number of its "; n" comment unless that is the level's
// position ("12", "12 Dune", "Dune"; "" for none).
func (l *Level) Label() string { return Label(l.Index, l.Number, l.Title) }

// Label is Level.Label for a level at position index with the given
// number and title; it serves Unloadable too.
func Label(index int, number, title string) string {
	if number == "" || number == strconv.Itoa(index) {
		return title
	}
	if title == "" {
		return number
	}
	return number + " " + title
}
