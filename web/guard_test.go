package web

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

// refusal checks that resp is a refusal with the given status and a JSON
// error that mentions want.
func refusal(t *testing.T, resp *http.Response, body []byte, status int, want string) {
	t.Helper()
	if resp.StatusCode != status {
		t.Fatalf("status %d, want %d: %s", resp.StatusCode, status, body)
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Fatalf("Content-Type %q, want JSON: %s", ct, body)
	}
	var e apiError
	if err := json.Unmarshal(body, &e); err != nil {
		t.Fatalf("refusal is not JSON: %v: %s", err, body)
	}
	if !strings.Contains(e.Msg, want) {
		t.Fatalf("error %q does not mention %q", e.Msg, want)
	}
}

// TestHostRefused is the DNS-rebinding attack: a page on attacker.example,
// its name resolved to the server's loopback address, posts a job with a
// Host and an Origin that agree with each other. It is refused, and no job
// starts; the same request naming the server's address is accepted, and
// its job runs to a solution.
func TestHostRefused(t *testing.T) {
	s, ts := testServer(t, Config{MaxJobs: 1})
	port := ts.Listener.Addr().(*net.TCPAddr).Port
	evil := "attacker.example:" + strconv.Itoa(port)
	req, _ := http.NewRequest("POST", ts.URL+"/api/solve", strings.NewReader(`{"collection":"microban","n":1}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", "http://"+evil)
	req.Header.Set("Sec-Fetch-Site", "same-origin") // what the browser says: same origin as far as it knows
	req.Host = evil
	resp, body := do(t, req)
	refusal(t, resp, body, http.StatusForbidden, `host "attacker.example:`)
	if !strings.Contains(string(body), "--allow-host") {
		t.Errorf("the refusal does not say how to allow a name: %s", body)
	}
	if r, w := s.jobs.load(); r != 0 || w != 0 {
		t.Fatalf("a refused request started a job: %d running, %d waiting", r, w)
	}
	// Reading is refused too: a rebound page must not read results.
	req, _ = http.NewRequest("GET", ts.URL+"/api/collections", nil)
	req.Host = evil
	resp, body = do(t, req)
	refusal(t, resp, body, http.StatusForbidden, "not this server's address")

	for _, host := range []string{"127.0.0.1:" + strconv.Itoa(port), "localhost:" + strconv.Itoa(port), "LocalHost:" + strconv.Itoa(port), "[::1]:" + strconv.Itoa(port)} {
		req, _ := http.NewRequest("POST", ts.URL+"/api/solve", strings.NewReader(`{"collection":"microban","n":1}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Origin", "http://"+host)
		req.Host = host
		resp, body := do(t, req)
		if resp.StatusCode != http.StatusAccepted {
			t.Fatalf("Host %s: %d %s", host, resp.StatusCode, body)
		}
		// The server takes one job at a time and queues none: the job must
		// end before the next request, or that one is answered busy.
		var j struct{ ID string }
		if err := json.Unmarshal(body, &j); err != nil || j.ID == "" {
			t.Fatalf("Host %s: solve answered %s", host, body)
		}
		req, _ = http.NewRequest("GET", ts.URL+"/api/jobs/"+j.ID+"/events", nil)
		req.Host = host
		resp, body = do(t, req)
		evs := readEvents(strings.NewReader(string(body)), nil)
		if resp.StatusCode != http.StatusOK || len(evs) == 0 || evs[len(evs)-1].name != "result" || !strings.Contains(evs[len(evs)-1].data, `"status":"solved"`) {
			t.Fatalf("Host %s: events %d %s", host, resp.StatusCode, body)
		}
	}
}

// TestHostAllowed checks the Host rule for listening addresses a test
// cannot open: every interface, a LAN address, IPv6; and the allowed names.
func TestHostAllowed(t *testing.T) {
	s := New(Config{AllowHosts: []string{"soko.example", "Proxy.Example:8443", "[2001:db8::9]"}})
	defer s.Close()
	tests := []struct {
		local, host string
		ok          bool
	}{
		{"127.0.0.1:8080", "127.0.0.1:8080", true},
		{"127.0.0.1:8080", "localhost:8080", true},
		{"127.0.0.1:8080", "[::1]:8080", true},
		{"127.0.0.1:8080", "localhost:8081", false},      // another port
		{"127.0.0.1:8080", "localhost", false},           // port 80
		{"127.0.0.1:8080", "127.0.0.2:8080", false},      // not the address
		{"127.0.0.1:8080", "localhost.:8080", false},     // a DNS name
		{"127.0.0.1:8080", "evil.localhost:8080", false}, // a DNS name
		{"127.0.0.1:80", "localhost", true},
		{"127.0.0.1:80", "127.0.0.1:80", true},
		{"[::1]:8080", "[::1]:8080", true},
		{"[::1]:8080", "localhost:8080", true},
		{"[::ffff:127.0.0.1]:8080", "127.0.0.1:8080", true},
		{"192.0.2.7:8080", "192.0.2.7:8080", true},
		{"192.0.2.7:8080", "localhost:8080", false}, // a loopback name on a LAN address
		{"192.0.2.7:8080", "mybox.lan:8080", false},
		{"192.0.2.7:8080", "192.0.2.8:8080", false},
		{"[2001:db8::1]:8080", "[2001:db8::1]:8080", true},
		{"[2001:db8::1]:8080", "[2001:db8::2]:8080", false},
		{"192.0.2.7:8080", "soko.example", true}, // allowed, any port
		{"192.0.2.7:8080", "SOKO.example:1234", true},
		{"192.0.2.7:8080", "proxy.example:8443", true},
		{"192.0.2.7:8080", "proxy.example:8444", false}, // allowed with another port
		{"192.0.2.7:8080", "proxy.example", false},
		{"192.0.2.7:8080", "[2001:db8::9]:5", true},
		{"192.0.2.7:8080", "", false},
		{"192.0.2.7:8080", "[::1:8080", false},
	}
	for _, tt := range tests {
		r := httptest.NewRequest("GET", "/api/collections", nil)
		r.Host = tt.host
		local, err := net.ResolveTCPAddr("tcp", tt.local)
		if err != nil {
			t.Fatal(err)
		}
		r = r.WithContext(context.WithValue(r.Context(), http.LocalAddrContextKey, local))
		if err := s.hostAllowed(r); (err == nil) != tt.ok {
			t.Errorf("listening on %s, Host %q: allowed %v, want %v (%v)", tt.local, tt.host, err == nil, tt.ok, err)
		}
	}
	// Without the connection's address nothing but an allowed name passes.
	r := httptest.NewRequest("GET", "/", nil)
	r.Host = "localhost:8080"
	if s.hostAllowed(r) == nil {
		t.Error("a request with no local address was allowed")
	}
}

func TestCheckAllowHost(t *testing.T) {
	for _, name := range []string{"soko.example", "soko.example:8443", "192.0.2.1", "[2001:db8::1]:80", "2001:db8::1", "my-box_1.lan"} {
		if err := CheckAllowHost(name); err != nil {
			t.Errorf("%q: %v", name, err)
		}
	}
	for _, name := range []string{"", ":80", "http://soko.example", "soko.example/x", "a b", "soko.example:0", "soko.example:http", "soko.example:99999", "user@host"} {
		if err := CheckAllowHost(name); err == nil {
			t.Errorf("%q accepted", name)
		}
	}
}

// TestCrossOriginRefused: a state-changing request from another site is
// refused with a JSON error, whether the browser says so in Sec-Fetch-Site
// or only its Origin differs from the Host.
func TestCrossOriginRefused(t *testing.T) {
	s, ts := testServer(t, Config{})
	u, _ := url.Parse(ts.URL)
	for _, h := range []map[string]string{
		{"Sec-Fetch-Site": "cross-site", "Origin": "https://evil.example"},
		{"Origin": "https://evil.example"},
	} {
		req, _ := http.NewRequest("POST", ts.URL+"/api/solve", strings.NewReader(`{"collection":"microban","n":1}`))
		req.Header.Set("Content-Type", "application/json")
		for k, v := range h {
			req.Header.Set(k, v)
		}
		resp, body := do(t, req)
		refusal(t, resp, body, http.StatusForbidden, "cross-origin")
		if resp.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("a refusal without the security headers: %v", resp.Header)
		}
	}
	if r, w := s.jobs.load(); r != 0 || w != 0 {
		t.Fatalf("a refused request started a job: %d running, %d waiting", r, w)
	}
	// The page's own requests pass.
	req, _ := http.NewRequest("POST", ts.URL+"/api/verify", strings.NewReader(`{"collection":"microban","n":1,"solution":"l"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", "http://"+u.Host)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	if resp, body := do(t, req); resp.StatusCode != http.StatusOK {
		t.Fatalf("same-origin verify: %d %s", resp.StatusCode, body)
	}
}

// TestMethodNotAllowed sends each API path a method it does not take: 405,
// a JSON error, and the methods it takes in Allow.
func TestMethodNotAllowed(t *testing.T) {
	_, ts := testServer(t, Config{})
	tests := []struct{ method, path, allow string }{
		{"POST", "/api/collections", "GET, HEAD"},
		{"DELETE", "/api/collections/microban", "GET, HEAD"},
		{"PUT", "/api/levels/microban/1", "GET, HEAD"},
		{"GET", "/api/parse", "POST"},
		{"POST", "/api/solvers", "GET, HEAD"},
		{"GET", "/api/solve", "POST"},
		{"PUT", "/api/solve", "POST"},
		{"POST", "/api/jobs/0123", "GET, HEAD, DELETE"},
		{"POST", "/api/jobs/0123/events", "GET, HEAD"},
		{"GET", "/api/jobs/0123/cancel", "POST"},
		{"GET", "/api/verify", "POST"},
		{"DELETE", "/api/analyze", "POST"},
		{"POST", "/", "GET, HEAD"},
		{"PUT", "/index.html", "GET, HEAD"},
	}
	for _, tt := range tests {
		req, _ := http.NewRequest(tt.method, ts.URL+tt.path, strings.NewReader(`{}`))
		req.Header.Set("Content-Type", "application/json")
		resp, body := do(t, req)
		refusal(t, resp, body, http.StatusMethodNotAllowed, "not allowed")
		if got := resp.Header.Get("Allow"); got != tt.allow {
			t.Errorf("%s %s: Allow %q, want %q", tt.method, tt.path, got, tt.allow)
		}
	}
	// HEAD is a GET without the body.
	req, _ := http.NewRequest("HEAD", ts.URL+"/api/collections", nil)
	if resp, _ := do(t, req); resp.StatusCode != http.StatusOK {
		t.Fatalf("HEAD /api/collections: %d", resp.StatusCode)
	}
}
