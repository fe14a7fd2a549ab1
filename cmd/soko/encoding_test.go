package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"
)

// utf16LE encodes s as UTF-16 little-endian with a byte order mark, as
// editors on Windows save "Unicode" text.
func utf16LE(s string) []byte {
	b := []byte{0xFF, 0xFE}
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u), byte(u>>8))
	}
	return b
}

// Solution files and level files are read alike: with a UTF-8 byte order
// mark, or as UTF-16 with one.
func TestFileEncodings(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	for name, data := range map[string][]byte{
		"bom.lurd":   []byte("\uFEFF" + microban1Real + "\r\n"),
		"utf16.lurd": utf16LE(microban1Real + "\r\n"),
	} {
		path := write(name, data)
		if out, _, err := soko(t, "", "verify", "microban:1", path); err != nil || out != "microban:1: solved in 33 moves, 8 pushes\n" {
			t.Errorf("verify with %s: %v %q", name, err, out)
		}
	}
	if out, _, err := soko(t, "\uFEFF"+microban1Real, "verify", "microban:1", "-"); err != nil {
		t.Errorf("verify with a byte order mark on stdin: %v %q", err, out)
	}

	shown, _, err := soko(t, "", "show", "microban:1-2")
	if err != nil {
		t.Fatal(err)
	}
	levels := write("utf16.xsb", utf16LE(strings.ReplaceAll(shown, "\n", "\r\n")))
	out, _, err := soko(t, "", "list", levels)
	if err != nil || strings.Count(out, "\n") != 2 || !strings.HasPrefix(out, levels+":1 ") {
		t.Errorf("list of a UTF-16 file: %v\n%s", err, out)
	}
	if out, _, err := soko(t, "", "verify", levels+":1", microban1Real); err != nil {
		t.Errorf("verify on a UTF-16 level file: %v %q", err, out)
	}
	noBOM := write("nobom.xsb", utf16LE(shown)[2:])
	if _, _, err := soko(t, "", "list", noBOM); err == nil || !strings.Contains(err.Error(), noBOM+": the text looks like UTF-16 without a byte order mark") {
		t.Errorf("UTF-16 without a mark: %v, want an error naming the file and the encoding", err)
	}

	// A .sok file in UTF-16 has its solutions read too.
	sok := write("utf16.sok", utf16LE(strings.Replace(shown, "\n\n", "\nSolution\n"+microban1Real+"\n\n", 1)))
	if out, _, err := soko(t, "", "verify", sok); err != nil || !strings.Contains(out, "1 of 1 solution solve") {
		t.Errorf("verify of a UTF-16 .sok file: %v\n%s", err, out)
	}
}
