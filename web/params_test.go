package web

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestSolveRefusesBadParams: a parameter value its solver does not accept
// is a 400 with the parameter, the value and the range in {"error": …},
// and no job starts.
func TestSolveRefusesBadParams(t *testing.T) {
	s, ts := testServer(t, Config{MaxJobs: 1, MaxQueue: 1, MaxTime: 2 * time.Second})
	for _, tt := range []struct{ body, want string }{
		{`{"collection":"microban","n":1,"solver":"mcts-r","time_s":1,"params":{"depth":"100000000"}}`,
			`mcts-r: parameter depth="100000000": out of range; want an integer from 0 to 10000`},
		{`{"collection":"microban","n":1,"solver":"mcts-r","params":{"c":"NaN"}}`, `parameter c="NaN": not a decimal number`},
		{`{"collection":"microban","n":1,"solver":"wastar","params":{"w":"abc"}}`, `parameter w="abc": not a decimal number`},
		{`{"collection":"microban","n":1,"solver":"dfs","params":{"depth":"1.5"}}`, `not an integer`},
		{`{"collection":"microban","n":1,"solver":"vanillaban","params":{"cycles":"-1"}}`, `want 0 or 1`},
	} {
		resp, body := post(t, ts.URL+"/api/solve", tt.body)
		var e apiError
		if err := json.Unmarshal(body, &e); err != nil || resp.StatusCode != 400 || !strings.Contains(e.Msg, tt.want) {
			t.Errorf("%s: %d %s; want 400 with %q", tt.body, resp.StatusCode, body, tt.want)
		}
	}
	if running, waiting := s.jobs.load(); running+waiting != 0 {
		t.Errorf("%d jobs running and %d waiting after refused requests", running, waiting)
	}
}

// TestSolversListParams: /api/solvers gives every parameter with its kind,
// default and range.
func TestSolversListParams(t *testing.T) {
	_, ts := testServer(t, Config{})
	resp, err := ts.Client().Get(ts.URL + "/api/solvers")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var ss []struct {
		Name   string
		Params []string
		Specs  []struct {
			Name, Kind, Default string
			Min, Max            *float64
			Values              []string
		} `json:"param_specs"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&ss); err != nil {
		t.Fatal(err)
	}
	for _, s := range ss {
		if s.Name != "mcts-r" {
			continue
		}
		if len(s.Specs) != 3 || strings.Join(s.Params, " ") != "c=1 depth=50 eliminate=1" {
			t.Fatalf("mcts-r: %+v", s)
		}
		d := s.Specs[1]
		if d.Name != "depth" || d.Kind != "int" || d.Default != "50" || d.Min == nil || *d.Min != 0 || d.Max == nil || *d.Max != 10000 {
			t.Fatalf("mcts-r depth: %+v", d)
		}
		return
	}
	t.Fatal("no mcts-r in /api/solvers")
}
