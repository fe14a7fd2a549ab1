package web

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"soko/levels"
	"soko/sokfile"
)

// exportRequest is the body of POST /api/sok/collection: a collection and
// the solutions and games in progress a browser keeps for its levels (by
// number).
type exportRequest struct {
	Collection string           `json:"collection"`
	Solutions  []exportSolution `json:"solutions"`
	Snapshots  []exportSnapshot `json:"snapshots"`
}

type exportSolution struct {
	N int `json:"n"`
	solutionRef
}

// exportSnapshot is a game in progress: the moves played so far.
type exportSnapshot struct {
	N        int    `json:"n"`
	Snapshot string `json:"snapshot"`
}

// exportCollection answers POST /api/sok/collection: the whole collection
// as one .sok file, each level titled (titled) and followed by the
// solution and the game in progress given for it, written as /api/sok
// writes them. A solution that does not solve its level, or a game whose
// steps are not all legal there (the collection changed since it was
// kept, say), is left out and listed in "skipped" with the reason, so that
// the rest are still saved; a game that solves its level is no game in
// progress and is left out, its solution being the level's. A request
// naming no collection, an unknown one, a level number out of range or a
// level twice in a list is refused (one solution and one game a level:
// each is verified once, and no level's solutions are compared with each
// other).
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
	skipped, saved, games := []string{}, 0, 0
	check := func(ns []int, what string) bool {
		given := make([]bool, len(c.Levels))
		for _, n := range ns {
			if n < 1 || n > len(c.Levels) {
				writeError(w, http.StatusBadRequest, "collection %s has levels 1 to %d; there is no level %d", req.Collection, len(c.Levels), n)
				return false
			}
			if given[n-1] {
				writeError(w, http.StatusBadRequest, "level %d is given twice: one %s a level", n, what)
				return false
			}
			given[n-1] = true
		}
		return true
	}
	var solNs, snapNs []int
	for _, sol := range req.Solutions {
		solNs = append(solNs, sol.N)
	}
	for _, sn := range req.Snapshots {
		snapNs = append(snapNs, sn.N)
	}
	if !check(solNs, "solution") || !check(snapNs, "game in progress") {
		return
	}
	steps := newStepBudget()
	for _, sol := range req.Solutions {
		l := c.Levels[sol.N-1]
		if !steps.take(sol.Solution) {
			skipped = append(skipped, fmt.Sprintf("%s: solution %s", levelID(l), notReplayed))
			continue
		}
		s, e := sol.solution(l, now)
		if e != nil {
			skipped = append(skipped, fmt.Sprintf("%s: %s", levelID(l), e.Msg))
			continue
		}
		if entries[sol.N-1].Add(s, false) {
			saved++
		}
	}
	for _, sn := range req.Snapshots {
		if strings.TrimSpace(sn.Snapshot) == "" { // no moves: no game to keep, as /api/sok has it
			continue
		}
		l := c.Levels[sn.N-1]
		if !steps.take(sn.Snapshot) {
			skipped = append(skipped, fmt.Sprintf("%s: game in progress %s", levelID(l), notReplayed))
			continue
		}
		snap, solved, e := gameInProgress(l, sn.Snapshot, now)
		if e != nil {
			skipped = append(skipped, fmt.Sprintf("%s: %s", levelID(l), e.Msg))
			continue
		}
		if solved {
			continue // a solution, not a game in progress
		}
		entries[sn.N-1].PutSnapshot(snap)
		games++
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"collection": req.Collection,
		"name":       req.Collection + ".sok",
		"sok":        string(f.Bytes()),
		"solutions":  saved,
		"snapshots":  games,
		"skipped":    skipped,
	})
}
