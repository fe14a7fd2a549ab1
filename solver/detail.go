package solver

import (
	"strings"
	"unicode/utf8"
)

// MaxDetail is the most bytes of Progress.Detail a guard sends; a longer
// description is cut at a character boundary and ends in "…".
const MaxDetail = 160

// Describe registers how to describe, in a few words, the position that
// Best draws: the live view's caption of the best board. The guard calls
// describe when it sends a progress event (about ten times a
// second at most), on the solver's goroutine, right after the function given
// to Best, so both may read the search's state without locks; the text goes
// into Progress.Detail. soko solve's terminal progress line shows it after
// the level's time and states, and the web page beside the best board.
//
// Write one short line of "name value" pairs, most telling first, separated
// by commas: "boxes on goals 5 of 12", or "h 23, g 41". Only the first line
// is kept, and at most MaxDetail bytes of it. A solver with a feature vector
// registers it next to Best, before its loop; fess, whose drawBest draws a
// node of the best cell e.best, would write:
//
//	e.guard.Best(e.drawBest)
//	e.guard.Describe(func() string {
//		k := e.cells[e.best].key
//		return fmt.Sprintf("packed %d of %d, regions %d, out of plan %d, hotspots %d",
//			k.packed, len(e.b.Goals()), k.conn, k.oop, k.hot)
//	})
//
// A Portfolio forwards each member's description with its board, and
// Stats.Strategy names the member.
func (g *Guard) Describe(describe func() string) { g.describe = describe }

// detail returns the registered description, cut to its first line and to
// MaxDetail bytes, or "" when none is registered.
func (g *Guard) detail() string {
	if g.describe == nil {
		return ""
	}
	return clipDetail(g.describe())
}

// clipDetail keeps the first line of s, without surrounding blanks, and at
// most MaxDetail bytes of it.
func clipDetail(s string) string {
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimSpace(s)
	if len(s) <= MaxDetail {
		return s
	}
	const more = "…"
	cut := MaxDetail - len(more)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + more
}
