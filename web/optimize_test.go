package web

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"soko/internal/testlevel"
	"soko/optimize"
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

// The event stream answers at once and then better: greedy's verified
// 15-push, 59-move solution of Microban 3 comes in a "found" event before
// the optimizer runs, each "improved" event is shorter than the one before
// it (in pushes, then moves), the last is the result's counts, and the
// result says which metric the optimizer shortened and how long the search
// took.
func TestSolveEventsAnytime(t *testing.T) {
	_, ts := testServer(t, Config{})
	l := testlevel.Resolve(t, "microban:3")[0]
	id := startJob(t, ts.URL, `{"collection":"microban","n":3,"solver":"greedy","time_s":10}`)
	resp, err := http.Get(ts.URL + "/api/jobs/" + id + "/events")
	if err != nil {
		t.Fatal(err)
	}
	evs := readEvents(resp.Body, nil)
	resp.Body.Close()
	var names []string
	var found *foundJSON
	var improved []improvedJSON
	var res resultJSON
	for _, ev := range evs {
		names = append(names, ev.name)
		switch ev.name {
		case "found":
			if found != nil || len(improved) > 0 {
				t.Fatalf("a second found, or found after improved: %v", names)
			}
			found = new(foundJSON)
			if err := json.Unmarshal([]byte(ev.data), found); err != nil {
				t.Fatal(err)
			}
		case "improved":
			if found == nil {
				t.Fatalf("improved before found: %v", names)
			}
			var im improvedJSON
			if err := json.Unmarshal([]byte(ev.data), &im); err != nil {
				t.Fatal(err)
			}
			prev := optimize.Score{Pushes: found.Pushes, Moves: found.Moves}
			if n := len(improved); n > 0 {
				prev = optimize.Score{Pushes: improved[n-1].Pushes, Moves: improved[n-1].Moves}
			}
			if !optimize.Pushes.Better(optimize.Score{Pushes: im.Pushes, Moves: im.Moves}, prev) {
				t.Errorf("improved %+v is not shorter than %+v", im, prev)
			}
			improved = append(improved, im)
		case "result":
			if err := json.Unmarshal([]byte(ev.data), &res); err != nil {
				t.Fatal(err)
			}
		}
	}
	if found == nil || names[len(names)-1] != "result" {
		t.Fatalf("events %v", names)
	}
	rep, _ := verify.Check(l, found.Solution)
	if !rep.Solved || rep.Pushes != 15 || rep.Moves != 59 || found.Pushes != 15 || found.Moves != 59 || !found.Optimizing || found.Metric != "pushes" || found.SolveMS <= 0 {
		t.Errorf("found %+v (replayed: %+v)", found, rep)
	}
	if len(improved) == 0 {
		t.Fatalf("no improved event: %v", names)
	}
	if last := improved[len(improved)-1]; last.Pushes != res.Pushes || last.Moves != res.Moves || res.Pushes != 13 || res.Moves != 41 {
		t.Errorf("last improvement %+v, result %d pushes, %d moves; want 13 and 41 both", last, res.Pushes, res.Moves)
	}
	if res.Optimizer != "pushes" || res.Stopped || res.SolveMS != found.SolveMS {
		t.Errorf("result: optimizer %q, stopped %v, solve_ms %v (found's %v)", res.Optimizer, res.Stopped, res.SolveMS, found.SolveMS)
	}
}

// A Stop once the solution is found cuts the optimizer short and keeps
// the solution: the job ends solved and stopped, with a verified solution
// no longer than the one found. XSokoban 1's 97 pushes keep the optimizer
// at work for all of its time (at least a quarter of a second), so the
// Stop comes while it runs.
func TestStopKeepsFoundSolution(t *testing.T) {
	s, ts := testServer(t, Config{})
	l := testlevel.Resolve(t, "xsokoban90:1")[0]
	id := startJob(t, ts.URL, `{"collection":"xsokoban90","n":1,"solver":"greedy","time_s":10}`)
	j := s.jobs.get(id)
	wake := j.subscribe()
	defer j.unsubscribe(wake)
	for j.snapshot().found == nil {
		<-wake
	}
	found := *j.snapshot().found
	j.stop()
	<-j.done
	res := j.snapshot().result
	rep, _ := verify.Check(l, res.Solution)
	if res.Status != "solved" || !res.Stopped || !rep.Solved || rep.Pushes > found.Pushes || rep.Moves != res.Moves || res.Pushes != rep.Pushes {
		t.Fatalf("after Stop: %+v (replayed: %+v; found %d pushes)", res, rep, found.Pushes)
	}
}

// With the optimizer off the found solution is the answer: "found" says
// nothing is optimizing, no "improved" follows, and the result names no
// optimizer.
func TestSolveEventsOptimizeOff(t *testing.T) {
	_, ts := testServer(t, Config{})
	id := startJob(t, ts.URL, `{"collection":"microban","n":3,"solver":"greedy","time_s":10,"optimize":"off"}`)
	resp, err := http.Get(ts.URL + "/api/jobs/" + id + "/events")
	if err != nil {
		t.Fatal(err)
	}
	evs := readEvents(resp.Body, nil)
	resp.Body.Close()
	var names []string
	var found foundJSON
	var res resultJSON
	for _, ev := range evs {
		names = append(names, ev.name)
		switch ev.name {
		case "found":
			json.Unmarshal([]byte(ev.data), &found)
		case "result":
			json.Unmarshal([]byte(ev.data), &res)
		}
	}
	if got := strings.Join(names, " "); !strings.HasSuffix(got, "found result") || strings.Contains(got, "improved") {
		t.Fatalf("events %v", names)
	}
	if found.Optimizing || found.Metric != "" || found.Solution != res.Solution || res.Optimizer != "" || res.FoundMoves != 0 || res.Moves != 59 {
		t.Errorf("found %+v, result %+v", found, res)
	}
}
