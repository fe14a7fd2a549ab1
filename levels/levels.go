// Package levels embeds the standard Sokoban collections and resolves level
// specifications such as "microban:12" to parsed levels.
//
// The embedded collections (see data/PROVENANCE.md for sources and licences)
// are microban, microban3, xsokoban90, cbc60, schokoban-microban100,
// boxoban-medium-valid-000 and boxoban-unfiltered-test-000. Each is parsed
// once, on first use.
package levels

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"

	"soko/internal/ctxio"
	"soko/internal/english"
	"soko/internal/suggest"
	"soko/level"
)

//go:embed data/*.xsb data/PROVENANCE.md
var data embed.FS

// entry is one embedded collection, parsed on first use.
type entry struct {
	file string
	once sync.Once
	c    *level.Collection
	err  error
}

// collections maps collection names to their embedded files.
var collections = func() map[string]*entry {
	des, err := fs.ReadDir(data, "data")
	if err != nil {
		panic(err) // the embedded directory is always there
	}
	m := make(map[string]*entry)
	for _, de := range des {
		if name, ok := strings.CutSuffix(de.Name(), ".xsb"); ok {
			m[name] = &entry{file: "data/" + de.Name()}
		}
	}
	return m
}()

// Names returns the names of the embedded collections, sorted.
func Names() []string {
	names := make([]string, 0, len(collections))
	for n := range collections {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Collection returns the embedded collection with the given name. The result
// is a fresh copy that the caller may modify. Levels' Source is the
// collection name.
func Collection(name string) (*level.Collection, error) {
	e, ok := collections[name]
	if !ok {
		return nil, fmt.Errorf("unknown collection %q%s (known: %s)", name, suggest.DidYouMean(name, Names(), nil), strings.Join(Names(), ", "))
	}
	e.once.Do(func() {
		f, err := data.Open(e.file)
		if err != nil {
			e.err = err
			return
		}
		defer f.Close()
		e.c, e.err = level.ParseCollection(f, name)
	})
	if e.err != nil {
		return nil, e.err
	}
	return clone(e.c), nil
}

// clone copies a collection deeply enough that changing the copy's levels
// does not change the original.
func clone(c *level.Collection) *level.Collection {
	d := &level.Collection{Name: c.Name, Header: slices.Clone(c.Header), HeaderDropped: c.HeaderDropped, Levels: make([]*level.Level, len(c.Levels))}
	for i, l := range c.Levels {
		cl := *l
		cl.Rows = slices.Clone(l.Rows)
		cl.Comments = slices.Clone(l.Comments)
		d.Levels[i] = &cl
	}
	for _, u := range c.Unloadable {
		cu := *u
		d.Unloadable = append(d.Unloadable, &cu)
	}
	return d
}

// Info describes an embedded collection.
type Info struct {
	Name        string
	Levels      int    // number of levels
	Description string // first header comment line of the file
}

// List describes every embedded collection, sorted by name.
func List() []Info {
	var infos []Info
	for _, n := range Names() {
		c, err := Collection(n)
		if err != nil {
			panic(err) // the embedded files are tested to parse
		}
		info := Info{Name: n, Levels: len(c.Levels)}
		if len(c.Header) > 0 {
			info.Description = strings.TrimSpace(c.Header[0])
		}
		infos = append(infos, info)
	}
	return infos
}

// StdinSource is the Source of levels read from standard input.
const StdinSource = "<stdin>"

// Resolve returns the levels named by spec:
//
//	microban            every level of an embedded collection
//	microban:12         one level
//	xsokoban90:1-10     a range
//	microban:1-3,7,9    a list of levels and ranges
//	path/to/file.xsb    every level of a file (same selections after ':')
//	-                   standard input (same selections after ':')
//
// Level numbers are 1-based positions in the collection, counting the
// levels that cannot be loaded too: a "; n" comment in the file is a title
// and selects nothing (see package level, Addresses). If the part before the last ':' is an
// embedded collection name, the embedded collection is used, otherwise it
// is a file path; a file path containing ':' is used as a whole unless what
// follows its last ':' looks like a selection. Levels come back in the order
// of the selection and keep their Index and Source. A selected level that
// cannot be loaded is an error (its *level.Error); ResolveEntries reports
// such levels beside the others instead.
func Resolve(spec string, stdin io.Reader) ([]*level.Level, error) {
	return ResolveAll(context.Background(), []string{spec}, stdin)
}

// ResolveAll resolves several specs and concatenates the levels, as
// Resolve does. Standard input is read once even if "-" occurs in several
// specs. Reading standard input, or a file that is not regular (a FIFO
// waits for its writer), stops with ctx's error when ctx ends.
func ResolveAll(ctx context.Context, specs []string, stdin io.Reader) ([]*level.Level, error) {
	es, err := ResolveEntries(ctx, specs, stdin)
	if err != nil {
		return nil, err
	}
	all := make([]*level.Level, 0, len(es))
	for _, e := range es {
		if e.Unloadable != nil {
			return nil, e.Unloadable.Err
		}
		all = append(all, e.Level)
	}
	return all, nil
}

// Entry is one level a spec names: the level, or, when that level of its
// file cannot be loaded, why. Exactly one of the two is set.
type Entry struct {
	Level      *level.Level
	Unloadable *level.Unloadable
}

// ID is the level's address in results: "microban:12" (its position in
// the collection or file, whatever its title says), or the source alone
// for a level without an index.
func (e Entry) ID() string {
	var source string
	var index int
	if e.Level != nil {
		source, index = e.Level.Source, e.Level.Index
	} else {
		source, index = e.Unloadable.Source, e.Unloadable.Index
	}
	if index > 0 {
		return source + ":" + strconv.Itoa(index)
	}
	return source
}

// Label is what the level's file calls it, shown beside its ID: its
// title, after the number of its "; n" comment when that is not its
// position (level.Label).
func (e Entry) Label() string {
	if e.Level != nil {
		return e.Level.Label()
	}
	return e.Unloadable.Label()
}

// ResolveEntries is ResolveAll for commands that go on past a bad level:
// a selected level that cannot be loaded is an Entry with its error, in
// its place among the others, so that the rest of its file can still be
// used. Only a bad spec or a file that cannot be read at all is an error.
// A level named twice, in one spec (microban:1,1) or in two (microban
// microban:3), is a SpecError: each level is named once.
func ResolveEntries(ctx context.Context, specs []string, stdin io.Reader) ([]Entry, error) {
	r := resolver{ctx: ctx, stdin: stdin}
	var all []Entry
	named := map[string][]span{} // by collection
	for i, s := range specs {
		es, spans, err := r.resolve(s)
		if err != nil {
			return nil, err
		}
		for _, sp := range spans {
			sp.spec = i
			named[sp.name] = append(named[sp.name], sp)
		}
		all = append(all, es...)
	}
	named = sameFiles(named, r.stdinInfo())
	for _, name := range slices.Sorted(maps.Keys(named)) {
		if a, b, ok := overlap(named[name]); ok {
			if a.spec == b.spec {
				return nil, specErrorf("%s names level %s:%d twice: name each level once", specs[a.spec], name, b.lo)
			}
			return nil, specErrorf("%s and %s both name level %s:%d: name each level once", specs[a.spec], specs[b.spec], name, b.lo)
		}
	}
	return all, nil
}

// sameFiles puts together the spans of names that are one file spelled
// two ways (lv.xsb and ./lv.xsb, a link and its target, standard input
// redirected from it: stdin is its file), under the name that sorts first,
// so that a level named through both is found twice.
func sameFiles(named map[string][]span, stdin os.FileInfo) map[string][]span {
	names := slices.Sorted(maps.Keys(named))
	infos := make([]os.FileInfo, len(names))
	for i, n := range names {
		if _, embedded := collections[n]; embedded {
			continue // not a file, whatever the folder holds
		}
		if n == StdinSource {
			if stdin != nil && stdin.Mode().IsRegular() {
				infos[i] = stdin
			}
			continue
		}
		if st, err := os.Stat(n); err == nil && st.Mode().IsRegular() {
			infos[i] = st
		}
	}
	for i := range names {
		if infos[i] == nil || named[names[i]] == nil {
			continue // not a file, or put with a name before it
		}
		for j := i + 1; j < len(names); j++ {
			if infos[j] != nil && named[names[j]] != nil && os.SameFile(infos[i], infos[j]) {
				named[names[i]] = append(named[names[i]], named[names[j]]...)
				delete(named, names[j])
			}
		}
	}
	return named
}

// span is the levels lo to hi of the collection called name, as one item
// of the selection of the spec-th spec named them.
type span struct {
	name   string
	lo, hi int
	spec   int
}

// overlap finds two spans that name a level in common, b starting at the
// first such level. Sorted by their start, spans that do not overlap each
// end before the next starts.
func overlap(spans []span) (a, b span, ok bool) {
	slices.SortStableFunc(spans, func(x, y span) int { return x.lo - y.lo })
	for i := 1; i < len(spans); i++ {
		if spans[i].lo <= spans[i-1].hi {
			return spans[i-1], spans[i], true
		}
	}
	return span{}, span{}, false
}

// Stream is a whole level file, or standard input, read level by level:
// each level is handed over and dropped, so that memory does not grow with
// the number of levels (see level.ScanCollection), and it can be read more
// than once.
type Stream struct {
	Source string   // the file name, or StdinSource
	path   string   // a regular file, read again at each pass
	data   [][]byte // or what standard input or a FIFO held, in chunks
}

// OpenStream returns spec as a Stream when it names a whole file or
// standard input (no selection, not an embedded collection); ok is false
// for other specs. Standard input and a file that is not regular (a FIFO)
// can be read only once: they are read into memory here, up to
// level.MaxInput bytes, stopping with ctx's error when ctx ends, and
// stopping early at a line longer than level.MaxLine, which the parser
// then refuses (a device such as /dev/zero is one endless line).
func OpenStream(ctx context.Context, spec string, stdin io.Reader) (s *Stream, ok bool, err error) {
	name, _, hasSel := splitSpec(spec)
	if _, embedded := collections[name]; embedded || hasSel {
		return nil, false, nil
	}
	var r io.Reader
	if name == "-" {
		if stdin == nil {
			return nil, true, specErrorf("no standard input to read levels from")
		}
		r, name = ctxio.Reader(ctx, stdin), StdinSource
	} else {
		if st, err := os.Stat(name); err == nil && st.Mode().IsRegular() {
			return &Stream{Source: name, path: name}, true, nil
		}
		f, err := openLevels(ctx, name)
		if err != nil {
			return nil, true, err
		}
		defer f.Close()
		r = f
	}
	data, err := readChunks(r)
	if err != nil {
		return nil, true, &level.Error{File: name, Msg: "read error: " + err.Error(), Err: err}
	}
	return &Stream{Source: name, data: data}, true, nil
}

// streamChunk is the size of the chunks readChunks reads into: memory
// grows by a chunk at a time, with no copy of what was read before.
const streamChunk = 1 << 20

// readChunks reads r up to level.MaxInput bytes and one more (so that the
// parser sees an input over the limit), or until a line is longer than
// level.MaxLine and its end, which is as far as the parser reads.
func readChunks(r io.Reader) ([][]byte, error) {
	r = io.LimitReader(r, level.MaxInput+1)
	var chunks [][]byte
	line := 0 // bytes of the last line so far
	for {
		c := make([]byte, streamChunk)
		n, err := io.ReadFull(r, c)
		if n > 0 {
			chunks = append(chunks, c[:n])
			if i := bytes.LastIndexAny(c[:n], "\r\n"); i >= 0 {
				line = n - i - 1
			} else {
				line += n
			}
		}
		switch {
		case err == io.EOF || err == io.ErrUnexpectedEOF || line > level.MaxLine+2:
			return chunks, nil
		case err != nil:
			return nil, err
		}
	}
}

// Each hands every level of s to fn in file order, as ResolveEntries
// lists them; an error of fn stops it and is returned. A file without
// levels is an error, as for ResolveEntries.
func (s *Stream) Each(ctx context.Context, fn func(Entry) error) error {
	parts := make([]io.Reader, len(s.data))
	for i, c := range s.data {
		parts[i] = bytes.NewReader(c)
	}
	r := io.MultiReader(parts...)
	if s.path != "" {
		f, err := openLevels(ctx, s.path)
		if err != nil {
			return err
		}
		defer f.Close()
		r = f
	}
	n := 0
	_, err := level.ScanCollection(r, s.Source, func(l *level.Level, u *level.Unloadable) error {
		n++
		return fn(Entry{Level: l, Unloadable: u})
	})
	if err == nil && n == 0 {
		err = fmt.Errorf("%s: no levels", s.Source)
	}
	return err
}

// entries lists a collection's levels, loaded or not, in file order.
func entries(c *level.Collection) []Entry {
	out := make([]Entry, 0, len(c.Levels)+len(c.Unloadable))
	li, ui := 0, 0
	for li < len(c.Levels) || ui < len(c.Unloadable) {
		if ui < len(c.Unloadable) && (c.Unloadable[ui].Index <= len(out)+1 || li == len(c.Levels)) {
			out = append(out, Entry{Unloadable: c.Unloadable[ui]})
			ui++
			continue
		}
		out = append(out, Entry{Level: c.Levels[li]})
		li++
	}
	return out
}

// SpecError is a mistake in a level specification itself: an unknown
// collection, a file that does not exist, a bad or out-of-range selection,
// "-" with no standard input. A level file that cannot be read or parsed is
// a different error. Commands treat a SpecError as a usage error.
type SpecError struct {
	Msg string
	Err error // the cause, if any (a missing file's *fs.PathError)
}

func (e *SpecError) Error() string { return e.Msg }

func (e *SpecError) Unwrap() error { return e.Err }

func specErrorf(format string, args ...any) error {
	return &SpecError{Msg: fmt.Sprintf(format, args...)}
}

// resolver remembers standard input once it has been read.
type resolver struct {
	ctx     context.Context
	stdin   io.Reader
	streams []stream
}

// stream is what standard input or a file that can be read only once (a
// pipe, a device) held, read once and kept: naming it again, under any
// spelling, takes its levels from here under its first name, so that a
// level named twice through it is found twice, and reading it again does
// not wait on it for ever.
type stream struct {
	info os.FileInfo // nil for standard input that is no file
	name string
	coll *level.Collection
}

// stdinInfo is standard input's file, when it is one.
func (r *resolver) stdinInfo() os.FileInfo {
	if f, ok := r.stdin.(interface{ Stat() (os.FileInfo, error) }); ok {
		if st, err := f.Stat(); err == nil {
			return st
		}
	}
	return nil
}

// stream returns the stream read before that is the file info, if any.
func (r *resolver) stream(info os.FileInfo) *stream {
	for i := range r.streams {
		if s := &r.streams[i]; s.info != nil && info != nil && os.SameFile(s.info, info) {
			return s
		}
	}
	return nil
}

// resolve returns the levels spec names and the spans of its selection.
func (r *resolver) resolve(spec string) ([]Entry, []span, error) {
	file, sel, hasSel := splitSpec(spec)
	if _, embedded := collections[file]; hasSel && !embedded && file != "-" {
		if st, err := os.Stat(file); err == nil && st.Mode().IsRegular() {
			return r.selectFromFile(file, sel)
		}
	}
	c, name, err := r.collection(file)
	if err != nil {
		if st, serr := os.Stat(spec); hasSel && serr == nil && !st.IsDir() && errors.As(err, new(*SpecError)) {
			return nil, nil, specErrorf("%s is read as level %s of the file %s, which does not exist; the file %s is addressed with a selection of its own: %s:1 for its first level", spec, sel, file, spec, spec)
		}
		return nil, nil, err
	}
	es := entries(c)
	if !hasSel {
		if len(es) == 0 {
			return nil, nil, fmt.Errorf("%s: no levels", name)
		}
		return es, []span{{name: name, lo: 1, hi: len(es)}}, nil
	}
	return selectLevels(es, name, sel)
}

// splitSpec splits spec into the collection or file name and the selection.
func splitSpec(spec string) (name, sel string, hasSel bool) {
	i := strings.LastIndexByte(spec, ':')
	if i < 0 {
		return spec, "", false
	}
	name, sel = spec[:i], spec[i+1:]
	_, embedded := collections[name]
	if embedded || name == "-" || strings.Trim(sel, "0123456789,- ") == "" {
		return name, sel, true
	}
	return spec, "", false
}

// collection returns a fresh copy of the named collection, standard input
// or file, and the name its levels go by: StdinSource for standard input,
// and a stream's first name (resolver.streams).
func (r *resolver) collection(name string) (*level.Collection, string, error) {
	if _, ok := collections[name]; ok {
		c, err := Collection(name)
		return c, name, err
	}
	var info os.FileInfo
	if name == "-" {
		if r.stdin == nil {
			return nil, "", specErrorf("no standard input to read levels from")
		}
		info = r.stdinInfo()
	} else if st, err := os.Stat(name); err == nil && !st.Mode().IsRegular() && !st.IsDir() {
		info = st
	}
	if s := r.stream(info); s != nil {
		return clone(s.coll), s.name, nil
	}
	if name == "-" {
		for _, s := range r.streams {
			if s.name == StdinSource {
				return clone(s.coll), StdinSource, nil // standard input that is no file, read before
			}
		}
		c, err := level.ParseCollection(ctxio.Reader(r.ctx, r.stdin), StdinSource)
		if err != nil {
			return nil, "", err
		}
		r.streams = append(r.streams, stream{info: info, name: StdinSource, coll: c})
		return clone(c), StdinSource, nil
	}
	f, err := openLevels(r.ctx, name)
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	c, err := level.ParseCollection(f, name)
	if err == nil && info != nil {
		r.streams = append(r.streams, stream{info: info, name: name, coll: c})
		c = clone(c)
	}
	return c, name, err
}

// openLevels opens the level file name; a missing one is a SpecError,
// and a regular file over level.MaxInput is refused from its size.
func openLevels(ctx context.Context, name string) (io.ReadCloser, error) {
	if st, err := os.Stat(name); err == nil && st.Mode().IsRegular() && st.Size() > level.MaxInput {
		return nil, level.TooLargeError(name)
	}
	f, err := ctxio.Open(ctx, name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) && !strings.ContainsAny(name, `./\`) {
			return nil, specErrorf("unknown collection %q and no such file%s (known collections: %s)", name, suggest.DidYouMean(name, Names(), nil), strings.Join(Names(), ", "))
		}
		if errors.Is(err, fs.ErrNotExist) {
			return nil, &SpecError{Msg: fmt.Sprintf("reading levels: %v", err), Err: err}
		}
		return nil, fmt.Errorf("reading levels: %w", err)
	}
	return f, nil
}

// selectLevels picks the levels of a selection like "1-3,7" from ls, the
// levels of the collection called name, and returns the span of each item.
func selectLevels(ls []Entry, name, sel string) ([]Entry, []span, error) {
	spans, err := parseSelection(name, sel)
	if err != nil {
		return nil, nil, err
	}
	var out []Entry
	for _, sp := range spans {
		if sp.hi > len(ls) {
			return nil, nil, outOfRange(sp, len(ls))
		}
		out = append(out, ls[sp.lo-1:sp.hi]...)
	}
	return out, spans, nil
}

// selectFromFile is selectLevels on the regular file name, read level by
// level (level.ScanCollection) and only as far as the last level selected,
// keeping only the levels selected: a level of a file of millions takes
// the memory of one. Reading to the end, to count them, is for a
// selection past the last level.
func (r *resolver) selectFromFile(name, sel string) ([]Entry, []span, error) {
	spans, err := parseSelection(name, sel)
	if err != nil {
		return nil, nil, err
	}
	last := 0
	for _, sp := range spans {
		last = max(last, sp.hi)
	}
	f, err := openLevels(r.ctx, name)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	kept := map[int]Entry{}
	n := 0
	errEnough := errors.New("the last level selected is read")
	_, err = level.ScanCollection(f, name, func(l *level.Level, u *level.Unloadable) error {
		n++
		for _, sp := range spans {
			if sp.lo <= n && n <= sp.hi {
				kept[n] = Entry{Level: l, Unloadable: u}
				break
			}
		}
		if n == last {
			return errEnough
		}
		return nil
	})
	if err != nil && err != errEnough {
		return nil, nil, err
	}
	var out []Entry
	for _, sp := range spans {
		if sp.hi > n {
			return nil, nil, outOfRange(sp, n)
		}
		for i := sp.lo; i <= sp.hi; i++ {
			out = append(out, kept[i])
		}
	}
	return out, spans, nil
}

// parseSelection returns the span of each item of a selection like
// "1-3,7" of the collection called name, each checked but against the
// collection's size (outOfRange).
func parseSelection(name, sel string) ([]span, error) {
	var spans []span
	for item := range strings.SplitSeq(sel, ",") {
		item = strings.TrimSpace(item)
		a, b, isRange := strings.Cut(item, "-")
		lo, okA := number(a)
		hi, okB := lo, true
		if isRange {
			hi, okB = number(b)
		}
		switch {
		case !okA || !okB:
			return nil, specErrorf("%s: bad level selection %q: want a number like 12, a range like 1-10, or a list like 1-3,7", name, sel)
		case lo < 1:
			return nil, specErrorf("%s: no level 0: levels are numbered from 1", name)
		case lo > hi:
			return nil, specErrorf("%s: bad level range %s: start after end", name, item)
		}
		spans = append(spans, span{name: name, lo: lo, hi: hi})
	}
	return spans, nil
}

// outOfRange is the error for a span past the n levels of its collection.
func outOfRange(sp span, n int) error {
	return specErrorf("%s: level %d out of range: the collection has %s", sp.name, sp.hi, english.Count(n, "level", "levels"))
}

// number parses a non-empty string of decimal digits.
func number(s string) (int, bool) {
	s = strings.TrimSpace(s)
	if s == "" || strings.Trim(s, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}

// Stdin reports whether spec names standard input ("-", "-:2-5").
func Stdin(spec string) bool {
	name, _, _ := splitSpec(spec)
	return name == "-"
}

// File is the file a level spec reads, and false when it reads an
// embedded collection or standard input: what a command compares its
// outputs with, so as not to write over the levels it reads.
func File(spec string) (string, bool) {
	name, _, _ := splitSpec(spec)
	if _, embedded := collections[name]; embedded || name == "-" {
		return "", false
	}
	return name, true
}
