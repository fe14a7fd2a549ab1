package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// soko solve --json reports qstar's counters, among them how often it took
// its A* action, and the text output prints them.
func TestSolveQStarCounts(t *testing.T) {
	out, _, err := soko(t, "", "solve", "--algo", "qstar", "--iterations", "100", "--json", "microban:1")
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Status string           `json:"status"`
		Counts map[string]int64 `json:"counts"`
	}
	if err := json.Unmarshal([]byte(finalRecords(out)), &r); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if r.Status != "solved" || r.Counts["astar_actions"] < 1 || r.Counts["episodes"] < 1 {
		t.Fatalf("status %s, counts %v", r.Status, r.Counts)
	}
	text, _, err := soko(t, "", "solve", "-v", "--algo", "qstar", "--iterations", "100", "microban:1")
	if err != nil || !strings.Contains(text, "astar actions ") {
		t.Fatalf("%v: the text output lacks the counters:\n%s", err, text)
	}
}
