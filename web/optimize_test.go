package web

import (
	"encoding/json"
	"net/http"
	"testing"

	"soko/internal/testlevel"
	"soko/verify"
)

// POST /api/solve optimizes the solver's solution within the job's time:
// greedy's 15 pushes and 59 moves on Microban 3 come back as 13 and 41,
// verified, with found_pushes and found_moves; "optimize": "off" gives
// greedy's own, and a bad value is refused.
func TestSolveOptimizes(t *testing.T) {
	_, ts := testServer(t, Config{})
	l := testlevel.Resolve(t, "microban:3")[0]
	for _, c := range []struct {
		body                   string
		pushes, moves, fpushes int
	}{
		{`{"collection":"microban","n":3,"solver":"greedy","time_s":10}`, 13, 41, 15},
		{`{"collection":"microban","n":3,"solver":"greedy","time_s":10,"optimize":"on","metric":"moves"}`, 13, 41, 15},
		{`{"collection":"microban","n":3,"solver":"greedy","time_s":10,"optimize":"off"}`, 15, 59, 0},
	} {
		id := startJob(t, ts.URL, c.body)
		resp, err := http.Get(ts.URL + "/api/jobs/" + id + "/events")
		if err != nil {
			t.Fatal(err)
		}
		evs := readEvents(resp.Body, nil)
		resp.Body.Close()
		var res resultJSON
		if len(evs) == 0 || evs[len(evs)-1].name != "result" || json.Unmarshal([]byte(evs[len(evs)-1].data), &res) != nil {
			t.Fatalf("%s: events %+v", c.body, evs)
		}
		rep, _ := verify.Check(l, res.Solution)
		if res.Status != "solved" || !rep.Solved || rep.Pushes != c.pushes || rep.Moves != c.moves || res.Pushes != c.pushes || res.Moves != c.moves || res.FoundPushes != c.fpushes {
			t.Errorf("%s: %+v", c.body, res)
		}
		if c.fpushes > 0 && (res.FoundMoves != 59 || res.OptimizeMS <= 0) {
			t.Errorf("%s: found %d moves, optimizer %v ms", c.body, res.FoundMoves, res.OptimizeMS)
		}
	}
	for _, body := range []string{
		`{"collection":"microban","n":3,"optimize":"maybe"}`,
		`{"collection":"microban","n":3,"metric":"boxes"}`,
	} {
		if resp, b := post(t, ts.URL+"/api/solve", body); resp.StatusCode != http.StatusBadRequest {
			t.Errorf("%s: %d %s", body, resp.StatusCode, b)
		}
	}
}
