package main

import (
	"flag"
	"time"

	"soko/solve"
)

// optimizeTimeFlag defines --optimize-time, the optimizer's own time per
// solution after the search (solve.Policy.Time), for soko solve and soko
// bench.
func optimizeTimeFlag(fs *flag.FlagSet, p *solve.Policy) {
	fs.Var(optimizeTimeValue{&p.Time}, "optimize-time", "the optimizer's time `D` per solution, after the search: auto (0.25s to 2s, more for longer solutions and longer searches; 4s for a wandering one), none or 0 (no limit), or a duration such as 5s")
}

// optimizeTimeValue is --optimize-time, read by solve.ParseTime.
type optimizeTimeValue struct{ t *time.Duration }

func (v optimizeTimeValue) String() string {
	if v.t == nil {
		return ""
	}
	return solve.FormatTime(*v.t)
}

func (v optimizeTimeValue) Set(s string) error {
	t, err := solve.ParseTime(s)
	if err != nil {
		return err
	}
	*v.t = t
	return nil
}
