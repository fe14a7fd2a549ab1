package level

import (
	"bufio"
	"bytes"
	"io"
	"strings"
	"unicode/utf16"
)

// Text returns the bytes of a level or solution file as UTF-8 text. A
// UTF-8 byte order mark is dropped; a UTF-16 one (little or big endian, as
// editors on Windows save "Unicode" text) has the rest decoded from
// UTF-16. UTF-16 of an odd number of bytes, and text that looks like
// UTF-16 without a byte order mark (looksUTF16), are refused with an
// *Error naming source and the encoding, rather than read as text that
// holds no levels.
func Text(data []byte, source string) (string, error) {
	data = bytes.TrimPrefix(data, []byte{0xEF, 0xBB, 0xBF})
	switch {
	case bytes.HasPrefix(data, []byte{0xFF, 0xFE}):
		return utf16Text(data[2:], source, "UTF-16 little-endian", func(b []byte) uint16 { return uint16(b[0]) | uint16(b[1])<<8 })
	case bytes.HasPrefix(data, []byte{0xFE, 0xFF}):
		return utf16Text(data[2:], source, "UTF-16 big-endian", func(b []byte) uint16 { return uint16(b[0])<<8 | uint16(b[1]) })
	case looksUTF16(data):
		return "", &Error{File: source, Msg: "the text looks like UTF-16 without a byte order mark; save it as UTF-8 (or UTF-16 with a byte order mark)"}
	}
	return string(data), nil
}

// looksUTF16 reports whether text starts like ASCII written as UTF-16:
// four characters, each a NUL byte and a non-NUL one, in the same order.
// Line ends are read as LF first, as the parser and the .sok writer read
// them, so that text soko writes back is judged as it was read.
func looksUTF16(data []byte) bool {
	head := data[:min(len(data), 64)]
	head = bytes.ReplaceAll(head, []byte("\r\n"), []byte("\n"))
	head = bytes.ReplaceAll(head, []byte("\r"), []byte("\n"))
	if len(head) < 8 {
		return false
	}
	le, be := true, true
	for i := 0; i < 8; i += 2 {
		le = le && head[i] != 0 && head[i+1] == 0
		be = be && head[i] == 0 && head[i+1] != 0
	}
	return le || be
}

// utf16Text decodes data, UTF-16 whose code units unit reads, to UTF-8.
func utf16Text(data []byte, source, encoding string, unit func([]byte) uint16) (string, error) {
	if len(data)%2 != 0 {
		return "", &Error{File: source, Msg: encoding + " text (byte order mark) of an odd number of bytes: the file is cut or not " + encoding}
	}
	units := make([]uint16, len(data)/2)
	for i := range units {
		units[i] = unit(data[2*i:])
	}
	for i := 0; i < len(units); i++ {
		// A high surrogate and a low one make one character; either alone
		// is half of one: the file is cut, or its bytes are not UTF-16.
		switch u := units[i]; {
		case u >= 0xD800 && u < 0xDC00 && i+1 < len(units) && units[i+1] >= 0xDC00 && units[i+1] < 0xE000:
			i++
		case u >= 0xD800 && u < 0xE000:
			return "", &Error{File: source, Msg: encoding + " text (byte order mark) with half a character (a lone surrogate): the file is cut or not " + encoding}
		}
	}
	return strings.TrimPrefix(string(utf16.Decode(units)), "\uFEFF"), nil // a UTF-8 mark converted along
}

// decoded returns r as UTF-8 text for the line scanner: a UTF-8 file
// (with or without its byte order mark, which the scanner drops) is
// streamed as it is; a UTF-16 one, or one Text refuses, is read whole (at
// most MaxInput bytes and one more, so that the scanner still sees an
// input over the limit) and converted by Text.
func decoded(r io.Reader, source string) (io.Reader, error) {
	br := bufio.NewReader(r)
	head, err := br.Peek(64)
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return nil, &Error{File: source, Msg: "read error: " + err.Error(), Err: err}
	}
	head = bytes.TrimPrefix(head, []byte{0xEF, 0xBB, 0xBF})
	if !bytes.HasPrefix(head, []byte{0xFF, 0xFE}) && !bytes.HasPrefix(head, []byte{0xFE, 0xFF}) && !looksUTF16(head) {
		return br, nil
	}
	data, err := io.ReadAll(io.LimitReader(br, MaxInput+1))
	if err != nil {
		return nil, &Error{File: source, Msg: "read error: " + err.Error(), Err: err}
	}
	if len(data) > MaxInput {
		return nil, TooLargeError(source)
	}
	text, err := Text(data, source)
	if err != nil {
		return nil, err
	}
	return strings.NewReader(text), nil
}
