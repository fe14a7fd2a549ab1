package web

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"
)

func (s *Server) lookup(w http.ResponseWriter, r *http.Request) *job {
	id := r.PathValue("id")
	j := s.jobs.get(id)
	if j == nil {
		writeError(w, http.StatusNotFound, "no job %q (a finished job is kept for %s, and only the %d that finished last)", id, s.cfg.Retain, maxFinished)
	}
	return j
}

func (s *Server) jobInfo(w http.ResponseWriter, r *http.Request) {
	j := s.lookup(w, r)
	if j == nil {
		return
	}
	j.seen()
	snap := j.snapshot()
	b := budgetOf(j.opts)
	if snap.threads > 0 {
		b.Threads = snap.threads
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"id":       j.id,
		"state":    snap.state,
		"solver":   j.entry.Name,
		"level":    levelID(j.level),
		"budget":   b,
		"progress": snap.progress,
		"found":    snap.found,
		"improved": snap.improved,
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
	state, seq, iseq, found := "", 0, 0, false
	for {
		snap := j.snapshot()
		if snap.state != state && snap.state != stateDone {
			state = snap.state
			running, waiting := s.jobs.load()
			ev := map[string]any{"state": state, "running": running, "waiting": waiting}
			if snap.threads > 0 {
				ev["threads"] = snap.threads
			}
			if writeEvent(w, "state", ev) != nil {
				return
			}
		}
		if snap.seq != seq && snap.progress != nil {
			seq = snap.seq
			if writeEvent(w, "progress", snap.progress) != nil {
				return
			}
		}
		if snap.found != nil && !found {
			found = true
			if writeEvent(w, "found", snap.found) != nil {
				return
			}
		}
		if snap.iseq != iseq && snap.improved != nil {
			iseq = snap.iseq
			if writeEvent(w, "improved", snap.improved) != nil {
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
