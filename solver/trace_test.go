package solver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"soko/solver"
)

// traceLines parses a trace, one JSON object a line.
func traceLines(t *testing.T, text string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for line := range strings.SplitSeq(strings.TrimSuffix(text, "\n"), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("trace line %q: %v", line, err)
		}
		out = append(out, m)
	}
	return out
}

// TestTraceStampsRecords: each record starts with the level, the member
// (nested ones joined by /), the event and the clock, then the solver's
// fields; a record without fields has only the stamped ones.
func TestTraceStampsRecords(t *testing.T) {
	var buf bytes.Buffer
	tr := solver.NewTrace(&buf).Level("microban:1")
	tr.Strategy("outer").Strategy("inner").Write("best", struct {
		Packed int `json:"packed"`
	}{3})
	tr.Write("start", nil)
	lines := traceLines(t, buf.String())
	if len(lines) != 2 {
		t.Fatalf("%d records, want 2:\n%s", len(lines), buf.String())
	}
	if !strings.HasPrefix(buf.String(), `{"level":"microban:1","strategy":"outer/inner","event":"best","t_s":`) {
		t.Errorf("stamped fields first, in order: %s", buf.String())
	}
	if got := lines[0]["packed"]; got != 3.0 {
		t.Errorf("the solver's field: packed %v, want 3", got)
	}
	if _, ok := lines[1]["strategy"]; ok || len(lines[1]) != 3 {
		t.Errorf("a record outside a portfolio, without fields: %v", lines[1])
	}
}

// TestTraceNilIsOff: a nil trace takes every call and writes nothing.
func TestTraceNilIsOff(t *testing.T) {
	var tr *solver.Trace
	tr.Level("x").Strategy("y").Write("z", map[string]int{"a": 1})
	if tr.Level("x") != nil || tr.Strategy("y") != nil || tr.Err() != nil || tr.Elapsed() != 0 {
		t.Error("a nil trace's views are nil and it has no error")
	}
}

// failWriter fails every write.
type failWriter struct{ n *int }

func (w failWriter) Write([]byte) (int, error) {
	*w.n++
	return 0, errors.New("disk full")
}

// TestTraceKeepsFirstError: a failed write is kept for Err, and later
// records are not attempted.
func TestTraceKeepsFirstError(t *testing.T) {
	n := 0
	tr := solver.NewTrace(failWriter{&n}).Level("l")
	tr.Write("a", nil)
	tr.Write("b", nil)
	if err := tr.Err(); err == nil || n != 1 {
		t.Errorf("Err %v after %d writes, want disk full after 1", err, n)
	}
}

// TestTraceConcurrentRecordsStayWhole: records written from several
// goroutines at once each come out whole on a line of their own.
func TestTraceConcurrentRecordsStayWhole(t *testing.T) {
	var buf bytes.Buffer
	tr := solver.NewTrace(&buf)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v := tr.Level(fmt.Sprint("level", g))
			for i := range 100 {
				v.Write("n", map[string]int{"i": i})
			}
		}()
	}
	wg.Wait()
	if got := len(traceLines(t, buf.String())); got != 400 {
		t.Errorf("%d records, want 400", got)
	}
}

// TestPortfolioTracesMembers: a portfolio hands each member a view named
// after it and writes a member record as each ends, with its status,
// budget and counters.
func TestPortfolioTracesMembers(t *testing.T) {
	var a, b solver.Options
	p := solver.Portfolio{Members: []solver.Member{
		{Name: "a", Solver: spender{10, solver.NoSolution, &a}, Share: 1},
		{Name: "b", Solver: spender{1000, solver.NoSolution, &b}, Share: 1},
	}}
	var buf bytes.Buffer
	opts := solver.Options{Budget: solver.Budget{Nodes: 100}, Trace: solver.NewTrace(&buf).Level("l")}
	if _, err := solver.Run(context.Background(), p, level1(t), opts); err != nil {
		t.Fatal(err)
	}
	if a.Trace == nil || b.Trace == nil {
		t.Fatal("the members got no trace")
	}
	lines := traceLines(t, buf.String())
	if len(lines) != 2 {
		t.Fatalf("%d records, want a member record for each of 2:\n%s", len(lines), buf.String())
	}
	want := []struct {
		name, status    string
		budget, expands float64
	}{{"a", "no solution", 50, 10}, {"b", "node limit", 90, 90}}
	for i, w := range want {
		r := lines[i]
		if r["event"] != "member" || r["strategy"] != w.name || r["status"] != w.status ||
			r["budget_nodes"] != w.budget || r["expanded"] != w.expands || r["level"] != "l" {
			t.Errorf("record %d: %v, want member %s %s on %v nodes, %v expanded", i, r, w.name, w.status, w.budget, w.expands)
		}
	}
}
