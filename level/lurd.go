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

// MaxLURD is the largest number of steps ParseLURD accepts.
const MaxLURD = 1 << 24

// ParseLURD parses a LURD string: the letters u, d, l, r (moves) and U, D, L,
// R (pushes), each optionally preceded by a decimal repeat count ("3l2R").
// Blanks and line breaks are ignored. Errors are *Error values whose Line and
// Col (1-based, bytes) point at the offending character.
func ParseLURD(s string) ([]Move, error) {
	var ms []Move
	line, lineStart := 1, 0
	count, countLine, countCol := -1, 0, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		col := i - lineStart + 1
		switch {
		case c == '\n':
			line, lineStart = line+1, i+1
			continue
		case c == ' ' || c == '\t' || c == '\r':
			continue
		case c >= '0' && c <= '9':
			if count < 0 {
				count, countLine, countCol = 0, line, col
			}
			count = count*10 + int(c-'0')
			if len(ms)+count > MaxLURD {
				return nil, &Error{Line: countLine, Col: countCol, Msg: fmt.Sprintf("LURD longer than %d steps", MaxLURD)}
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

// FormatLURD returns the LURD string of ms, without repeat counts.
func FormatLURD(ms []Move) string {
	b := make([]byte, len(ms))
	for i, m := range ms {
		b[i] = m.Dir.Letter(m.Push)
	}
	return string(b)
}
