package main

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net/http"
	"regexp"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

	"soko/solver"
	"soko/web"
)

// syncBuffer is a strings.Builder safe for one writer and one reader.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startServe runs soko serve with args on a goroutine until ctx ends, and
// returns its standard output and error and its end.
func startServe(ctx context.Context, args ...string) (out, errOut *syncBuffer, done <-chan error) {
	out, errOut = &syncBuffer{}, &syncBuffer{}
	end := make(chan error, 1)
	go func() { end <- run(ctx, append([]string{"serve"}, args...), strings.NewReader(""), out, errOut) }()
	return out, errOut, end
}

// TestServeShutdown runs soko serve on a free port, starts a long solver
// job and watches its events, then cancels the context as SIGINT would:
// the stream ends with a cancelled result and run returns promptly.
func TestServeShutdown(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out, errOut, done := startServe(ctx, "--addr", "127.0.0.1:0", "-j", "1", "--queue", "0", "--time", "30s", "--memory", "64MiB")
	re := regexp.MustCompile(`http://(127\.0\.0\.1:\d+)/`)
	var base string
	for deadline := time.Now().Add(10 * time.Second); base == ""; time.Sleep(10 * time.Millisecond) {
		if m := re.FindStringSubmatch(out.String()); m != nil {
			base = "http://" + m[1]
		} else if time.Now().After(deadline) {
			t.Fatalf("no address printed: %q", out.String())
		}
	}
	if !strings.Contains(out.String(), "(1 job at once, 0 waiting,") {
		t.Errorf("start-up line: %q", out.String())
	}
	// The soft memory limit is solve's and bench's for one worker of 64 MiB.
	if got, want := debug.SetMemoryLimit(-1), memoryLimit(1, 64<<20); got != want {
		t.Errorf("soft memory limit %d, want %d", got, want)
	}
	resp, err := http.Post(base+"/api/solve", "application/json", strings.NewReader(`{"collection":"xsokoban90","n":90,"solver":"astar"}`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	id := regexp.MustCompile(`"id":"([0-9a-f]+)"`).FindStringSubmatch(string(b))
	if resp.StatusCode != http.StatusAccepted || id == nil {
		t.Fatalf("solve: %d %s", resp.StatusCode, b)
	}
	// One job at once and no queue: a second request is told the server is busy.
	resp2, err := http.Post(base+"/api/solve", "application/json", strings.NewReader(`{"collection":"microban","n":1}`))
	if err != nil {
		t.Fatal(err)
	}
	b2, _ := io.ReadAll(resp2.Body)
	resp2.Body.Close()
	if resp2.StatusCode != http.StatusTooManyRequests || !strings.Contains(string(b2), "busy: 1 solver job running and 0 waiting") {
		t.Fatalf("second job: %d %s", resp2.StatusCode, b2)
	}
	events, err := http.Get(base + "/api/jobs/" + id[1] + "/events")
	if err != nil {
		t.Fatal(err)
	}
	defer events.Body.Close()
	sc := bufio.NewScanner(events.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() && !strings.HasPrefix(sc.Text(), "event: progress") {
	}
	cancel() // SIGINT
	var last string
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "data: ") {
			last = sc.Text()
		}
	}
	if !strings.Contains(last, `"status":"cancelled"`) {
		t.Fatalf("last event after shutdown: %q", last)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve returned %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop within 10 s of the signal")
	}
	if !strings.Contains(out.String(), "server stopped") {
		t.Fatalf("output: %q", out.String())
	}
	if errOut.String() != "" {
		t.Fatalf("on loopback soko serve said on stderr: %q", errOut.String())
	}
}

// TestServeExposed listens on every interface: soko serve warns on stderr
// that it is open to the network, and the names given with --allow-host
// (repeated, comma lists) are accepted in the Host header, others refused.
func TestServeExposed(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out, errOut, done := startServe(ctx, "--addr", "0.0.0.0:0", "--allow-host", "soko.example, other.example:8443", "--allow-host", "third.example")
	re := regexp.MustCompile(`http://127\.0\.0\.1:(\d+)/`)
	var port string
	for deadline := time.Now().Add(10 * time.Second); port == ""; time.Sleep(10 * time.Millisecond) {
		if m := re.FindStringSubmatch(out.String()); m != nil {
			port = m[1]
		} else if time.Now().After(deadline) {
			t.Fatalf("no address printed: %q %q", out.String(), errOut.String())
		}
	}
	warn := errOut.String()
	for _, want := range []string{"warning", "every network interface (port " + port + ")", "without authentication", "--allow-host", "docs/web.md"} {
		if !strings.Contains(warn, want) {
			t.Errorf("the warning does not say %q: %q", want, warn)
		}
	}
	for host, status := range map[string]int{
		"127.0.0.1:" + port:        http.StatusOK,
		"soko.example:" + port:     http.StatusOK,
		"third.example":            http.StatusOK,
		"other.example:8443":       http.StatusOK,
		"other.example:" + port:    http.StatusForbidden,
		"attacker.example:" + port: http.StatusForbidden,
	} {
		req, _ := http.NewRequest("GET", "http://127.0.0.1:"+port+"/api/collections", nil)
		req.Host = host
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != status {
			t.Errorf("Host %s: %d %s, want %d", host, resp.StatusCode, b, status)
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("serve returned %v", err)
	}
}

func TestServeUsage(t *testing.T) {
	for _, args := range [][]string{
		{"serve", "extra"},
		{"serve", "--jobs", "0"},
		{"serve", "-j", "0"},
		{"serve", "--queue", "-1"},
		{"serve", "--memory", "lots"},
		{"serve", "--memory", "0"},
		{"serve", "--time", "0"},
		{"serve", "--idle", "0s"},
		{"serve", "--max-body", "0"},
		{"serve", "--allow-host", "http://soko.example"},
		{"serve", "--allow-host", "soko.example,"},
		{"serve", "--allow-host", "soko.example:0"},
		{"play"},
		{"play", "microban:1-2"},
		{"play", "--speed", "0", "microban:1"},
	} {
		_, _, err := soko(t, "", args...)
		var u usageError
		if !errors.As(err, &u) {
			t.Errorf("%q: %v, want a usage error", args, err)
		}
	}
	if _, _, err := soko(t, "", "serve", "--addr", "256.1.1.1:99999"); err == nil {
		t.Error("a bad address was accepted")
	}
	// 0 is no limit on solve and bench; a server refuses it and says why.
	for _, f := range []string{"--time", "--memory"} {
		if msg := usage(t, "", "serve", f, "0"); !strings.Contains(msg, f+" 0 (no limit, as on solve and bench) is refused") {
			t.Errorf("serve %s 0: %q", f, msg)
		}
	}
	// -j is --jobs, as on solve and bench.
	for _, args := range [][]string{{"-j", "3"}, {"--jobs", "3"}} {
		fs, c := serveFlags()
		if _, err := parseArgs(fs, args); err != nil || c.web.MaxJobs != 3 {
			t.Errorf("serve %v: %v, %d jobs", args, err, c.web.MaxJobs)
		}
	}
	// Help names the values as solve's and bench's does, and points at
	// docs/web.md, where the page, the API and exposing it are written up.
	out, _, _ := soko(t, "", "help", "serve")
	for _, want := range []string{"see docs/web.md", "--addr HOST:PORT", "--jobs, -j N", "--time D", "--memory SIZE", "--max-body SIZE", "--idle D", "--queue N"} {
		if !strings.Contains(out, want) {
			t.Errorf("help serve lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "VALUE") {
		t.Errorf("help serve names a value VALUE:\n%s", out)
	}
	for _, cmd := range []string{"serve", "play"} {
		out, _, err := soko(t, "", "help", cmd)
		if err != nil || !strings.Contains(out, "usage: soko "+cmd) {
			t.Errorf("help %s: %v\n%s", cmd, err, out)
		}
	}
}

// TestServeMemoryByJobs: without --memory a job gets a third of physical
// memory shared by the --jobs slots (at most web.MemoryCap), as solve and
// bench share it by -j.
func TestServeMemoryByJobs(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out, errOut, done := startServe(ctx, "--addr", "127.0.0.1:0", "--jobs", "24")
	want := "and " + formatBytes(min(web.MemoryCap, solver.DefaultMemory(24))) + " per job"
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(out.String(), "serving on"); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no start-up line: %q %q", out.String(), errOut.String())
		}
	}
	if !strings.Contains(out.String(), want) {
		t.Errorf("start-up line %q, want %q", out.String(), want)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
