package solver

import "testing"

// TestRoundsDetachCounts: the rounds keep a copy of the counts a member
// reports, in a progress event or at the end of a slice, so that the
// member may go on writing its own map (bigreedy does) while the other
// members' goroutines sum what the rounds hold. Summing the member's map
// itself is a data race with --threads 2 (go test -race finds it).
func TestRoundsDetachCounts(t *testing.T) {
	m := &entrant{Member: Member{Name: "a"}, started: true}
	rs := &rounds{members: []*entrant{m}, opts: Options{Progress: func(Progress) {}}}

	counts := map[string]int64{"n": 1}
	rs.note(m, Progress{Stats: Stats{Counts: counts}})
	counts["n"] = 2
	if got := rs.total().Counts["a.n"]; got != 1 {
		t.Errorf("after a progress event the member wrote its counts again: the sums read %d, want the 1 it reported", got)
	}

	counts = map[string]int64{"n": 3}
	rs.finish(outcome{m: m, res: Result{Stats: Stats{Counts: counts}}})
	counts["n"] = 4
	if got := rs.total().Counts["a.n"]; got != 3 {
		t.Errorf("after a slice the member wrote its counts again: the sums read %d, want the 3 it returned", got)
	}
}
