package main

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"soko/guide"
	"soko/internal/english"
	"soko/internal/jsonl"
	"soko/internal/outfile"
	"soko/level"
	"soko/levels"
	"soko/lts"
	"soko/nn"
)

// checkOut refuses, as a usage error and before any work, an output path
// of cmd's flag that exists and is not a regular file the user may write,
// or whose folder does not exist or does not take a new file (package
// outfile says why).
func checkOut(cmd, flag, path string) error {
	if path == "" {
		return nil
	}
	if err := outfile.Check(path); err != nil {
		return usagef("%s: %s %v", cmd, flag, err)
	}
	return nil
}

// takeOut checks and locks, before any work, a file of cmd's flag that is
// written whole at the end (a model, a plot, a .sok collection), so that
// a file that cannot be written fails at once, not after hours, and no
// other soko writes it meanwhile; a file there that is not empty must be
// of kind k (sameKind; kindAny: the caller checks it). The caller closes
// the lock once written; writes to path through package outfile go
// through it.
func takeOut(cmd, flag, path string, k fileKind) (*outfile.Lock, error) {
	if err := outfile.CheckReplace(path); err != nil {
		return nil, usagef("%s: %s %v", cmd, flag, err)
	}
	l, err := outfile.Take(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %s %w", cmd, flag, err)
	}
	if k.name != "" { // not kindAny
		if err := sameKind(cmd, flag, path, k); err != nil {
			l.Close()
			return nil, err
		}
	}
	return l, nil
}

// plotFormats are the file name extensions a plot can be written in
// (gonum's plot.WriterTo).
var plotFormats = []string{"eps", "jpeg", "jpg", "pdf", "png", "svg", "tex", "tif", "tiff"}

// checkPlot refuses, before any work, a plot file whose extension names
// no format a plot is written in, or that exists and is not a plot
// (kindPlot).
func checkPlot(cmd, flag, path string) error {
	ext := strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), ".")
	if path == "" {
		return nil
	}
	if slices.Contains(plotFormats, ext) {
		return sameKind(cmd, flag, path, kindPlot)
	}
	return usagef("%s: %s %s: the extension gives the format; want one of .%s", cmd, flag, path, strings.Join(plotFormats, ", ."))
}

// output is an output flag of a command and its path.
type output struct{ flag, path string }

// notAnInput refuses, as a usage error before any work, an output that is
// the same file as one of the run's inputs: the files of the level specs
// and the other files it reads (a model, a solution), and standard input
// when a spec or an input is "-" (an output /dev/stdin, /proc/self/fd/0,
// or the file the shell gave as standard input). Only files that exist
// are compared (os.SameFile: a link or another spelling of the path is the
// same file).
func notAnInput(cmd string, stdin io.Reader, specs, inputs []string, outs ...output) error {
	type input struct {
		name string
		st   fs.FileInfo
	}
	var ins []input
	readsStdin := slices.Contains(inputs, "-")
	for _, s := range specs {
		if f, ok := levels.File(s); ok {
			inputs = append(inputs, f)
		}
		readsStdin = readsStdin || levels.Stdin(s)
	}
	for _, in := range inputs {
		if st, err := os.Stat(in); err == nil && in != "-" {
			ins = append(ins, input{in, st})
		}
	}
	if f, ok := stdin.(*os.File); ok && readsStdin {
		if st, err := f.Stat(); err == nil {
			ins = append(ins, input{"standard input", st})
		}
	}
	for _, o := range outs {
		if o.path == "" {
			continue
		}
		ost, err := os.Stat(o.path)
		if err != nil {
			continue
		}
		for _, in := range ins {
			if os.SameFile(ost, in.st) {
				return usagef("%s: %s %s is also an input of this run (%s): soko does not write over what it reads; give another file", cmd, o.flag, o.path, in.name)
			}
		}
	}
	return nil
}

// sokLevelSpecs are the level specs a .sok output (solve --out, bench
// --sok) is compared with by notAnInput: none when the file it makes is
// named .sok, for a .sok collection solved into itself is merged, its
// levels and solutions kept; every spec otherwise, so that a level file
// (lv.xsb) is never rewritten as a .sok.
func sokLevelSpecs(path string, specs []string) []string {
	if strings.EqualFold(filepath.Ext(outfile.Target(path)), ".sok") {
		return nil
	}
	return specs
}

// notAnInputSok is notAnInput for a .sok output: one that names a level
// file of the run is refused, unless it is named .sok (sokLevelSpecs).
func notAnInputSok(cmd string, stdin io.Reader, specs, inputs []string, out output) error {
	if err := notAnInput(cmd, stdin, nil, inputs, out); err != nil {
		return err
	}
	if err := notAnInput(cmd, stdin, sokLevelSpecs(out.path, specs), nil, out); err != nil {
		return usagef("%v (only a collection named .sok is solved into itself, merged)", err)
	}
	return nil
}

// distinctOutputs refuses, as a usage error before any work, two outputs
// of one run that are the same file, and an output that is the regular
// file standard output writes (--trace /dev/stdout > x.out: written at two
// offsets, each would write over the other).
func distinctOutputs(cmd string, stdout io.Writer, outs ...output) error {
	if f, ok := fileOf(stdout); ok {
		if sst, err := f.Stat(); err == nil && sst.Mode().IsRegular() {
			for _, o := range outs {
				if ost, err := os.Stat(o.path); o.path != "" && err == nil && os.SameFile(ost, sst) {
					return usagef("%s: %s %s is the file standard output writes: give it its own file", cmd, o.flag, o.path)
				}
			}
		}
	}
	for i, a := range outs {
		for _, b := range outs[i+1:] {
			if a.path != "" && b.path != "" && sameOutput(a.path, b.path) {
				return usagef("%s: %s and %s are the same file %s: give each its own", cmd, a.flag, b.flag, a.path)
			}
		}
	}
	return nil
}

// sameOutput tells whether paths a and b name one file: the same file if
// both exist, else the same file to be made (outfile.Target: the absolute
// path with symbolic links followed, one that points to no file yet
// included).
func sameOutput(a, b string) bool {
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	if err1 == nil && err2 == nil {
		return os.SameFile(sa, sb)
	}
	return outfile.Target(a) == outfile.Target(b)
}

// notResults tells whether err says a file of results (an --out appended
// to) holds something else: a line that is not one of its records, or
// gzip data; a usage error, as a file of another kind is for every output.
func notResults(err error) bool {
	return errors.As(err, new(*jsonl.LineError)) || errors.Is(err, jsonl.ErrGzip)
}

// errWriter is a writer that keeps its first error, for writers whose
// user drops them (runtime/pprof's CPU profile).
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	if err == nil && n < len(p) {
		err = errors.New("short write")
	}
	e.err = err
	return n, err
}

// createOutput creates a file written as the run goes (a trace, a
// profile), locked: outfile.Create. Tests put a writer that fails here.
var createOutput = func(path string) (io.WriteCloser, error) { return outfile.Create(path) }

// missing tells whether no file is at path yet (a link that points to
// none included), so that a file this run makes there can be taken away
// again (dropEmpty).
func missing(path string) bool {
	_, err := os.Stat(path)
	return errors.Is(err, fs.ErrNotExist)
}

// dropEmpty removes the file at path when this run made it (made), a write
// to it failed (failed is not nil) and it is still empty, as on a full
// disk, so that a failed run leaves no empty profile, trace or results
// file behind. It is called before the file is closed, while this run
// holds its lock.
func dropEmpty(path string, made bool, failed error) {
	if !made || failed == nil {
		return
	}
	if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() && st.Size() == 0 {
		os.Remove(outfile.Target(path)) // the file made; a link to it is kept
	}
}

// gzipped tells whether a results file's name says it is gzipped: such a
// file is read through gzip everywhere, written gzipped by bench merge
// --out, which writes the whole file, and refused by bench --out and
// optimize --out, which append to it (notGzip).
func gzipped(path string) bool { return strings.HasSuffix(path, ".gz") }

// notGzip refuses, as a usage error before any work, a .gz name for an
// output that soko appends JSON lines to as it goes: a gzip stream cannot
// be resumed or trimmed by appending to it.
func notGzip(cmd, flag, path string) error {
	if !gzipped(path) {
		return nil
	}
	plain := strings.TrimSuffix(path, ".gz")
	return usagef("%s: %s %s: soko writes plain JSON lines to %s, appended as it goes, which a gzip file cannot take; give %s and gzip it afterwards (report, bench merge and optimize --from read .gz, and bench merge --out FILE.gz writes one)", cmd, flag, path, flag, plain)
}

// A fileKind is a kind of file soko writes whole or merges into (a trace,
// a profile, a model, a plot, a level file). An output that exists and is
// not empty must be of its kind, so that a flag given the wrong name
// (notes, a model, a results file, the user's document) is refused before
// any work instead of being replaced or rewritten.
type fileKind struct {
	name  string                 // for messages: "a trace"
	limit int64                  // bytes read to recognise it
	is    func(data []byte) bool // data, at most limit bytes, is of the kind
	// short is the fewest bytes a file of the kind has: a shorter one is
	// said to be too short for it, whatever its bytes.
	short int
	// levels is set for level files: the file's levels are scanned
	// (streamed, up to the first) instead of read whole.
	levels bool
	// sokHeader is set for .sok collections merged into: a text file
	// named *.sok with no level yet (its header: Title:, Author:,
	// comments) is taken, and kept above the levels added.
	sokHeader bool
}

// headLimit is how much of a file is read to tell whether it is text, and
// to say what a file not of the kind holds.
const headLimit = 1 << 20

var (
	// kindTrace is soko solve --trace: JSON lines whose first is a trace
	// record (solver.Trace: "level", "event", "t_s").
	kindTrace = fileKind{name: "a soko trace (JSON lines of trace records)", limit: headLimit, is: isTrace}
	// kindProfile is --cpuprofile and --memprofile: runtime/pprof's
	// format, a gzip-compressed protocol buffer.
	kindProfile = fileKind{name: "a pprof profile (gzip-compressed protocol buffer)", limit: 64 << 10, is: isProfile, short: 18}
	// kindModel is a model of train, train-dist, train-puct, train-lts and train-guide.
	kindModel = fileKind{name: "a soko model", limit: 8, is: isModel, short: 8}
	// kindPlot is a plot (train --plot, generate --plot): an image or
	// document in one of the formats plots are written in (plotFormats).
	kindPlot = fileKind{name: "a plot (PNG, PDF, SVG, EPS, JPEG, TIFF or gonum's TeX)", limit: 4 << 10, is: isPlot}
	// kindLevels is a .sok collection merged into (solve --out, bench
	// --sok, optimize FILE.sok): text holding at least one level, loadable
	// or not, or, named *.sok, only a header so far.
	kindLevels = fileKind{name: "a level file", limit: level.MaxInput + 1, levels: true, sokHeader: true}
	// kindLevelFile is a level file written whole (generate --out): text
	// holding at least one level, loadable or not.
	kindLevelFile = fileKind{name: "a level file", limit: level.MaxInput + 1, levels: true}
	// kindAny is no kind: takeOut leaves what the file holds to its
	// caller (a plot's format is checked with its extension, checkPlot).
	kindAny = fileKind{}
)

// sameKind refuses, as a usage error, a file at path of cmd's flag that
// exists, is not empty and is not of kind k, naming it and what it seems
// to hold. A path that does not exist, or is not a regular file (which
// checkOut refuses), passes. A level file is streamed, never read whole.
func sameKind(cmd, flag, path string, k fileKind) error {
	data, err := readExisting(path, headLimit) // what it seems to hold is told from up to headLimit bytes
	if err != nil {
		return fmt.Errorf("%s: %s %w", cmd, flag, err)
	}
	if len(data) == 0 {
		return nil
	}
	if k.levels {
		return k.checkFile(cmd, flag, path, data)
	}
	if k.is(data[:min(len(data), int(k.limit))]) {
		return nil
	}
	return k.check(cmd, flag, path, data)
}

// checkFile is check for a level kind on the file at path, whose first
// bytes are head: the levels are counted from the file as it streams.
func (k fileKind) checkFile(cmd, flag, path string, head []byte) error {
	if !isText(head) {
		return k.refuse(cmd, flag, path, k.seems(head))
	}
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("%s: %s %s cannot be read to tell what it holds: %w", cmd, flag, path, err)
	}
	defer f.Close()
	return k.checkLevels(cmd, flag, path, head, f)
}

// check is sameKind on data, the file at path as read (at most k.limit
// bytes; nil when there is none).
func (k fileKind) check(cmd, flag, path string, data []byte) error {
	if len(data) == 0 {
		return nil
	}
	if k.levels {
		head := data[:min(len(data), headLimit)]
		if !isText(head) {
			return k.refuse(cmd, flag, path, k.seems(head))
		}
		return k.checkLevels(cmd, flag, path, head, bytes.NewReader(data))
	}
	if k.is(data) {
		return nil
	}
	return k.refuse(cmd, flag, path, k.seems(data))
}

// checkLevels tells whether r, text starting with head, holds a level (or
// is blank, or is a .sok's header for k.sokHeader), reading up to its
// first level only.
func (k fileKind) checkLevels(cmd, flag, path string, head []byte, r io.Reader) error {
	n, err := scanLevels(r, 1)
	switch {
	case n > 0 || len(head) < headLimit && len(bytes.TrimSpace(head)) == 0 && err == nil:
		return nil
	case errors.Is(err, level.ErrTooLarge):
		return k.refuse(cmd, flag, path, fmt.Sprintf("text larger than the limit of %d bytes for a level file, with no level before it", level.MaxInput))
	case err != nil:
		return k.refuse(cmd, flag, path, "text that does not read as levels ("+err.Error()+")")
	case k.sokHeader && strings.EqualFold(filepath.Ext(path), ".sok"):
		return nil // a .sok's header, no level yet
	}
	return k.refuse(cmd, flag, path, k.seems(head))
}

// refuse is the usage error for a file at path that is not of kind k and
// holds what.
func (k fileKind) refuse(cmd, flag, path, what string) error {
	return usagef("%s: %s %s exists and is not %s: it holds %s; soko does not write over a file of another kind: give a new or empty file, or remove this one first",
		cmd, flag, path, k.name, what)
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

// isProfile tells whether data, the start of a file, can be a pprof
// profile: gzip whose content, as far as data goes, is neither text (JSON
// lines, levels: a protocol buffer is binary) nor a tar archive.
func isProfile(data []byte) bool {
	inner, ok := gunzipHead(data)
	return ok && !isTar(inner) && (len(inner) == 0 || !isText(inner))
}

// gunzipHead decompresses the start of data, gzip, as far as data goes (at
// most 4 KiB of content); ok is false when data is not gzip.
func gunzipHead(data []byte) (inner []byte, ok bool) {
	if !isGzip(data) {
		return nil, false
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, true // a header cut short: too little to tell
	}
	inner, _ = io.ReadAll(io.LimitReader(zr, 4<<10)) // what decompressed before data ends
	return inner, true
}

// isTar tells whether data starts with a POSIX or GNU tar header.
func isTar(data []byte) bool {
	if len(data) < 262 || !bytes.HasPrefix(data[257:], []byte("ustar")) {
		return false
	}
	_, err := tar.NewReader(bytes.NewReader(data)).Next()
	return err == nil || errors.Is(err, io.ErrUnexpectedEOF)
}

// isPlot tells whether data starts as a plot written in one of
// plotFormats does.
func isPlot(data []byte) bool {
	for _, magic := range []string{"\x89PNG\r\n\x1a\n", "%PDF-", "%!PS-Adobe", "\xff\xd8\xff", "II*\x00", "MM\x00*", "<svg", "%%% generated by gonum/plot"} {
		if bytes.HasPrefix(data, []byte(magic)) {
			return true
		}
	}
	return bytes.HasPrefix(data, []byte("<?xml")) && bytes.Contains(data, []byte("<svg"))
}

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

// errEnough stops scanLevels once it has counted enough.
var errEnough = errors.New("enough levels")

// scanLevels counts the levels of a collection file's content, loadable or
// not, streaming it, up to most when most > 0.
func scanLevels(r io.Reader, most int) (int, error) {
	n := 0
	_, err := level.ScanCollection(bufio.NewReader(r), "", func(*level.Level, *level.Unloadable) error {
		n++
		if most > 0 && n >= most {
			return errEnough
		}
		return nil
	})
	if errors.Is(err, errEnough) {
		err = nil
	}
	return n, err
}

// textOf decodes data as package level reads a level file (UTF-8 or any
// 8-bit encoding such as Latin-1, with or without a UTF-8 byte order mark,
// or UTF-16 with one) and refuses what is not text: a NUL or other control
// byte than tab, line and page ends, saying where. Bytes that are not
// UTF-8 are text: level files in Latin-1 or Windows-1252 are read, so
// they are written back.
func textOf(data []byte) (string, error) {
	text, err := level.Text(data, "")
	if err != nil {
		return "", err
	}
	if i := bytes.IndexFunc([]byte(text), isControl); i >= 0 {
		if text[i] == 0 {
			return "", fmt.Errorf("a NUL byte at offset %d", i)
		}
		return "", fmt.Errorf("a control byte 0x%02x at offset %d", text[i], i)
	}
	return text, nil
}

// isControl is a control character that text does not hold.
func isControl(r rune) bool {
	return r < 0x20 && r != '\t' && r != '\n' && r != '\r' && r != '\f' && r != '\v' && r != 0x1a || r == 0x7f
}

// isModel tells whether data starts as a model file of soko's does: a
// network's (package nn) or an lts context model's.
func isModel(data []byte) bool { return nn.IsModel(data) || lts.IsModel(data) || guide.IsModel(data) }

// isText tells whether data is text (textOf).
func isText(data []byte) bool {
	_, err := textOf(data)
	return err == nil
}

// seems says what data, the start of a file that is not empty and not of
// kind k, seems to hold, in the terms of k: only a level file's refusal
// talks of levels a text has not.
func (k fileKind) seems(data []byte) string {
	if len(data) < k.short && !isModel(data) {
		return fmt.Sprintf("%s, too short for %s", english.Count(len(data), "byte", "bytes"), k.name)
	}
	switch {
	case isModel(data):
		return "a soko model"
	case isGzip(data):
		inner, _ := gunzipHead(data)
		switch {
		case isTar(inner):
			return "a gzip-compressed tar archive"
		case len(inner) > 0 && isText(inner):
			return "gzip-compressed text (a .gz file of results or levels, not a profile)"
		}
		return "gzip-compressed data (a profile or a .gz file)"
	case isPlot(data):
		return "an image or document (" + plotFormat(data) + ")"
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
	switch n, err := scanLevels(bytes.NewReader(data), 0); {
	case err != nil && k.levels:
		return "text that does not read as levels (" + err.Error() + ")"
	case err == nil && n > 0 && len(data) < headLimit:
		return "a level file (" + english.Count(n, "level", "levels") + ")"
	case err == nil && n > 0:
		return "a level file (" + english.Count(n, "level", "levels") + " in its first MiB)"
	case k.levels:
		return "text with no level in it"
	}
	if len(first) > 40 {
		first = first[:40] + "…"
	}
	return fmt.Sprintf("text (%s, the first line %q)", english.Count(len(data), "byte", "bytes"), first)
}

// plotFormat names the format of data, a plot (isPlot).
func plotFormat(data []byte) string {
	for _, f := range []struct{ magic, name string }{
		{"\x89PNG", "a PNG image"}, {"%PDF-", "a PDF document"}, {"%!PS", "an EPS document"}, {"\xff\xd8", "a JPEG image"},
		{"II*", "a TIFF image"}, {"MM\x00", "a TIFF image"}, {"%%%", "a TeX picture"},
	} {
		if bytes.HasPrefix(data, []byte(f.magic)) {
			return f.name
		}
	}
	return "an SVG image"
}
