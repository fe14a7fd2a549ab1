package level

import "strconv"

// Error is a problem found while reading level text or a LURD string. Every
// error returned by Parse, ParseString, ParseCollection and ParseLURD is an
// *Error.
//
// Line and Col are 1-based positions (Col counts bytes) in the source text;
// Level is the index of the level concerned. Zero means unknown or not
// applicable, and such parts are left out of the message.
type Error struct {
	File  string // source name, as passed to Parse
	Level int    // level index (see Level.Index)
	Line  int
	Col   int
	Msg   string
	Err   error // the reader's error, for a read error; nil otherwise
}

// Unwrap returns the reader's error of a read error, so that a cancelled
// read is still known as one.
func (e *Error) Unwrap() error { return e.Err }

// Error formats the error as "file:line:col: level n: message", leaving out
// the parts that are zero.
func (e *Error) Error() string {
	s := Printable(e.File) // a file's name may hold what would drive a terminal
	if e.Line > 0 {
		if s != "" {
			s += ":"
		}
		s += strconv.Itoa(e.Line)
		if e.Col > 0 {
			s += ":" + strconv.Itoa(e.Col)
		}
	}
	if s != "" {
		s += ": "
	}
	if e.Level > 0 {
		s += "level " + strconv.Itoa(e.Level) + ": "
	}
	return s + e.Msg
}
