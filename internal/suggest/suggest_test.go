package suggest

import "testing"

func TestClosest(t *testing.T) {
	collections := []string{"boxoban-medium-valid-000", "cbc60", "microban", "microban3", "xsokoban90"}
	solvers := []string{"astar", "bfs", "dfs", "fess", "greedy", "idastar", "wastar"}
	flags := []string{"algo", "iterations", "j", "json", "time", "threads", "trace"}
	for _, c := range []struct {
		typed string
		known []string
		want  string
	}{
		{"microbon", collections, "microban"},
		{"Microban", collections, "microban"}, // case first, not microban3
		{"MICROBAN3", collections, "microban3"},
		{"xsokoban", collections, "xsokoban90"}, // the only one it begins
		{"ASTAR", solvers, "astar"},
		{"fes", solvers, "fess"},
		{"gredy", solvers, "greedy"},
		{"idasatr", solvers, "idastar"}, // a swap is one slip
		{"tim", flags, "time"},
		{"itreations", flags, "iterations"},
		{"t", flags, ""},  // too short to guess
		{"tr", flags, ""}, // trace or threads: none for sure
		{"zzzz", solvers, ""},
		{"sokoban", collections, ""}, // a prefix of none, too far from all
		{"", solvers, ""},
	} {
		if got := Closest(c.typed, c.known); got != c.want {
			t.Errorf("Closest(%q) = %q, want %q", c.typed, got, c.want)
		}
	}
}

func TestDidYouMean(t *testing.T) {
	if got := DidYouMean("ASTAR", []string{"astar"}, nil); got != `; did you mean "astar"?` {
		t.Errorf("got %q", got)
	}
	if got := DidYouMean("tim", []string{"time"}, func(s string) string { return "--" + s }); got != "; did you mean --time?" {
		t.Errorf("got %q", got)
	}
	if got := DidYouMean("qqq", []string{"time"}, nil); got != "" {
		t.Errorf("got %q", got)
	}
}

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"a", "", 1}, {"kitten", "sitting", 3}, {"ab", "ba", 1}, {"microbon", "microban", 1}} {
		if got := distance(c.a, c.b); got != c.want {
			t.Errorf("distance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}
