package web

import (
	"testing"
	"time"
)

// TestConfigDefaults: a limit left zero (or negative) takes its default,
// one given stays, the queue may be zero, and the connections per client
// are at most the connections in all.
func TestConfigDefaults(t *testing.T) {
	d := DefaultConfig()
	c := Config{MaxQueue: -3, MaxTime: 5 * time.Second, MaxConns: 10, MaxMemory: -1}.withDefaults()
	switch {
	case c.MaxQueue != 0:
		t.Errorf("MaxQueue %d, want 0", c.MaxQueue)
	case c.MaxTime != 5*time.Second:
		t.Errorf("MaxTime %v, want the 5s given", c.MaxTime)
	case c.MaxConns != 10 || c.MaxConnsPerIP != 10:
		t.Errorf("MaxConns %d, MaxConnsPerIP %d; want 10 and 10", c.MaxConns, c.MaxConnsPerIP)
	case c.MaxMemory != d.MaxMemory || c.MaxBody != d.MaxBody || c.MaxJobs != d.MaxJobs || c.IdleCancel != d.IdleCancel ||
		c.Retain != d.Retain || c.PlanTime != d.PlanTime || c.MaxSetup != d.MaxSetup:
		t.Errorf("defaults not taken: %+v, want those of %+v", c, d)
	}
	if got := (Config{}).withDefaults(); got.MaxConnsPerIP != d.MaxConnsPerIP || got.MaxConns != d.MaxConns {
		t.Errorf("zero config: %d connections, %d per client; want %d and %d", got.MaxConns, got.MaxConnsPerIP, d.MaxConns, d.MaxConnsPerIP)
	}
}
