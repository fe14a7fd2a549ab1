// Package level reads and writes Sokoban levels: XSB boards (with the
// run-length encoded form), collection files with titles and comments, and
// LURD move strings. Errors name the file, the level and the line/column.
//
// A parsed Level is a plain rectangular grid of XSB characters; it carries no
// search tables. The solving core (package sokoban) builds its own indexed
// representation from it.
package level

import "strconv"

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
const (
	MaxWidth  = 128
	MaxHeight = 128
	MaxBoxes  = 255
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
	Index    int      // 1-based position in its collection
	Source   string   // file or collection name, for messages
	Line     int      // 1-based line of the first board row in the source
	Width    int
	Height   int
	Rows     []string
}

// At returns the XSB character at column x, row y (0-based); outside the grid
// it returns Floor.
func (l *Level) At(x, y int) byte {
	if y < 0 || y >= l.Height || x < 0 || x >= l.Width {
		return Floor
	}
	return l.Rows[y][x]
}

// Name is a short human name: "source:index" plus the title when there is one.
func (l *Level) Name() string {
	n := l.Source
	if l.Index > 0 {
		n += ":" + strconv.Itoa(l.Index)
	}
	if l.Title != "" {
		n += " " + l.Title
	}
	return n
}
