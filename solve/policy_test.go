package solve

import (
	"testing"
	"time"

	"soko/optimize"
	"soko/solver"
)

// The search gets the level's whole budget; the optimizer's time is its
// own: the policy's when set, AutoTime otherwise, none for NoLimit.
func TestPolicyTimes(t *testing.T) {
	b := solver.Budget{Time: 10 * time.Second, Nodes: 7, Memory: 1 << 30}
	for _, p := range []Policy{{}, {Time: time.Second}, {Time: NoLimit}, {Off: true}} {
		if got := p.SearchBudget(b); got != b {
			t.Errorf("%v: the search gets %+v of %+v", p, got, b)
		}
	}
	found := optimize.Score{Pushes: 300, Moves: 1000}
	for _, c := range []struct {
		p    Policy
		want time.Duration
	}{
		{Policy{Time: 3 * time.Second}, 3 * time.Second},
		{Policy{Time: NoLimit}, 0},
		{Policy{}, AutoTime(found, time.Second, false)},
	} {
		if got := c.p.OptimizeTime(found, time.Second, false); got != c.want {
			t.Errorf("%v: optimizer time %v, want %v", c.p, got, c.want)
		}
	}
	if got := (Policy{}).OptimizeTime(found, time.Second, true); got != AutoWander {
		t.Errorf("a wandering solution: optimizer time %v, want %v", got, AutoWander)
	}
	if got := (Policy{Time: time.Second}).OptimizeTime(found, time.Second, true); got != time.Second {
		t.Errorf("a wandering solution with a time set: %v, want that time", got)
	}
	if got := ResolveTime(0); got != UnlimitedTime {
		t.Errorf("A* again with no limit: %v, want %v", got, UnlimitedTime)
	}
	if got := ResolveTime(time.Second); got != time.Second/2 {
		t.Errorf("A* again in 1s: %v, want half", got)
	}
}

// AutoTime stays between its floor and its cap, grows with the solution's
// pushes and with the search's time, and is the floor for a short
// solution found at once and the cap after a long search; a wandering
// solution gets AutoWander, above the cap.
func TestAutoTime(t *testing.T) {
	if got := AutoTime(optimize.Score{Pushes: 10, Moves: 40}, time.Millisecond, false); got != AutoFloor {
		t.Errorf("10 pushes found in 1ms: %v, want the floor %v", got, AutoFloor)
	}
	if got := AutoTime(optimize.Score{Pushes: 10, Moves: 40}, time.Minute, false); got != AutoCap {
		t.Errorf("10 pushes found in a minute: %v, want the cap %v", got, AutoCap)
	}
	if got := AutoTime(optimize.Score{Pushes: 100000, Moves: 400000}, 0, false); got != AutoCap {
		t.Errorf("100,000 pushes: %v, want the cap %v", got, AutoCap)
	}
	prev := time.Duration(0)
	for pushes := 0; pushes <= 5000; pushes += 50 {
		got := AutoTime(optimize.Score{Pushes: pushes, Moves: 4 * pushes}, 0, false)
		if got < AutoFloor || got > AutoCap || got < prev {
			t.Fatalf("%d pushes: %v after %v: want a non-decreasing time from %v to %v", pushes, got, prev, AutoFloor, AutoCap)
		}
		prev = got
	}
	if got := AutoTime(optimize.Score{Pushes: 10, Moves: 40}, 0, true); got != AutoWander || AutoWander <= AutoCap {
		t.Errorf("a short wandering solution found at once: %v, want %v, above the cap %v", got, AutoWander, AutoCap)
	}
	if prev <= AutoFloor {
		t.Errorf("the time does not grow with the pushes: %v at 5,000", prev)
	}
	prev = 0
	for search := time.Duration(0); search <= 10*time.Second; search += 100 * time.Millisecond {
		got := AutoTime(optimize.Score{Pushes: 10, Moves: 40}, search, false)
		if got < prev {
			t.Fatalf("search %v: %v after %v", search, got, prev)
		}
		prev = got
	}
}

func TestParsePolicy(t *testing.T) {
	for s, want := range map[string]string{
		"": "pushes", "on": "pushes", "pushes": "pushes", "moves": "moves", "off": "off",
		"pushes@2s": "pushes@2s", "on@500ms": "pushes@500ms", "moves@none": "moves@none",
		"pushes@0": "pushes@none", "pushes@auto": "pushes",
	} {
		p, err := ParsePolicy(s)
		if err != nil || p.String() != want {
			t.Errorf("ParsePolicy(%q) = %v, %v; want %s", s, p, err, want)
			continue
		}
		if q, err := ParsePolicy(p.String()); err != nil || q.Off != p.Off || q.Metric != p.Metric || q.Time != p.Time {
			t.Errorf("ParsePolicy(%q) = %+v, %v: not what %q read", p.String(), q, err, s)
		}
	}
	for _, s := range []string{"maybe", "off@2s", "@2s", "pushes@", "pushes@-1s", "pushes@soon", "pushes@2s@3s"} {
		if p, err := ParsePolicy(s); err == nil {
			t.Errorf("ParsePolicy(%q) = %v: no error", s, p)
		}
	}
	for s, want := range map[string]time.Duration{"auto": 0, "none": NoLimit, "0": NoLimit, "1.5s": 1500 * time.Millisecond} {
		if got, err := ParseTime(s); err != nil || got != want || (want != 0 && FormatTime(got) != map[string]string{"none": "none", "0": "none", "1.5s": "1.5s"}[s]) {
			t.Errorf("ParseTime(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
}
