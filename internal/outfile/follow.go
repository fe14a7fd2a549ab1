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

// Follow keeps a writer that appends records to f, the file it opened at
// path, writing to the file at path. When path still names f it returns
// nil. When another file was renamed over it (an editor, sed -i, cp and
// mv), Follow takes that file with open, which locks it and recognises it
// as the writer's or refuses it (its error is returned as it is), and
// appends to it each line of mine, read back from f, whose key it lacks
// (has). It then closes f and returns the new file and how many lines it
// copied. A path that names no file is ErrRemoved; a copy that fails is a
// CopyError, and the new file is closed.
func Follow(f *os.File, path string, mine []Line, open func() (nf *os.File, has func(key string) bool, err error)) (*os.File, int, error) {
	moved, removed := Moved(f, path)
	switch {
	case !moved:
		return nil, 0, nil
	case removed:
		return nil, 0, ErrRemoved
	}
	nf, has, err := open()
	if err != nil {
		return nil, 0, err
	}
	var missing []Line
	for _, w := range mine {
		if !has(w.Key) {
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
			return nil, 0, &CopyError{Missing: len(missing), Err: err}
		}
	}
	f.Close()
	return nf, len(missing), nil
}
