package web

import (
	"fmt"
	"net/http"
	"time"

	"soko/levels"
	"soko/sokfile"
)

// exportRequest is the body of POST /api/sok/collection: a collection and
// the solutions a browser keeps for its levels (by number).
type exportRequest struct {
	Collection string           `json:"collection"`
	Solutions  []exportSolution `json:"solutions"`
}

type exportSolution struct {
	N int `json:"n"`
	solutionRef
}

// exportCollection answers POST /api/sok/collection: the whole collection
// as one .sok file, each level titled (titled) and followed by the
// solutions given for it, written as /api/sok writes one. A solution that
// does not solve its level (the collection changed since it was kept, say)
// is left out and listed in "skipped" with the reason, so that the rest
// are still saved; a request naming no collection, an unknown one, a
// level number out of range or a level twice is refused (one solution a
// level: each is verified once, and no level's solutions are compared
// with each other).
func (s *Server) exportCollection(w http.ResponseWriter, r *http.Request) {
	var req exportRequest
	if e := s.decode(w, r, &req); e != nil {
		writeAPIError(w, e)
		return
	}
	if req.Collection == "" {
		writeError(w, http.StatusBadRequest, "no collection: give {\"collection\": NAME, \"solutions\": [{\"n\": N, \"solution\": LURD}, …]}")
		return
	}
	c, err := levels.Collection(req.Collection)
	if err != nil {
		writeError(w, http.StatusNotFound, "%v", err)
		return
	}
	f := sokfile.New()
	entries := make([]*sokfile.Entry, len(c.Levels))
	for i, l := range c.Levels {
		entries[i] = f.Append(titled(l))
	}
	now := time.Now()
	skipped, saved := []string{}, 0
	given := make([]bool, len(c.Levels))
	for _, sol := range req.Solutions {
		if sol.N < 1 || sol.N > len(c.Levels) {
			writeError(w, http.StatusBadRequest, "collection %s has levels 1 to %d; there is no level %d", req.Collection, len(c.Levels), sol.N)
			return
		}
		if given[sol.N-1] {
			writeError(w, http.StatusBadRequest, "level %d is given twice: one solution a level", sol.N)
			return
		}
		given[sol.N-1] = true
	}
	for _, sol := range req.Solutions {
		l := c.Levels[sol.N-1]
		s, e := sol.solution(l, now)
		if e != nil {
			skipped = append(skipped, fmt.Sprintf("%s: %s", levelID(l), e.Msg))
			continue
		}
		if entries[sol.N-1].Add(s, false) {
			saved++
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"collection": req.Collection,
		"name":       req.Collection + ".sok",
		"sok":        string(f.Bytes()),
		"solutions":  saved,
		"skipped":    skipped,
	})
}
