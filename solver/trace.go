package solver

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"strconv"
	"sync"
	"time"
)

// Trace is where a search writes how it spent its time (soko solve
// --trace): JSON records, one a line. Each record starts with the fields
// the trace stamps on it, then the solver's own:
//
//	{"level":"xsokoban90:21","strategy":"plan","event":"best","t_s":1.234, ...}
//
// level is the level's address (Trace.Level), strategy the portfolio member
// that wrote it, nested members joined by "/" (Trace.Strategy; absent
// outside a portfolio), event what the record is, and t_s the seconds since
// the level's search started. Which events a solver writes, and their
// fields, is the solver's to document (docs/fess.md, "Tracing"); solvers
// that write none ignore Options.Trace. Portfolio writes a "member" record
// as each member ends.
//
// A nil *Trace is tracing off: its methods do nothing, so a solver tests
// Options.Trace for nil once and costs nothing when it is. A Trace is safe
// for concurrent use: the workers of soko solve -j and the members of a
// portfolio running side by side write to one file, each record whole on
// its line.
type Trace struct {
	sink     *traceSink
	level    string
	strategy string
	start    time.Time
}

// traceSink is the writer the views of one Trace share.
type traceSink struct {
	mu  sync.Mutex
	w   io.Writer
	err error
	buf bytes.Buffer
}

// NewTrace returns a trace writing to w, each record with one Write call.
func NewTrace(w io.Writer) *Trace {
	return &Trace{sink: &traceSink{w: w}, start: time.Now()}
}

// Level returns a view of t whose records name level id, with the clock
// (t_s) starting now; nil when t is nil.
func (t *Trace) Level(id string) *Trace {
	if t == nil {
		return nil
	}
	return &Trace{sink: t.sink, level: id, start: time.Now()}
}

// Strategy returns a view of t whose records name the member name, after
// t's own member when it has one; nil when t is nil.
func (t *Trace) Strategy(name string) *Trace {
	if t == nil {
		return nil
	}
	u := *t
	if u.strategy != "" {
		name = u.strategy + "/" + name
	}
	u.strategy = name
	return &u
}

// Elapsed returns the time since the level's search started (Level); 0
// when t is nil.
func (t *Trace) Elapsed() time.Duration {
	if t == nil {
		return 0
	}
	return time.Since(t.start)
}

// Write writes one record: the stamped fields, then the fields of rec,
// which must marshal to a JSON object (a struct or a map; nil for none).
// Write errors are kept, not returned: the search goes on, and the first
// is reported by Err. A rec that does not marshal is a programming error
// and panics.
func (t *Trace) Write(event string, rec any) {
	if t == nil {
		return
	}
	t.WriteAt(event, t.Elapsed(), rec)
}

// WriteAt is Write stamped with the time at (since the level's search
// started) instead of now: for a record whose time another record repeats.
func (t *Trace) WriteAt(event string, at time.Duration, rec any) {
	if t == nil {
		return
	}
	var fields []byte
	if rec != nil {
		var err error
		if fields, err = json.Marshal(rec); err != nil {
			panic("solver: trace record " + event + ": " + err.Error())
		}
		if len(fields) < 2 || fields[0] != '{' {
			panic("solver: trace record " + event + " is not a JSON object")
		}
	}
	secs := TraceSeconds(at)
	s := t.sink
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return
	}
	b := &s.buf
	b.Reset()
	b.WriteString(`{"level":`)
	writeString(b, t.level)
	if t.strategy != "" {
		b.WriteString(`,"strategy":`)
		writeString(b, t.strategy)
	}
	b.WriteString(`,"event":`)
	writeString(b, event)
	b.WriteString(`,"t_s":`)
	b.WriteString(strconv.FormatFloat(secs, 'f', 4, 64))
	if len(fields) > 2 {
		b.WriteByte(',')
		b.Write(fields[1:]) // the object's fields and its closing brace
	} else {
		b.WriteByte('}')
	}
	b.WriteByte('\n')
	_, s.err = s.w.Write(b.Bytes())
}

// TraceSeconds returns d in seconds rounded to the tenth of a
// millisecond, the trace clock's resolution, for a record's times.
func TraceSeconds(d time.Duration) float64 { return math.Round(d.Seconds()*1e4) / 1e4 }

// writeString writes s as a JSON string.
func writeString(b *bytes.Buffer, s string) {
	q, _ := json.Marshal(s) // a string always marshals
	b.Write(q)
}

// Err returns the first error writing the trace, or nil.
func (t *Trace) Err() error {
	if t == nil {
		return nil
	}
	t.sink.mu.Lock()
	defer t.sink.mu.Unlock()
	return t.sink.err
}
