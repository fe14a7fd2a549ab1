package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"soko/analyze"
	"soko/fess"
	"soko/internal/testlevel"
	"soko/level"
	"soko/levels"
	"soko/sokoban"
)

// TestPlan: POST /api/plan answers the goals of the level in the order
// fess.PlanOrder gives, as [x, y], every goal once, for embedded and pasted
// levels alike.
func TestPlan(t *testing.T) {
	_, ts := testServer(t, Config{})
	for _, tc := range []struct{ body, collection string }{
		{`{"collection":"microban","n":1}`, "microban"},
		{`{"collection":"microban","n":155}`, "microban"},
		{`{"collection":"xsokoban90","n":1}`, "xsokoban90"},
		{`{"xsb":` + jsonString(microban1) + `}`, ""},
	} {
		resp, body := post(t, ts.URL+"/api/plan", tc.body)
		var p planJSON
		if err := json.Unmarshal(body, &p); err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d %s", tc.body, resp.StatusCode, body)
		}
		var ref levelRef
		if err := json.Unmarshal([]byte(tc.body), &ref); err != nil {
			t.Fatal(err)
		}
		l, e := ref.level()
		if e != nil {
			t.Fatal(e)
		}
		b, err := sokoban.NewBoard(l)
		if err != nil {
			t.Fatal(err)
		}
		order, err := fess.PlanOrder(context.Background(), b)
		if err != nil {
			t.Fatal(err)
		}
		var want []xy
		for _, g := range order {
			x, y := b.XY(g)
			want = append(want, xy{x, y})
		}
		if p.Level != levelID(l) || !slices.Equal(p.Order, want) {
			t.Errorf("%s: got %s %v, want %s %v", tc.body, p.Level, p.Order, levelID(l), want)
		}
		// Every goal the player can reach, once.
		seen := map[xy]bool{}
		for _, g := range p.Order {
			if c := l.Rows[g[1]][g[0]]; !strings.ContainsRune(".*+", rune(c)) || seen[g] {
				t.Errorf("%s: %v is %q, seen before %v", tc.body, g, c, seen[g])
			}
			seen[g] = true
		}
		if len(p.Order) != len(b.Goals()) || len(p.Order) == 0 {
			t.Errorf("%s: %d goals in the plan, the board has %d", tc.body, len(p.Order), len(b.Goals()))
		}
	}
	if c, err := levels.Collection("microban"); err != nil || len(c.Levels) != 155 {
		t.Fatalf("microban: %v", err) // the cases above rely on its size
	}
}

// TestPlanErrors: a level that cannot be found, parsed or solved, a request
// that is not JSON, and a plan (or an analysis, which includes the plan)
// past the server's time limit each get a JSON error with a status that
// says which.
func TestPlanErrors(t *testing.T) {
	_, ts := testServer(t, Config{})
	impossible := "#######\n#@$ .##\n#######\n#$#.  #\n#######\n"
	for _, tc := range []struct {
		body   string
		status int
		msg    string
	}{
		{`{"collection":"nosuch","n":1}`, http.StatusNotFound, `unknown collection "nosuch"`},
		{`{"collection":"microban","n":999}`, http.StatusNotFound, "levels 1 to 155"},
		{`{"xsb":"#####\n#@$ #\n#####"}`, http.StatusBadRequest, "1 box but 0 goals"},
		{`{"xsb":` + jsonString(impossible) + `}`, http.StatusUnprocessableEntity, "pasted:1 has no packing plan: it cannot be solved (box at row 4, column 2 can never be reached)"},
		{`{}`, http.StatusBadRequest, "no level"},
		{`{"collection":"microban","n":1,"extra":1}`, http.StatusBadRequest, "unknown field"},
	} {
		resp, body := post(t, ts.URL+"/api/plan", tc.body)
		var e struct{ Error string }
		if err := json.Unmarshal(body, &e); err != nil || resp.StatusCode != tc.status || !strings.Contains(strings.ToLower(e.Error), strings.ToLower(tc.msg)) {
			t.Errorf("%s: %d %s; want %d with %q", tc.body, resp.StatusCode, body, tc.status, tc.msg)
		}
	}
	req, _ := http.NewRequest(http.MethodGet, ts.URL+"/api/plan", nil)
	if resp, body := do(t, req); resp.StatusCode != http.StatusMethodNotAllowed || !strings.Contains(string(body), `"error"`) {
		t.Errorf("GET /api/plan: %d %s", resp.StatusCode, body)
	}

	_, slow := testServer(t, Config{PlanTime: time.Nanosecond})
	resp, body := post(t, slow.URL+"/api/plan", `{"collection":"xsokoban90","n":1}`)
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(body), "xsokoban90:1 took longer than the server's limit of 1ns") {
		t.Errorf("past the time limit: %d %s", resp.StatusCode, body)
	}
	resp, body = post(t, slow.URL+"/api/analyze", `{"collection":"xsokoban90","n":1}`)
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(body), "the analysis of xsokoban90:1 took longer than the server's limit of 1ns") {
		t.Errorf("an analysis past the time limit: %d %s", resp.StatusCode, body)
	}
}

// TestAnalyzeLargest: POST /api/analyze on a pasted level of the largest
// size, an open 128×128 room with the most boxes a level may have, with its overlays and its
// text, not a 503: the fess plans, which take seconds there, stop at the
// analysis's budget (analyze.PlanTime), well inside the server's limit,
// and the text says so of a plan cut off.
func TestAnalyzeLargest(t *testing.T) {
	_, ts := testServer(t, Config{})
	l := testlevel.Open(level.MaxWidth, level.MaxHeight, level.MaxBoxes)
	resp, body := post(t, ts.URL+"/api/analyze", `{"xsb":`+jsonString(level.Format(l))+`}`)
	var a struct {
		Dead [][2]int
		Text string
	}
	if err := json.Unmarshal(body, &a); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("%d %.300s", resp.StatusCode, body)
	}
	if len(a.Dead) != 500 || !strings.Contains(a.Text, fmt.Sprintf("floor squares 15876, dead squares 500, boxes %d, tunnel squares 0, goal rooms 0\n", level.MaxBoxes)) {
		t.Errorf("%d dead squares; text:\n%s", len(a.Dead), a.Text[strings.Index(a.Text, "legend"):])
	}
	for _, plan := range []string{"fess packing plan", "fess parking plan"} {
		if !strings.Contains(a.Text, "\n"+plan+", ") && !strings.Contains(a.Text, "\n"+plan+" (") &&
			!strings.Contains(a.Text, "\n"+plan+": not worked out within the "+analyze.PlanTime.String()) {
			t.Errorf("neither the %s nor a note that it ran out of time:\n%s", plan, a.Text[strings.Index(a.Text, "legend"):])
		}
	}
}

// TestProgressDetail: a running search's progress events carry its words
// about the board they draw (astar: boxes on goals).
func TestProgressDetail(t *testing.T) {
	_, ts := testServer(t, Config{})
	id := startJob(t, ts.URL, hard)
	resp, err := http.Get(ts.URL + "/api/jobs/" + id + "/events")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var p progressJSON
	readEvents(resp.Body, func(e event) bool {
		if e.name != "progress" {
			return e.name == "result"
		}
		if err := json.Unmarshal([]byte(e.data), &p); err != nil {
			t.Fatal(err)
		}
		return p.Detail != ""
	})
	req, _ := http.NewRequest("DELETE", ts.URL+"/api/jobs/"+id, nil)
	do(t, req)
	if !regexp.MustCompile(`^boxes on goals \d+ of 25$`).MatchString(p.Detail) || len(p.Board) == 0 {
		t.Fatalf("last progress event: detail %q, board %d rows", p.Detail, len(p.Board))
	}
}

// TestResultStrategy: a portfolio's result names the member that solved the
// level and carries the members' counters.
func TestResultStrategy(t *testing.T) {
	_, ts := testServer(t, Config{})
	id := startJob(t, ts.URL, `{"collection":"microban","n":2,"solver":"portfolio","time_s":10}`)
	resp, err := http.Get(ts.URL + "/api/jobs/" + id + "/events")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	evs := readEvents(resp.Body, nil)
	var res resultJSON
	if err := json.Unmarshal([]byte(evs[len(evs)-1].data), &res); err != nil {
		t.Fatal(err)
	}
	if res.Status != "solved" || res.Stats.Strategy != "astar" || res.Stats.Counts["astar.expanded"] != res.Stats.Expanded || res.Stats.Expanded == 0 {
		t.Fatalf("result %+v; want solved by astar, with astar.expanded counted", res)
	}
}

// TestPlanDeadStartBox: a level whose box starts on a dead square cannot
// be solved: /api/plan says so (422) and /api/analyze's impossible names
// the box.
func TestPlanDeadStartBox(t *testing.T) {
	_, ts := testServer(t, Config{})
	const body = `{"xsb":"#####\n#@  #\n#$  #\n#  .#\n#####"}`
	resp, b := post(t, ts.URL+"/api/plan", body)
	if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(string(b), "the box at column 2, row 3 starts where no box can reach a goal") {
		t.Errorf("plan: %d %s", resp.StatusCode, b)
	}
	resp, b = post(t, ts.URL+"/api/analyze", body)
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(b), `"impossible":"the box at column 2, row 3`) {
		t.Errorf("analyze: %d %s", resp.StatusCode, b)
	}
}
