package web

import (
	"fmt"
	"net/http"

	"soko/internal/english"
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
