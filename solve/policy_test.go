package solve

import (
	"testing"
	"time"

	"soko/solver"
)

func TestPolicyShares(t *testing.T) {
	var p Policy
	for _, c := range []struct {
		limit, elapsed, search, opt time.Duration
	}{
		{10 * time.Second, 0, 9900 * time.Millisecond, 5 * time.Second}, // half at most
		{10 * time.Second, 7 * time.Second, 9900 * time.Millisecond, 3 * time.Second},
		{10 * time.Second, 9 * time.Second, 9900 * time.Millisecond, time.Second},
		{10 * time.Second, 9950 * time.Millisecond, 9900 * time.Millisecond, 100 * time.Millisecond}, // the search overran: the reserve
		{time.Second, 500 * time.Millisecond, 900 * time.Millisecond, 500 * time.Millisecond},
		{200 * time.Millisecond, 0, 150 * time.Millisecond, 100 * time.Millisecond},
		{0, time.Hour, 0, UnlimitedTime},
	} {
		if got := p.SearchBudget(solver.Budget{Time: c.limit, Nodes: 7}); got != (solver.Budget{Time: c.search, Nodes: 7}) {
			t.Errorf("limit %v: search budget %+v, want %v", c.limit, got, c.search)
		}
		if got := p.Time(c.limit, c.elapsed); got != c.opt {
			t.Errorf("limit %v, search %v: optimizer %v, want %v", c.limit, c.elapsed, got, c.opt)
		}
		if c.limit > 0 && c.search+min(c.opt, c.limit-c.search) > c.limit {
			t.Errorf("limit %v: %v + %v is over the limit", c.limit, c.search, c.opt)
		}
	}
	for _, c := range []struct{ limit, elapsed, want time.Duration }{
		{10 * time.Second, time.Second, 2500 * time.Millisecond},     // a quarter at most
		{10 * time.Second, 6 * time.Second, 1500 * time.Millisecond}, // what a quarter kept for the optimizer leaves
		{10 * time.Second, 7450 * time.Millisecond, 0},               // less than MinTime left: none
		{10 * time.Second, 9 * time.Second, 0},                       // the optimizer takes the rest
		{time.Second, 0, 250 * time.Millisecond},                     // a quarter of a short limit
		{0, time.Hour, UnlimitedTime},                                // no limit
	} {
		if got := p.ResolveTime(c.limit, c.elapsed); got != c.want {
			t.Errorf("limit %v, search %v: A* again %v, want %v", c.limit, c.elapsed, got, c.want)
		}
		if r := p.ResolveTime(c.limit, c.elapsed); c.limit > 0 && c.elapsed+r+p.Time(c.limit, c.elapsed+r) > max(c.limit, c.elapsed+p.Time(c.limit, c.elapsed)) {
			t.Errorf("limit %v, search %v: A* %v and the optimizer go over the limit", c.limit, c.elapsed, r)
		}
	}
	if got := (Policy{Off: true}).SearchBudget(solver.Budget{Time: time.Second}); got.Time != time.Second {
		t.Errorf("off: the search gets %v, want the whole second", got.Time)
	}
	for _, s := range []string{"", "on", "pushes", "moves", "off"} {
		p, err := ParsePolicy(s)
		want := map[string]string{"": "pushes", "on": "pushes"}[s]
		if want == "" {
			want = s
		}
		if err != nil || p.String() != want {
			t.Errorf("ParsePolicy(%q) = %v, %v", s, p, err)
		}
	}
	if _, err := ParsePolicy("maybe"); err == nil {
		t.Error("ParsePolicy(maybe): no error")
	}
}
