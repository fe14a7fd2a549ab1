package bench

import (
	"testing"
	"time"
)

// TestBudgetCompare: budgets order by iterations, nodes, then time, and a
// limit of 0 (none) is above every other, so the largest budget of a set
// is the one that limits least.
func TestBudgetCompare(t *testing.T) {
	for _, c := range []struct {
		a, b Budget
		want int
	}{
		{Budget{Time: time.Second}, Budget{Time: 2 * time.Second}, -1},
		{Budget{Time: 0}, Budget{Time: 300 * time.Millisecond}, 1},
		{Budget{Time: time.Second, Nodes: 200}, Budget{Time: time.Second}, -1},
		{Budget{Nodes: 100}, Budget{Nodes: 100}, 0},
		{Budget{Iterations: 10, Nodes: 0}, Budget{Iterations: 20}, -1},
	} {
		if got := c.a.Compare(c.b); got != c.want {
			t.Errorf("%v against %v: %d, want %d", c.a, c.b, got, c.want)
		}
		if got := c.b.Compare(c.a); got != -c.want {
			t.Errorf("%v against %v: %d, want %d", c.b, c.a, got, -c.want)
		}
	}
}
