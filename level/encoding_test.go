package level

import (
	"strings"
	"testing"
	"unicode/utf16"
)

// utf16Bytes encodes s as UTF-16, little or big endian, with bom in front.
func utf16Bytes(s string, bigEndian bool, bom string) []byte {
	b := []byte(bom)
	for _, u := range utf16.Encode([]rune(s)) {
		if bigEndian {
			b = append(b, byte(u>>8), byte(u))
		} else {
			b = append(b, byte(u), byte(u>>8))
		}
	}
	return b
}

// Level files saved as UTF-16 with a byte order mark are read like UTF-8
// ones; UTF-16 that cannot be read is an error naming the file and the
// encoding, never "no levels".
func TestText(t *testing.T) {
	const text = "; 1 Dune ü\n" + simple + "\n#####\n#.$@#\n#####\n"
	for _, tc := range []struct {
		name string
		data []byte
		err  string // "" when it reads as text
	}{
		{"UTF-8", []byte(text), ""},
		{"UTF-8 byte order mark", []byte("\uFEFF" + text), ""},
		{"UTF-16 little-endian", utf16Bytes(text, false, "\xFF\xFE"), ""},
		{"UTF-16 big-endian", utf16Bytes(text, true, "\xFE\xFF"), ""},
		{"UTF-16 with a UTF-8 mark converted along", utf16Bytes("\uFEFF"+text, false, "\xFF\xFE"), ""},
		{"UTF-16 little-endian without a mark", utf16Bytes(text, false, ""), "x.xsb: the text looks like UTF-16 without a byte order mark"},
		{"UTF-16 big-endian without a mark", utf16Bytes(text, true, ""), "x.xsb: the text looks like UTF-16 without a byte order mark"},
		{"UTF-16 cut in a code unit", utf16Bytes(text, false, "\xFF\xFE")[:9], "x.xsb: UTF-16 little-endian text (byte order mark) of an odd number of bytes"},
		{"UTF-16 cut between the halves of a character", append(utf16Bytes(text, false, "\xFF\xFE"), 0x3D, 0xD8), "x.xsb: UTF-16 little-endian text (byte order mark) with half a character"},
	} {
		c, err := ParseCollection(strings.NewReader(string(tc.data)), "x.xsb")
		if tc.err != "" {
			if err == nil || !strings.HasPrefix(err.Error(), tc.err) {
				t.Errorf("%s: %v, want %q", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil || len(c.Levels) != 2 || c.Levels[0].Title != "Dune ü" || c.Levels[1].Line != 6 || c.Levels[1].Rows[1] != "#.$@#" {
			t.Errorf("%s: %v, %+v", tc.name, err, c)
		}
	}
	// Short text and stray NULs are text; line ends count as LF, as the
	// .sok writer writes them.
	for data, refused := range map[string]bool{"\x00": false, "\x00\n": false, "a\x00b\x00c\x00": false, "a\x00\r\n\x00b\x00c\x00": true, "\xEF\xBB\xBFa\x00b\x00c\x00d\x00": true} {
		if _, err := Text([]byte(data), "x.xsb"); (err != nil) != refused {
			t.Errorf("Text(%q): %v, refused want %v", data, err, refused)
		}
	}
	// A NUL byte in what is read as UTF-8 is a binary file: an error at its
	// line and column, never "no levels" or a comment line.
	for data, want := range map[string]string{
		"\x00\x00\x00\x00":               "x.xsb:1:1: a NUL byte",
		"; 1\n#####\n#@$.#\n#####\n\x00": "x.xsb:5:1: a NUL byte",
		"Title\nab\x00\n":                "x.xsb:2:3: a NUL byte",
	} {
		if _, err := ParseCollection(strings.NewReader(data), "x.xsb"); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("ParseCollection(%q): %v, want %q", data, err, want)
		}
	}
	// An error in a UTF-16 file has the line and column of the text.
	_, err := ParseString(string(utf16Bytes("#####\n#@$x#\n#####\n", false, "\xFF\xFE")), "x.xsb")
	if err == nil || err.Error() != "x.xsb:2:4: level 1: unknown character 'x' in board" {
		t.Errorf("error in UTF-16: %v", err)
	}
}
