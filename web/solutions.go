package web

import (
	"net/http"
	"strings"

	"soko/level"
	"soko/sokfile"
	"soko/verify"
)

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
		return nil, badText("solution: ", err)
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
