package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"soko/internal/testlevel"
	"soko/level"
	"soko/solver"
)

// TestHostileParams sets every parameter of every registered solver, one at
// a time, to hostile values and to the ends of its range. Each value must
// either be refused by solver.CheckParams with an error naming the
// parameter and the value, and then by the solver itself when a library
// caller skips the check, or run normally: no panic, no error, back within
// the time budget and its margin, and within the memory budget.
func TestHostileParams(t *testing.T) {
	l := testlevel.Resolve(t, "microban:1")[0]
	const (
		budget = 300 * time.Millisecond
		// The solvers run side by side, and beside other packages' tests:
		// on two loaded cores a run that stops on time can still be
		// scheduled out for longer than half a second.
		margin = 1500 * time.Millisecond
		memory = 16 << 20
	)
	hostile := []string{"NaN", "+Inf", "-Inf", "-1", "0", "1", "1e18", "abc", "1.5", ""}
	for _, e := range solver.Entries() {
		t.Run(e.Name, func(t *testing.T) {
			t.Parallel()
			for _, p := range e.Params {
				values := hostile
				if p.Kind == solver.Int || p.Kind == solver.Real {
					values = append(values[:len(values):len(values)], num(p.Min), num(p.Max))
				}
				for _, v := range values {
					params := map[string]string{p.Name: v}
					checked := solver.CheckParams(e, params)
					opts := solver.Options{Budget: solver.Budget{Time: budget, Memory: memory}, Seed: 1, Params: params}
					start := time.Now()
					res, err := runCaught(t, e, l, opts)
					elapsed := time.Since(start)
					what := fmt.Sprintf("%s %s=%q", e.Name, p.Name, v)
					switch {
					case checked != nil:
						if msg := checked.Error(); !strings.Contains(msg, p.Name+"=") || !strings.Contains(msg, strconv.Quote(v)) {
							t.Errorf("%s: the error does not name the parameter and value: %v", what, checked)
						}
						if err == nil {
							t.Errorf("%s: refused by CheckParams, but Solve ran it (%v)", what, res.Status)
						}
					case err != nil:
						t.Errorf("%s: accepted by CheckParams, but Solve failed: %v", what, err)
					case elapsed > budget+margin:
						t.Errorf("%s: returned after %v on a budget of %v", what, elapsed, budget)
					case res.Stats.Bytes > 2*memory:
						// A table that doubles can cross the budget by its own
						// size before the search sees it and stops.
						t.Errorf("%s: holds %d bytes on a budget of %d", what, res.Stats.Bytes, memory)
					}
				}
			}
		})
	}
}

func num(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// runCaught runs solver e, turning a panic into a test failure that names
// the parameters.
func runCaught(t *testing.T, e solver.Entry, l *level.Level, opts solver.Options) (res solver.Result, err error) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("%s with %v panicked: %v", e.Name, opts.Params, r)
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return solver.Run(t.Context(), e.New(), l, opts)
}

// TestBadParamsAreUsageErrors re-runs the commands of issue 11: every bad
// parameter value is a usage error (exit 2) naming the parameter, the value
// and its range, before anything runs.
func TestBadParamsAreUsageErrors(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"solve", "--algo", "mcts-r", "--param", "c=NaN", "microban:1"}, `mcts-r: parameter c="NaN": not a decimal number; want a number from 0 to 1000000`},
		{[]string{"solve", "--algo", "vanillaban", "--param", "c=NaN", "microban:1"}, `parameter c="NaN"`},
		{[]string{"solve", "--algo", "schokoban", "--param", "c=NaN", "microban:1"}, `parameter c="NaN"`},
		{[]string{"solve", "--algo", "mcts", "--param", "c=NaN", "microban:1"}, `parameter c="NaN"`},
		{[]string{"bench", "--algo", "mcts-r:c=NaN", "microban:1"}, `parameter c="NaN"`},
		{[]string{"bench", "--algo", "mcts-r,astar", "--param", "c=NaN", "microban:1"}, `parameter c="NaN"`},
		{[]string{"solve", "--algo", "mcts-r", "--param", "depth=100000000000", "--iterations", "10", "microban:1"}, `parameter depth="100000000000": out of range; want an integer from 0 to 10000`},
		{[]string{"solve", "--algo", "mcts-r", "--param", "depth=300000000", "--time", "1s", "microban:1"}, `want an integer from 0 to 10000`},
		{[]string{"solve", "--algo", "wastar", "--param", "w=abc", "microban:1"}, `wastar: parameter w="abc": not a decimal number`},
		{[]string{"solve", "--algo", "wastar", "--param", "w=-5", "microban:1"}, `parameter w="-5": out of range`},
		{[]string{"solve", "--algo", "wastar", "--param", "w=NaN", "microban:1"}, `parameter w="NaN": not a decimal number`},
		{[]string{"solve", "--algo", "dfs", "--param", "depth=1.5", "microban:1"}, `parameter depth="1.5": not an integer`},
		{[]string{"solve", "--algo", "dfs", "--param", "depth=-1", "microban:1"}, `parameter depth="-1": out of range`},
		{[]string{"solve", "--algo", "vanillaban", "--param", "cycles=-1", "microban:1"}, `parameter cycles="-1": want 0 or 1`},
		{[]string{"solve", "--algo", "astar", "--param", "w=2", "microban:1"}, `astar takes no parameter "w"`},
	} {
		_, _, err := soko(t, "", tt.args...)
		var u usageError
		if !errors.As(err, &u) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("soko %s: %v; want a usage error with %q", strings.Join(tt.args, " "), err, tt.want)
		}
	}
}
