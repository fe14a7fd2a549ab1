package level

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestDir(t *testing.T) {
	tests := []struct {
		d      Dir
		dx, dy int
		letter byte
	}{
		{Up, 0, -1, 'u'}, {Down, 0, 1, 'd'}, {Left, -1, 0, 'l'}, {Right, 1, 0, 'r'}, {Dir(4), 0, 0, '?'},
	}
	for _, tc := range tests {
		dx, dy := tc.d.Delta()
		if dx != tc.dx || dy != tc.dy || tc.d.Letter(false) != tc.letter {
			t.Errorf("Dir %d: (%d,%d) %c", tc.d, dx, dy, tc.d.Letter(false))
		}
	}
	if Up != 0 || Down != 1 || Left != 2 || Right != 3 {
		t.Error("direction values changed")
	}
	if Right.Letter(true) != 'R' {
		t.Error("push letter")
	}
}

func TestParseLURD(t *testing.T) {
	u, d, l, r := Move{Up, false}, Move{Down, false}, Move{Left, false}, Move{Right, false}
	U, D, L, R := Move{Up, true}, Move{Down, true}, Move{Left, true}, Move{Right, true}
	tests := []struct {
		in   string
		want []Move
	}{
		{"", nil},
		{"udlrUDLR", []Move{u, d, l, r, U, D, L, R}},
		{"3l2R", []Move{l, l, l, R, R}},
		{" u d\r\n\tl\n 10r", []Move{u, d, l, r, r, r, r, r, r, r, r, r, r}},
		{"1U", []Move{U}},
	}
	for _, tc := range tests {
		got, err := ParseLURD(tc.in)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("ParseLURD(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

func TestParseLURDErrors(t *testing.T) {
	tests := []struct {
		in        string
		line, col int
		msg       string
	}{
		{"udx", 1, 3, "unexpected character 'x' in LURD"},
		{"ud\nlr\n  é", 3, 3, "unexpected character 'é' in LURD"},
		{"ud3", 1, 3, "repeat count at the end of LURD"},
		{"u0d", 1, 2, "repeat count 0 in LURD"},
		{"u\n99999999999999999999r", 2, 1, "LURD longer than 1048576 steps, the longest solution accepted"},
		{"u\n1048576r", 2, 1, "LURD longer than 1048576 steps, the longest solution accepted"},
		{"u-", 1, 2, "unexpected character '-' in LURD"},
		{"l\rl\rRx\r", 3, 2, "unexpected character 'x' in LURD"},       // CR line ends
		{"l\r\nl\r\nRx\r\n", 3, 2, "unexpected character 'x' in LURD"}, // CRLF: one line end each
	}
	for _, tc := range tests {
		_, err := ParseLURD(tc.in)
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("ParseLURD(%q): error %v is not *Error", tc.in, err)
			continue
		}
		if want := (Error{Line: tc.line, Col: tc.col, Msg: tc.msg}); *e != want {
			t.Errorf("ParseLURD(%q): %#v, want %#v", tc.in, *e, want)
		}
	}
}

// TestParseLURDCap checks the one cap on solutions in both forms: plain
// letters and repeat counts are accepted up to MaxSolutionSteps steps and
// refused one step beyond, and text longer than MaxSolutionText is refused
// before it is scanned.
func TestParseLURDCap(t *testing.T) {
	plain := strings.Repeat("lr", MaxSolutionSteps/2)
	if ms, err := ParseLURD(plain); err != nil || len(ms) != MaxSolutionSteps {
		t.Fatalf("plain LURD of exactly MaxSolutionSteps: %d moves, %v", len(ms), err)
	}
	_, err := ParseLURD(plain + "\nu")
	var e *Error
	if !errors.As(err, &e) || e.Line != 2 || e.Col != 1 || !strings.Contains(e.Msg, "longer than 1048576 steps") {
		t.Fatalf("plain LURD one step over the cap: %v", err)
	}
	if ms, err := ParseLURD("524288l524288r"); err != nil || len(ms) != MaxSolutionSteps {
		t.Fatalf("run-length LURD of exactly MaxSolutionSteps: %d moves, %v", len(ms), err)
	}
	if _, err := ParseLURD("524288l524289r"); err == nil {
		t.Fatal("run-length LURD one step over the cap accepted")
	}
	spaced := strings.Repeat("u ", MaxSolutionSteps/4) + strings.Repeat(" ", MaxSolutionText-MaxSolutionSteps/2)
	if ms, err := ParseLURD(spaced); err != nil || len(ms) != MaxSolutionSteps/4 {
		t.Fatalf("LURD text of exactly MaxSolutionText bytes: %d moves, %v", len(ms), err)
	}
	_, err = ParseLURD(spaced + " ")
	if !errors.As(err, &e) || !strings.Contains(e.Msg, "longer than the 4194304 bytes allowed") {
		t.Fatalf("LURD text one byte over MaxSolutionText: %v", err)
	}
}

func TestFormatLURD(t *testing.T) {
	ms, err := ParseLURD("2uDlR")
	if err != nil {
		t.Fatal(err)
	}
	if got := FormatLURD(ms); got != "uuDlR" {
		t.Errorf("FormatLURD = %q", got)
	}
	if got := FormatLURD([]Move{{Dir: 9}}); got != "?" {
		t.Errorf("FormatLURD invalid = %q", got)
	}
}

// LURDSteps counts what ParseLURD would read, repeat counts taken, and
// stops past the cap.
func TestLURDSteps(t *testing.T) {
	for _, s := range []string{"", "uldr", "3l2R", "10r\nU", "dlUrrrdLullddrUluRuulDrddrruLdlUU", "1048576l"} {
		ms, err := ParseLURD(s)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		if got := LURDSteps(s); got != len(ms) {
			t.Errorf("LURDSteps(%q) = %d, want %d", s, got, len(ms))
		}
	}
	if got := LURDSteps("99999999999999999999999l"); got != MaxSolutionSteps+1 {
		t.Errorf("a count past the cap: %d steps, want %d", got, MaxSolutionSteps+1)
	}
}
