// Package testlevel builds levels for tests straight from rows of XSB text,
// without the parser, so that tests of the core do not depend on it.
package testlevel

import (
	"strings"

	"soko/level"
)

// Grid returns a level with the given rows, padded with spaces to one width.
// It does no validation.
func Grid(rows ...string) *level.Level {
	w := 0
	for _, r := range rows {
		w = max(w, len(r))
	}
	l := &level.Level{Source: "test", Width: w, Height: len(rows)}
	for _, r := range rows {
		l.Rows = append(l.Rows, r+strings.Repeat(" ", w-len(r)))
	}
	return l
}
