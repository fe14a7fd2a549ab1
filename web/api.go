package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"reflect"
	"strings"

	"soko/level"
	"soko/solver"
)

// Limits on what requests may carry beyond the body size. A solution to
// verify has package level's cap, level.MaxSolutionSteps and
// level.MaxSolutionText, the same as on the command line.
const (
	MaxLevelText = 256 << 10 // bytes of pasted level text
	maxParams    = 16        // solver parameters in one request
	maxParamLen  = 64        // bytes in a parameter name or value
	// MaxRequestSteps bounds the steps of all the moves one request has
	// replayed (a .sok file's snapshots, a collection's solutions and
	// games): a repeat count makes a million steps eight bytes.
	MaxRequestSteps = 4 * level.MaxSolutionSteps
)

// stepBudget is what is left of a request's MaxRequestSteps.
type stepBudget int

func newStepBudget() *stepBudget {
	b := stepBudget(MaxRequestSteps)
	return &b
}

// take charges the steps of the LURD text lurd and reports true, or
// reports false, charging nothing, when they are more than is left.
func (b *stepBudget) take(lurd string) bool {
	n := stepBudget(level.LURDSteps(lurd))
	if n > *b {
		return false
	}
	*b -= n
	return true
}

// notReplayed says why moves were not replayed: the request's steps ran out.
var notReplayed = fmt.Sprintf("not replayed: the request's moves come to more than %d steps in all", MaxRequestSteps)

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

// badText is a 400 for text the client sent that does not parse (err,
// after prefix), with the line and column of the fault where err has them
// (a level.Error).
func badText(prefix string, err error) *apiError {
	e := errorf(http.StatusBadRequest, "%s%v", prefix, err)
	var le *level.Error
	if errors.As(err, &le) {
		e.Line, e.Col = le.Line, le.Col
	}
	return e
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

// decode reads a JSON request body into v: application/json, at most
// MaxBody bytes, one object with no unknown fields.
func (s *Server) decode(w http.ResponseWriter, r *http.Request, v any) *apiError {
	ct := r.Header.Get("Content-Type")
	if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
		return errorf(http.StatusUnsupportedMediaType, "the body must be JSON (Content-Type: application/json), got %q", ct)
	}
	if r.ContentLength > s.cfg.MaxBody { // refused from its declared size, before waiting for it
		return errorf(http.StatusRequestEntityTooLarge, "request body larger than %d bytes", s.cfg.MaxBody)
	}
	body := http.MaxBytesReader(w, r.Body, s.cfg.MaxBody)
	dec := json.NewDecoder(body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var tooBig *http.MaxBytesError
		var timeout net.Error
		var wrongType *json.UnmarshalTypeError
		switch {
		case errors.As(err, &tooBig):
			return errorf(http.StatusRequestEntityTooLarge, "request body larger than %d bytes", s.cfg.MaxBody)
		case errors.Is(err, io.EOF):
			return errorf(http.StatusBadRequest, "empty request body; want a JSON object")
		case errors.Is(err, io.ErrUnexpectedEOF):
			return errorf(http.StatusBadRequest, "bad JSON: the request body ends before the object does (cut short)")
		case errors.As(err, &timeout) && timeout.Timeout():
			return errorf(http.StatusRequestTimeout, "timed out reading the request body")
		case errors.As(err, &wrongType) && wrongType.Field == "":
			return errorf(http.StatusBadRequest, "bad JSON: want an object, got %s", wrongType.Value)
		case errors.As(err, &wrongType):
			field := wrongType.Field[strings.LastIndexByte(wrongType.Field, '.')+1:] // an embedded struct's Go name comes first
			return errorf(http.StatusBadRequest, "bad JSON: %s: want %s, got %s", field, jsonKind(wrongType.Type), wrongType.Value)
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

// jsonKind names the JSON value a Go type is read from, for an error.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Pointer:
		return jsonKind(t.Elem())
	}
	return "an object"
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
		Threads bool     `json:"threads"`       // it runs members side by side on the job's threads (solver.Entry.Threads)
		Spare   bool     `json:"spare_threads"` // the page gives it the server's slots by default (solver.Entry.SpareThreads)
	}
	out := []info{}
	for _, e := range solver.Entries() {
		in := info{Name: e.Name, Summary: e.Summary, Params: []string{}, Specs: []param{}, Threads: e.Threads, Spare: e.SpareThreads}
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
		"max_request_steps":  MaxRequestSteps,
		"max_body":           s.cfg.MaxBody,
		"max_time_s":         s.cfg.MaxTime.Seconds(),
		"max_memory_mib":     s.cfg.MaxMemory >> 20,
		"max_threads":        s.cfg.MaxJobs,
	})
}
