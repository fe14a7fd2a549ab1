package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"

	"soko/analyze"
	"soko/deadlock"
	"soko/internal/english"
	"soko/level"
	"soko/levels"
	"soko/optimize"
	"soko/sokfile"
	"soko/sokoban"
	"soko/solve"
	"soko/solver"
	"soko/verify"
)

// Limits on what requests may carry beyond the body size. A solution to
// verify has package level's cap, level.MaxSolutionSteps and
// level.MaxSolutionText, the same as on the command line.
const (
	MaxLevelText = 256 << 10 // bytes of pasted level text
	maxParams    = 16        // solver parameters in one request
	maxParamLen  = 64        // bytes in a parameter name or value
)

// apiError is an error answer: {"error": msg, "line": l, "col": c}.
type apiError struct {
	status int
	Msg    string `json:"error"`
	Line   int    `json:"line,omitempty"`
	Col    int    `json:"col,omitempty"`
}

func (e *apiError) Error() string { return e.Msg }

func errorf(status int, format string, args ...any) *apiError {
	return &apiError{status: status, Msg: fmt.Sprintf(format, args...)}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	_ = enc.Encode(v) // the client may have gone; nothing to do about it
}

func writeError(w http.ResponseWriter, status int, format string, args ...any) {
	writeJSON(w, status, errorf(status, format, args...))
}

func writeAPIError(w http.ResponseWriter, e *apiError) { writeJSON(w, e.status, e) }

// decode reads a JSON request body into v: application/json, at most
// MaxBody bytes, one object with no unknown fields.
// decodeLevel decodes a request body that names a level (a struct holding
// a levelRef) into req and returns the level; on a fault it has answered
// the request and returns false.
func (s *Server) decodeLevel(w http.ResponseWriter, r *http.Request, req interface {
	level() (*level.Level, *apiError)
}) (*level.Level, bool) {
	if e := s.decode(w, r, req); e != nil {
		writeAPIError(w, e)
		return nil, false
	}
	l, e := req.level()
	if e != nil {
		writeAPIError(w, e)
		return nil, false
	}
	return l, true
}

func (s *Server) decode(w http.ResponseWriter, r *http.Request, v any) *apiError {
	ct := r.Header.Get("Content-Type")
	if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
		return errorf(http.StatusUnsupportedMediaType, "the body must be JSON (Content-Type: application/json), got %q", ct)
	}
	body := http.MaxBytesReader(w, r.Body, s.cfg.MaxBody)
	dec := json.NewDecoder(body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var tooBig *http.MaxBytesError
		switch {
		case errors.As(err, &tooBig):
			return errorf(http.StatusRequestEntityTooLarge, "request body larger than %d bytes", s.cfg.MaxBody)
		case errors.Is(err, io.EOF):
			return errorf(http.StatusBadRequest, "empty request body; want a JSON object")
		}
		return errorf(http.StatusBadRequest, "bad JSON: %v", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return errorf(http.StatusRequestEntityTooLarge, "request body larger than %d bytes", s.cfg.MaxBody)
		}
		return errorf(http.StatusBadRequest, "bad JSON: more data after the object")
	}
	return nil
}

// levelRef names a level in a request: an embedded one, or pasted text.
type levelRef struct {
	Collection string `json:"collection,omitempty"`
	N          int    `json:"n,omitempty"`
	XSB        string `json:"xsb,omitempty"`
}

// PastedSource is the Source of levels pasted into the page.
const PastedSource = "pasted"

// level resolves a reference to one parsed level.
func (ref levelRef) level() (*level.Level, *apiError) {
	switch {
	case ref.XSB != "" && ref.Collection != "":
		return nil, errorf(http.StatusBadRequest, "give either collection or xsb, not both")
	case ref.XSB != "":
		if len(ref.XSB) > MaxLevelText {
			return nil, errorf(http.StatusRequestEntityTooLarge, "level text larger than %d bytes", MaxLevelText)
		}
		ls, err := level.ParseString(ref.XSB, PastedSource)
		if err != nil {
			e := errorf(http.StatusBadRequest, "%v", err)
			var le *level.Error
			if errors.As(err, &le) {
				e.Line, e.Col = le.Line, le.Col
			}
			return nil, e
		}
		if len(ls) == 0 {
			return nil, errorf(http.StatusBadRequest, "no level found in the text (a board needs walls '#', a player '@', boxes '$' and goals '.')")
		}
		n := max(ref.N, 1)
		if n > len(ls) {
			return nil, errorf(http.StatusBadRequest, "the text holds %s; there is no level %d", english.Count(len(ls), "level", "levels"), n)
		}
		l := ls[n-1]
		l.Index = n
		return l, nil
	case ref.Collection != "":
		return collectionLevel(ref.Collection, strconv.Itoa(ref.N))
	}
	return nil, errorf(http.StatusBadRequest, "no level: give {\"collection\": NAME, \"n\": N} or {\"xsb\": TEXT}")
}

func collectionLevel(name, n string) (*level.Level, *apiError) {
	c, err := levels.Collection(name)
	if err != nil {
		return nil, errorf(http.StatusNotFound, "%v", err)
	}
	i, err := strconv.Atoi(n)
	if err != nil || i < 1 || i > len(c.Levels) {
		return nil, errorf(http.StatusNotFound, "collection %s has levels 1 to %d; there is no level %q", name, len(c.Levels), n)
	}
	return c.Levels[i-1], nil
}

// levelJSON is a level as the API sends it.
type levelJSON struct {
	ID         string   `json:"id"` // "microban:1", or "pasted:1"
	Collection string   `json:"collection,omitempty"`
	N          int      `json:"n"`
	Title      string   `json:"title,omitempty"`
	Author     string   `json:"author,omitempty"`
	Width      int      `json:"width"`
	Height     int      `json:"height"`
	Rows       []string `json:"rows"`
	XSB        string   `json:"xsb"`
}

func levelID(l *level.Level) string { return l.Source + ":" + strconv.Itoa(l.Index) }

func toLevelJSON(l *level.Level) levelJSON {
	j := levelJSON{ID: levelID(l), N: l.Index, Title: l.Label(), Author: l.Author,
		Width: l.Width, Height: l.Height, Rows: l.Rows, XSB: level.Format(l)}
	if l.Source != PastedSource {
		j.Collection = l.Source
	}
	return j
}

func (s *Server) collections(w http.ResponseWriter, r *http.Request) {
	type info struct {
		Name        string `json:"name"`
		Levels      int    `json:"levels"`
		Description string `json:"description,omitempty"`
	}
	out := []info{}
	for _, i := range levels.List() {
		out = append(out, info{i.Name, i.Levels, i.Description})
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) collection(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	c, err := levels.Collection(name)
	if err != nil {
		writeError(w, http.StatusNotFound, "%v", err)
		return
	}
	type entry struct {
		N      int    `json:"n"`
		Title  string `json:"title,omitempty"`
		Width  int    `json:"width"`
		Height int    `json:"height"`
		Boxes  int    `json:"boxes"`
	}
	out := struct {
		Name   string  `json:"name"`
		Levels []entry `json:"levels"`
	}{Name: name, Levels: []entry{}}
	for _, l := range c.Levels {
		out.Levels = append(out.Levels, entry{l.Index, l.Label(), l.Width, l.Height, l.Boxes()})
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) level(w http.ResponseWriter, r *http.Request) {
	l, e := collectionLevel(r.PathValue("collection"), r.PathValue("n"))
	if e != nil {
		writeAPIError(w, e)
		return
	}
	writeJSON(w, http.StatusOK, toLevelJSON(l))
}

func (s *Server) parse(w http.ResponseWriter, r *http.Request) {
	var req struct {
		XSB string `json:"xsb"`
		N   int    `json:"n,omitempty"`
	}
	if e := s.decode(w, r, &req); e != nil {
		writeAPIError(w, e)
		return
	}
	if strings.TrimSpace(req.XSB) == "" {
		writeError(w, http.StatusBadRequest, "no level text given")
		return
	}
	l, e := levelRef{XSB: req.XSB, N: req.N}.level()
	if e != nil {
		writeAPIError(w, e)
		return
	}
	writeJSON(w, http.StatusOK, toLevelJSON(l))
}

func (s *Server) solvers(w http.ResponseWriter, r *http.Request) {
	type param struct {
		Name    string   `json:"name"`
		Kind    string   `json:"kind"`
		Default string   `json:"default"`
		Min     *float64 `json:"min,omitempty"`
		Max     *float64 `json:"max,omitempty"`
		Values  []string `json:"values,omitempty"`
		Accepts string   `json:"accepts"`
		Doc     string   `json:"doc"`
	}
	type info struct {
		Name    string   `json:"name"`
		Summary string   `json:"summary"`
		Params  []string `json:"params"` // "name=default", for the page
		Specs   []param  `json:"param_specs"`
	}
	out := []info{}
	for _, e := range solver.Entries() {
		in := info{Name: e.Name, Summary: e.Summary, Params: []string{}, Specs: []param{}}
		for _, p := range e.Params {
			in.Params = append(in.Params, p.Name+"="+p.Default)
			spec := param{Name: p.Name, Kind: p.KindName(), Default: p.Default, Values: p.Values, Accepts: p.Accepts(), Doc: p.Doc}
			if p.Kind == solver.Int || p.Kind == solver.Real {
				spec.Min, spec.Max = &p.Min, &p.Max
			}
			in.Specs = append(in.Specs, spec)
		}
		out = append(out, in)
	}
	writeJSON(w, http.StatusOK, out)
}

// limits answers what the server accepts, so that the page checks what it
// sends against the server's numbers rather than copies of them: the
// solution cap is package level's, the same as the command line's.
func (s *Server) limits(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{
		"max_solution_steps": level.MaxSolutionSteps,
		"max_solution_text":  level.MaxSolutionText,
		"max_level_text":     MaxLevelText,
		"max_body":           s.cfg.MaxBody,
		"max_time_s":         s.cfg.MaxTime.Seconds(),
		"max_memory_mib":     s.cfg.MaxMemory >> 20,
		"max_threads":        s.cfg.MaxJobs,
	})
}

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

func (s *Server) lookup(w http.ResponseWriter, r *http.Request) *job {
	id := r.PathValue("id")
	j := s.jobs.get(id)
	if j == nil {
		writeError(w, http.StatusNotFound, "no job %q (finished jobs are forgotten after %s)", id, s.cfg.Retain)
	}
	return j
}

func (s *Server) jobInfo(w http.ResponseWriter, r *http.Request) {
	j := s.lookup(w, r)
	if j == nil {
		return
	}
	snap := j.snapshot()
	writeJSON(w, http.StatusOK, map[string]any{
		"id":       j.id,
		"state":    snap.state,
		"solver":   j.entry.Name,
		"level":    levelID(j.level),
		"budget":   budgetOf(j.opts),
		"progress": snap.progress,
		"result":   snap.result,
	})
}

// cancel stops a queued or running job: 202, and its stream ends with a
// "cancelled" result. A job that has already finished keeps its result:
// 409, saying so.
func (s *Server) cancel(w http.ResponseWriter, r *http.Request) {
	j := s.lookup(w, r)
	if j == nil {
		return
	}
	if state, ok := j.stop(); !ok {
		writeJSON(w, http.StatusConflict, map[string]any{
			"error":     fmt.Sprintf("job %s has already finished (state %s); there is nothing to cancel", j.id, state),
			"id":        j.id,
			"state":     state,
			"cancelled": false,
		})
		return
	}
	writeJSON(w, http.StatusAccepted, map[string]any{"id": j.id, "state": j.snapshot().state, "cancelled": true})
}

// keepAlive is how often an idle event stream gets a comment line, so
// proxies keep it open and a gone client is noticed.
const keepAlive = 15 * time.Second

func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	j := s.lookup(w, r)
	if j == nil {
		return
	}
	rc := http.NewResponseController(w)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no") // nginx: do not buffer the stream
	w.WriteHeader(http.StatusOK)
	wake := j.subscribe()
	defer j.unsubscribe(wake)
	tick := time.NewTicker(keepAlive)
	defer tick.Stop()
	state, seq := "", 0
	for {
		snap := j.snapshot()
		if snap.state != state && snap.state != stateDone {
			state = snap.state
			running, waiting := s.jobs.load()
			if writeEvent(w, "state", map[string]any{"state": state, "running": running, "waiting": waiting}) != nil {
				return
			}
		}
		if snap.seq != seq && snap.progress != nil {
			seq = snap.seq
			if writeEvent(w, "progress", snap.progress) != nil {
				return
			}
		}
		if snap.result != nil {
			_ = writeEvent(w, "result", snap.result)
			_ = rc.Flush()
			return
		}
		if rc.Flush() != nil {
			return
		}
		select {
		case <-wake:
		case <-tick.C:
			if _, err := io.WriteString(w, ": keep-alive\n\n"); err != nil {
				return
			}
		case <-r.Context().Done():
			return
		}
	}
}

func writeEvent(w io.Writer, name string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, b)
	return err
}

func (s *Server) verify(w http.ResponseWriter, r *http.Request) {
	var req struct {
		levelRef
		Solution string `json:"solution"`
	}
	l, ok := s.decodeLevel(w, r, &req)
	if !ok {
		return
	}
	moves, e := parseSolution(req.Solution)
	if e != nil {
		writeAPIError(w, e)
		return
	}
	rep := verify.Replay(l, moves)
	writeJSON(w, http.StatusOK, map[string]any{
		"level":     levelID(l),
		"solved":    rep.Solved,
		"moves":     rep.Moves,
		"pushes":    rep.Pushes,
		"steps":     rep.Steps,
		"fail_step": rep.FailStep,
		"reason":    rep.Reason,
		"solution":  level.FormatLURD(moves),
	})
}

// parseSolution reads a request's LURD; a bad one is a 400 with the line
// and column of the fault.
func parseSolution(text string) ([]level.Move, *apiError) {
	moves, err := level.ParseLURD(text)
	if err != nil {
		ae := errorf(http.StatusBadRequest, "solution: %v", err)
		var le *level.Error
		if errors.As(err, &le) {
			ae.Line, ae.Col = le.Line, le.Col
		}
		return nil, ae
	}
	return moves, nil
}

// sok answers POST /api/sok {level…, solution?, solver?}: the level as a
// .sok file, as soko solve --out writes it (package sokfile), with the
// solution section when a solution is given, and a file name for it. The
// board is followed by a Title line (the level's name when it has no title
// of its own). A solution must solve the level (the verifier has the last
// word): one that does not is a 422, one that does not parse a 400 with
// its line and column. Solver, when given, is written as the "Solver:"
// note; the date is not written, so the same request gives the same file.
func (s *Server) sok(w http.ResponseWriter, r *http.Request) {
	var req struct {
		levelRef
		Solution string `json:"solution"`
		Solver   string `json:"solver"`
	}
	l, ok := s.decodeLevel(w, r, &req)
	if !ok {
		return
	}
	named := *l
	if strings.TrimSpace(named.Title) == "" {
		named.Title = levelID(l)
	}
	f := sokfile.New()
	entry := f.Append(&named)
	if strings.TrimSpace(req.Solution) != "" {
		moves, e := parseSolution(req.Solution)
		if e != nil {
			writeAPIError(w, e)
			return
		}
		if rep := verify.Replay(l, moves); !rep.Solved {
			writeError(w, http.StatusUnprocessableEntity, "not a solution of %s: %s", levelID(l), rep.Reason)
			return
		}
		// Written as it should be: a push in upper case, a move in lower.
		sol := &sokfile.Solution{LURD: level.FormatLURD(verify.Recase(l, moves))}
		if req.Solver != "" {
			sol.Solver = "soko " + req.Solver
		}
		entry.Add(sol, false)
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"level": levelID(l),
		"name":  strings.ReplaceAll(levelID(l), ":", "-") + ".sok",
		"sok":   string(f.Bytes()),
	})
}

// xy is a square's column and row.
type xy [2]int

// requestBoard reads the level a set-up request ({level…}) names and builds
// its board; on a bad request it answers it and returns ok false.
func (s *Server) requestBoard(w http.ResponseWriter, r *http.Request) (l *level.Level, b *sokoban.Board, ok bool) {
	var req levelRef
	l, ok = s.decodeLevel(w, r, &req)
	if !ok {
		return nil, nil, false
	}
	b, err := sokoban.NewBoard(l)
	if err != nil {
		writeError(w, http.StatusUnprocessableEntity, "%v", err)
		return nil, nil, false
	}
	return l, b, true
}

// setupFailed answers a set-up request (plan, analysis) whose work ended
// with err, and says whether it did: 503 when what took longer than
// Config.PlanTime, or when the client went away.
func (s *Server) setupFailed(w http.ResponseWriter, r *http.Request, err error, what string) bool {
	switch {
	case err == nil:
		return false
	case errors.Is(err, context.DeadlineExceeded) && r.Context().Err() == nil:
		writeError(w, http.StatusServiceUnavailable, "%s took longer than the server's limit of %s", what, s.cfg.PlanTime)
	default: // the client went away
		writeError(w, http.StatusServiceUnavailable, "%v", err)
	}
	return true
}

func (s *Server) analyze(w http.ResponseWriter, r *http.Request) {
	l, b, ok := s.requestBoard(w, r)
	if !ok {
		return
	}
	if !s.acquireSetup(w) {
		return
	}
	defer s.releaseSetup()
	// The analysis includes the fess plans, which it cuts off at
	// analyze.PlanTime: the whole gets the plans' time limit, and past it
	// (or when the client has gone) the answer is 503.
	ctx, cancel := context.WithTimeout(r.Context(), s.cfg.PlanTime)
	defer cancel()
	text, err := analyze.Render(ctx, l)
	var m *deadlock.Macros
	if err == nil {
		m, err = deadlock.NewMacros(ctx, b)
	}
	if s.setupFailed(w, r, err, "the analysis of "+levelID(l)) {
		return
	}
	dead := deadlock.DeadSquares(b)
	type tunnel struct {
		X          int  `json:"x"`
		Y          int  `json:"y"`
		Horizontal bool `json:"horizontal"`
		Vertical   bool `json:"vertical"`
	}
	type room struct {
		Squares   []xy `json:"squares"`
		Goals     []xy `json:"goals"`
		Entrances []xy `json:"entrances"`
		Order     []xy `json:"packing_order"` // goals in fill order; empty without one
	}
	at := func(sq sokoban.Square) xy { x, y := b.XY(sq); return xy{x, y} }
	list := func(sqs []sokoban.Square) []xy {
		out := make([]xy, 0, len(sqs))
		for _, sq := range sqs {
			out = append(out, at(sq))
		}
		return out
	}
	out := struct {
		Level      string   `json:"level"`
		Dead       []xy     `json:"dead"`
		Tunnels    []tunnel `json:"tunnels"`
		Rooms      []room   `json:"rooms"`
		Text       string   `json:"text"`
		Impossible string   `json:"impossible,omitempty"`
	}{Level: levelID(l), Dead: []xy{}, Tunnels: []tunnel{}, Rooms: []room{}, Text: text, Impossible: b.Impossible}
	for sq := range b.N {
		p := at(sokoban.Square(sq))
		if dead[sq] {
			out.Dead = append(out.Dead, p)
		}
		if t := m.Tunnel[sq]; t != 0 {
			out.Tunnels = append(out.Tunnels, tunnel{p[0], p[1], t&deadlock.TunnelHorizontal != 0, t&deadlock.TunnelVertical != 0})
		}
	}
	for _, rm := range m.Rooms {
		var order []sokoban.Square
		if rm.Fill != nil {
			order = rm.Fill.Order
		}
		out.Rooms = append(out.Rooms, room{list(rm.Squares), list(rm.Goals), list(rm.Entrances), list(order)})
	}
	writeJSON(w, http.StatusOK, out)
}
