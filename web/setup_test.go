package web

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestSetupBusy: with Config.MaxSetup plans or analyses in flight, one more
// is answered 429 with Retry-After and a JSON error; a slot frees when a
// request ends, whether it answered, timed out or failed.
func TestSetupBusy(t *testing.T) {
	s, ts := testServer(t, Config{MaxSetup: 2})
	const lvl = `{"collection":"microban","n":1}`
	for range 5 { // more requests than slots, one after another: each frees its slot
		for _, path := range []string{"/api/plan", "/api/analyze"} {
			if resp, body := post(t, ts.URL+path, lvl); resp.StatusCode != http.StatusOK {
				t.Fatalf("%s one at a time: %d %s", path, resp.StatusCode, body)
			}
		}
		if resp, _ := post(t, ts.URL+"/api/plan", `{"collection":"nosuch","n":1}`); resp.StatusCode != http.StatusNotFound {
			t.Fatalf("unknown collection: %d", resp.StatusCode)
		}
	}

	// Two set-up requests in flight, as far as the server knows.
	s.setup <- struct{}{}
	s.setup <- struct{}{}
	for _, path := range []string{"/api/plan", "/api/analyze"} {
		resp, body := post(t, ts.URL+path, lvl)
		var e struct {
			Error   string
			Busy    bool
			Running int
		}
		if err := json.Unmarshal(body, &e); err != nil || resp.StatusCode != http.StatusTooManyRequests ||
			resp.Header.Get("Retry-After") != setupRetryAfter || !e.Busy || e.Running != 2 ||
			!strings.Contains(e.Error, "2 packing plans and analyses") {
			t.Errorf("%s with every slot taken: %d Retry-After %q %s", path, resp.StatusCode, resp.Header.Get("Retry-After"), body)
		}
	}
	// Solver jobs have their own slots.
	if resp, body := post(t, ts.URL+"/api/solve", `{"collection":"microban","n":1,"time_s":1}`); resp.StatusCode != http.StatusAccepted {
		t.Errorf("a solve while set-up is busy: %d %s", resp.StatusCode, body)
	}
	s.releaseSetup()
	if resp, body := post(t, ts.URL+"/api/plan", lvl); resp.StatusCode != http.StatusOK {
		t.Errorf("plan after a slot freed: %d %s", resp.StatusCode, body)
	}
	s.releaseSetup()

	// A plan that runs out of time frees its slot too.
	slowS, slow := testServer(t, Config{MaxSetup: 1, PlanTime: time.Nanosecond})
	for range 3 {
		if resp, body := post(t, slow.URL+"/api/plan", `{"collection":"xsokoban90","n":1}`); resp.StatusCode != http.StatusServiceUnavailable {
			t.Fatalf("plan past its time: %d %s", resp.StatusCode, body)
		}
	}
	if n := len(slowS.setup); n != 0 {
		t.Errorf("%d set-up slots still taken after every request ended", n)
	}
}
