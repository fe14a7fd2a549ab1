package bench

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestRecordJSON(t *testing.T) {
	r := Record{Key: "a key", Solver: "astar", Level: "microban:1", Status: "solved", Budget: Budget{Time: 1500 * time.Millisecond, Nodes: 7}}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"budget":{"time_s":1.5,"nodes":7}`) {
		t.Fatalf("budget on disk: %s", b)
	}
	var back Record
	if err := json.Unmarshal(b, &back); err != nil || back.Budget != r.Budget || back.Key != r.Key {
		t.Fatalf("round trip: %+v %v", back.Budget, err)
	}
}
