// Package testlevel gives tests their levels: straight from rows of XSB
// text without the parser (Grid), so that tests of the core do not depend on
// it, or through the parser and the embedded collections, failing the test
// on an error (Parse, Resolve).
package testlevel

import (
	"strings"
	"testing"

	"soko/level"
	"soko/levels"
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

// Parse parses the first level of text, failing the test on an error.
func Parse(t testing.TB, text string) *level.Level {
	t.Helper()
	ls, err := level.ParseString(text, "test")
	if err != nil {
		t.Fatal(err)
	}
	return ls[0]
}

// Resolve returns the levels a spec such as "microban:1-10" names, failing
// the test on an error.
func Resolve(t testing.TB, spec string) []*level.Level {
	t.Helper()
	ls, err := levels.Resolve(spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	return ls
}
