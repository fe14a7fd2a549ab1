package verify

import (
	"slices"
	"strings"
	"testing"

	"soko/level"
)

func FuzzReplay(f *testing.F) {
	f.Add(microban1, solution1)
	f.Add(microban1, "lllluuuu")
	f.Add("######\n#@$ .#\n# $ .#\n######\n", "RRlldRR")
	f.Add("@$.\n #", "rrdl")
	f.Fuzz(func(t *testing.T, text, lurd string) {
		ms, err := level.ParseLURD(lurd)
		if err != nil {
			return
		}
		// Any text as raw rows: Replay must cope with broken levels.
		raw := &level.Level{Rows: strings.Split(text, "\n")}
		checkReport(t, raw, ms)
		ls, err := level.ParseString(text, "fuzz")
		if err != nil {
			return
		}
		for _, l := range ls {
			before := slices.Clone(l.Rows)
			checkReport(t, l, ms)
			if !slices.Equal(l.Rows, before) {
				t.Fatal("Replay changed the level")
			}
		}
	})
}

// checkReport replays ms on l and checks the report's internal consistency,
// and that replaying only the legal prefix gives the same counts.
func checkReport(t *testing.T, l *level.Level, ms []level.Move) {
	r := Replay(l, ms)
	if r.Moves != r.Steps || r.Pushes > r.Moves || r.Steps > len(ms) {
		t.Fatalf("inconsistent counts: %+v for %d moves", r, len(ms))
	}
	if r.FailStep != 0 {
		if r.FailStep != r.Steps+1 || r.Solved || r.Reason == "" {
			t.Fatalf("inconsistent failure: %+v", r)
		}
		p := Replay(l, ms[:r.Steps])
		if p.FailStep != 0 || p.Moves != r.Moves || p.Pushes != r.Pushes {
			t.Fatalf("prefix replay %+v differs from %+v", p, r)
		}
	} else if r.Steps != len(ms) && (r.Steps != 0 || r.Reason == "" || r.Solved) {
		// Only a level without a single player stops a replay without a
		// failing step.
		t.Fatalf("stopped early without failure: %+v", r)
	}
}
