package outfile

import (
	"errors"
	"os"
)

// Line is where a line a writer appended lies in its file, and the key of
// the record on it.
type Line struct {
	Off int64
	Len int
	Key string
}

// ErrRemoved is Follow's error when the path names no file any more.
var ErrRemoved = errors.New("removed")

// CopyError is Follow's error when it took the new file but could not put
// there the lines it lacked.
type CopyError struct {
	Missing int // the lines the new file lacked
	Err     error
}

func (e *CopyError) Error() string { return e.Err.Error() }

func (e *CopyError) Unwrap() error { return e.Err }

// Appended is a file of keyed records that a writer appends to, as
// Follow takes it anew.
type Appended interface {
	File() *os.File       // the open file, locked
	Done(key string) bool // whether a record with key is in it
}

// Follow keeps a writer that appends records to f, the file it opened at
// path, writing to the file at path. When path still names f it returns
// the zero A. When another file was renamed over it (an editor, sed -i, cp
// and mv), Follow takes that file with open, which locks it and
// recognises it as the writer's or refuses it (its error is returned as it
// is), and appends to it each line of mine, read back from f, whose key it
// lacks. It then closes f and returns the file taken and how many lines it
// copied. A path that names no file is ErrRemoved; a copy that fails is a
// CopyError, and the new file is closed.
func Follow[A Appended](f *os.File, path string, mine []Line, open func(path string) (A, error)) (A, int, error) {
	var none A
	moved, removed := Moved(f, path)
	switch {
	case !moved:
		return none, 0, nil
	case removed:
		return none, 0, ErrRemoved
	}
	taken, err := open(path)
	if err != nil {
		return none, 0, err
	}
	nf := taken.File()
	var missing []Line
	for _, w := range mine {
		if !taken.Done(w.Key) {
			missing = append(missing, w)
		}
	}
	for _, w := range missing {
		line := make([]byte, w.Len)
		_, err := f.ReadAt(line, w.Off)
		if err == nil {
			_, err = nf.Write(line)
		}
		if err != nil {
			nf.Close()
			return none, 0, &CopyError{Missing: len(missing), Err: err}
		}
	}
	f.Close()
	return taken, len(missing), nil
}
