package web

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"sort"
	"sync"
	"time"

	"soko/level"
	"soko/optimize"
	"soko/solve"
	"soko/solver"
)

// Job states, as the API reports them.
const (
	stateQueued  = "queued"
	stateRunning = "running"
	stateDone    = "done"
)

// errBusy is returned by jobs.start when every running and waiting slot is
// taken.
var errBusy = errors.New("busy")

// statsJSON is a search's counters as the API sends them.
type statsJSON struct {
	ElapsedMS    float64 `json:"elapsed_ms"`
	Expanded     int64   `json:"expanded"`
	Generated    int64   `json:"generated"`
	Stored       int64   `json:"stored"`
	Bytes        int64   `json:"bytes"`
	Bound        int     `json:"bound"`
	Iterations   int64   `json:"iterations,omitempty"`
	TreeSize     int64   `json:"tree_size,omitempty"`
	UniqueStates int64   `json:"unique_states,omitempty"`
	// Strategy is the portfolio member that sent the event, or that solved
	// the level; Counts the solver's own counters (solver.Stats).
	Strategy string           `json:"strategy,omitempty"`
	Counts   map[string]int64 `json:"counts,omitempty"`
}

func statsOf(s solver.Stats) statsJSON {
	return statsJSON{
		ElapsedMS: float64(s.Elapsed) / float64(time.Millisecond),
		Expanded:  s.Expanded, Generated: s.Generated, Stored: s.Stored, Bytes: s.Bytes, Bound: s.Bound,
		Iterations: s.Iterations, TreeSize: s.TreeSize, UniqueStates: s.UniqueStates,
		Strategy: s.Strategy, Counts: maps.Clone(s.Counts), // the solver may go on counting in its map
	}
}

// progressJSON is the data of a "progress" event.
type progressJSON struct {
	statsJSON
	Board  []string `json:"board,omitempty"`  // the most promising position so far, XSB rows
	Detail string   `json:"detail,omitempty"` // the solver's words about it (solver.Guard.Describe)
}

// resultJSON is the data of a "result" event: how the search ended.
type resultJSON struct {
	Status   string `json:"status"` // a solver status ("solved", "time limit", …) or "error"
	Solution string `json:"solution,omitempty"`
	Moves    int    `json:"moves"`
	Pushes   int    `json:"pushes"`
	// The solver's own solution, which the optimizer shortened to the
	// above (solve.Run), A*'s when the solver's wandered and A*
	// solved the level again, and the optimizer's time (A*'s included);
	// left out when they did not run.
	FoundMoves  int     `json:"found_moves,omitempty"`
	FoundPushes int     `json:"found_pushes,omitempty"`
	AStarMoves  int     `json:"astar_moves,omitempty"`
	AStarPushes int     `json:"astar_pushes,omitempty"`
	OptimizeMS  float64 `json:"optimize_ms,omitempty"`
	// Optimizer is the metric the optimizer shortened the solution in
	// ("pushes" or "moves") when it ran; Stopped says it was cut short by
	// a cancel (Stop), the solution being the best it had then.
	Optimizer string    `json:"optimizer,omitempty"`
	Stopped   bool      `json:"stopped,omitempty"`
	SolveMS   float64   `json:"solve_ms,omitempty"` // from the start of the run to the search's verified solution
	Stats     statsJSON `json:"stats"`
	Error     string    `json:"error,omitempty"`
}

// foundJSON is the data of a "found" event: the search's verified
// solution, sent the moment it is found (solve.Events.Found), before A*
// searches again or the optimizer shortens it; the result follows.
type foundJSON struct {
	Solution   string    `json:"solution"`
	Moves      int       `json:"moves"`
	Pushes     int       `json:"pushes"`
	SolveMS    float64   `json:"solve_ms"`   // from the start of the run
	Optimizing bool      `json:"optimizing"` // the optimizer works on it next
	Metric     string    `json:"metric,omitempty"`
	Stats      statsJSON `json:"stats"`
}

// improvedJSON is the data of an "improved" event: the optimizer's
// shortest solution so far (solve.Events.Improved), its counts only; the
// solution itself comes with the result. Events that come faster than a
// subscriber reads them are coalesced to the latest.
type improvedJSON struct {
	Moves     int     `json:"moves"`
	Pushes    int     `json:"pushes"`
	ElapsedMS float64 `json:"elapsed_ms"` // since the start of the run
}

// budgetJSON is the budget a job runs under, after the server's caps.
type budgetJSON struct {
	TimeS      float64 `json:"time_s"`
	Nodes      int64   `json:"nodes,omitempty"`
	Iterations int64   `json:"iterations,omitempty"`
	Memory     int64   `json:"memory"`
	Threads    int     `json:"threads"` // CPU slots the job asks for; once running, those it got
}

// job is one solver run. Its fields after mu are guarded by mu; the others
// are fixed at creation.
type job struct {
	id      string
	level   *level.Level
	entry   solver.Entry
	opts    solver.Options
	policy  solve.Policy
	created time.Time
	ctx     context.Context
	cancel  context.CancelFunc
	done    chan struct{} // closed when the run has ended
	slot    *slotWaiter   // its place in the CPU slots' line, or its slots (cpuSlots.enqueue)

	mu       sync.Mutex
	state    string
	started  time.Time
	threads  int // the CPU slots it got, once running: at most its Options.Threads
	progress *progressJSON
	seq      int // counts progress updates
	found    *foundJSON
	improved *improvedJSON
	iseq     int // counts improvements
	result   *resultJSON
	subs     map[chan struct{}]struct{}
	lastSeen time.Time // when the last subscriber left or a client last asked for the job (GET /api/jobs/{id}), or the job was created
	ended    time.Time
}

// snapshot is a consistent copy of a job's changing fields.
type snapshot struct {
	state    string
	threads  int
	progress *progressJSON
	seq      int
	found    *foundJSON
	improved *improvedJSON
	iseq     int
	result   *resultJSON
}

// seen notes that a client asked for the job: one that polls its state
// keeps it alive as an event stream does.
func (j *job) seen() {
	j.mu.Lock()
	j.lastSeen = time.Now()
	j.mu.Unlock()
}

func (j *job) snapshot() snapshot {
	j.mu.Lock()
	defer j.mu.Unlock()
	return snapshot{j.state, j.threads, j.progress, j.seq, j.found, j.improved, j.iseq, j.result}
}

// stop cancels the job unless it has already finished, and returns its
// state then and whether it cancelled it. The state is read and the job
// cancelled under the lock its end is recorded under, so a job whose result
// is in is never reported as cancelled.
func (j *job) stop() (state string, ok bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.state == stateDone {
		return j.state, false
	}
	j.cancel()
	return j.state, true
}

// notifyLocked wakes every subscriber; j.mu must be held.
func (j *job) notifyLocked() {
	for ch := range j.subs {
		select {
		case ch <- struct{}{}:
		default: // a wake-up is already pending
		}
	}
}

// subscribe registers a watcher; the returned channel receives a value
// (coalesced) whenever the job changes.
func (j *job) subscribe() chan struct{} {
	ch := make(chan struct{}, 1)
	j.mu.Lock()
	j.subs[ch] = struct{}{}
	j.mu.Unlock()
	return ch
}

func (j *job) unsubscribe(ch chan struct{}) {
	j.mu.Lock()
	delete(j.subs, ch)
	j.lastSeen = time.Now()
	j.mu.Unlock()
}

// jobs runs solver jobs: cfg.MaxJobs CPU slots, a job with n threads taking
// up to n of them (cpuSlots; so at most cfg.MaxJobs one-thread jobs run at
// once), with at most cfg.MaxQueue more jobs waiting for a slot. A job nobody watches for
// cfg.IdleCancel is cancelled; finished jobs are kept for cfg.Retain so a
// late subscriber still gets the result.
type jobs struct {
	cfg   Config
	ctx   context.Context // cancelled by close: every job ends
	stop  context.CancelFunc
	slots *cpuSlots
	wg    sync.WaitGroup
	quit  chan struct{} // stops the reaper

	mu     sync.Mutex
	byID   map[string]*job
	active int // queued + running
	closed bool
}

func newJobs(cfg Config) *jobs {
	ctx, stop := context.WithCancel(context.Background())
	m := &jobs{cfg: cfg, ctx: ctx, stop: stop, slots: newCPUSlots(cfg.MaxJobs),
		quit: make(chan struct{}), byID: map[string]*job{}}
	m.wg.Add(1)
	go m.reap()
	return m
}

func newID() string {
	var b [12]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return hex.EncodeToString(b[:])
}

// start queues a run of e on l; it returns errBusy when the queue is full.
func (m *jobs) start(l *level.Level, e solver.Entry, opts solver.Options, pol solve.Policy) (*job, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, errors.New("the server is shutting down")
	}
	// The job takes free slots now, or its place in the line, where
	// MaxQueue may wait: so every job accepted is counted, with the slots
	// it holds, before the next is looked at.
	w, ok := m.slots.enqueue(max(opts.Threads, 1), m.cfg.MaxQueue)
	if !ok {
		return nil, errBusy
	}
	ctx, cancel := context.WithCancel(m.ctx)
	now := time.Now()
	j := &job{id: newID(), level: l, entry: e, opts: opts, policy: pol, created: now, ctx: ctx, cancel: cancel,
		done: make(chan struct{}), state: stateQueued, subs: map[chan struct{}]struct{}{}, lastSeen: now, slot: w}
	if w.isGranted() { // running from now, as the answer says (run sets the same once it starts)
		j.state, j.started, j.threads = stateRunning, now, w.granted
	}
	m.byID[j.id] = j
	m.active++
	m.wg.Add(1)
	go m.run(j)
	return j, nil
}

// load returns the number of running and waiting jobs.
func (m *jobs) load() (running, waiting int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	running = m.slots.jobs()
	return running, m.active - running
}

func (m *jobs) get(id string) *job {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.byID[id]
}

// run waits for a slot, runs the solver and records its result.
func (m *jobs) run(j *job) {
	defer m.wg.Done()
	defer j.cancel()
	res := func() *resultJSON {
		n, err := m.slots.wait(j.ctx, j.slot)
		if err != nil {
			return &resultJSON{Status: solver.Cancelled.String()}
		}
		defer m.slots.release(n)
		j.mu.Lock()
		j.state, j.started, j.threads = stateRunning, time.Now(), n
		j.notifyLocked()
		j.mu.Unlock()
		return m.solve(j, n)
	}()
	m.mu.Lock()
	m.active--
	m.mu.Unlock()
	j.mu.Lock()
	j.state, j.result, j.ended = stateDone, res, time.Now()
	j.notifyLocked()
	j.mu.Unlock()
	close(j.done)
}

// solve runs the search on the threads the job got; a panic in a solver
// becomes an error result rather than taking the server down.
func (m *jobs) solve(j *job, threads int) (out *resultJSON) {
	defer func() {
		if p := recover(); p != nil {
			out = &resultJSON{Status: "error", Error: fmt.Sprintf("solver %s crashed: %v", j.entry.Name, p)}
		}
	}()
	opts := j.opts
	opts.Threads = threads
	opts.Progress = func(p solver.Progress) {
		ev := &progressJSON{statsJSON: statsOf(p.Stats), Board: p.Board, Detail: p.Detail}
		j.mu.Lock()
		if ev.Board == nil && j.progress != nil { // keep the last board drawn, and its words
			ev.Board = j.progress.Board
			if ev.Detail == "" {
				ev.Detail = j.progress.Detail
			}
		}
		j.progress = ev
		j.seq++
		j.notifyLocked()
		j.mu.Unlock()
	}
	pol := j.policy
	pol.Events = solve.Events{Found: j.foundOne, Improved: j.improve}
	res, err := solve.Run(j.ctx, j.entry.New(), j.level, opts, pol)
	if err != nil {
		return &resultJSON{Status: "error", Error: err.Error(), Stats: statsOf(res.Stats)}
	}
	r := &resultJSON{Status: res.Status.String(), Stats: statsOf(res.Stats), Pushes: res.Pushes}
	if res.Status == solver.Solved {
		r.Solution = level.FormatLURD(res.Moves)
		r.Moves = len(res.Moves)
		r.SolveMS = millis(res.SolveTime)
		if res.Optimized {
			r.FoundMoves, r.FoundPushes = res.Found.Moves, res.Found.Pushes
			r.AStarMoves, r.AStarPushes = res.Resolved.Moves, res.Resolved.Pushes
			r.OptimizeMS = millis(res.Time)
			r.Optimizer = metricName(pol.Metric)
			r.Stopped = !res.Complete && j.ctx.Err() != nil
		}
	}
	return r
}

// metricName is the metric the optimizer shortens first, as the API names
// it: "pushes" or "moves".
func metricName(m optimize.Metric) string {
	if m == optimize.Moves {
		return "moves"
	}
	return "pushes"
}

func millis(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// foundOne records the search's verified solution for the "found" event
// (solve.Events.Found).
func (j *job) foundOne(o solve.Outcome) {
	f := &foundJSON{Solution: level.FormatLURD(o.Moves), Moves: len(o.Moves), Pushes: o.Pushes,
		SolveMS: millis(o.SolveTime), Optimizing: !j.policy.Off && j.ctx.Err() == nil, Stats: statsOf(o.Stats)}
	if f.Optimizing {
		f.Metric = metricName(j.policy.Metric)
	}
	j.mu.Lock()
	j.found = f
	j.notifyLocked()
	j.mu.Unlock()
}

// improve records the optimizer's shortest solution so far for the
// "improved" event (solve.Events.Improved).
func (j *job) improve(s optimize.Score) {
	j.mu.Lock()
	j.improved = &improvedJSON{Moves: s.Moves, Pushes: s.Pushes, ElapsedMS: millis(time.Since(j.started))}
	j.iseq++
	j.notifyLocked()
	j.mu.Unlock()
}

// reap cancels jobs nobody watches and forgets old finished ones.
func (m *jobs) reap() {
	defer m.wg.Done()
	every := max(m.cfg.IdleCancel/4, 20*time.Millisecond)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-m.quit:
			return
		case now := <-t.C:
			m.sweep(now)
		}
	}
}

// maxFinished is the most finished jobs kept for late subscribers.
const maxFinished = 256

func (m *jobs) sweep(now time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var finished []*job
	for id, j := range m.byID {
		j.mu.Lock()
		switch {
		case j.state == stateDone:
			if now.Sub(j.ended) > m.cfg.Retain {
				delete(m.byID, id)
			} else {
				finished = append(finished, j)
			}
		case len(j.subs) == 0 && now.Sub(j.lastSeen) > m.cfg.IdleCancel:
			j.cancel()
		}
		j.mu.Unlock()
	}
	if len(finished) > maxFinished {
		sort.Slice(finished, func(a, b int) bool { return finished[a].ended.Before(finished[b].ended) })
		for _, j := range finished[:len(finished)-maxFinished] {
			delete(m.byID, j.id)
		}
	}
}

// close cancels every job, waits for them and the reaper to end, and
// refuses new jobs.
func (m *jobs) close() {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return
	}
	m.closed = true
	m.mu.Unlock()
	m.stop()
	close(m.quit)
	m.wg.Wait()
}
