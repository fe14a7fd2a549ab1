package web

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"soko/internal/english"
	"soko/level"
	"soko/levels"
	"soko/sokfile"
)

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
			return nil, badText("", err)
		}
		if len(ls) == 0 {
			return nil, errorf(http.StatusBadRequest, "no level found in the text (a board needs walls '#', a player '@', boxes '$' and goals '.')")
		}
		if ref.N < 0 {
			return nil, errorf(http.StatusBadRequest, "bad n %d: want the level's number in the text, from 1 (0 or none: the first)", ref.N)
		}
		n := max(ref.N, 1)
		if n > len(ls) {
			return nil, errorf(http.StatusBadRequest, "the text holds %s; there is no level %d", english.Count(len(ls), "level", "levels"), n)
		}
		l := ls[n-1]
		l.Index = n
		return l, nil
	case ref.Collection != "" && ref.N == 0:
		return nil, errorf(http.StatusBadRequest, "no n: give the level's number in collection %s, from 1", ref.Collection)
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
	writeLevel(w, l, e)
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
	if len(req.XSB) > MaxLevelText { // before the .sok reader reads it
		writeError(w, http.StatusRequestEntityTooLarge, "level text larger than %d bytes", MaxLevelText)
		return
	}
	f, readErr := sokfile.Read(strings.NewReader(req.XSB), PastedSource) // nil when it is no .sok
	n := req.N
	if n == 0 && f != nil {
		n = firstSaved(f)
	}
	l, e := levelRef{XSB: req.XSB, N: n}.level()
	if e != nil {
		writeAPIError(w, e)
		return
	}
	out := parsed{levelJSON: toLevelJSON(l)}
	if f == nil && readErr != nil { // a level, but no .sok: why its snapshots are not read
		out.SnapshotErrors = append(out.SnapshotErrors, "snapshots not read: "+readErr.Error())
	}
	if f != nil && l.Index <= len(f.Entries) {
		entry := f.Entries[l.Index-1]
		for _, u := range entry.Unreadable { // a section whose moves cannot be read: said, not dropped
			out.SnapshotErrors = append(out.SnapshotErrors, u.Error())
		}
		steps := newStepBudget()
		for _, snap := range entry.ResumeOrder() {
			if !steps.take(snap.LURD) {
				out.SnapshotErrors = append(out.SnapshotErrors, fmt.Sprintf("snapshot at line %d and those tried after it (the unnamed first, then the named from the last in the file up): %s", snap.Line, notReplayed))
				break
			}
			moves, err := entry.CheckSnapshot(snap)
			if err != nil {
				out.SnapshotErrors = append(out.SnapshotErrors, err.Error())
				continue
			}
			out.Snapshot = &savedGame{Moves: level.FormatLURD(moves), Name: snap.Name, Date: snap.Date, Line: snap.Line}
			break
		}
	}
	writeJSON(w, http.StatusOK, out)
}

// parsed is the answer of POST /api/parse: the level, and when the text is
// a .sok file with a snapshot of it, the saved game to resume (the first
// in sokfile.Entry.ResumeOrder that replays) and why others do not.
type parsed struct {
	levelJSON
	Snapshot       *savedGame `json:"snapshot,omitempty"`
	SnapshotErrors []string   `json:"snapshot_errors,omitempty"`
}

// savedGame is a .sok snapshot as the page resumes it.
type savedGame struct {
	Moves string `json:"moves"`
	Name  string `json:"name,omitempty"`
	Date  string `json:"date,omitempty"`
	Line  int    `json:"line"`
}

// firstSaved is the number of the first level of f with a snapshot, or a
// section that cannot be read (so that its error is seen), the level a
// .sok file opens at when the request names none; 0 for none.
func firstSaved(f *sokfile.File) int {
	for i, e := range f.Entries {
		if e.Level != nil && (len(e.Snapshots) > 0 || len(e.Unreadable) > 0) {
			return i + 1
		}
	}
	return 0
}

// writeLevel answers with l, or with e when there is none.
func writeLevel(w http.ResponseWriter, l *level.Level, e *apiError) {
	if e != nil {
		writeAPIError(w, e)
		return
	}
	writeJSON(w, http.StatusOK, toLevelJSON(l))
}
