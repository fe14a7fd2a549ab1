package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"soko/internal/english"
	"soko/level"
	"soko/sokoban"
)

// setupRetryAfter is the Retry-After, in seconds, of a set-up request
// refused because MaxSetup of them are already being worked out.
const setupRetryAfter = "2"

// acquireSetup takes one of the Config.MaxSetup slots for set-up work (a
// packing plan or an analysis, each up to Config.PlanTime of one core).
// When none is free it answers 429 with Retry-After, as POST /api/solve
// does when busy, and returns false; otherwise the caller must call
// releaseSetup when done.
func (s *Server) acquireSetup(w http.ResponseWriter) bool {
	select {
	case s.setup <- struct{}{}:
		return true
	default:
	}
	w.Header().Set("Retry-After", setupRetryAfter)
	writeJSON(w, http.StatusTooManyRequests, map[string]any{
		"error":   fmt.Sprintf("busy: the server is already working out %s, the most it takes at once; try again later", english.Count(s.cfg.MaxSetup, "packing plan or analysis", "packing plans and analyses")),
		"busy":    true,
		"running": s.cfg.MaxSetup,
	})
	return false
}

func (s *Server) releaseSetup() { <-s.setup }

// setupWork runs the work of a set-up request (a plan, an analysis) in a
// set-up slot (acquireSetup), with a context that ends at Config.PlanTime
// or with the request, and gives the slot back. It reports whether the
// work succeeded; when not, it has answered the request: busy, or failed
// (setupFailed, naming what).
func (s *Server) setupWork(w http.ResponseWriter, r *http.Request, what string, work func(ctx context.Context) error) bool {
	if !s.acquireSetup(w) {
		return false
	}
	defer s.releaseSetup()
	ctx, cancel := context.WithTimeout(r.Context(), s.cfg.PlanTime)
	defer cancel()
	return !s.setupFailed(w, r, work(ctx), what)
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
