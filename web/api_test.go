package web

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"soko/level"
	_ "soko/mcts"   // registers the MCTS solvers
	_ "soko/search" // registers the search solvers
)

// testServer starts a server on loopback with cfg and stops it with the test.
func testServer(t *testing.T, cfg Config) (*Server, *httptest.Server) {
	t.Helper()
	s := New(cfg)
	ts := httptest.NewServer(s)
	t.Cleanup(func() {
		s.Close()
		ts.Close()
	})
	return s, ts
}

func post(t *testing.T, url, body string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	return do(t, req)
}

func do(t *testing.T, req *http.Request) (*http.Response, []byte) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, b
}

// event is one Server-Sent Event.
type event struct {
	name string
	data string
}

// readEvents reads events from an SSE stream until it ends or stop says so.
func readEvents(r io.Reader, stop func(event) bool) []event {
	var evs []event
	var cur event
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if cur.name != "" {
				evs = append(evs, cur)
				if stop != nil && stop(cur) {
					return evs
				}
			}
			cur = event{}
		case strings.HasPrefix(line, "event: "):
			cur.name = line[len("event: "):]
		case strings.HasPrefix(line, "data: "):
			cur.data = line[len("data: "):]
		}
	}
	return evs
}

const microban1 = "####\n# .#\n#  ###\n#*@  #\n#  $ #\n#  ###\n####\n"

func TestHostileInputs(t *testing.T) {
	_, ts := testServer(t, Config{MaxBody: 1 << 20, MaxJobs: 1, MaxQueue: 1, MaxTime: 2 * time.Second})
	huge := `{"xsb": "` + strings.Repeat("#", 2<<20) + `"}`
	deep := strings.Repeat("[", 20000) + strings.Repeat("]", 20000)
	tests := []struct {
		name, method, path, ctype, body string
		status                          int
		want                            string // in the error message
	}{
		{"huge body", "POST", "/api/solve", "application/json", huge, 413, "larger than"},
		{"huge verify body", "POST", "/api/verify", "application/json", huge, 413, "larger than"},
		{"huge sok body", "POST", "/api/sok", "application/json", huge, 413, "larger than"},
		{"huge export body", "POST", "/api/sok/collection", "application/json", huge, 413, "larger than"},
		{"sok of no level", "POST", "/api/sok", "application/json", `{"solution":"dl"}`, 400, "no level"},
		{"bad JSON", "POST", "/api/solve", "application/json", `{"solver": `, 400, "bad JSON"},
		{"not an object", "POST", "/api/solve", "application/json", `[1,2,3]`, 400, "bad JSON: want an object, got array"},
		{"deep nesting", "POST", "/api/analyze", "application/json", deep, 400, "bad JSON"},
		{"trailing data", "POST", "/api/parse", "application/json", `{"xsb":"x"} {}`, 400, "more data"},
		{"empty body", "POST", "/api/verify", "application/json", ``, 400, "empty"},
		{"unknown field", "POST", "/api/solve", "application/json", `{"collection":"microban","n":1,"sovler":"bfs"}`, 400, "unknown field"},
		{"wrong type", "POST", "/api/solve", "application/json", `{"collection":"microban","n":"one"}`, 400, "bad JSON: n: want a whole number, got string"},
		{"wrong type of time", "POST", "/api/solve", "application/json", `{"collection":"microban","n":1,"time_s":[1]}`, 400, "bad JSON: time_s: want a number, got array"},
		{"text body", "POST", "/api/solve", "text/plain", `{}`, 415, "Content-Type"},
		{"no content type", "POST", "/api/verify", "", `{}`, 415, "Content-Type"},
		{"no level", "POST", "/api/solve", "application/json", `{}`, 400, "no level"},
		{"both level kinds", "POST", "/api/solve", "application/json", `{"collection":"microban","n":1,"xsb":"#"}`, 400, "not both"},
		{"invalid level", "POST", "/api/parse", "application/json", `{"xsb":"#####\n#@$.#\n#$  #\n#####"}`, 400, "boxes"},
		{"open level", "POST", "/api/solve", "application/json", `{"xsb":"#####\n#@$. \n#####"}`, 400, "not closed"},
		{"bad character", "POST", "/api/analyze", "application/json", `{"xsb":"#####\n#@$X#\n#####"}`, 400, "unknown character"},
		{"too large level", "POST", "/api/parse", "application/json", `{"xsb":"` + strings.Repeat("#", MaxLevelText+1) + `"}`, 413, "level text"},
		{"level out of range", "POST", "/api/parse", "application/json", `{"xsb":` + jsonString(microban1) + `,"n":2}`, 400, "the text holds 1 level; there is no level 2"},
		{"level number below 0", "POST", "/api/parse", "application/json", `{"xsb":` + jsonString(microban1) + `,"n":-1}`, 400, "bad n -1"},
		{"no text", "POST", "/api/parse", "application/json", `{"xsb":"   "}`, 400, "no level text"},
		{"unknown collection", "GET", "/api/levels/nope/1", "", "", 404, "unknown collection"},
		{"level zero", "GET", "/api/levels/microban/0", "", "", 404, "no level"},
		{"level past end", "GET", "/api/levels/microban/99999", "", "", 404, "no level"},
		{"level not a number", "GET", "/api/levels/microban/abc", "", "", 404, "no level"},
		{"collection traversal", "GET", "/api/collections/..%2f..%2fetc", "", "", 404, "unknown collection"},
		{"solve unknown collection", "POST", "/api/solve", "application/json", `{"collection":"nope","n":1}`, 404, "unknown collection"},
		{"unknown solver", "POST", "/api/solve", "application/json", `{"collection":"microban","n":1,"solver":"magic"}`, 400, "unknown solver"},
		{"unknown param", "POST", "/api/solve", "application/json", `{"collection":"microban","n":1,"solver":"astar","params":{"zzz":"1"}}`, 400, "takes no parameter"},
		{"long param", "POST", "/api/solve", "application/json", `{"collection":"microban","n":1,"solver":"wastar","params":{"w":"` + strings.Repeat("9", 100) + `"}}`, 400, "at most"},
		{"negative time", "POST", "/api/solve", "application/json", `{"collection":"microban","n":1,"time_s":-1}`, 400, "negative"},
		{"negative memory", "POST", "/api/solve", "application/json", `{"collection":"microban","n":1,"memory_mib":-5}`, 400, "negative"},
		{"bogus job", "GET", "/api/jobs/bogus", "", "", 404, "no job"},
		{"bogus job events", "GET", "/api/jobs/0123456789abcdef01234567/events", "", "", 404, "no job"},
		{"bogus job cancel", "DELETE", "/api/jobs/bogus", "", "", 404, "no job"},
		{"bogus job cancel post", "POST", "/api/jobs/%00%ff/cancel", "application/json", "", 404, "no job"},
		{"bad LURD", "POST", "/api/verify", "application/json", `{"collection":"microban","n":1,"solution":"dlUxyz"}`, 400, "unexpected character"},
		{"huge LURD repeat", "POST", "/api/verify", "application/json", `{"collection":"microban","n":1,"solution":"99999999999999999999u"}`, 400, "longer than"},
		{"unknown endpoint", "GET", "/api/nothing", "", "", 404, "no such API endpoint"},
		{"wrong method", "GET", "/api/solve", "", "", 405, "not allowed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequest(tt.method, ts.URL+tt.path, strings.NewReader(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			if tt.ctype != "" {
				req.Header.Set("Content-Type", tt.ctype)
			}
			resp, body := do(t, req)
			if resp.StatusCode != tt.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tt.status, body)
			}
			var e apiError
			if err := json.Unmarshal(body, &e); err != nil {
				t.Fatalf("answer is not JSON: %v: %s", err, body)
			}
			if !strings.Contains(e.Msg, tt.want) {
				t.Fatalf("error %q does not mention %q", e.Msg, tt.want)
			}
		})
	}
}

// TestDeclaredBodyTooLarge: a request whose Content-Length is over the
// limit is refused at once, without waiting for a body that may never
// come (it once waited for the server's read timeout, then said bad
// JSON); one cut short says so.
func TestDeclaredBodyTooLarge(t *testing.T) {
	_, ts := testServer(t, Config{MaxBody: 1 << 10})
	for _, tc := range []struct {
		length int
		body   string
		status int
		want   string
	}{
		{1 << 20, "", http.StatusRequestEntityTooLarge, "larger than 1024 bytes"},
		{100, `{"xsb":`, http.StatusBadRequest, "cut short"},
	} {
		conn, err := net.Dial("tcp", ts.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(conn, "POST /api/parse HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s",
			ts.Listener.Addr(), tc.length, tc.body)
		if tc.body != "" {
			conn.(*net.TCPConn).CloseWrite() // the rest never comes
		}
		conn.SetReadDeadline(time.Now().Add(20 * time.Second)) // the server's read timeout is a minute
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatalf("length %d: %v", tc.length, err)
		}
		body, _ := io.ReadAll(resp.Body)
		conn.Close()
		if resp.StatusCode != tc.status || !strings.Contains(string(body), tc.want) {
			t.Errorf("length %d, body %q: %d %s; want %d %q", tc.length, tc.body, resp.StatusCode, body, tc.status, tc.want)
		}
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func TestLevelErrorPosition(t *testing.T) {
	_, ts := testServer(t, Config{})
	resp, body := post(t, ts.URL+"/api/parse", `{"xsb":"#####\n#@$X#\n#####"}`)
	var e apiError
	if err := json.Unmarshal(body, &e); err != nil || resp.StatusCode != 400 {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	if e.Line != 2 || e.Col != 4 {
		t.Fatalf("error at line %d col %d, want 2:4: %s", e.Line, e.Col, body)
	}
	resp, body = post(t, ts.URL+"/api/verify", `{"collection":"microban","n":1,"solution":"dlU\nrrQ"}`)
	if err := json.Unmarshal(body, &e); err != nil || resp.StatusCode != 400 || e.Line != 2 || e.Col != 3 {
		t.Fatalf("LURD error: %d %s", resp.StatusCode, body)
	}
}

func TestReadEndpoints(t *testing.T) {
	_, ts := testServer(t, Config{})
	get := func(path string, v any) {
		t.Helper()
		req, _ := http.NewRequest("GET", ts.URL+path, nil)
		resp, body := do(t, req)
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %d %s", path, resp.StatusCode, body)
		}
		if err := json.Unmarshal(body, v); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
	var cs []struct {
		Name   string
		Levels int
	}
	get("/api/collections", &cs)
	found := false
	for _, c := range cs {
		found = found || c.Name == "microban" && c.Levels == 155
	}
	if !found {
		t.Fatalf("collections: %+v", cs)
	}
	var c struct{ Levels []struct{ N int } }
	get("/api/collections/microban", &c)
	if len(c.Levels) != 155 || c.Levels[154].N != 155 {
		t.Fatalf("microban has %d levels", len(c.Levels))
	}
	var l levelJSON
	get("/api/levels/microban/1", &l)
	if l.ID != "microban:1" || l.Width != 6 || l.Height != 7 || !strings.HasSuffix(l.XSB, microban1) {
		t.Fatalf("microban 1: %+v", l)
	}
	var ss []struct {
		Name    string
		Threads bool
		Spare   bool `json:"spare_threads"`
	}
	get("/api/solvers", &ss)
	if len(ss) < 10 {
		t.Fatalf("%d solvers", len(ss))
	}
	for _, s := range ss {
		if want := s.Name == "fess" || s.Name == "portfolio"; s.Threads != want || s.Spare != (s.Name == "fess") {
			t.Errorf("solver %s: threads %v, spare threads %v; want %v, %v", s.Name, s.Threads, s.Spare, want, s.Name == "fess")
		}
	}
	req, _ := http.NewRequest("GET", ts.URL+"/", nil)
	resp, body := do(t, req)
	if resp.StatusCode != 200 || !bytes.Contains(body, []byte("<canvas")) || resp.Header.Get("Content-Security-Policy") == "" {
		t.Fatalf("the page: %d %q", resp.StatusCode, body[:min(len(body), 200)])
	}
}

// The web takes solutions up to package level's cap, the command line's,
// and tells the page the cap in GET /api/limits.
func TestSolutionCap(t *testing.T) {
	_, ts := testServer(t, Config{})
	resp, err := http.Get(ts.URL + "/api/limits")
	if err != nil {
		t.Fatal(err)
	}
	var lim struct {
		Steps int `json:"max_solution_steps"`
		Text  int `json:"max_solution_text"`
	}
	err = json.NewDecoder(resp.Body).Decode(&lim)
	resp.Body.Close()
	if err != nil || lim.Steps != level.MaxSolutionSteps || lim.Text != level.MaxSolutionText {
		t.Fatalf("limits: %v %+v, want %d steps and %d bytes", err, lim, level.MaxSolutionSteps, level.MaxSolutionText)
	}

	// At the cap: replayed (and refused at its first blocked step).
	resp, body := post(t, ts.URL+"/api/verify", fmt.Sprintf(`{"xsb":%s,"solution":"%dl"}`, jsonString(microban1), level.MaxSolutionSteps))
	var v struct {
		Solved   bool
		FailStep int `json:"fail_step"`
	}
	if err := json.Unmarshal(body, &v); err != nil || resp.StatusCode != 200 || v.Solved || v.FailStep != 1 {
		t.Fatalf("%d steps: %d %.200s", level.MaxSolutionSteps, resp.StatusCode, body)
	}
	// One step more: refused with the parser's message and position.
	resp, body = post(t, ts.URL+"/api/verify", fmt.Sprintf(`{"xsb":%s,"solution":"u %dl"}`, jsonString(microban1), level.MaxSolutionSteps))
	var e apiError
	want := fmt.Sprintf("LURD longer than %d steps", level.MaxSolutionSteps)
	if err := json.Unmarshal(body, &e); err != nil || resp.StatusCode != 400 || !strings.Contains(e.Msg, want) || e.Line != 1 || e.Col != 3 {
		t.Fatalf("%d steps: %d %s, want 400 %q at 1:3", level.MaxSolutionSteps+1, resp.StatusCode, body, want)
	}
}

func TestVerifyAndAnalyze(t *testing.T) {
	_, ts := testServer(t, Config{})
	_, body := post(t, ts.URL+"/api/verify", `{"collection":"microban","n":1,"solution":"dlUrrrdLullddrUluRuulDrddrruLdlUU"}`)
	var v struct {
		Solved        bool
		Moves, Pushes int
	}
	if err := json.Unmarshal(body, &v); err != nil || !v.Solved || v.Moves != 33 || v.Pushes != 8 {
		t.Fatalf("verify: %s", body)
	}
	_, body = post(t, ts.URL+"/api/verify", `{"xsb":`+jsonString(microban1)+`,"solution":"l"}`)
	var f struct {
		Solved   bool
		FailStep int `json:"fail_step"`
		Reason   string
	}
	if err := json.Unmarshal(body, &f); err != nil || f.Solved || f.FailStep != 1 || !strings.Contains(f.Reason, "blocked") {
		t.Fatalf("illegal solution: %s", body)
	}
	// A solution in the wrong letter case is named as soko verify names it.
	_, body = post(t, ts.URL+"/api/verify", `{"collection":"microban","n":1,"solution":"dlurrrdlullddruluruuldrddrruldluu"}`)
	var c struct {
		Solved   bool
		CaseStep int `json:"case_step"`
		Case     string
		Miscased int
	}
	if err := json.Unmarshal(body, &c); err != nil || !c.Solved || c.CaseStep != 3 || c.Miscased != 8 || c.Case != "step 3 (u) pushes a box but is written in lower case" {
		t.Fatalf("a solution in lower case: %s", body)
	}
	resp, body := post(t, ts.URL+"/api/analyze", `{"collection":"microban","n":1}`)
	var a struct {
		Dead    [][2]int
		Tunnels []struct{ X, Y int }
		Text    string
	}
	if err := json.Unmarshal(body, &a); err != nil || resp.StatusCode != 200 || len(a.Dead) == 0 || !strings.Contains(a.Text, "dead") {
		t.Fatalf("analyze: %d %s", resp.StatusCode, body)
	}
	for _, d := range a.Dead {
		if d[0] < 0 || d[0] >= 6 || d[1] < 0 || d[1] >= 7 {
			t.Fatalf("dead square %v off the board", d)
		}
	}
}

// startJob posts a solve request and returns the job id.
func startJob(t *testing.T, url, body string) string {
	t.Helper()
	resp, b := post(t, url+"/api/solve", body)
	if resp.StatusCode != http.StatusAccepted {
		t.Fatalf("solve: %d %s", resp.StatusCode, b)
	}
	var j struct{ ID string }
	if err := json.Unmarshal(b, &j); err != nil || j.ID == "" {
		t.Fatalf("solve: %s", b)
	}
	return j.ID
}

func TestSolveEvents(t *testing.T) {
	_, ts := testServer(t, Config{})
	id := startJob(t, ts.URL, `{"collection":"microban","n":2,"solver":"astar","time_s":10}`)
	resp, err := http.Get(ts.URL + "/api/jobs/" + id + "/events")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	evs := readEvents(resp.Body, nil)
	if len(evs) == 0 || evs[len(evs)-1].name != "result" {
		t.Fatalf("events: %+v", evs)
	}
	var res resultJSON
	if err := json.Unmarshal([]byte(evs[len(evs)-1].data), &res); err != nil {
		t.Fatal(err)
	}
	if res.Status != "solved" || res.Solution == "" || res.Pushes == 0 {
		t.Fatalf("result: %+v", res)
	}
	// A late subscriber gets the result at once, after the solution found
	// by the search (and the optimizer's last improvement, when it made
	// one); so does GET /api/jobs/{id}.
	resp2, err := http.Get(ts.URL + "/api/jobs/" + id + "/events")
	if err != nil {
		t.Fatal(err)
	}
	evs = readEvents(resp2.Body, nil)
	resp2.Body.Close()
	var names []string
	for _, ev := range evs {
		names = append(names, ev.name)
	}
	if got := strings.Join(names, " "); got != "found result" && got != "found improved result" {
		t.Fatalf("late events: %+v", evs)
	}
	req, _ := http.NewRequest("GET", ts.URL+"/api/jobs/"+id, nil)
	_, b := do(t, req)
	if !strings.Contains(string(b), `"state":"done"`) || !strings.Contains(string(b), res.Solution) {
		t.Fatalf("job info: %s", b)
	}
}

// hard is a solve request that runs until its time is up or it is
// cancelled: A* on a large level.
const hard = `{"collection":"xsokoban90","n":90,"solver":"astar","time_s":30}`

// hardThreads is a job of a solver that runs on threads (fess) that
// outlasts a test: XSokoban 89, which fess does not solve in 60 s.
const hardThreads = `{"collection":"xsokoban90","n":89,"solver":"fess","time_s":30}`

func TestProgressAndCancel(t *testing.T) {
	s, ts := testServer(t, Config{})
	id := startJob(t, ts.URL, hard)
	resp, err := http.Get(ts.URL + "/api/jobs/" + id + "/events")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	progress := 0
	evs := readEvents(resp.Body, func(e event) bool {
		if e.name == "progress" {
			progress++
			if progress == 3 { // once: the job has not finished, so 202
				req, _ := http.NewRequest("DELETE", ts.URL+"/api/jobs/"+id, nil)
				if r, b := do(t, req); r.StatusCode != http.StatusAccepted {
					t.Errorf("cancel: %d %s", r.StatusCode, b)
				}
			}
		}
		return e.name == "result"
	})
	last := evs[len(evs)-1]
	if last.name != "result" || !strings.Contains(last.data, `"status":"cancelled"`) {
		t.Fatalf("last event %+v", last)
	}
	var p progressJSON
	for _, e := range evs {
		if e.name == "progress" {
			if err := json.Unmarshal([]byte(e.data), &p); err != nil {
				t.Fatal(err)
			}
		}
	}
	if p.Expanded == 0 || p.ElapsedMS == 0 || len(p.Board) == 0 {
		t.Fatalf("progress without counters or board: %+v", p)
	}
	if r, w := s.jobs.load(); r != 0 || w != 0 {
		t.Fatalf("after cancelling: %d running, %d waiting", r, w)
	}
}

// TestCancelFinished cancels a job that has already finished: 409 with its
// state, by either route, and the job keeps its result.
func TestCancelFinished(t *testing.T) {
	s, ts := testServer(t, Config{})
	id := startJob(t, ts.URL, `{"collection":"microban","n":1,"solver":"astar","time_s":10}`)
	<-s.jobs.get(id).done
	for _, route := range []struct{ method, path string }{
		{"DELETE", "/api/jobs/" + id},
		{"POST", "/api/jobs/" + id + "/cancel"},
	} {
		req, _ := http.NewRequest(route.method, ts.URL+route.path, nil)
		resp, b := do(t, req)
		var out struct {
			Error     string
			State     string
			Cancelled *bool
		}
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatalf("%s %s: %v: %s", route.method, route.path, err, b)
		}
		if resp.StatusCode != http.StatusConflict || out.State != stateDone || out.Cancelled == nil || *out.Cancelled ||
			!strings.Contains(out.Error, "already finished") {
			t.Errorf("%s %s: %d %s", route.method, route.path, resp.StatusCode, b)
		}
	}
	if r := s.jobs.get(id).snapshot().result; r.Status != "solved" {
		t.Errorf("the finished job's result became %+v", r)
	}
}

func TestBudgetCapped(t *testing.T) {
	_, ts := testServer(t, Config{MaxTime: 3 * time.Second, MaxMemory: 64 << 20})
	resp, b := post(t, ts.URL+"/api/solve", `{"collection":"microban","n":1,"time_s":1e9,"memory_mib":1000000}`)
	if resp.StatusCode != http.StatusAccepted {
		t.Fatalf("%d %s", resp.StatusCode, b)
	}
	var j struct{ Budget budgetJSON }
	if err := json.Unmarshal(b, &j); err != nil || j.Budget.TimeS != 3 || j.Budget.Memory != 64<<20 {
		t.Fatalf("budget not capped: %s", b)
	}
	resp, b = post(t, ts.URL+"/api/solve", `{"collection":"microban","n":1,"time_s":0.5,"memory_mib":10}`)
	if err := json.Unmarshal(b, &j); err != nil || j.Budget.TimeS != 0.5 || j.Budget.Memory != 10<<20 {
		t.Fatalf("smaller budget not kept: %d %s", resp.StatusCode, b)
	}
}

func TestAbandonedJobCancelled(t *testing.T) {
	s, ts := testServer(t, Config{IdleCancel: 200 * time.Millisecond})
	// A job nobody ever subscribes to.
	id1 := startJob(t, ts.URL, hard)
	// A job whose subscriber goes away.
	id2 := startJob(t, ts.URL, hard)
	resp, err := http.Get(ts.URL + "/api/jobs/" + id2 + "/events")
	if err != nil {
		t.Fatal(err)
	}
	readEvents(resp.Body, func(e event) bool { return e.name == "progress" })
	resp.Body.Close()
	for _, id := range []string{id1, id2} {
		j := s.jobs.get(id)
		select {
		case <-j.done:
		case <-time.After(10 * time.Second):
			t.Fatalf("job %s still running after its client left", id)
		}
		if r := j.snapshot().result; r.Status != "cancelled" {
			t.Fatalf("job %s ended %+v", id, r)
		}
	}
}

// TestPolledJobKept: a client that polls GET /api/jobs/{id} more often
// than the idle time keeps its job running, as an event stream does.
func TestPolledJobKept(t *testing.T) {
	s, ts := testServer(t, Config{IdleCancel: 500 * time.Millisecond})
	id := startJob(t, ts.URL, hard)
	for range 40 { // two seconds: four idle times, asked ten times in each
		resp, err := http.Get(ts.URL + "/api/jobs/" + id)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		time.Sleep(50 * time.Millisecond)
	}
	j := s.jobs.get(id)
	if st := j.snapshot().state; st == stateDone {
		t.Fatalf("a polled job ended: %+v", j.snapshot().result)
	}
	j.cancel()
}
