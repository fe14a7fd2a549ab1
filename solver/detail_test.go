package solver_test

import (
	"context"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"soko/level"
	"soko/solver"
)

// describer is a search that runs a guard with a board and a description
// registered until it has sent one progress event.
type describer struct{ text string }

func (d describer) Solve(ctx context.Context, l *level.Level, opts solver.Options) (solver.Result, error) {
	sent := false
	progress := opts.Progress
	opts.Progress = func(ev solver.Progress) { sent = true; progress(ev) }
	g := solver.NewGuard(ctx, opts)
	g.Best(func() []string { return []string{"best"} })
	g.Describe(func() string { return d.text })
	var st solver.Stats
	for !sent {
		st.Expanded++
		if status, stop := g.Tick(&st); stop {
			return solver.Result{Status: status, Stats: st}, nil
		}
		time.Sleep(time.Millisecond)
	}
	return solver.Result{Status: solver.NoSolution, Stats: st}, nil
}

// events runs s on the corridor level and returns its progress events.
func events(t *testing.T, s solver.Solver) []solver.Progress {
	t.Helper()
	var evs []solver.Progress
	opts := solver.Options{Budget: solver.Budget{Time: 10 * time.Second}, Progress: func(ev solver.Progress) { evs = append(evs, ev) }}
	res, err := solver.Run(context.Background(), s, level1(t), opts)
	if err != nil || res.Status != solver.NoSolution || len(evs) == 0 {
		t.Fatalf("status %v, error %v, %d events", res.Status, err, len(evs))
	}
	return evs
}

// TestGuardDescribesBest: the progress event carries the board and the
// description registered with the guard, cut to its first line and to
// solver.MaxDetail bytes at a character boundary.
func TestGuardDescribesBest(t *testing.T) {
	long := strings.Repeat("é", solver.MaxDetail) // two bytes each
	for _, tc := range []struct{ text, want string }{
		{"boxes on goals 1 of 2", "boxes on goals 1 of 2"},
		{"  h 23, g 41\nsecond line", "h 23, g 41"},
		{"first\r\nsecond", "first"},
		{"", ""},
		{long, long[:solver.MaxDetail-3-1] + "…"}, // 157 bytes: 78 é and "…" (3 bytes); an odd cut would split an é
	} {
		ev := events(t, describer{tc.text})[0]
		if ev.Detail != tc.want || len(ev.Board) != 1 || ev.Board[0] != "best" {
			t.Errorf("described as %q: event detail %q, board %q; want %q", tc.text, ev.Detail, ev.Board, tc.want)
		}
		if len(ev.Detail) > solver.MaxDetail || !utf8.ValidString(ev.Detail) {
			t.Errorf("detail of %d bytes, valid UTF-8 %v", len(ev.Detail), utf8.ValidString(ev.Detail))
		}
	}
}

// TestPortfolioForwardsDetail: a portfolio passes its member's description
// on with the board, and names the member.
func TestPortfolioForwardsDetail(t *testing.T) {
	p := solver.Portfolio{Members: []solver.Member{{Name: "d", Solver: describer{"packed 3 of 4"}, Share: 1, Exhaustive: true}}}
	ev := events(t, p)[0]
	if ev.Detail != "packed 3 of 4" || ev.Strategy != "d" || len(ev.Board) != 1 {
		t.Errorf("event %+v; want detail \"packed 3 of 4\" from d with its board", ev)
	}
}
