package verify

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"soko/level"
)

// microban1 is Microban level 1. Box A starts on the goal at row 4, column 2;
// box B at row 5, column 4 must go to the goal at row 2, column 3.
const microban1 = "; 1\n####\n# .#\n#  ###\n#*@  #\n#  $ #\n#  ###\n####\n"

// solution1 was worked out by hand: lift A out of the way, push B left and
// up one, park it to the right, push A back onto its goal, then bring B back
// and push it up to the top goal.
const solution1 = "dlUrrrdLullddrUluRuulDrddrruLdlUU"

func parse(t *testing.T, s string) *level.Level {
	t.Helper()
	ls, err := level.ParseString(s, "test")
	if err != nil || len(ls) != 1 {
		t.Fatalf("parse: %v", err)
	}
	return ls[0]
}

func TestReplay(t *testing.T) {
	m1 := parse(t, microban1)
	twoBoxes := parse(t, "######\n#@$$.#\n#   .#\n######\n") // unsolvable
	rows := parse(t, "######\n#@$ .#\n# $ .#\n######\n")
	one := parse(t, "######\n#@ $.#\n######\n")
	tests := []struct {
		name string
		l    *level.Level
		lurd string
		want Report
	}{
		{"solution", m1, solution1, Report{Solved: true, Moves: 33, Pushes: 8, Steps: 33}},
		{"solution in lower case", m1, strings.ToLower(solution1),
			Report{Solved: true, Moves: 33, Pushes: 8, Steps: 33, Reason: "step 3 (u) pushes a box but is written in lower case",
				CaseStep: 3, Case: "step 3 (u) pushes a box but is written in lower case", Miscased: 8}},
		{"extra move after solving", m1, solution1 + "d", Report{Solved: true, Moves: 34, Pushes: 8, Steps: 34}},
		{"solved then unsolved", m1, solution1 + "lD",
			Report{Moves: 35, Pushes: 9, Steps: 35, Reason: "not solved: 1 of 2 boxes on goals"}},
		{"empty", m1, "", Report{Reason: "not solved: 1 of 2 boxes on goals"}},
		{"upper case move", m1, "Dl",
			Report{Moves: 2, Steps: 2, Reason: "not solved: 1 of 2 boxes on goals; step 1 (D) pushes nothing but is written in upper case",
				CaseStep: 1, Case: "step 1 (D) pushes nothing but is written in upper case", Miscased: 1}},
		{"push into wall", m1, "L", Report{FailStep: 1, Reason: "step 1 (L): push blocked by wall at row 4, column 1"}},
		{"walk into wall", m1, "uuu", Report{Moves: 2, Steps: 2, FailStep: 3, Reason: "step 3 (u): walks into a wall at row 1, column 3"}},
		{"push after moves into wall", m1, "dlUUU", Report{Moves: 4, Pushes: 2, Steps: 4, FailStep: 5, Reason: "step 5 (U): push blocked by wall at row 1, column 2"}},
		{"push into box", twoBoxes, "rR", Report{FailStep: 1, Reason: "step 1 (r): push blocked by box at row 2, column 4"}},
		{"solve two boxes", rows, "RRlldRR", Report{Solved: true, Moves: 7, Pushes: 4, Steps: 7}},
		{"push too far", rows, "RRR", Report{Moves: 2, Pushes: 2, Steps: 2, FailStep: 3, Reason: "step 3 (R): push blocked by wall at row 2, column 6"}},
		{"one box", one, "r", Report{Moves: 1, Steps: 1, Reason: "not solved: 0 of 1 box on goals"}},
		{"push then move", rows, "Rlr", Report{Moves: 3, Pushes: 1, Steps: 3, Reason: "not solved: 0 of 2 boxes on goals"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := append([]string(nil), tc.l.Rows...)
			got, err := Check(tc.l, tc.lurd)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
			for y := range before {
				if tc.l.Rows[y] != before[y] {
					t.Fatalf("Replay changed the level")
				}
			}
		})
	}
}

func TestReplayBrokenLevels(t *testing.T) {
	right := []level.Move{{Dir: level.Right}}
	tests := []struct {
		name  string
		l     *level.Level
		moves []level.Move
		want  Report
	}{
		{"nil level", nil, right, Report{Reason: "no level"}},
		{"no player", &level.Level{Rows: []string{"#$.#"}}, right, Report{Reason: "level has 0 players, want 1"}},
		{"two players", &level.Level{Rows: []string{"@@"}}, right, Report{Reason: "level has 2 players, want 1"}},
		{"walk off", &level.Level{Rows: []string{"@"}}, right, Report{FailStep: 1, Reason: "step 1 (r): walks off the board at row 1, column 2"}},
		{"walk off ragged", &level.Level{Rows: []string{"  .", "@$", "#"}}, []level.Move{{Dir: level.Up}, {Dir: level.Right}, {Dir: level.Right}, {Dir: level.Down}},
			Report{Moves: 3, Steps: 3, FailStep: 4, Reason: "step 4 (d): walks off the board at row 2, column 3"}},
		{"push off", &level.Level{Rows: []string{"@$"}}, right, Report{FailStep: 1, Reason: "step 1 (r): pushes a box off the board at row 1, column 3"}},
		{"bad direction", &level.Level{Rows: []string{"@$."}}, []level.Move{{Dir: 7}}, Report{FailStep: 1, Reason: "step 1 (?): invalid direction 7"}},
		{"push onto goal", &level.Level{Rows: []string{"@$."}}, right, Report{Solved: true, Moves: 1, Pushes: 1, Steps: 1, Reason: "step 1 (r) pushes a box but is written in lower case",
			CaseStep: 1, Case: "step 1 (r) pushes a box but is written in lower case", Miscased: 1}},
	}
	for _, tc := range tests {
		if got := Replay(tc.l, tc.moves); got != tc.want {
			t.Errorf("%s: got  %+v\nwant %+v", tc.name, got, tc.want)
		}
	}
}

// Recase writes each step as what it does: a lower-case solution comes
// back as the real one, and steps after an illegal one as written.
func TestRecase(t *testing.T) {
	m1 := parse(t, microban1)
	for _, tc := range []struct{ in, want string }{
		{strings.ToLower(solution1), solution1},
		{strings.ToUpper(solution1), solution1},
		{solution1, solution1},
		{"DLUUUd", "dlUUUd"}, // step 5 is illegal: it and step 6 stay as written
	} {
		ms, err := level.ParseLURD(tc.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := level.FormatLURD(Recase(m1, ms)); got != tc.want {
			t.Errorf("Recase(%s) = %s, want %s", tc.in, got, tc.want)
		}
		if level.FormatLURD(ms) != tc.in {
			t.Errorf("Recase changed its argument")
		}
	}
}

func TestCheckBadLURD(t *testing.T) {
	if _, err := Check(parse(t, microban1), "dlx"); err == nil || !strings.Contains(err.Error(), "1:3: unexpected character 'x'") {
		t.Errorf("Check with bad LURD: %v", err)
	}
}

// TestIndependent makes sure verify uses no solver code: its only import
// from this module may be package level.
func TestIndependent(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range af.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if p != "soko/level" && (strings.HasPrefix(p, "soko/") || strings.Contains(strings.Split(p, "/")[0], ".")) {
				t.Errorf("%s imports %s; verify may only use package level and the standard library", f, p)
			}
		}
	}
}
