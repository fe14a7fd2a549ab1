package web

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestLoad sends 50 solve requests at once to a server on loopback that
// takes 2 running and 4 waiting jobs. Every request must get a result or a
// clear busy answer; clients that leave early must have their jobs
// cancelled; the server must answer other requests meanwhile, keep its
// memory near its budget, and be back to its starting goroutines after the
// clients have gone.
func TestLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("load test skipped in -short mode")
	}
	runtime.GC()
	baseline := runtime.NumGoroutine()
	cfg := Config{MaxJobs: 2, MaxQueue: 4, MaxTime: 2 * time.Second, MaxMemory: 64 << 20, IdleCancel: 300 * time.Millisecond}
	s := New(cfg)
	ts := httptest.NewServer(s)
	tr := &http.Transport{MaxIdleConnsPerHost: 64}
	client := &http.Client{Transport: tr, Timeout: 30 * time.Second}
	start := time.Now()

	// Sample the heap while the load runs.
	var peak atomic.Uint64
	stopSampling := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapAlloc > peak.Load() {
				peak.Store(ms.HeapAlloc)
			}
			select {
			case <-stopSampling:
				return
			case <-time.After(50 * time.Millisecond):
			}
		}
	}()

	const clients = 50
	type outcome struct {
		kind   string // "result", "busy", "left"
		status string
		bytes  int64
		id     string
		err    error
	}
	out := make([]outcome, clients)
	var wg sync.WaitGroup
	for i := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			o := &out[i]
			body := fmt.Sprintf(`{"collection":"microban","n":%d,"solver":"astar","time_s":2}`, i+1)
			if i%10 == 9 {
				body = hard // runs until the time is up, unless its client leaves
			}
			req, _ := http.NewRequest("POST", ts.URL+"/api/solve", strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			resp, err := client.Do(req)
			if err != nil {
				o.err = err
				return
			}
			b, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil {
				o.err = err
				return
			}
			switch resp.StatusCode {
			case http.StatusTooManyRequests:
				var busy struct {
					Error string
					Busy  bool
				}
				if err := json.Unmarshal(b, &busy); err != nil || !busy.Busy || !strings.Contains(busy.Error, "busy") {
					o.err = fmt.Errorf("unclear busy answer: %s", b)
				}
				o.kind = "busy"
				return
			case http.StatusAccepted:
			default:
				o.err = fmt.Errorf("status %d: %s", resp.StatusCode, b)
				return
			}
			var j struct{ ID string }
			if err := json.Unmarshal(b, &j); err != nil {
				o.err = err
				return
			}
			o.id = j.ID
			resp, err = client.Get(ts.URL + "/api/jobs/" + j.ID + "/events")
			if err != nil {
				o.err = err
				return
			}
			defer resp.Body.Close()
			if i%2 == 1 {
				// This client leaves after the first event.
				readEvents(resp.Body, func(event) bool { return true })
				o.kind = "left"
				return
			}
			evs := readEvents(resp.Body, nil)
			if len(evs) == 0 || evs[len(evs)-1].name != "result" {
				o.err = fmt.Errorf("stream ended without a result: %+v", evs)
				return
			}
			var r resultJSON
			if err := json.Unmarshal([]byte(evs[len(evs)-1].data), &r); err != nil {
				o.err = err
				return
			}
			o.kind, o.status, o.bytes = "result", r.Status, r.Stats.Bytes
		}()
	}

	// The server stays responsive while the jobs run.
	for range 5 {
		t0 := time.Now()
		resp, err := client.Get(ts.URL + "/api/collections")
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if d := time.Since(t0); resp.StatusCode != 200 || d > 2*time.Second {
			t.Fatalf("GET /api/collections under load: %d after %s", resp.StatusCode, d)
		}
		time.Sleep(100 * time.Millisecond)
	}
	wg.Wait()

	counts := map[string]int{}
	for i, o := range out {
		if o.err != nil {
			t.Errorf("client %d: %v", i, o.err)
			continue
		}
		counts[o.kind]++
		if o.kind == "result" && o.bytes > cfg.MaxMemory {
			t.Errorf("client %d: the search held %d bytes, over the %d budget", i, o.bytes, cfg.MaxMemory)
		}
		if o.kind == "left" {
			j := s.jobs.get(o.id)
			select {
			case <-j.done:
			case <-time.After(10 * time.Second):
				t.Errorf("client %d left but its job %s still runs", i, o.id)
			}
		}
	}
	t.Logf("50 clients: %v in %s; peak heap %d MiB", counts, time.Since(start).Round(time.Millisecond), peak.Load()>>20)
	if counts["busy"] == 0 || counts["result"] == 0 {
		t.Errorf("want both results and busy answers, got %v", counts)
	}
	if counts["busy"] > clients-cfg.MaxJobs-cfg.MaxQueue {
		t.Errorf("%d busy answers; at most %d expected", counts["busy"], clients-cfg.MaxJobs-cfg.MaxQueue)
	}

	// After the burst the server takes new work again.
	id := startJob(t, ts.URL, `{"collection":"microban","n":1}`)
	resp, err := client.Get(ts.URL + "/api/jobs/" + id + "/events")
	if err != nil {
		t.Fatal(err)
	}
	evs := readEvents(resp.Body, nil)
	resp.Body.Close()
	if len(evs) == 0 || !strings.Contains(evs[len(evs)-1].data, `"solved"`) {
		t.Fatalf("after the load: %+v", evs)
	}
	close(stopSampling)
	<-sampled
	if limit := uint64(2*cfg.MaxJobs)*uint64(cfg.MaxMemory) + 256<<20; peak.Load() > limit {
		t.Errorf("peak heap %d MiB, over %d MiB", peak.Load()>>20, limit>>20)
	}

	// Nothing is left behind once the clients have gone.
	s.Close()
	ts.Close()
	tr.CloseIdleConnections()
	http.DefaultTransport.(*http.Transport).CloseIdleConnections()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > baseline && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > baseline {
		buf := make([]byte, 1<<20)
		t.Fatalf("%d goroutines, %d before the server started:\n%s", n, baseline, buf[:runtime.Stack(buf, true)])
	}
	if d := time.Since(start); d > 45*time.Second {
		t.Errorf("the load test took %s", d)
	}
}
