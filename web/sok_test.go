package web

import (
	"encoding/json"
	"strings"
	"testing"

	"soko/level"
	"soko/sokfile"
)

// TestSok: POST /api/sok writes a level as a .sok file, with its solution
// section when given one, in the form sokfile reads back; a LURD that is
// not a solution is refused.
func TestSok(t *testing.T) {
	_, ts := testServer(t, Config{})
	const sol = "dlUrrrdLullddrUluRuulDrddrruLdlUU"
	resp, body := post(t, ts.URL+"/api/sok", `{"collection": "microban", "n": 1, "solution": "`+sol+`", "solver": "fess"}`)
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
	want := "####\n# .#\n#  ###\n#*@  #\n#  $ #\n#  ###\n####\nTitle: microban:1\n\nSolution (8 pushes, 33 moves)\n" + sol + "\nSolver: soko fess\n"
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
	if err != nil || len(ls) != 1 || ls[0].Width != 6 || ls[0].Height != 7 || ls[0].Title != "microban:1" {
		t.Fatalf("the level read back: %v", err)
	}

	// A pasted level, with no solution: its board and a Title line.
	resp, body = post(t, ts.URL+"/api/sok", `{"xsb": "#####\n#@$.#\n#####"}`)
	if err := json.Unmarshal(body, &out); err != nil || resp.StatusCode != 200 {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	if out.Sok != "#####\n#@$.#\n#####\nTitle: pasted:1\n" || out.Name != "pasted-1.sok" {
		t.Errorf("pasted level: %q as %q", out.Sok, out.Name)
	}

	for _, c := range []struct {
		body, status, msg string
	}{
		{`{"collection": "microban", "n": 1, "solution": "dl"}`, "422", "not a solution of microban:1: not solved: 1 of 2 boxes on goals"},
		{`{"collection": "microban", "n": 1, "solution": "uuuu"}`, "422", "not a solution of microban:1"},
		{`{"collection": "microban", "n": 1, "solution": "dlx"}`, "400", "unexpected character"},
		{`{"collection": "nosuch", "n": 1}`, "404", "nosuch"},
	} {
		resp, body := post(t, ts.URL+"/api/sok", c.body)
		if got := resp.Status[:3]; got != c.status || !strings.Contains(string(body), c.msg) {
			t.Errorf("%s: %s %s, want %s with %q", c.body, got, body, c.status, c.msg)
		}
	}
}
