package main

import (
	"errors"
	"flag"
	"math"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestBelowOneUnitRefused replays --memory 0.5B, --memory 0.0001KiB and
// --time 0.1ns, which rounded to 0 and so ran with no limit (bench
// recorded no memory_limit and a budget of {}), and serve's "--time 0 is
// refused" for a --time the user gave as 0.1ns: a value above 0 that is
// less than one unit is a usage error naming the flag and the smallest
// value it takes, on every command that reads it.
func TestBelowOneUnitRefused(t *testing.T) {
	const (
		size = "above 0 but below 1B, the smallest size it takes"
		dur  = "above 0 but below 1ns, the shortest duration it takes"
	)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"solve", "--algo", "astar", "--memory", "0.5B", "microban:2"}, `bad --memory "0.5B": ` + size},
		{[]string{"solve", "--algo", "astar", "--memory", "0.0001KiB", "microban:2"}, `bad --memory "0.0001KiB": ` + size},
		{[]string{"solve", "--algo", "astar", "--memory", "1e-400MiB", "microban:2"}, `bad --memory "1e-400MiB": ` + size},
		{[]string{"solve", "--algo", "astar", "--time", "0.1ns", "microban:2"}, `bad --time "0.1ns": ` + dur},
		{[]string{"bench", "microban:2", "--algo", "astar", "--time", "0.1ns"}, `bad --time "0.1ns": ` + dur},
		{[]string{"bench", "microban:2", "--algo", "astar", "--memory", "0.5B"}, `bad --memory "0.5B": ` + size},
		{[]string{"optimize", "--time", "0.9ns", "microban:2"}, `bad --time "0.9ns": ` + dur},
		{[]string{"serve", "--addr", "127.0.0.1:0", "--time", "0.1ns"}, `bad --time "0.1ns": ` + dur},
		{[]string{"serve", "--addr", "127.0.0.1:0", "--idle", "0.5ns"}, `bad --idle "0.5ns": ` + dur},
		{[]string{"serve", "--addr", "127.0.0.1:0", "--max-body", "0.1B"}, `bad --max-body "0.1B": ` + size},
	} {
		if msg := usage(t, "", c.args...); !strings.Contains(msg, c.want) {
			t.Errorf("%q: %q, want %q", c.args, msg, c.want)
		}
	}
	// 0 written any way is still 0, no limit; a fraction of a unit above
	// one is dropped.
	for in, want := range map[string]time.Duration{"0": 0, "0s": 0, "0.0ms": 0, "1.5ns": 1, "1.5s": 1500 * time.Millisecond} {
		if got, err := parseDuration(in); err != nil || got != want {
			t.Errorf("parseDuration(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for in, want := range map[string]int64{"0": 0, "0B": 0, "0.0KiB": 0, "1.5B": 1, "0.001KiB": 1} {
		if got, err := parseBytes(in); err != nil || got != want {
			t.Errorf("parseBytes(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
}

// TestNumberSyntax replays --memory 1e3 taken while -j 1e3 was refused:
// every number of every flag is written as a --param value is
// (solver.IsDecimal: digits with an optional point and exponent, no sign
// where none is taken, no 1_0, 0x10, +5, NaN or Inf), a whole-number flag
// taking any such number whose value is whole, read exactly (generate
// --size and optimize --radii took +10 through strconv.Atoi).
func TestNumberSyntax(t *testing.T) {
	for in, want := range map[string]int64{
		"0": 0, "1000": 1000, "1e3": 1000, "1E3": 1000, "10.0e2": 1000, "1000.": 1000, "0.5e1": 5,
		"100e-2": 1, "-2": -2, "-2e1": -20, "0e999999999999": 0, "007": 7,
		"9223372036854775807": math.MaxInt64, "-9223372036854775808": math.MinInt64, "9.223372036854775807e18": math.MaxInt64,
		"1e18": 1e18,
	} {
		if got, err := parseWhole(in); err != nil || got != want {
			t.Errorf("parseWhole(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for in, why := range map[string]string{
		"1.5": "not whole", "1e-1": "not whole", "1e-999999999999": "not whole", "1e19": "out of range",
		"9223372036854775808": "out of range", "1e999999999999": "out of range",
		"1_0": "not a decimal", "0x10": "not a decimal", "+5": "not a decimal", "NaN": "not a decimal", "Inf": "not a decimal", "": "not a decimal", "1e": "not a decimal",
	} {
		if got, err := parseWhole(in); err == nil || !strings.Contains(err.Error(), why) {
			t.Errorf("parseWhole(%q) = %d, %v; want %q", in, got, err, why)
		}
	}
	for in, want := range map[string]int64{"1e3": 1000, "1.5e3KiB": 1536000, "1E3B": 1000, ".5KiB": 512} {
		if got, err := parseBytes(in); err != nil || got != want {
			t.Errorf("parseBytes(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"nan", "NaN", "inf", "+1G", "-0", "-1e3", "0x10", "1_0MiB", "1e400"} {
		if got, err := parseBytes(in); err == nil {
			t.Errorf("parseBytes(%q) = %d, accepted", in, got)
		}
	}
	for _, in := range []string{"+5s", "-0s", "1e3s", "5"} {
		if got, err := parseDuration(in); err == nil {
			t.Errorf("parseDuration(%q) = %v, accepted", in, got)
		}
	}
	// The same syntax on the flags of every kind: soko's own value types
	// and the flag package's, which read 1e3 through checkFlagTypes.
	for _, args := range [][]string{
		{"solve", "-j", "1e3"}, {"solve", "--nodes", "1e3"}, {"solve", "--iterations", "2.5e2"},
		{"solve", "--seed", "1e2"}, {"solve", "--memory", "1e9"},
		{"generate", "--count", "1e1"}, {"generate", "--seed", "1e2"}, {"generate", "--size", "1e1x1.2e1"},
		{"play", "--speed", "1e1"}, {"optimize", "--radii", "2e1,1e1"},
	} {
		fs := commandFlags(t, args[0])
		if _, err := parseArgs(fs, args[1:]); err != nil {
			t.Errorf("%q: %v", args, err)
		}
	}
	if seeds, err := parseSeeds("1e1-1.2e1"); err != nil || len(seeds) != 3 || seeds[0] != 10 {
		t.Errorf("bench --seeds 1e1-1.2e1: %v, %v; want 10 to 12", seeds, err)
	}
	if n, err := parseCount("1e3"); err != nil || n != 1000 {
		t.Errorf("bench --nodes 1e3: %d, %v", n, err)
	}
	// A -j or --threads beyond any whole number is more than any machine
	// has, capped as a large one is.
	var workers int
	if err := (workersValue{&workers}).Set("1e19"); err != nil || workers != math.MaxInt {
		t.Errorf("-j 1e19: %d, %v; want the largest int", workers, err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"solve", "-j", "1.5"}, `bad -j "1.5": want a whole number, at least 1`},
		{[]string{"solve", "--nodes", "1e-400"}, `bad --nodes "1e-400": want a whole number, at least 0`},
		{[]string{"solve", "--nodes", "1e19"}, `bad --nodes "1e19": too large: want a whole number from 0 to 9223372036854775807`},
		{[]string{"solve", "--nodes", "-1e19"}, `bad --nodes "-1e19": want a whole number, at least 0`},
		{[]string{"solve", "-j", "-1e19"}, `bad -j "-1e19": want a whole number, at least 1`},
		{[]string{"solve", "--out", ""}, `bad --out "": empty: give a value, or leave the flag out`},
		{[]string{"bench", "--sok", " "}, `bad --sok " ": empty: give a value, or leave the flag out`},
		{[]string{"bench", "--algo", ""}, `bad --algo "": empty: give a value, or leave the flag out`},
		{[]string{"bench", "--algo", "astar,,bfs"}, `bad --algo "astar,,bfs": an empty item in the list`},
		{[]string{"bench", "--time", "1s,"}, `bad --time "1s,": an empty item in the list`},
		{[]string{"generate", "--count", "1.5"}, `bad --count "1.5": not whole; want a whole number in decimal`},
		{[]string{"generate", "--count", "0x10"}, `bad --count "0x10": want a whole number in decimal, such as 200 or 1e3`},
		{[]string{"generate", "--seed", "-1e2"}, `bad --seed "-1e2": want a whole number from 0`},
		{[]string{"solve", "--seed", "-1"}, `bad --seed "-1": want a seed: a whole number such as 7`},
		{[]string{"solve", "--seed", "1-3"}, `bad --seed "1-3": soko solve runs one seed per level`},
		{[]string{"play", "--speed", "1e-400"}, `bad --speed "1e-400": too small to tell from 0; want a decimal number`},
		{[]string{"generate", "--size", "+10x10"}, `bad --size "+10x10": want WIDTHxHEIGHT`},
		{[]string{"generate", "--size", "10x1_0"}, `bad --size "10x1_0": want WIDTHxHEIGHT`},
		{[]string{"optimize", "--radii", "+20"}, `bad --radii "+20": want squares from 1`},
		{[]string{"play", "--speed", "Inf"}, `bad --speed "Inf": want a decimal number such as 8, 0.5 or 1e3`},
	} {
		fs := commandFlags(t, c.args[0])
		_, err := parseArgs(fs, c.args[1:])
		var u usageError
		if !errors.As(err, &u) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want a usage error %q", c.args, err, c.want)
		}
	}
}

// commandFlags is the flag set of the command name.
func commandFlags(t *testing.T, name string) *flag.FlagSet {
	t.Helper()
	c := lookupCommand(name)
	if c == nil || c.flags == nil {
		t.Fatalf("no flags of %s", name)
	}
	return c.flags()
}

// bench's default time is for the runs without a node or iteration limit:
// --nodes 0 (none) keeps it, --nodes 1000 has none.
func TestBenchDefaultTime(t *testing.T) {
	for _, c := range []struct {
		nodes listValue
		want  []time.Duration
	}{{nil, []time.Duration{10 * time.Second}}, {listValue{"0"}, []time.Duration{10 * time.Second}}, {listValue{"0", "1000"}, []time.Duration{10 * time.Second, 0}}} {
		budgets, err := parseBudgets(&benchConfig{nodes: c.nodes})
		if err != nil {
			t.Fatal(err)
		}
		var got []time.Duration
		for _, b := range budgets {
			got = append(got, b.Time)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("--nodes %v: times %v, want %v", c.nodes, got, c.want)
		}
	}
}
