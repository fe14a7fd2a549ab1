package report

import (
	"slices"
	"strings"

	"soko/bench"
)

// ownSuffix ends the count of a portfolio member's own time in ms
// (solver.Portfolio's Counts, under a time limit); expandedSuffix its
// states expanded.
const (
	ownSuffix      = ".own_ms"
	expandedSuffix = ".expanded"
)

// memberTable shows where a portfolio's time went, per solver and budget
// whose runs count their members' own time: for each member, the levels
// it solved (the first verified solution), its part of the time of the
// runs that ended unsolved (the share the rounds gave it where it
// mattered), and its states expanded per second of its own time, so that
// members are compared on the same levels.
func (d *dataset) memberTable() *table {
	t := &table{title: "### Portfolio members: where the time went",
		header: []string{"solver", "budget", "member", "solved", "time, unsolved runs", "expanded/s"}}
	for _, s := range d.solvers {
		for _, b := range d.budgets {
			var recs []*bench.Record
			for _, c := range d.collections {
				recs = append(recs, d.groups[gkey{c, s, b.String()}]...)
			}
			t.rows = append(t.rows, memberRows(s, b.String(), recs)...)
		}
	}
	if len(t.rows) == 0 {
		return nil
	}
	t.notes = append(t.notes, "solved: levels the member solved first (verified); time, unsolved runs: its own time over the runs no member solved, as a part of all members' time there; expanded/s: its states expanded per second of its own time, over all runs.")
	return t
}

// memberRows are memberTable's rows of solver s at budget b, from recs;
// none when no run counts its members' time.
func memberRows(s, b string, recs []*bench.Record) [][]string {
	var names []string
	solved := map[string]int{}
	ownUnsolved, expanded, own := map[string]int64{}, map[string]int64{}, map[string]int64{}
	var allUnsolved int64
	for _, r := range recs {
		isSolved := statusOf(r) == "solved"
		for key, ms := range r.Counts {
			name, ok := strings.CutSuffix(key, ownSuffix)
			if !ok {
				continue
			}
			if _, seen := own[name]; !seen {
				names = append(names, name)
			}
			own[name] += ms
			expanded[name] += r.Counts[name+expandedSuffix]
			if !isSolved {
				ownUnsolved[name] += ms
				allUnsolved += ms
			}
		}
		if isSolved && r.Strategy != "" {
			solved[r.Strategy]++
		}
	}
	slices.Sort(names)
	var rows [][]string
	for _, n := range names {
		part, rate := "—", "—"
		if allUnsolved > 0 {
			part = fmtF(100*float64(ownUnsolved[n])/float64(allUnsolved), 1) + " %"
		}
		if own[n] > 0 {
			rate = formatCount(float64(expanded[n] * 1000 / own[n]))
		}
		rows = append(rows, []string{s, b, n, formatCount(float64(solved[n])), part, rate})
	}
	return rows
}
