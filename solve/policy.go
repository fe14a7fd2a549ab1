package solve

import (
	"fmt"
	"strings"
	"time"

	"soko/optimize"
	"soko/solver"
)

// NoLimit as Policy.Time lets the optimizer run its passes to their end
// (or to the context's end: Ctrl-C).
const NoLimit time.Duration = -1

// UnlimitedTime is how long A* may search a wandering solution again when
// the optimizer has no time limit.
const UnlimitedTime = 10 * time.Second

// WanderRatio is how many times the start's lower bound a solution's pushes
// must be for Run to search the level again with A* before optimizing.
const WanderRatio = 3

// Policy says whether and how Run shortens a solution.
type Policy struct {
	Off    bool            // return the solver's solution as it is
	Metric optimize.Metric // what to shorten first
	// Time is the optimizer's time for one solution, A*'s search again
	// included: 0 for AutoTime, the measured default; NoLimit for none.
	Time   time.Duration
	Events Events // who hears the answer as it grows
}

// ParsePolicy reads the policy as soko bench's solver specs write it
// (optimize=VALUE): "off", or a metric ("pushes", the default, or "moves";
// "on" is pushes), followed by "@" and the optimizer's time when it is
// not the default (ParseTime): "pushes@2s", "moves@none".
func ParsePolicy(s string) (Policy, error) {
	metric, t, timed := strings.Cut(s, "@")
	var p Policy
	switch metric {
	case "off":
		if timed {
			return Policy{}, fmt.Errorf("optimize=%s: off takes no time", s)
		}
		return Policy{Off: true}, nil
	case "on", "":
		if timed && metric == "" {
			return Policy{}, fmt.Errorf("optimize=%s: want on, off, pushes or moves before @", s)
		}
	default:
		m, err := optimize.ParseMetric(metric)
		if err != nil {
			return Policy{}, fmt.Errorf("optimize=%s: want on, off, pushes or moves", s)
		}
		p.Metric = m
	}
	if timed {
		d, err := ParseTime(t)
		if err != nil {
			return Policy{}, fmt.Errorf("optimize=%s: %v", s, err)
		}
		p.Time = d
	}
	return p, nil
}

// ParseTime reads the optimizer's time as --optimize-time takes it:
// "auto" (0: AutoTime), "none" or "0" (NoLimit), or a duration such as
// 500ms or 2s.
func ParseTime(s string) (time.Duration, error) {
	switch s {
	case "auto":
		return 0, nil
	case "none", "0":
		return NoLimit, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("optimizer time %q: want auto, none (or 0) or a duration such as 500ms or 2s", s)
	}
	return d, nil
}

// FormatTime writes t as ParseTime reads it.
func FormatTime(t time.Duration) string {
	switch {
	case t == 0:
		return "auto"
	case t < 0:
		return "none"
	}
	return t.String()
}

// String is the policy as ParsePolicy reads it: "off", "pushes" or
// "moves", with "@" and the time when it is not AutoTime.
func (p Policy) String() string {
	var s string
	switch {
	case p.Off:
		return "off"
	case p.Metric == optimize.Moves:
		s = "moves"
	default:
		s = "pushes"
	}
	if p.Time != 0 {
		s += "@" + FormatTime(p.Time)
	}
	return s
}

// SearchBudget is the budget the search gets out of the level's budget b:
// all of it. The optimizer's time is its own (OptimizeTime).
func (p Policy) SearchBudget(b solver.Budget) solver.Budget { return b }

// OptimizeTime is the optimizer's time, A*'s search again included, for
// the solution found by a search that took search, wandering or not
// (WanderRatio); 0 means no limit.
func (p Policy) OptimizeTime(found optimize.Score, search time.Duration, wanders bool) time.Duration {
	switch {
	case p.Time < 0:
		return 0
	case p.Time > 0:
		return p.Time
	}
	return AutoTime(found, search, wanders)
}

// The bounds of AutoTime.
const (
	AutoFloor   = 250 * time.Millisecond // the least: a solution found at once
	AutoCap     = 2 * time.Second        // the most: after a long search
	AutoPerPush = time.Millisecond       // more per push of the solution found
	AutoWander  = 4 * time.Second        // a wandering solution's, A* again included
)

// AutoTime is the optimizer's time by default: AutoPerPush for each push
// of the solution found, or as long as the search took when that is more,
// between AutoFloor and AutoCap; AutoWander for a solution that wanders,
// far from the optimum, where A* and the optimizer find the most. Measured
// (docs/optimize.md, "The optimizer's time"): the median answer on
// XSokoban comes in under a second while the totals stay below YASS's.
func AutoTime(found optimize.Score, search time.Duration, wanders bool) time.Duration {
	if wanders {
		return AutoWander
	}
	t := max(time.Duration(found.Pushes)*AutoPerPush, search)
	return min(max(t, AutoFloor), AutoCap)
}

// ResolveTime is the time A* gets to search a wandering solution again
// out of the optimizer's time t (0: no limit): half of it, UnlimitedTime
// when there is no limit.
func ResolveTime(t time.Duration) time.Duration {
	if t <= 0 {
		return UnlimitedTime
	}
	return t / 2
}
