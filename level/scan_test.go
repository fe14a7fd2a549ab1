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
	if len(whole.Levels) != 2 || whole.Levels[0].Title != "first" || len(whole.Unloadable) != 1 || whole.Unloadable[0].Title != "second" {
		t.Fatalf("ParseCollection: %d levels, %d unloadable", len(whole.Levels), len(whole.Unloadable))
	}
	// ParseCollection keeps what ScanCollection hands over.
	bytewise, err := ParseCollection(iotest.OneByteReader(strings.NewReader(text)), "f.xsb")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(bytewise, whole) {
		t.Errorf("read one byte at a time, the collection differs:\n%+v\n%+v", bytewise, whole)
	}
	// An error of fn stops the reading.
	stop := errors.New("stop")
	n := 0
	_, err = ScanCollection(strings.NewReader(text), "f.xsb", func(*Level, *Unloadable) error { n++; return stop })
	if !errors.Is(err, stop) || n != 1 {
		t.Errorf("fn's error: %v after %d levels, want stop after 1", err, n)
	}
}
