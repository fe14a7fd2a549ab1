package web

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"soko/internal/english"
	"soko/optimize"
	"soko/solve"
	"soko/solver"
)

// solveRequest is the body of POST /api/solve. Zero budgets mean the
// server's caps; larger ones are cut to them. Threads is soko solve's
// --threads: 0 means 1, more than Config.MaxJobs is cut to it, and a job
// takes one of the server's MaxJobs CPU slots per thread.
type solveRequest struct {
	levelRef
	Solver     string            `json:"solver"`
	TimeS      float64           `json:"time_s"`
	Nodes      int64             `json:"nodes"`
	Iterations int64             `json:"iterations"`
	Seed       uint64            `json:"seed"`
	MemoryMiB  int64             `json:"memory_mib"`
	Threads    int               `json:"threads"`
	Params     map[string]string `json:"params"`
	Optimize   string            `json:"optimize"` // "on" (or left out) or "off"
	Metric     string            `json:"metric"`   // "pushes" (or left out) or "moves"
}

func (s *Server) solve(w http.ResponseWriter, r *http.Request) {
	var req solveRequest
	l, ok := s.decodeLevel(w, r, &req)
	if !ok {
		return
	}
	name := req.Solver
	if name == "" {
		name = "fess"
	}
	entry, ok := solver.Lookup(name)
	if !ok {
		var names []string
		for _, e := range solver.Entries() {
			names = append(names, e.Name)
		}
		writeError(w, http.StatusBadRequest, "unknown solver %q (known: %s)", name, strings.Join(names, ", "))
		return
	}
	if len(req.Params) > maxParams {
		writeError(w, http.StatusBadRequest, "at most %d parameters", maxParams)
		return
	}
	for k, v := range req.Params {
		if len(k) > maxParamLen || len(v) > maxParamLen {
			writeError(w, http.StatusBadRequest, "parameter names and values are at most %d bytes", maxParamLen)
			return
		}
	}
	if err := solver.CheckParams(entry, req.Params); err != nil {
		writeError(w, http.StatusBadRequest, "%v", err)
		return
	}
	if req.TimeS < 0 || req.Nodes < 0 || req.Iterations < 0 || req.MemoryMiB < 0 {
		writeError(w, http.StatusBadRequest, "budgets must not be negative")
		return
	}
	if req.Threads < 0 {
		writeError(w, http.StatusBadRequest, "bad threads %d: want a whole number, at least 1 (at most %d here)", req.Threads, s.cfg.MaxJobs)
		return
	}
	threads := min(max(req.Threads, 1), s.cfg.MaxJobs)
	if !entry.Threads { // it runs on one: no slots held for threads it ignores, as on soko solve
		threads = 1
	}
	b := solver.Budget{Time: s.cfg.MaxTime, Nodes: req.Nodes, Iterations: req.Iterations, Memory: s.cfg.MaxMemory}
	if req.TimeS > 0 && req.TimeS < s.cfg.MaxTime.Seconds() {
		b.Time = max(time.Duration(req.TimeS*float64(time.Second)), time.Millisecond)
	}
	if req.MemoryMiB > 0 && req.MemoryMiB < s.cfg.MaxMemory>>20 {
		b.Memory = req.MemoryMiB << 20
	}
	var pol solve.Policy
	switch req.Optimize {
	case "", "on":
	case "off":
		pol.Off = true
	default:
		writeError(w, http.StatusBadRequest, "bad optimize %q: want on or off", req.Optimize)
		return
	}
	if req.Metric != "" {
		m, err := optimize.ParseMetric(req.Metric)
		if err != nil {
			writeError(w, http.StatusBadRequest, "bad metric %q: want pushes or moves", req.Metric)
			return
		}
		pol.Metric = m
	}
	seed := req.Seed
	if seed == 0 {
		seed = 1
	}
	j, err := s.jobs.start(l, entry, solver.Options{Budget: b, Seed: seed, Params: req.Params, Threads: threads}, pol)
	if errors.Is(err, errBusy) {
		running, waiting := s.jobs.load()
		w.Header().Set("Retry-After", "5")
		writeJSON(w, http.StatusTooManyRequests, map[string]any{
			"error":   fmt.Sprintf("busy: %s running and %d waiting, the most this server takes; try again later", english.Count(running, "solver job", "solver jobs"), waiting),
			"busy":    true,
			"running": running,
			"waiting": waiting,
		})
		return
	}
	if err != nil {
		writeError(w, http.StatusServiceUnavailable, "%v", err)
		return
	}
	writeJSON(w, http.StatusAccepted, map[string]any{
		"id":     j.id,
		"events": "/api/jobs/" + j.id + "/events",
		"state":  j.snapshot().state,
		"budget": budgetOf(j.opts),
	})
}

func budgetOf(o solver.Options) budgetJSON {
	b := o.Budget
	return budgetJSON{TimeS: b.Time.Seconds(), Nodes: b.Nodes, Iterations: b.Iterations, Memory: b.Memory, Threads: max(o.Threads, 1)}
}
