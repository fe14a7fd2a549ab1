// Package web is `soko serve`: one embedded page (static/index.html, plain
// JavaScript and a canvas, no build step) to play levels, run any registered
// solver and watch it think, replay and verify solutions and see the static
// analysis; and the JSON API the page itself uses.
//
// # API
//
// Every answer is JSON, errors too: {"error": "...", "line": L, "col": C}
// (line and col only for level and LURD text). Request bodies are JSON
// (Content-Type application/json) of at most Config.MaxBody bytes. A level
// in a request is {"collection": "microban", "n": 1} or {"xsb": "text"}
// (with "n" picking one level of a pasted collection, default 1).
//
//	GET    /api/collections              [{name, levels, description}]
//	GET    /api/collections/{name}       {name, levels: [{n, title, width, height, boxes}]}
//	GET    /api/levels/{collection}/{n}  a level: {id, title, author, width, height, rows, xsb}
//	POST   /api/parse                    {xsb, n?} → the level, or 400 with the parser's position
//	GET    /api/solvers                  [{name, summary, params, param_specs, threads, spare_threads}]
//	GET    /api/limits                   {max_solution_steps, max_solution_text, max_level_text, max_body, max_time_s, max_memory_mib, max_threads}
//	POST   /api/solve                    {level…, solver, time_s, nodes, iterations, seed, memory_mib, threads, params,
//	                                     optimize, metric} → 202 {id, events, state, budget}; 429 {error, running,
//	                                     waiting} when busy
//	GET    /api/jobs/{id}                {id, state, solver, level, budget, progress?, found?, improved?, result?}
//	GET    /api/jobs/{id}/events         Server-Sent Events (below)
//	DELETE /api/jobs/{id}                cancel (POST /api/jobs/{id}/cancel too): 202; 409 {error, state}
//	                                     when the job has already finished
//	POST   /api/verify                   {level…, solution} → {solved, moves, pushes, steps, fail_step, reason}
//	                                     (at most level.MaxSolutionSteps steps, as on the command line)
//	POST   /api/sok                      {level…, solution?, solver?, optimized?, date?} → {level, name, sok}: the
//	                                     level as a .sok file (package sokfile), with the solution's section
//	POST   /api/sok/collection           {collection, solutions: [{n, solution, solver?, optimized?, date?}]}
//	                                     → {name, sok, solutions, skipped}: the collection as one .sok file
//	POST   /api/analyze                  {level…} → {dead, tunnels, rooms, text, …} (within Config.PlanTime)
//	POST   /api/plan                     {level…} → {level, order}: the fess packing plan, goals as [x, y]
//	                                     in fill order, worked out within Config.PlanTime (503 past it)
//
// At most Config.MaxSetup plans and analyses are worked out at once, apart
// from the solver jobs; one more is answered 429 {error, busy, running}
// with Retry-After.
//
// The event stream of a job sends "state" ({state, running, waiting}; and
// threads, the CPU slots it got, once running) when it is queued and when it
// starts, "progress" (elapsed_ms, expanded,
// generated, stored, bytes, bound, iterations, tree_size, unique_states,
// strategy and counts, board, the most promising position as XSB rows, and
// detail, the solver's words about it, see solver.Guard.Describe) about ten
// times a second while it runs, "found" ({solution, moves, pushes, solve_ms,
// optimizing, metric, stats}) the moment the search's solution is verified,
// "improved" ({moves, pushes, elapsed_ms}) each time the optimizer shortens
// it (coalesced to the latest for a slow reader), and one "result" ({status,
// solution, moves, pushes, found_moves, found_pushes, optimizer, stopped,
// solve_ms, optimize_ms, stats, error}; stats with the same counters,
// strategy naming the portfolio member that solved the level) at the end,
// after which the server closes the stream. A Stop while the optimizer
// runs ends the job "solved" with the shortest solution it had then
// (stopped true). A client that connects after the end gets the
// result at once.
//
// # Limits
//
// Config holds them: request body size, CPU slots for jobs (a job takes one
// per thread it asks for, at most MaxJobs) and jobs waiting for them,
// plans and analyses worked out at once, the time and memory budget of
// every job (a request asks for less, never more), and how long a job may
// go without an event-stream subscriber before it is cancelled (a page
// that closes stops its solver), and the connections open at once, in all
// and from one client address (conns.go).
//
// # Guards
//
// A request whose Host header does not name the address it came in on (or
// localhost, 127.0.0.1 or [::1] on a loopback address, or a name in
// Config.AllowHosts) is refused with 403, which defends against DNS
// rebinding; so are cross-origin requests that change state (net/http's
// CrossOriginProtection), so another web site cannot start jobs through a
// visitor's browser. A method a path does not take gets 405 with Allow.
// Every refusal is the JSON error above.
package web

import (
	"context"
	"embed"
	"errors"
	"io/fs"
	"net"
	"net/http"
	"path"
	"runtime"
	"strings"
	"time"

	"soko/solver"
)

//go:embed static
var static embed.FS

// Config holds the server's limits. Zero fields take the defaults of
// DefaultConfig.
type Config struct {
	MaxBody    int64         // bytes in a request body
	MaxJobs    int           // CPU slots of solver jobs: one-thread jobs running at once; a job with n threads takes up to n
	MaxQueue   int           // jobs waiting for a slot; more are answered 429
	MaxTime    time.Duration // time budget of a job, and the default
	MaxMemory  int64         // memory budget of a job (bytes of search tables), and the default
	IdleCancel time.Duration // a job with no event-stream subscriber this long is cancelled
	Retain     time.Duration // how long a finished job's result is kept
	PlanTime   time.Duration // time limit of one packing plan or analysis (POST /api/plan, /api/analyze); an analysis gives its fess plans analyze.PlanTime of it
	MaxSetup   int           // packing plans and analyses worked out at once; more are answered 429

	// MaxConns caps the connections open at once, MaxConnsPerIP those of
	// one client address (and so its requests at once); a connection over
	// either is answered 503 or 429 and closed (see connLimit).
	MaxConns, MaxConnsPerIP int

	// AllowHosts are the names, besides the listening address, that the
	// Host header of a request may give ("soko.example" for any port,
	// "soko.example:8443" for that one); see CheckAllowHost.
	AllowHosts []string
}

// MemoryCap is the most memory a job gets by default: the default is a
// third of physical memory shared by the job slots, at most this.
const MemoryCap = 1 << 30

// DefaultConfig returns the limits soko serve uses unless told otherwise:
// 1 MiB bodies, one job per core with as many again waiting, 60 s and
// at most 1 GiB per job (less on small machines), cancelled 15 s after
// the last subscriber left, results kept 5 minutes, 10 s for a packing
// plan, one plan or analysis per core at once, and 512 connections open
// (64 from one address).
func DefaultConfig() Config {
	n := runtime.NumCPU()
	return Config{
		MaxBody:    1 << 20,
		MaxJobs:    n,
		MaxQueue:   n,
		MaxTime:    60 * time.Second,
		MaxMemory:  min(MemoryCap, solver.DefaultMemory(n)),
		IdleCancel: 15 * time.Second,
		Retain:     5 * time.Minute,
		PlanTime:   10 * time.Second,
		MaxSetup:   n,

		MaxConns:      512,
		MaxConnsPerIP: 64,
	}
}

func (c Config) withDefaults() Config {
	d := DefaultConfig()
	orDefault(&c.MaxBody, d.MaxBody)
	orDefault(&c.MaxJobs, d.MaxJobs)
	c.MaxQueue = max(c.MaxQueue, 0)
	orDefault(&c.MaxTime, d.MaxTime)
	orDefault(&c.MaxMemory, d.MaxMemory)
	orDefault(&c.IdleCancel, d.IdleCancel)
	orDefault(&c.Retain, d.Retain)
	orDefault(&c.PlanTime, d.PlanTime)
	orDefault(&c.MaxSetup, d.MaxSetup)
	orDefault(&c.MaxConns, d.MaxConns)
	orDefault(&c.MaxConnsPerIP, min(d.MaxConnsPerIP, c.MaxConns))
	return c
}

// orDefault sets a limit that is not positive to its default.
func orDefault[T int | int64 | time.Duration](v *T, d T) {
	if *v <= 0 {
		*v = d
	}
}

// Server is the web front end: handlers and the jobs they run.
type Server struct {
	cfg   Config
	jobs  *jobs
	setup chan struct{} // one token per plan or analysis being worked out
	mux   *http.ServeMux
	h     http.Handler
}

// New returns a server with the given limits. Call Close to stop its jobs.
func New(cfg Config) *Server {
	cfg = cfg.withDefaults()
	s := &Server{cfg: cfg, jobs: newJobs(cfg), setup: make(chan struct{}, cfg.MaxSetup), mux: http.NewServeMux()}
	s.routes()
	s.h = securityHeaders(s.guard(uncleanAPI(s.mux)))
	return s
}

// Config returns the limits in force.
func (s *Server) Config() Config { return s.cfg }

// ServeHTTP serves the page and the API.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.h.ServeHTTP(w, r) }

// Close cancels every job and waits for them to end; event streams then
// send their results and close. New jobs are refused afterwards.
func (s *Server) Close() { s.jobs.close() }

// uncleanAPI answers an API path that is not clean (//api/limits,
// /api/jobs//events) with a JSON 404 naming the clean one, where the
// mux would answer an HTML redirect: every API answer is JSON.
func uncleanAPI(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		if clean := path.Clean(p); clean != p && strings.HasPrefix(clean, "/api/") {
			writeError(w, http.StatusNotFound, "no such API endpoint: %s %s (the path is not clean: %s)", r.Method, p, clean)
			return
		}
		h.ServeHTTP(w, r)
	})
}

func securityHeaders(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("X-Frame-Options", "DENY")
		hd.Set("Referrer-Policy", "no-referrer")
		hd.Set("Content-Security-Policy", "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'")
		h.ServeHTTP(w, r)
	})
}

func (s *Server) routes() {
	page, err := fs.Sub(static, "static")
	if err != nil {
		panic(err) // embedded
	}
	files := http.FileServerFS(page)
	s.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			methodNotAllowed([]string{"GET", "HEAD"})(w, r)
			return
		}
		files.ServeHTTP(w, r)
	})
	// Each path answers its methods; any other method gets 405 with the
	// ones it takes in Allow.
	routes := []struct {
		method, path string
		h            http.HandlerFunc
	}{
		{"GET", "/api/collections", s.collections},
		{"GET", "/api/collections/{name}", s.collection},
		{"GET", "/api/levels/{collection}/{n}", s.level},
		{"POST", "/api/parse", s.parse},
		{"GET", "/api/solvers", s.solvers},
		{"GET", "/api/limits", s.limits},
		{"POST", "/api/solve", s.solve},
		{"GET", "/api/jobs/{id}", s.jobInfo},
		{"DELETE", "/api/jobs/{id}", s.cancel},
		{"GET", "/api/jobs/{id}/events", s.events},
		{"POST", "/api/jobs/{id}/cancel", s.cancel},
		{"POST", "/api/verify", s.verify},
		{"POST", "/api/sok", s.sok},
		{"POST", "/api/sok/collection", s.exportCollection},
		{"POST", "/api/analyze", s.analyze},
		{"POST", "/api/plan", s.plan},
	}
	allow := map[string][]string{}
	var paths []string
	for _, rt := range routes {
		s.mux.HandleFunc(rt.method+" "+rt.path, rt.h)
		if allow[rt.path] == nil {
			paths = append(paths, rt.path)
		}
		allow[rt.path] = append(allow[rt.path], rt.method)
		if rt.method == "GET" {
			allow[rt.path] = append(allow[rt.path], "HEAD")
		}
	}
	for _, p := range paths {
		s.mux.HandleFunc(p, methodNotAllowed(allow[p]))
	}
	s.mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "no such API endpoint: %s %s", r.Method, r.URL.Path)
	})
}

// methodNotAllowed answers 405 for a path that takes only the methods in allow.
func methodNotAllowed(allow []string) http.HandlerFunc {
	list := strings.Join(allow, ", ")
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", list)
		writeError(w, http.StatusMethodNotAllowed, "method %s not allowed for %s (it takes %s)", r.Method, r.URL.Path, list)
	}
}

// The HTTP server's timeouts: a request's header must arrive within
// readHeaderTimeout and the whole request, body included, within
// readTimeout of the connection's first byte; an idle keep-alive
// connection is closed after idleTimeout. Responses have no write
// timeout, since an event stream lasts as long as its job.
const (
	readHeaderTimeout = 10 * time.Second
	readTimeout       = time.Minute
	idleTimeout       = 2 * time.Minute
)

// Serve serves on ln until ctx is cancelled, then shuts down gracefully:
// jobs are cancelled (their streams end with a "cancelled" result), and
// requests in flight get up to grace to finish. Connections are capped
// by MaxConns and MaxConnsPerIP.
func (s *Server) Serve(ctx context.Context, ln net.Listener, grace time.Duration) error {
	srv := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    64 << 10,
	}
	ln = newConnLimit(ln, s.cfg.MaxConns, s.cfg.MaxConnsPerIP)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		s.Close()
		return err
	case <-ctx.Done():
	}
	s.Close()
	sctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	err := srv.Shutdown(sctx)
	if errors.Is(err, context.DeadlineExceeded) {
		srv.Close()
		err = nil
	}
	<-errc
	return err
}
