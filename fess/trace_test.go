package fess

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"soko/internal/testlevel"
	"soko/level"
	"soko/solver"
)

// traced runs the default portfolio on l within nodes expansions, with
// a trace when trace is set, and returns the result and the records.
func traced(t *testing.T, l *level.Level, nodes int64, params map[string]string, trace bool) (solver.Result, []map[string]any) {
	t.Helper()
	var buf bytes.Buffer
	opts := solver.Options{Budget: solver.Budget{Nodes: nodes}, Params: params}
	if trace {
		opts.Trace = solver.NewTrace(&buf).Level("l")
	}
	res, err := solver.Run(context.Background(), FESS{}, l, opts)
	if err != nil {
		t.Fatal(err)
	}
	var recs []map[string]any
	dec := json.NewDecoder(&buf)
	for dec.More() {
		var m map[string]any
		if err := dec.Decode(&m); err != nil {
			t.Fatal(err)
		}
		recs = append(recs, m)
	}
	return res, recs
}

// TestTraceRecords: on a level the portfolio leaves unsolved, every FESS
// strategy traces start, root, its best cells, at least one snapshot and
// its end, in that order; the end's counters are the member's, its best
// cell is the last best record's, with the board that reached it, the
// path to it from the root and its time (to the millisecond: each reads
// the clock), and
// the cells it lists hold at most the expansions there were.
func TestTraceRecords(t *testing.T) {
	for _, rounds := range []string{"1", "0"} {
		t.Run("rounds="+rounds, func(t *testing.T) { traceRecords(t, rounds) })
	}
}

// traceRecords is TestTraceRecords with rounds on or off: in rounds each
// strategy's records end with its last slice and its end, whose counters
// are the slice's; one after another with its end and its member record.
func traceRecords(t *testing.T, rounds string) {
	l := testlevel.Resolve(t, "xsokoban90:29")[0]
	res, recs := traced(t, l, 3000, map[string]string{"rounds": rounds}, true)
	if res.Status == solver.Solved {
		t.Fatal("xsokoban90:29 solved; the test wants a level the budget leaves unsolved")
	}
	last := "member"
	if rounds == "1" {
		last = "slice"
	}
	byStrategy := map[string][]map[string]any{}
	for _, r := range recs {
		s, _ := r["strategy"].(string)
		byStrategy[s] = append(byStrategy[s], r)
	}
	for _, s := range []string{"dive", "plan", "imagine", "park"} {
		rs := byStrategy[s]
		var events []string
		for _, r := range rs {
			if e := r["event"].(string); len(events) == 0 || events[len(events)-1] != e {
				events = append(events, e)
			}
		}
		if rounds == "1" { // the slices out, the last after the end
			var lastSlice map[string]any
			rs = slices.DeleteFunc(slices.Clone(rs), func(r map[string]any) bool {
				if r["event"] == "slice" {
					lastSlice = r
				}
				return r["event"] == "slice"
			})
			rs = append(rs, lastSlice)
			events = append(slices.DeleteFunc(events, func(e string) bool { return e == "slice" }), "slice")
			events = slices.Compact(events)
		}
		if len(events) < 6 || events[0] != "start" || events[1] != "root" || events[2] != "best" ||
			events[len(events)-2] != "end" || events[len(events)-1] != last || !strings.Contains(strings.Join(events, " "), "snapshot") {
			t.Errorf("%s: events %v, want start, root, best, snapshots among bests, end, %s", s, events, last)
			continue
		}
		end, member := rs[len(rs)-2], rs[len(rs)-1]
		if end["status"] != "node limit" || end["expanded"] != member["expanded"] || rounds == "0" && end["stored"] != member["stored"] {
			t.Errorf("%s: end %v, %s %v: want node limit with its counters", s, end, last, member)
		}
		var lastBest map[string]any
		for _, r := range rs {
			if r["event"] == "best" {
				lastBest = r
			}
		}
		node := lastBest["node"].(map[string]any)
		if !reflect.DeepEqual(end["best"], node["features"]) || math.Abs(end["best_at_s"].(float64)-lastBest["t_s"].(float64)) > 0.001 ||
			end["best_expanded"] != lastBest["expanded"] || !reflect.DeepEqual(end["best_board"], node["board"]) {
			t.Errorf("%s: end's best %v at %v (expanded %v), want the last best record's %v at %v (%v)",
				s, end["best"], end["best_at_s"], end["best_expanded"], node["features"], lastBest["t_s"], lastBest["expanded"])
		}
		if rows := end["best_board"].([]any); len(rows) != l.Height {
			t.Errorf("%s: best board of %d rows, want %d", s, len(rows), l.Height)
		}
		path := end["best_path"].([]any)
		if len(path) != int(node["depth"].(float64))+1 || !reflect.DeepEqual(path[len(path)-1], end["best_board"]) {
			t.Errorf("%s: a best path of %d boards to a node at depth %v, ending %v", s, len(path), node["depth"], path[len(path)-1])
		}
		if root := rs[2]["node"].(map[string]any); !reflect.DeepEqual(path[0], root["board"]) {
			t.Errorf("%s: the best path starts at %v, not at the root %v", s, path[0], root["board"])
		}
		sum := 0.0
		for _, c := range end["top_cells"].([]any) {
			sum += c.(map[string]any)["expanded"].(float64)
		}
		if sum == 0 || sum > end["expanded"].(float64) {
			t.Errorf("%s: the top cells hold %v expansions of %v", s, sum, end["expanded"])
		}
	}
	if len(byStrategy["greedy"]) != 1 || byStrategy["greedy"][0]["event"] != "member" {
		t.Errorf("greedy, which writes no trace of its own, has %v, want only its member record", byStrategy["greedy"])
	}
}

// TestTraceSolved: a solved level's trace ends with status solved.
func TestTraceSolved(t *testing.T) {
	l := testlevel.Resolve(t, "microban:2")[0]
	res, recs := traced(t, l, 10_000, map[string]string{"strategies": "plan"}, true)
	if res.Status != solver.Solved {
		t.Fatalf("microban:2: %v", res.Status)
	}
	end := recs[len(recs)-2]
	if end["event"] != "end" || end["status"] != "solved" {
		t.Errorf("last fess record %v, want end solved", end)
	}
}

// TestTraceChangesNothing: the same runs with and without the trace
// expand, generate and store the same positions and end alike.
func TestTraceChangesNothing(t *testing.T) {
	for _, spec := range []string{"xsokoban90:29", "xsokoban90:3", "microban:40"} {
		l := testlevel.Resolve(t, spec)[0]
		off, _ := traced(t, l, 3000, nil, false)
		on, recs := traced(t, l, 3000, nil, true)
		if len(recs) == 0 {
			t.Fatalf("%s: no trace", spec)
		}
		off.Stats.Elapsed, on.Stats.Elapsed = 0, 0
		if off.Status != on.Status || !reflect.DeepEqual(off.Stats, on.Stats) || !reflect.DeepEqual(off.Moves, on.Moves) {
			t.Errorf("%s: off %v %+v, on %v %+v", spec, off.Status, off.Stats, on.Status, on.Stats)
		}
	}
}
