package level

import (
	"errors"
	"testing"
)

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		simple,
		"; 1 'Title'\r\n" + simple,
		"5#|#@$.#|5#|",
		"; 2\n    #####\n    #   #\n    #$  #\n  ###  $##\n  #  $ $ #\n### # ## #   ######\n#   # ## #####  ..#\n# $  $          ..#\n##### ### #@##  ..#\n    #     #########\n    #######\n",
		"Title: x\nAuthor: y\n#####\n#@$.#\n#####\n; note\n",
		"#####\n#@\t$.#\n#####\n",
		"3#\n#@#\n3#\n",
		"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ls, err := ParseString(s, "fuzz")
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %T is not *Error", err)
			}
			return
		}
		for _, l := range ls {
			checkRoundTrip(t, l)
		}
	})
}

func FuzzParseLURD(f *testing.F) {
	for _, s := range []string{"", "udlrUDLR", "3l2R", "u\nd 10L", "x", "0u", "9"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ms, err := ParseLURD(s)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %T is not *Error", err)
			}
			return
		}
		// Formatting and parsing again must give the same moves.
		ms2, err := ParseLURD(FormatLURD(ms))
		if err != nil || len(ms2) != len(ms) {
			t.Fatalf("reparse: %d moves, %v; want %d", len(ms2), err, len(ms))
		}
		for i := range ms {
			if ms[i] != ms2[i] {
				t.Fatalf("move %d: %v, want %v", i, ms2[i], ms[i])
			}
		}
	})
}
