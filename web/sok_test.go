package web

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"soko/level"
	"soko/levels"
	"soko/sokfile"
)

// TestSok: POST /api/sok writes a level as a .sok file, with its solution
// section when given one, in the form sokfile reads back, with soko solve's
// notes (the solver, the optimizer's metric, the date in UTC); a LURD that
// is not a solution, or a bad note, is refused.
func TestSok(t *testing.T) {
	_, ts := testServer(t, Config{})
	const sol = "dlUrrrdLullddrUluRuulDrddrruLdlUU"
	resp, body := post(t, ts.URL+"/api/sok", `{"collection": "microban", "n": 1, "solution": "`+sol+`", "solver": "fess", "optimized": "pushes", "date": "2026-11-26T19:40:00+01:00"}`)
	if resp.StatusCode != 200 {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	var out struct{ Level, Name, Sok string }
	if err := json.Unmarshal(body, &out); err != nil {
		t.Fatal(err)
	}
	if out.Level != "microban:1" || out.Name != "microban-1.sok" {
		t.Errorf("level %q, name %q", out.Level, out.Name)
	}
	want := "Microban 1\n####\n# .#\n#  ###\n#*@  #\n#  $ #\n#  ###\n####\nTitle: Microban 1\n\nSolution (8 pushes, 33 moves)\n" + sol + "\nSolver: soko fess, optimized for pushes\nDate: 2026-11-26T18:40:00Z\n"
	if out.Sok != want {
		t.Errorf("got\n%s\nwant\n%s", out.Sok, want)
	}
	f, err := sokfile.Read(strings.NewReader(out.Sok), out.Name)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Entries) != 1 || len(f.Entries[0].Solutions) != 1 || f.Entries[0].Solutions[0].LURD != sol {
		t.Fatalf("read back: %+v", f.Entries)
	}
	ls, err := level.ParseString(out.Sok, out.Name)
	if err != nil || len(ls) != 1 || ls[0].Width != 6 || ls[0].Height != 7 || ls[0].Title != "Microban 1" {
		t.Fatalf("the level read back: %v", err)
	}

	// A player's solution: no Solver note, the server's date.
	resp, body = post(t, ts.URL+"/api/sok", `{"collection": "microban", "n": 1, "solution": "`+sol+`"}`)
	if err := json.Unmarshal(body, &out); err != nil || resp.StatusCode != 200 {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	if _, date, ok := strings.Cut(out.Sok, sol+"\nDate: "); !ok || strings.Contains(out.Sok, "Solver:") {
		t.Errorf("a player's solution:\n%s", out.Sok)
	} else if _, err := time.Parse(time.RFC3339, strings.TrimSpace(date)); err != nil || !strings.HasSuffix(strings.TrimSpace(date), "Z") {
		t.Errorf("date %q: want RFC 3339 in UTC (%v)", date, err)
	}

	// A pasted level, with no solution: its board and a Title line.
	resp, body = post(t, ts.URL+"/api/sok", `{"xsb": "#####\n#@$.#\n#####"}`)
	if err := json.Unmarshal(body, &out); err != nil || resp.StatusCode != 200 {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	if out.Sok != "pasted 1\n#####\n#@$.#\n#####\nTitle: pasted 1\n" || out.Name != "pasted-1.sok" {
		t.Errorf("pasted level: %q as %q", out.Sok, out.Name)
	}

	for _, c := range []struct {
		body, status, msg string
	}{
		{`{"collection": "microban", "n": 1, "solution": "dl"}`, "422", "not a solution of microban:1: not solved: 1 of 2 boxes on goals"},
		{`{"collection": "microban", "n": 1, "solution": "uuuu"}`, "422", "not a solution of microban:1"},
		{`{"collection": "microban", "n": 1, "solution": "dlx"}`, "400", "unexpected character"},
		{`{"collection": "nosuch", "n": 1}`, "404", "nosuch"},
		{`{"collection": "microban", "n": 1, "solution": "` + sol + `", "date": "yesterday"}`, "400", "bad date"},
		{`{"collection": "microban", "n": 1, "solution": "` + sol + `", "solver": "fess", "optimized": "boxes"}`, "400", "bad optimized"},
		{`{"collection": "microban", "n": 1, "solution": "` + sol + `", "optimized": "pushes"}`, "400", "without a solver"},
		// The notes are checked with no solution too, and before one.
		{`{"collection": "microban", "n": 1, "date": "bad"}`, "400", "bad date"},
		{`{"collection": "microban", "n": 1, "optimized": "bad"}`, "400", "bad optimized"},
		{`{"collection": "microban", "n": 1, "solution": "dlU", "date": "bad"}`, "400", "bad date"},
		{`{"collection": "microban", "n": 1, "solution": "` + sol + `", "date": "9999-12-31T23:59:59-23:59"}`, "400", "bad date"},
		{`{"collection": "microban", "n": 1, "solution": "` + sol + `", "solver": "` + strings.Repeat("x", 300) + `"}`, "400", "solver name of 300 bytes"},
	} {
		resp, body := post(t, ts.URL+"/api/sok", c.body)
		if got := resp.Status[:3]; got != c.status || !strings.Contains(string(body), c.msg) {
			t.Errorf("%s: %s %s, want %s with %q", c.body, got, body, c.status, c.msg)
		}
	}
}

// TestSokCollection: POST /api/sok/collection writes a whole collection as
// one .sok file, every level with a Title line, the solutions given under
// their levels with their notes; a solution that does not solve its level
// is left out and listed, and a level number out of range is refused.
func TestSokCollection(t *testing.T) {
	_, ts := testServer(t, Config{})
	const sol = "dlUrrrdLullddrUluRuulDrddrruLdlUU"
	resp, body := post(t, ts.URL+"/api/sok/collection", `{"collection": "microban", "solutions": [
		{"n": 1, "solution": "`+sol+`", "solver": "fess", "optimized": "moves", "date": "2026-11-26T18:40:00Z"},
		{"n": 2, "solution": "rddLruulDuullddR"},
		{"n": 3, "solution": "`+sol+`"}]}`)
	if resp.StatusCode != 200 {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	var out struct {
		Name, Sok string
		Solutions int
		Skipped   []string
	}
	if err := json.Unmarshal(body, &out); err != nil {
		t.Fatal(err)
	}
	if out.Name != "microban.sok" || out.Solutions != 2 || len(out.Skipped) != 1 || !strings.HasPrefix(out.Skipped[0], "microban:3: not a solution") {
		t.Errorf("name %q, %d solutions, skipped %q", out.Name, out.Solutions, out.Skipped)
	}
	f, err := sokfile.Read(strings.NewReader(out.Sok), out.Name)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Entries) != 155 {
		t.Fatalf("%d levels, want Microban's 155", len(f.Entries))
	}
	c, err := levels.Collection("microban")
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range f.Entries {
		want := c.Levels[i].Title // its own, or the collection's name and its number
		if want == "" {
			want = "Microban " + strconv.Itoa(i+1)
		}
		if e.Level.Title != want {
			t.Errorf("level %d titled %q, want %q", i+1, e.Level.Title, want)
		}
	}
	s1, s2 := f.Entries[0].Solutions, f.Entries[1].Solutions
	if len(s1) != 1 || s1[0].LURD != sol || s1[0].Solver != "soko fess, optimized for moves" || s1[0].Date != "2026-11-26T18:40:00Z" {
		t.Errorf("microban 1's solutions: %+v", s1)
	}
	if len(s2) != 1 || s2[0].Solver != "" || s2[0].Date == "" || len(f.Entries[2].Solutions) != 0 {
		t.Errorf("microban 2's solutions %+v, 3's %+v", s2, f.Entries[2].Solutions)
	}
	for _, c := range []struct{ body, status, msg string }{
		{`{"collection": "microban", "solutions": [{"n": 156, "solution": "r"}]}`, "400", "levels 1 to 155"},
		{`{"collection": "microban", "solutions": [{"n": 2, "solution": "r"}, {"n": 2, "solution": "l"}]}`, "400", "level 2 is given twice"},
		{`{"collection": "nosuch"}`, "404", "nosuch"},
		{`{"solutions": []}`, "400", "no collection"},
	} {
		resp, body := post(t, ts.URL+"/api/sok/collection", c.body)
		if got := resp.Status[:3]; got != c.status || !strings.Contains(string(body), c.msg) {
			t.Errorf("%s: %s %s, want %s with %q", c.body, got, body, c.status, c.msg)
		}
	}
}

// TestSokSnapshot: a game in progress saves as a .sok snapshot (POST
// /api/sok and /api/sok/collection, its pushes recased), and POST
// /api/parse of that file gives it back to resume, at the first level
// with one when the request names none; a snapshot that does not replay
// is refused where it is saved, and named with its file, level and line
// where it is loaded.
func TestSokSnapshot(t *testing.T) {
	_, ts := testServer(t, Config{})
	var out struct {
		Name, Sok string
		Solutions int
		Snapshots int
		Skipped   []string
	}
	resp, body := post(t, ts.URL+"/api/sok", `{"collection": "microban", "n": 2, "snapshot": "rddl"}`)
	if err := json.Unmarshal(body, &out); err != nil || resp.StatusCode != 200 {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	want := "Title: Microban 2\n\nSnapshot (1 push, 4 moves)\nrddL\nDate: "
	if !strings.Contains(out.Sok, want) || strings.Contains(out.Sok, "Solution") {
		t.Fatalf("a game in progress:\n%s\nwant it to hold\n%s", out.Sok, want)
	}
	type parseOut struct {
		ID       string
		N        int
		Snapshot *struct {
			Moves, Name string
			Line        int
		}
		SnapshotErrors []string `json:"snapshot_errors"`
	}
	parse := func(text string) parseOut {
		t.Helper()
		b, err := json.Marshal(map[string]string{"xsb": text})
		if err != nil {
			t.Fatal(err)
		}
		resp, body := post(t, ts.URL+"/api/parse", string(b))
		var p parseOut
		if err := json.Unmarshal(body, &p); err != nil || resp.StatusCode != 200 {
			t.Fatalf("parse: %d %s", resp.StatusCode, body)
		}
		return p
	}
	if p := parse(out.Sok); p.ID != "pasted:1" || p.Snapshot == nil || p.Snapshot.Moves != "rddL" || p.Snapshot.Line != 11 {
		t.Errorf("the saved .sok parsed: %+v", p)
	}

	resp, body = post(t, ts.URL+"/api/sok/collection", `{"collection": "microban",
		"solutions": [{"n": 1, "solution": "dlUrrrdLullddrUluRuulDrddrruLdlUU"}],
		"snapshots": [{"n": 1, "snapshot": "dlUrrrdLullddrUluRuulDrddrruLdlUU"}, {"n": 3, "snapshot": "uuuuuuuu"}, {"n": 4, "snapshot": "u"}, {"n": 5, "snapshot": " "}]}`)
	if err := json.Unmarshal(body, &out); err != nil || resp.StatusCode != 200 {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	if out.Solutions != 1 || out.Snapshots != 1 || len(out.Skipped) != 1 || !strings.HasPrefix(out.Skipped[0], "microban:3: not a game of microban:3: step ") ||
		strings.Count(out.Sok, "Snapshot") != 1 || !strings.Contains(out.Sok, "Title: Microban 4\n\nSnapshot (0 pushes, 1 move)\nu\nDate: ") {
		t.Fatalf("the collection with games: %d solutions, %d snapshots, skipped %q\n%.2000s", out.Solutions, out.Snapshots, out.Skipped, out.Sok)
	}
	if p := parse(out.Sok); p.ID != "pasted:4" || p.Snapshot == nil || p.Snapshot.Moves != "u" {
		t.Errorf("the collection parsed opens at %+v, want level 4 and its game", p)
	}

	bad := "#######\n#@ $ .#\n#######\n\nSnapshot: fine\nrR\n\nSnapshot: stuck\nRRRR\n"
	if p := parse(bad); p.Snapshot == nil || p.Snapshot.Name != "fine" || len(p.SnapshotErrors) != 1 ||
		p.SnapshotErrors[0] != "pasted:8: level 1: snapshot: does not replay on its level: step 4 (R): push blocked by wall at row 2, column 7" {
		t.Errorf("a file with a snapshot that does not replay: %+v", p)
	}
	// A snapshot whose moves cannot be read is said, not dropped, and its
	// level is the one the file opens at.
	unreadable := "#####\n#@$.#\n#####\n\n#######\n#@ $ .#\n#######\n\nSnapshot\nx\n"
	if p := parse(unreadable); p.ID != "pasted:2" || p.Snapshot != nil || len(p.SnapshotErrors) != 1 || !strings.Contains(p.SnapshotErrors[0], "pasted:") {
		t.Errorf("a file with a snapshot that cannot be read: %+v", p)
	}
	if p := parse("#####\n#@$.#\n#####\n"); p.Snapshot != nil || p.ID != "pasted:1" {
		t.Errorf("a plain level: %+v", p)
	}
	for _, c := range []struct{ body, status, msg string }{
		{`{"collection": "microban", "n": 2, "snapshot": "uuu"}`, "422", "not a game of microban:2: step 2 (u): walks into a wall"},
		{`{"collection": "microban", "n": 2, "snapshot": "rx"}`, "400", "snapshot: "},
		{`{"collection": "microban", "snapshots": [{"n": 2, "snapshot": "r"}, {"n": 2, "snapshot": "l"}]}`, "400", "level 2 is given twice: one game in progress a level"},
	} {
		path := "/api/sok"
		if strings.Contains(c.body, "snapshots") {
			path += "/collection"
		}
		resp, body := post(t, ts.URL+path, c.body)
		if got := resp.Status[:3]; got != c.status || !strings.Contains(string(body), c.msg) {
			t.Errorf("%s: %s %s, want %s with %q", c.body, got, body, c.status, c.msg)
		}
	}
}
