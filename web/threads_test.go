package web

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"strings"
	"testing"
	"time"

	"soko/levels"
	"soko/solve"
	"soko/solver"
)

// TestSolveThreads: "threads" is checked like soko solve's --threads (a
// whole number; 0 means 1), cut to the server's CPU slots, and answered in
// the job's budget; GET /api/limits tells the most.
func TestSolveThreads(t *testing.T) {
	_, ts := testServer(t, Config{MaxJobs: 2, MaxQueue: 4})
	for _, tc := range []struct {
		threads string
		status  int
		want    int    // threads in the budget
		msg     string // in the error
	}{
		{"", http.StatusAccepted, 1, ""},
		{`,"threads":0`, http.StatusAccepted, 1, ""},
		{`,"threads":2`, http.StatusAccepted, 2, ""},
		{`,"threads":100`, http.StatusAccepted, 2, ""},
		{`,"threads":-1`, http.StatusBadRequest, 0, "bad threads -1: want a whole number, at least 1 (at most 2 here)"},
		{`,"threads":1.5`, http.StatusBadRequest, 0, "bad JSON"},
		{`,"threads":"2"`, http.StatusBadRequest, 0, "bad JSON"},
	} {
		resp, body := post(t, ts.URL+"/api/solve", `{"collection":"microban","n":1,"solver":"portfolio","time_s":5`+tc.threads+`}`)
		checkThreads(t, resp, body, tc.threads, tc.status, tc.want, tc.msg)
	}
	// A solver that runs on one thread holds one slot, whatever it asks.
	resp, body := post(t, ts.URL+"/api/solve", `{"collection":"microban","n":1,"solver":"astar","time_s":5,"threads":2}`)
	checkThreads(t, resp, body, "astar 2", http.StatusAccepted, 1, "")
	lim, err := http.Get(ts.URL + "/api/limits")
	if err != nil {
		t.Fatal(err)
	}
	defer lim.Body.Close()
	var limits struct {
		MaxThreads int `json:"max_threads"`
	}
	if err := json.NewDecoder(lim.Body).Decode(&limits); err != nil || limits.MaxThreads != 2 {
		t.Errorf("limits: max_threads %d, %v; want 2", limits.MaxThreads, err)
	}
}

// checkThreads checks the answer to a solve request asking for threads:
// its status, the threads in the job's budget, the words of its error.
func checkThreads(t *testing.T, resp *http.Response, body []byte, threads string, status, want int, msg string) {
	t.Helper()
	var a struct {
		Error  string
		ID     string
		Budget budgetJSON
	}
	if err := json.Unmarshal(body, &a); err != nil || resp.StatusCode != status || a.Budget.Threads != want || !strings.Contains(a.Error, msg) {
		t.Errorf("threads %q: %d %s; want %d, %d threads, %q", threads, resp.StatusCode, body, status, want, msg)
	}
}

// TestQueueWithThreads: the jobs waiting are counted beyond those the
// free slots will take, so a two-thread job holding both slots of a
// server with no queue leaves no room for another.
func TestQueueWithThreads(t *testing.T) {
	s, ts := testServer(t, Config{MaxJobs: 2, MaxQueue: 0})
	big := startJob(t, ts.URL, strings.Replace(hardThreads, `"time_s"`, `"threads":2,"time_s"`, 1))
	waitState(t, s, big, stateRunning)
	if resp, body := post(t, ts.URL+"/api/solve", hard); resp.StatusCode != http.StatusTooManyRequests {
		t.Errorf("a job beside a two-thread job on two slots and no queue: %d %s; want 429", resp.StatusCode, body)
	}
	s.jobs.get(big).cancel()
}

// TestQueueBurst: jobs started back to back are counted with the slots
// they take as each is accepted, not when its goroutine gets to the
// slots: two two-thread jobs on two slots and no queue leave the second
// refused, and with a queue of 1 the third.
func TestQueueBurst(t *testing.T) {
	c, err := levels.Collection("xsokoban90")
	if err != nil {
		t.Fatal(err)
	}
	fess, _ := solver.Lookup("fess")
	for _, queue := range []int{0, 1} {
		s, _ := testServer(t, Config{MaxJobs: 2, MaxQueue: queue})
		for i := range queue + 2 {
			j, err := s.jobs.start(c.Levels[88], fess, solver.Options{Threads: 2, Budget: solver.Budget{Time: time.Minute}}, solve.Policy{})
			if i <= queue && err != nil || i > queue && !errors.Is(err, errBusy) {
				t.Errorf("queue %d: job %d of two threads started back to back on two slots: %v", queue, i+1, err)
			}
			if j != nil {
				defer j.cancel()
			}
		}
	}
}

// TestThreadsTakeSlots: a job with two threads takes both CPU slots of a
// two-slot server, so a one-thread job waits for it, and runs once it ends.
func TestThreadsTakeSlots(t *testing.T) {
	s, ts := testServer(t, Config{MaxJobs: 2, MaxQueue: 2})
	big := startJob(t, ts.URL, strings.Replace(hardThreads, `"time_s"`, `"threads":2,"time_s"`, 1))
	waitState(t, s, big, stateRunning)
	small := startJob(t, ts.URL, hard)
	deadline := time.Now().Add(10 * time.Second)
	for {
		waiting := s.jobs.slots.lineLength()
		if st := s.jobs.get(small).snapshot().state; st != stateQueued {
			t.Fatalf("a one-thread job is %s beside a two-thread job on two slots", st)
		}
		if waiting == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the one-thread job never asked for its slot")
		}
		time.Sleep(time.Millisecond)
	}
	if r, w := s.jobs.load(); r != 1 || w != 1 {
		t.Errorf("load: %d running, %d waiting; want 1 and 1", r, w)
	}
	s.jobs.get(big).cancel()
	waitState(t, s, small, stateRunning)
	s.jobs.get(small).cancel()
}

func waitState(t *testing.T, s *Server, id, state string) {
	t.Helper()
	j := s.jobs.get(id)
	deadline := time.Now().Add(10 * time.Second)
	for j.snapshot().state != state {
		if time.Now().After(deadline) {
			t.Fatalf("job %s is %s, never %s", id, j.snapshot().state, state)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestCPUSlots: a job takes up to the slots it asks for as soon as one is
// free, in the order asked, so a job with more threads neither waits for
// all of them nor is overtaken; a wait given up holds nothing.
func TestCPUSlots(t *testing.T) {
	s := newCPUSlots(3)
	ctx := context.Background()
	take := func(n, want int) {
		t.Helper()
		if got, err := s.acquire(ctx, n); err != nil || got != want {
			t.Fatalf("asking %d of %d free: took %d, %v; want %d", n, s.free+got, got, err, want)
		}
	}
	take(2, 2)
	take(3, 1) // one free: it runs on that one at once
	got := make(chan [2]int, 2)
	for k, n := range []int{2, 1} {
		go func() { g, _ := s.acquire(ctx, n); got <- [2]int{n, g} }()
		for s.lineLength() != k+1 {
			time.Sleep(time.Millisecond)
		}
	}
	gave, stop := context.WithCancel(ctx)
	stop()
	if n, err := s.acquire(gave, 1); err == nil || n != 0 {
		t.Fatalf("a cancelled wait took %d slots", n)
	}
	s.release(1)
	if g := <-got; g != [2]int{2, 1} {
		t.Fatalf("one slot freed: the job asking %d took %d; want the job asking 2, which asked first, on 1", g[0], g[1])
	}
	s.release(2)
	if g := <-got; g != [2]int{1, 1} {
		t.Fatalf("then the job asking %d took %d; want 1 and 1", g[0], g[1])
	}
	if s.free != 1 || s.jobs() != 2 || s.lineLength() != 0 {
		t.Errorf("%d free, %d jobs, %d waiting; want 1, 2, 0", s.free, s.jobs(), s.lineLength())
	}
	s.release(1)
	s.release(1)
	if s.free != 3 || s.jobs() != 0 {
		t.Errorf("at the end: %d free, %d jobs; want 3, 0", s.free, s.jobs())
	}
}

// TestThreadsFewerSlots: a two-thread job on a two-slot server where a
// one-thread job runs starts at once on the free slot, and its budget and
// state event say it runs on one thread.
func TestThreadsFewerSlots(t *testing.T) {
	s, ts := testServer(t, Config{MaxJobs: 2, MaxQueue: 2})
	small := startJob(t, ts.URL, hard)
	waitState(t, s, small, stateRunning)
	big := startJob(t, ts.URL, strings.Replace(hardThreads, `"time_s"`, `"threads":2,"time_s"`, 1))
	waitState(t, s, big, stateRunning)
	resp, err := http.Get(ts.URL + "/api/jobs/" + big)
	if err != nil {
		t.Fatal(err)
	}
	var info struct{ Budget budgetJSON }
	err = json.NewDecoder(resp.Body).Decode(&info)
	resp.Body.Close()
	if err != nil || info.Budget.Threads != 1 {
		t.Errorf("the job's budget: %+v, %v; want 1 thread", info.Budget, err)
	}
	ev, err := http.Get(ts.URL + "/api/jobs/" + big + "/events")
	if err != nil {
		t.Fatal(err)
	}
	defer ev.Body.Close()
	evs := readEvents(ev.Body, func(e event) bool { return e.name == "state" })
	if len(evs) == 0 || !strings.Contains(evs[len(evs)-1].data, `"threads":1`) || !strings.Contains(evs[len(evs)-1].data, `"state":"running"`) {
		t.Errorf("events %+v; want a state event running on 1 thread", evs)
	}
	s.jobs.get(big).cancel()
	s.jobs.get(small).cancel()
}

// lineLength returns the number of jobs waiting for slots.
func (s *cpuSlots) lineLength() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.waiting)
}

// acquire waits for its turn and a free slot, then takes up to n free
// slots and returns how many it took (at least 1), or returns ctx's error
// without holding any: a job's enqueue and wait with no queue limit.
func (s *cpuSlots) acquire(ctx context.Context, n int) (int, error) {
	w, _ := s.enqueue(n, math.MaxInt)
	return s.wait(ctx, w)
}
