package report

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
	"time"

	"soko/bench"
)

// TestMemberTable: the members' solved levels, their part of the time of
// the unsolved runs only, and their expansions per second of own time;
// no table when no run counts its members' time.
func TestMemberTable(t *testing.T) {
	b := bench.Budget{Time: 10 * time.Second}
	recs := []bench.Record{
		{Solver: "fess", Level: "microban:1", Budget: b, Seed: 1, Status: "solved", Verified: true, Pushes: 3, Strategy: "plan",
			Counts: map[string]int64{"plan.own_ms": 500, "plan.expanded": 1000, "sink.own_ms": 500, "sink.expanded": 100}},
		{Solver: "fess", Level: "microban:2", Budget: b, Seed: 1, Status: "time limit",
			Counts: map[string]int64{"plan.own_ms": 7500, "plan.expanded": 14000, "sink.own_ms": 2500, "sink.expanded": 2400}},
		{Solver: "fess", Level: "microban:3", Budget: b, Seed: 1, Status: "solved", Verified: true, Pushes: 5, Strategy: "sink",
			Counts: map[string]int64{"plan.own_ms": 1000, "plan.expanded": 1000, "sink.own_ms": 1000, "sink.expanded": 500}},
	}
	for i := range recs {
		recs[i].Key = recs[i].Level
	}
	got := newDataset(recs).memberTable()
	if got == nil {
		t.Fatal("no member table")
	}
	want := [][]string{
		{"fess", "t=10s", "plan", "1", "75.0 %", "1777"},
		{"fess", "t=10s", "sink", "1", "25.0 %", "750"},
	}
	if !reflect.DeepEqual(got.rows, want) {
		t.Errorf("rows %v, want %v", got.rows, want)
	}
	var md bytes.Buffer
	if err := Write(&md, recs, Options{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "| fess | t=10s | sink | 1 | 25.0 % | 750 |") {
		t.Errorf("the report has no member rows:\n%s", md.String())
	}
	for i := range recs {
		recs[i].Counts = map[string]int64{"plan.expanded": 10}
	}
	if tb := newDataset(recs).memberTable(); tb != nil {
		t.Errorf("a member table without own times: %v", tb.rows)
	}
}
