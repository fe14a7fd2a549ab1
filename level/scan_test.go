package level

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

// ScanCollection reads line ends split across reads ("\r" then "\n") as
// one, and hands over each level once it is complete, a Title: line after
// its board included, as ParseCollection keeps them.
func TestScanCollection(t *testing.T) {
	text := "\uFEFF; header\r\n\r\n#####\r\n#@$.#\r\n#####\rTitle: first\r\n\r\n" +
		"; 7 second\n#####\n#@ .#\n#####\n\n#####\r#@$.#\r#####\r"
	whole, err := ParseCollection(strings.NewReader(text), "f.xsb")
	if err != nil {
		t.Fatal(err)
	}
	var levels []*Level
	var bad []*Unloadable
	c, err := ScanCollection(iotest.OneByteReader(strings.NewReader(text)), "f.xsb", func(l *Level, u *Unloadable) error {
		if l != nil {
			levels = append(levels, l)
		} else {
			bad = append(bad, u)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(whole.Levels) != 2 || whole.Levels[0].Title != "first" || len(whole.Unloadable) != 1 || whole.Unloadable[0].Title != "second" {
		t.Fatalf("ParseCollection: %d levels, %d unloadable", len(whole.Levels), len(whole.Unloadable))
	}
	if !reflect.DeepEqual(levels, whole.Levels) || !reflect.DeepEqual(bad, whole.Unloadable) || !reflect.DeepEqual(c.Header, whole.Header) {
		t.Errorf("ScanCollection one byte at a time differs from ParseCollection:\n%+v\n%+v", levels, whole.Levels)
	}
	// An error of fn stops the reading.
	stop := errors.New("stop")
	n := 0
	_, err = ScanCollection(strings.NewReader(text), "f.xsb", func(*Level, *Unloadable) error { n++; return stop })
	if !errors.Is(err, stop) || n != 1 {
		t.Errorf("fn's error: %v after %d levels, want stop after 1", err, n)
	}
}
