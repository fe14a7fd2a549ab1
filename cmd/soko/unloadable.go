package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"soko/bench"
	"soko/level"
	"soko/levels"
)

// unloadableRecord is soko solve's result for a level that cannot be
// loaded: an error naming the file, the line and the reason.
func unloadableRecord(u *level.Unloadable, c *solveConfig) record {
	return record{Level: levels.Entry{Unloadable: u}.ID(), Title: u.Label(), Algo: c.algo, Status: bench.StatusError, Seed: c.seed, Params: c.params, Error: u.Err.Error()}
}

// listEntries prints soko list's line for each level (listEntry) and
// reports whether every level loaded.
func listEntries(w io.Writer, es []levels.Entry) bool {
	width := 0
	for _, e := range es {
		width = max(width, len(e.ID()))
	}
	ok := true
	for _, e := range es {
		ok = listEntry(w, width, e) && ok
	}
	return ok
}

// listEntry writes soko list's line for a level, its address padded to
// width: address, size, boxes and title (its label: a "; n" comment's
// number that is not its position is a title too), or, for a level that cannot be
// loaded, the mark "cannot load" with the line and reason. It reports
// whether the level loaded.
func listEntry(w io.Writer, width int, e levels.Entry) bool {
	l := e.Level
	if u := e.Unloadable; u != nil {
		where := ""
		if u.Err.Line > 0 {
			where = "line " + strconv.Itoa(u.Err.Line) + ": "
		}
		fmt.Fprintf(w, "%-*s cannot load: %s%s", width, level.Printable(e.ID()), where, u.Err.Msg)
		if t := e.Label(); t != "" {
			fmt.Fprintf(w, "  (%s)", t)
		}
		fmt.Fprintln(w)
		return false
	}
	boxes := "boxes"
	if l.Boxes() == 1 {
		boxes = "box"
	}
	line := fmt.Sprintf("%-*s %3dx%-3d %3d %-5s  %s", width, level.Printable(e.ID()), l.Width, l.Height, l.Boxes(), boxes, e.Label())
	fmt.Fprintln(w, strings.TrimRight(line, " "))
	return true
}

// splitEntries parts the levels that loaded from those that did not.
func splitEntries(es []levels.Entry) ([]*level.Level, []*level.Unloadable) {
	var lvls []*level.Level
	var bad []*level.Unloadable
	for _, e := range es {
		if e.Unloadable != nil {
			bad = append(bad, e.Unloadable)
		} else {
			lvls = append(lvls, e.Level)
		}
	}
	return lvls, bad
}
