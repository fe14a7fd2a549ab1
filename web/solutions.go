package web

import (
	"net/http"
	"strings"
	"time"

	"soko/level"
	"soko/levels"
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
		"case_step": rep.CaseStep,
		"case":      rep.Case,
		"miscased":  rep.Miscased,
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

// sok answers POST /api/sok {level…, solution?, solver?, optimized?,
// date?, snapshot?}: the level as a .sok file, as soko solve --out writes
// it (package sokfile), with the solution section when a solution is
// given, the snapshot section of a game in progress when snapshot gives
// its moves, and a file name for it. The board is followed by a Title line
// (sokTitle). A solution must solve the level (the verifier has the last
// word): one that does not is a 422, one that does not parse a 400 with
// its line and column. Its notes are soko solve's: "Solver: soko NAME",
// with ", optimized for pushes" (or moves) when optimized names the
// optimizer's metric, and "Date:", the given RFC 3339 time (when the
// solution was found) or the server's clock, in UTC. A snapshot is the
// moves played so far, written as soko play --out writes a game in
// progress (an unnamed snapshot, dated now): one whose steps are not all
// legal on the level is a 422 naming the step, and so is one that solves
// the level.
func (s *Server) sok(w http.ResponseWriter, r *http.Request) {
	var req struct {
		levelRef
		solutionRef
		Snapshot string `json:"snapshot,omitempty"`
	}
	l, ok := s.decodeLevel(w, r, &req)
	if !ok {
		return
	}
	if _, e := req.solutionRef.notes(time.Now()); e != nil { // a bad note is an error with or without a solution
		writeAPIError(w, e)
		return
	}
	f := sokfile.New()
	entry := f.Append(titled(l))
	if strings.TrimSpace(req.Solution) != "" {
		sol, e := req.solutionRef.solution(l, time.Now())
		if e != nil {
			writeAPIError(w, e)
			return
		}
		entry.Add(sol, false)
	}
	if strings.TrimSpace(req.Snapshot) != "" {
		snap, solved, e := gameInProgress(l, req.Snapshot, time.Now())
		if e != nil {
			writeAPIError(w, e)
			return
		}
		if solved {
			writeError(w, http.StatusUnprocessableEntity, "the snapshot solves %s: a solution, not a game in progress; give it as the solution", levelID(l))
			return
		}
		entry.PutSnapshot(snap)
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"level": levelID(l),
		"name":  strings.ReplaceAll(levelID(l), ":", "-") + ".sok",
		"sok":   string(f.Bytes()),
	})
}

// solutionRef is a solution in a request, with the notes it is saved
// with: the solver that found it (none: a player's), the optimizer's
// metric when it ran, and when it was found.
type solutionRef struct {
	Solution  string `json:"solution"`
	Solver    string `json:"solver,omitempty"`
	Optimized string `json:"optimized,omitempty"` // "pushes" or "moves"
	Date      string `json:"date,omitempty"`      // RFC 3339
}

// maxSolverNote is the longest solver name a solution's notes take.
const maxSolverNote = 256

// notes checks the notes of the solution, whether or not one is given, and
// returns its date: the request's, in UTC, or now.
func (ref solutionRef) notes(now time.Time) (string, *apiError) {
	date := now.UTC().Format(time.RFC3339)
	if ref.Date != "" {
		t, err := time.Parse(time.RFC3339, ref.Date)
		if y := t.UTC().Year(); err != nil || y < 0 || y > 9999 {
			return "", errorf(http.StatusBadRequest, "bad date %q: want RFC 3339 with a year of four digits in UTC, such as 2026-11-26T18:40:00Z", ref.Date)
		}
		date = t.UTC().Format(time.RFC3339)
	}
	switch ref.Optimized {
	case "":
	case "pushes", "moves":
		if ref.Solver == "" {
			return "", errorf(http.StatusBadRequest, "optimized without a solver: the optimizer runs on a solver's solution")
		}
	default:
		return "", errorf(http.StatusBadRequest, "bad optimized %q: want pushes or moves", ref.Optimized)
	}
	if len(ref.Solver) > maxSolverNote {
		return "", errorf(http.StatusBadRequest, "solver name of %d bytes: at most %d", len(ref.Solver), maxSolverNote)
	}
	return date, nil
}

// solution checks the notes, verifies the solution of l and returns its
// .sok section; the date is now when the request gives none.
func (ref solutionRef) solution(l *level.Level, now time.Time) (*sokfile.Solution, *apiError) {
	date, e := ref.notes(now)
	if e != nil {
		return nil, e
	}
	moves, e := parseSolution(ref.Solution)
	if e != nil {
		return nil, e
	}
	if rep := verify.Replay(l, moves); !rep.Solved {
		return nil, errorf(http.StatusUnprocessableEntity, "not a solution of %s: %s", levelID(l), rep.Reason)
	}
	// Written as it should be: a push in upper case, a move in lower.
	sol := &sokfile.Solution{LURD: level.FormatLURD(verify.Recase(l, moves)), Date: date}
	if ref.Solver != "" {
		sol.Solver = sokfile.SolverNote(ref.Solver, nil, ref.Optimized) // the page names the parameters (solverLabel)
	}
	return sol, nil
}

// gameInProgress checks a game on l, the moves played so far, and
// returns its .sok section, dated now, and whether it solves l (then it is
// a solution, not a game in progress): every step must be legal.
func gameInProgress(l *level.Level, lurd string, now time.Time) (*sokfile.Snapshot, bool, *apiError) {
	moves, e := parseSolution(lurd)
	if e != nil {
		e.Msg = strings.Replace(e.Msg, "solution: ", "snapshot: ", 1)
		return nil, false, e
	}
	rep := verify.Replay(l, moves)
	if rep.FailStep > 0 {
		return nil, false, errorf(http.StatusUnprocessableEntity, "not a game of %s: %s", levelID(l), rep.Reason)
	}
	// Written as it should be: a push in upper case, a move in lower.
	return &sokfile.Snapshot{LURD: level.FormatLURD(verify.Recase(l, moves)), Date: now.UTC().Format(time.RFC3339)}, rep.Solved, nil
}

// titled returns l with the title every level of a .sok file soko writes
// has (levels.Title: its own, or "Microban 1" when untitled), as the CLI
// writes it.
func titled(l *level.Level) *level.Level {
	named := *l
	named.Title = levels.Title(l)
	return &named
}
