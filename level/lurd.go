package level

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Dir is a direction of a player step.
type Dir uint8

// The four directions, in this order.
const (
	Up Dir = iota
	Down
	Left
	Right
)

// Dirs is the number of directions: for d := range Dirs visits Up, Down,
// Left and Right in that order, each as a Dir.
const Dirs Dir = 4

// Delta returns the change of column (dx) and row (dy) for one step in
// direction d; rows grow downwards. An invalid Dir gives (0, 0).
func (d Dir) Delta() (dx, dy int) {
	switch d {
	case Up:
		return 0, -1
	case Down:
		return 0, 1
	case Left:
		return -1, 0
	case Right:
		return 1, 0
	}
	return 0, 0
}

// Letter returns the LURD letter of d, upper case for a push; an invalid Dir
// gives '?'.
func (d Dir) Letter(push bool) byte {
	if d > Right {
		return '?'
	}
	c := "udlr"[d]
	if push {
		c -= 'a' - 'A'
	}
	return c
}

// Move is one player step. Push records the letter case of the step as
// written (upper case = push); whether a step really pushes depends on the
// board.
type Move struct {
	Dir  Dir
	Push bool
}

// MaxSolutionSteps is the longest solution, in player steps, that ParseLURD
// accepts, and so the longest that soko verify, soko play --replay, the web
// page and bench's external solvers take. It is the one cap for all of them.
//
// 1<<20 steps is about a thousand times the longest solution of any level in
// the embedded collections (Microban's longest known solutions run to a few
// hundred moves, XSokoban's to a few thousand), while the replay of that many
// steps takes milliseconds and its []Move 2 MiB.
const MaxSolutionSteps = 1 << 20

// MaxSolutionText is the longest LURD text, in bytes, that ParseLURD reads:
// MaxSolutionSteps letters with room for blanks and line breaks between
// them. Readers of solution files refuse larger files before reading them.
const MaxSolutionText = 4 * MaxSolutionSteps

// ParseLURD parses a LURD string: the letters u, d, l, r (moves) and U, D, L,
// R (pushes), each optionally preceded by a decimal repeat count ("3l2R").
// Blanks and line breaks (LF, CRLF or CR) are ignored. Errors are *Error values whose Line and
// Col (1-based, bytes) point at the offending character. A string longer
// than MaxSolutionText bytes, or one that expands to more than
// MaxSolutionSteps steps, is refused.
func ParseLURD(s string) ([]Move, error) {
	if len(s) > MaxSolutionText {
		return nil, &Error{Msg: fmt.Sprintf("LURD text of %d bytes is longer than the %d bytes allowed (a solution has at most %d steps)", len(s), MaxSolutionText, MaxSolutionSteps)}
	}
	var ms []Move
	line, lineStart := 1, 0
	count, countLine, countCol := -1, 0, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		col := i - lineStart + 1
		switch {
		case c == '\n' || c == '\r' && (i+1 == len(s) || s[i+1] != '\n'): // LF, CRLF or CR ends a line
			line, lineStart = line+1, i+1
			continue
		case c == ' ' || c == '\t' || c == '\r':
			continue
		case c >= '0' && c <= '9':
			if count < 0 {
				count, countLine, countCol = 0, line, col
			}
			count = count*10 + int(c-'0')
			if len(ms)+count > MaxSolutionSteps {
				return nil, &Error{Line: countLine, Col: countCol, Msg: tooLong}
			}
			continue
		}
		d := strings.IndexByte("udlrUDLR", c)
		if d < 0 {
			r, _ := utf8.DecodeRuneInString(s[i:])
			return nil, &Error{Line: line, Col: col, Msg: fmt.Sprintf("unexpected character %q in LURD", r)}
		}
		k := 1
		if count >= 0 {
			if count == 0 {
				return nil, &Error{Line: countLine, Col: countCol, Msg: "repeat count 0 in LURD"}
			}
			k, count = count, -1
		} else if len(ms) == MaxSolutionSteps {
			return nil, &Error{Line: line, Col: col, Msg: tooLong}
		}
		m := Move{Dir: Dir(d % 4), Push: d >= 4}
		for ; k > 0; k-- {
			ms = append(ms, m)
		}
	}
	if count >= 0 {
		return nil, &Error{Line: countLine, Col: countCol, Msg: "repeat count at the end of LURD"}
	}
	return ms, nil
}

// LURDSteps returns the number of steps the LURD text s stands for, its
// repeat counts taken, without reading it into moves: what replaying it
// would cost. It does not check s (ParseLURD does) and stops counting
// past MaxSolutionSteps.
func LURDSteps(s string) int {
	steps, count := 0, -1
	for i := 0; i < len(s) && steps <= MaxSolutionSteps; i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			count = max(count, 0)
			if count <= MaxSolutionSteps {
				count = count*10 + int(c-'0')
			}
		case strings.IndexByte("udlrUDLR", c) >= 0:
			steps += max(count, 1)
			count = -1
		}
	}
	return min(steps, MaxSolutionSteps+1)
}

var tooLong = fmt.Sprintf("LURD longer than %d steps, the longest solution accepted", MaxSolutionSteps)

// FormatLURD returns the LURD string of ms, without repeat counts.
func FormatLURD(ms []Move) string {
	b := make([]byte, len(ms))
	for i, m := range ms {
		b[i] = m.Dir.Letter(m.Push)
	}
	return string(b)
}
