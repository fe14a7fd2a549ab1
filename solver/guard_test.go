package solver

import (
	"context"
	"testing"
	"time"
)

// TestGuardLooksOftenAtSlowTicks: when each Tick comes 5 ms after the one
// before (an expansion on a big board), the guard looks at the clock at
// every Tick, so it stops at the first Tick past the deadline, not up to
// checkEvery Ticks later.
func TestGuardLooksOftenAtSlowTicks(t *testing.T) {
	start := time.Now() // the test's own clock, not the guard's
	g := NewGuard(context.Background(), Options{Budget: Budget{Time: 30 * time.Millisecond}})
	var stats Stats
	late := 0
	for {
		st, stop := g.Tick(&stats)
		if stop {
			if st != TimeLimit {
				t.Fatalf("stopped with %v", st)
			}
			break
		}
		if time.Since(start) > 30*time.Millisecond {
			late++
		}
		time.Sleep(5 * time.Millisecond)
	}
	if late > 1 {
		t.Errorf("%d Ticks went on past the deadline", late)
	}
}

// TestGuardLooksAfterMuchWork: Ticks that come quickly but each after
// hundreds of generated states (one expansion of a state with many boxes)
// look at the context every time.
func TestGuardLooksAfterMuchWork(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	g := NewGuard(ctx, Options{})
	var stats Stats
	for range 100 {
		if _, stop := g.Tick(&stats); stop {
			t.Fatal("stopped before the cancellation")
		}
		stats.Generated += checkGenerated
	}
	cancel()
	if st, stop := g.Tick(&stats); !stop || st != Cancelled {
		t.Errorf("the Tick after the cancellation: %v, %v", st, stop)
	}
	// Quick Ticks with little work look only every checkEvery Ticks.
	g = NewGuard(context.Background(), Options{})
	for range 100 {
		g.Tick(&stats)
	}
	if g.every != checkEvery {
		t.Errorf("quick Ticks: the guard looks every %d, want %d", g.every, checkEvery)
	}
}

// TestGuardKeepsHeadroom: a search's tables get seven eighths of
// Budget.Memory; the guard stops it with MemoryLimit once they hold more,
// and 0 means no limit.
func TestGuardKeepsHeadroom(t *testing.T) {
	cases := []struct {
		memory, bytes int64
		stop          bool
	}{
		{800, 700, false},
		{800, 701, true},
		{64 << 20, 56 << 20, false},
		{64 << 20, 56<<20 + 1, true},
		{0, 1 << 40, false},
	}
	for _, c := range cases {
		g := NewGuard(context.Background(), Options{Budget: Budget{Memory: c.memory}})
		st, stop := g.Tick(&Stats{Bytes: c.bytes})
		if stop != c.stop || (stop && st != MemoryLimit) {
			t.Errorf("memory %d, tables %d: %v %v, want stop %v", c.memory, c.bytes, st, stop, c.stop)
		}
	}
}
