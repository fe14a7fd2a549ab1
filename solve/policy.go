package solve

import (
	"fmt"
	"time"

	"soko/optimize"
	"soko/solver"
)

// MinTime is the least time the optimizer has within a time limit (unless
// a quarter of the limit is less): the part of the limit the search does
// not get.
const MinTime = 100 * time.Millisecond

// UnlimitedTime is the optimizer's time when the level has no time limit.
const UnlimitedTime = 10 * time.Second

// WanderRatio is how many times the start's lower bound a solution's pushes
// must be for Run to search the level again with A* before optimizing.
const WanderRatio = 3

// Policy says whether and how Run shortens a solution.
type Policy struct {
	Off    bool            // return the solver's solution as it is
	Metric optimize.Metric // what to shorten first
	Events Events          // who hears the answer as it grows
}

// ParsePolicy reads the policy as soko bench's solver specs write it
// (optimize=VALUE): "off", or a metric ("pushes", the default, or "moves";
// "on" is pushes).
func ParsePolicy(s string) (Policy, error) {
	switch s {
	case "off":
		return Policy{Off: true}, nil
	case "on", "":
		return Policy{}, nil
	}
	m, err := optimize.ParseMetric(s)
	if err != nil {
		return Policy{}, fmt.Errorf("optimize=%s: want on, off, pushes or moves", s)
	}
	return Policy{Metric: m}, nil
}

// String is the policy as ParsePolicy reads it: "off", "pushes" or "moves".
func (p Policy) String() string {
	switch {
	case p.Off:
		return "off"
	case p.Metric == optimize.Moves:
		return "moves"
	}
	return "pushes"
}

// reserve is the part of a time limit kept from the search.
func reserve(limit time.Duration) time.Duration { return min(MinTime, limit/4) }

// SearchBudget is the budget the search gets out of the level's budget b.
func (p Policy) SearchBudget(b solver.Budget) solver.Budget {
	if !p.Off && b.Time > 0 {
		b.Time -= reserve(b.Time)
	}
	return b
}

// Time is the optimizer's time after a search that took elapsed of the
// level's time limit (0: none).
func (p Policy) Time(limit, elapsed time.Duration) time.Duration {
	if limit <= 0 {
		return UnlimitedTime
	}
	return min(limit/2, max(limit-elapsed, reserve(limit)))
}

// ResolveTime is the time A* gets to search again for a wandering
// solution after a search that took elapsed of the level's time limit (0:
// none): what is left of the limit after a quarter of it (or all that is
// left, when less) kept for the optimizer, at most a quarter; 0 when that
// is less than MinTime. The optimizer then gets its Time after both.
func (p Policy) ResolveTime(limit, elapsed time.Duration) time.Duration {
	if limit <= 0 {
		return UnlimitedTime
	}
	kept := min(limit/4, max(limit-elapsed, reserve(limit))) // for the optimizer
	t := min(limit/4, limit-elapsed-kept)
	if t < MinTime {
		return 0
	}
	return t
}
