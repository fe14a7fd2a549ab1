package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"unicode/utf8"

	"soko/internal/english"
	"soko/level"
	"soko/nn"
)

// A fileKind is a kind of file soko writes whole or merges into (a trace,
// a profile, a model, a level file). An output that exists and is not
// empty must be of its kind, so that a flag given the wrong name (notes, a
// model, a results file, the user's image) is refused before any work
// instead of being replaced or rewritten.
type fileKind struct {
	name  string                 // for messages: "a trace"
	limit int64                  // bytes read to recognise it
	is    func(data []byte) bool // data, at most limit bytes, is of the kind
}

var (
	// kindTrace is soko solve --trace: JSON lines whose first is a trace
	// record (solver.Trace: "level", "event", "t_s").
	kindTrace = fileKind{"a soko trace (JSON lines of trace records)", 1 << 20, isTrace}
	// kindProfile is --cpuprofile and --memprofile: runtime/pprof's
	// format, gzip-compressed.
	kindProfile = fileKind{"a pprof profile (gzip data)", 2, isGzip}
	// kindModel is a model of train, train-dist and train-puct.
	kindModel = fileKind{"a soko model", 8, nn.IsModel}
	// kindLevels is a level file (generate --out) or a .sok collection
	// merged into (solve --out, bench --sok, optimize FILE.sok): text
	// holding at least one level, loadable or not.
	kindLevels = fileKind{"a level file", level.MaxInput + 1, isLevels}
)

// sameKind refuses, as a usage error, a file at path of cmd's flag that
// exists, is not empty and is not of kind k, naming it and what it seems
// to hold. A path that does not exist, or is not a regular file (which
// checkOut refuses), passes.
func sameKind(cmd, flag, path string, k fileKind) error {
	data, err := readExisting(path, k.limit)
	if err != nil {
		return fmt.Errorf("%s: %s %w", cmd, flag, err)
	}
	if len(data) == 0 || k.is(data) {
		return nil
	}
	if more, err := readExisting(path, kindLevels.limit); err == nil && len(more) > len(data) {
		data = more // what it seems to hold is told from all of it
	}
	return k.check(cmd, flag, path, data)
}

// check is sameKind on data, the file at path as read (at most k.limit
// bytes; nil when there is none).
func (k fileKind) check(cmd, flag, path string, data []byte) error {
	if len(data) == 0 || k.is(data) {
		return nil
	}
	return usagef("%s: %s %s exists and is not %s: it holds %s; soko does not write over a file of another kind: give a new or empty file, or remove this one first",
		cmd, flag, path, k.name, seems(data))
}

// readExisting reads at most limit bytes of the regular file at path; nil
// when there is no such file.
func readExisting(path string, limit int64) ([]byte, error) {
	st, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) || err == nil && !st.Mode().IsRegular() {
		return nil, nil
	}
	f, err := os.Open(path)
	if err != nil {
		if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
			err = pe.Err // the path is named once
		}
		return nil, fmt.Errorf("%s cannot be read to tell what it holds: %w", path, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return data, nil
}

// isGzip tells whether data starts with gzip's magic.
func isGzip(data []byte) bool { return bytes.HasPrefix(data, []byte{0x1f, 0x8b}) }

// isTrace tells whether data is blank or its first line is a trace record.
func isTrace(data []byte) bool {
	if len(bytes.TrimSpace(data)) == 0 {
		return true
	}
	line, _, _ := bytes.Cut(data, []byte("\n"))
	var rec map[string]json.RawMessage
	if json.Unmarshal(line, &rec) != nil {
		return false
	}
	_, level := rec["level"]
	_, event := rec["event"]
	_, ts := rec["t_s"]
	return level && event && ts
}

// isLevels tells whether data is text (textOf) that is blank or holds at
// least one level, loadable or not.
func isLevels(data []byte) bool {
	text, err := textOf(data)
	if err != nil {
		return false
	}
	if strings.TrimSpace(text) == "" {
		return true
	}
	n, err := countLevels(data)
	return err == nil && n > 0
}

// countLevels counts the levels of a collection file's content, loadable
// or not.
func countLevels(data []byte) (int, error) {
	c, err := level.ParseCollection(bytes.NewReader(data), "")
	if err != nil {
		return 0, err
	}
	return len(c.Levels) + len(c.Unloadable), nil
}

// textOf decodes data as package level reads a level file (UTF-8, with or
// without a byte order mark, or UTF-16 with one) and refuses what is not
// text: a NUL byte or a byte that is not UTF-8, saying where.
func textOf(data []byte) (string, error) {
	text, err := level.Text(data, "")
	if err != nil {
		return "", err
	}
	if i := strings.IndexByte(text, 0); i >= 0 {
		return "", fmt.Errorf("a NUL byte at offset %d", i)
	}
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if r == utf8.RuneError && size == 1 {
			return "", fmt.Errorf("a byte that is not UTF-8 text at offset %d", i)
		}
		i += size
	}
	return text, nil
}

// seems says what data, the start of a file that is not empty, seems to
// hold, for messages refusing to write over it.
func seems(data []byte) string {
	switch {
	case nn.IsModel(data):
		return "a soko model"
	case isGzip(data):
		return "gzip-compressed data (a profile or a .gz file)"
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		return "a PNG image"
	case bytes.HasPrefix(data, []byte("%PDF-")):
		return "a PDF document"
	}
	text, err := textOf(data)
	if err != nil {
		return "binary data, not text (" + err.Error() + ")"
	}
	if len(strings.TrimSpace(text)) > 0 && isTrace([]byte(text)) {
		return "a soko trace"
	}
	first := strings.TrimSpace(text)
	first, _, _ = strings.Cut(first, "\n")
	if json.Valid([]byte(first)) && strings.HasPrefix(first, "{") {
		return "JSON lines (results or records), not levels"
	}
	switch n, err := countLevels(data); {
	case err != nil:
		return "text that does not read as levels (" + err.Error() + ")"
	case n > 0:
		return "a level file (" + english.Count(n, "level", "levels") + ")"
	}
	return "text with no level in it"
}
