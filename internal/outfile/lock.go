package outfile

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// A Lock holds an output file that is replaced as a whole (a .sok
// collection, a model, a plot) from before the work until the last write,
// so that a read-modify-write (a .sok merge) cannot interleave with
// another soko's. Take makes one.
//
// The lock is flock(2) on the file at the path itself, so that nothing is
// left beside the user's files. A rename would take the locked inode away
// from the path, so Replace locks its temporary file before renaming it
// over the path: the new inode is locked from the moment it is there, and
// one who locked the old inode meanwhile sees that the path no longer
// names it and tries again. A path that does not exist yet has nothing to
// lock, so its lock file .NAME.soko-lock stands in until the first
// Replace, which removes it; one left by a killed process is removed by
// the next Take of the path.
type Lock struct {
	mu       sync.Mutex
	name     string      // the path as given, for messages
	path     string      // absolute, symbolic links followed
	f        *os.File    // the locked file: the one at path, or its lock file
	st       fs.FileInfo // and its identity
	lockFile bool        // f is the lock file: path did not exist
}

// held are the Locks of this process, so that Replace on a path it holds
// writes through its Lock.
var held struct {
	sync.Mutex
	locks []*Lock
}

// Take checks path as a target of Replace (CheckReplace), takes it, and
// removes temporary files of earlier writers of path that were killed
// (see Replace). A path another process holds is refused at once with a
// BusyError: soko does not wait for the other run, whose end it cannot
// foresee.
func Take(path string) (*Lock, error) {
	if err := CheckReplace(path); err != nil {
		return nil, err
	}
	abs := Target(path)
	for range 10 {
		l, err := takeOnce(path, abs)
		if err != nil {
			return nil, err
		}
		if l == nil {
			continue // the path changed under us: again
		}
		held.Lock()
		held.locks = append(held.locks, l)
		held.Unlock()
		cleanTemps(abs)
		return l, nil
	}
	return nil, fmt.Errorf("%s: it keeps being replaced by another process; cannot lock it", path)
}

// Target is the file that writing path makes or replaces: path made
// absolute, with its symbolic links followed, a last one that points to
// nothing yet (a dangling link) included, so that soko makes the file it
// points to and keeps the link, and locks and compares that file. Where
// a link cannot be read, or there are too many, path is taken as it is.
func Target(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return path
	}
	for range 40 { // as the kernel's limit on links in a path
		dir := filepath.Dir(abs)
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			dir = real
		}
		abs = filepath.Join(dir, filepath.Base(abs))
		st, err := os.Lstat(abs)
		if err != nil || st.Mode()&fs.ModeSymlink == 0 {
			return abs
		}
		to, err := os.Readlink(abs)
		if err != nil {
			return abs
		}
		if !filepath.IsAbs(to) {
			to = filepath.Join(dir, to)
		}
		abs = filepath.Clean(to)
	}
	return abs
}

// takeOnce locks the file at abs, or its lock file when there is none
// there; nil, nil when what it locked is no longer what the path names.
func takeOnce(name, abs string) (*Lock, error) {
	f, err := os.OpenFile(abs, os.O_RDWR|nonBlock, 0)
	if err == nil {
		st, err := lockOpen(f, name)
		if err != nil {
			return nil, err
		}
		if !samePath(abs, st) {
			f.Close()
			return nil, nil
		}
		if err := clearLockFile(name, abs); err != nil {
			f.Close()
			return nil, err
		}
		return &Lock{name: name, path: abs, f: f, st: st}, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	lp := lockName(abs)
	if f, err = os.OpenFile(lp, os.O_RDWR|os.O_CREATE|nonBlock, 0o600); err != nil {
		return nil, err
	}
	st, err := lockOpen(f, name)
	if err != nil {
		return nil, err
	}
	if !samePath(lp, st) {
		f.Close() // removed by its last holder meanwhile
		return nil, nil
	}
	if _, err := os.Stat(abs); err == nil {
		os.Remove(lp) // the file appeared: lock it instead
		f.Close()
		return nil, nil
	}
	return &Lock{name: name, path: abs, f: f, st: st, lockFile: true}, nil
}

// lockOpen checks that the open f is a regular file and locks it; f is
// closed on an error.
func lockOpen(f *os.File, name string) (fs.FileInfo, error) {
	st, err := f.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = fmt.Errorf("%s is %s, not a regular file", name, kind(st.Mode()))
	}
	if err == nil {
		err = lockFile(f, name)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return st, nil
}

// samePath tells whether path still names the file st describes.
func samePath(path string, st fs.FileInfo) bool {
	now, err := os.Stat(path)
	return err == nil && os.SameFile(now, st)
}

// lockName is the lock file of a path that does not exist yet.
func lockName(path string) string {
	return filepath.Join(filepath.Dir(path), stem(path)+".soko-lock")
}

// stem is ".NAME", the start of the names of path's temporary and lock
// files; a NAME too long to take their endings within the 255 bytes a
// file name may have is cut, and a hash of it added, so that those of a
// file with a long name are made before the work like any other.
func stem(path string) string {
	const nameMax, longest = 255, len(tempInfix) + 10 // ".soko-tmp-" and a pid
	base := filepath.Base(path)
	if 1+len(base)+longest <= nameMax {
		return "." + base
	}
	keep := nameMax - longest - 1 - 9 // "." and "~" with 8 hex digits
	for keep > 0 && !utf8.RuneStart(base[keep]) {
		keep--
	}
	h := fnv.New32a()
	h.Write([]byte(base))
	return fmt.Sprintf(".%s~%08x", base[:keep], h.Sum32())
}

// clearLockFile removes the lock file of abs, which exists, when nobody
// holds it (a soko killed before its first write left it), and refuses
// when somebody does: that one took abs before the file was made.
func clearLockFile(name, abs string) error {
	lp := lockName(abs)
	f, err := os.OpenFile(lp, os.O_RDWR|nonBlock, 0)
	if err != nil {
		return nil // none
	}
	st, err := lockOpen(f, name)
	if err != nil {
		if errors.As(err, new(*BusyError)) {
			return err
		}
		return nil // not ours to judge
	}
	if samePath(lp, st) {
		os.Remove(lp)
	}
	return f.Close()
}

// heldLock is this process's Lock on the file at path, or nil.
func heldLock(path string) *Lock {
	abs := Target(path)
	st, err := os.Stat(abs)
	held.Lock()
	defer held.Unlock()
	for _, l := range held.locks {
		if l.path == abs || err == nil && !l.lockFile && os.SameFile(l.st, st) {
			return l
		}
	}
	return nil
}

// Replace writes the locked file through the temporary file
// .NAME.soko-tmp-PID in its folder, locked and renamed over it once write
// has written it whole and it is synced: the path holds the old content
// or the new, never a part, and stays locked throughout. A temporary file
// left by a killed process is removed by the next Take of the same path.
func (l *Lock) Replace(write func(io.Writer) error) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return fmt.Errorf("writing %s: its lock is closed", l.name)
	}
	tmpPath := tempName(l.path, os.Getpid())
	os.Remove(tmpPath) // named by this process's id: no other's
	tmp, err := os.OpenFile(tmpPath, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("writing %s: %w", l.name, err)
	}
	err = lockFile(tmp, tmpPath)
	if err == nil {
		err = writeTemp(tmp, write)
	}
	if err == nil {
		mode := os.FileMode(0o644)
		if !l.lockFile {
			mode = l.st.Mode().Perm()
			if now, serr := l.f.Stat(); serr == nil { // a chmod during the run is kept
				mode = now.Mode().Perm()
			}
		}
		err = tmp.Chmod(mode)
	}
	var st fs.FileInfo
	if err == nil {
		st, err = tmp.Stat()
	}
	if err == nil {
		err = os.Rename(tmpPath, l.path)
	}
	if err != nil {
		tmp.Close()
		os.Remove(tmpPath)
		return fmt.Errorf("writing %s: %w", l.name, err)
	}
	l.release()
	held.Lock()
	l.f, l.st, l.lockFile = tmp, st, false
	held.Unlock()
	return nil
}

// release removes the lock file when that is what l holds, and closes
// what it holds: the lock goes with it.
func (l *Lock) release() {
	if l.lockFile && samePath(lockName(l.path), l.st) {
		os.Remove(lockName(l.path))
	}
	l.f.Close()
}

// Close releases the lock.
func (l *Lock) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	held.Lock()
	held.locks = slices.DeleteFunc(held.locks, func(h *Lock) bool { return h == l })
	held.Unlock()
	if l.f == nil { // closed, or its file was lost by Current
		return nil
	}
	l.release()
	l.f = nil
	return nil
}

// openLocked opens the regular file path for reading and writing,
// creating it if need be, and locks it (Create, OpenAppend). It tries
// again when, by the time the lock is taken, path names another file than
// the one opened (a writer renamed a new one over it, or removed it): the
// lock must be on what is at path. A lock file left beside it is cleared
// as by Take.
func openLocked(path string) (*os.File, error) {
	for range 10 {
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			if err := clearLockFile(path, Target(path)); err != nil {
				return nil, err // taken, to be made by Replace: make nothing
			}
		}
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|nonBlock, 0o644)
		if err != nil {
			return nil, err
		}
		st, err := lockOpen(f, path)
		if err != nil {
			return nil, err
		}
		if !samePath(path, st) {
			f.Close()
			continue
		}
		if err := clearLockFile(path, Target(path)); err != nil {
			f.Close()
			return nil, err
		}
		return f, nil
	}
	return nil, fmt.Errorf("%s: it keeps being replaced by another process; cannot lock it", path)
}

// tempName is the temporary file of Replace: hidden beside path, and
// named so that a user sees whose it is.
func tempName(path string, pid int) string {
	return filepath.Join(filepath.Dir(path), stem(path)+tempInfix+strconv.Itoa(pid))
}

const tempInfix = ".soko-tmp-"

// cleanTemps removes the temporary files of path's earlier writers whose
// process is gone (killed during a save). Called with path locked, so no
// live soko is writing one.
func cleanTemps(path string) {
	dir, prefix := filepath.Dir(path), stem(path)+tempInfix
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok || !e.Type().IsRegular() {
			continue
		}
		pid, err := strconv.Atoi(rest)
		if err != nil || pid <= 0 || pid == os.Getpid() || alive(pid) {
			continue
		}
		os.Remove(filepath.Join(dir, e.Name()))
	}
}

// BusyError is the refusal of a file another process holds locked.
type BusyError struct {
	Path    string
	PID     int    // the holder's process id; 0 when unknown
	Command string // its command line, when known
}

func (e *BusyError) Error() string {
	if e.PID == os.Getpid() {
		return fmt.Sprintf("%s is given for two outputs of this run: give each its own file", e.Path)
	}
	return fmt.Sprintf("%s is being written by %s: soko lets one run write a file at a time, so this one stops; wait for that one to end, or give another file", e.Path, e.Holder())
}

// Holder names the process that holds the file, as far as it is known:
// "process 4711 (soko solve …)", "process 4711" or "another process".
func (e *BusyError) Holder() string {
	switch {
	case e.PID > 0 && e.Command != "":
		return fmt.Sprintf("process %d (%s)", e.PID, e.Command)
	case e.PID > 0:
		return fmt.Sprintf("process %d", e.PID)
	}
	return "another process"
}

// Current makes l hold the file its path names now. Another file renamed
// over the path (an editor, sed -i, cp and mv) takes the locked file away
// from it, and with it the lock's hold on the path: a writer that merges
// (reads the file again and replaces it) calls Current before it reads,
// so that the read, the merge and the rename are under the lock of the
// file it replaces. The file now there (or, when there is none, its lock
// file) is locked as by Take; while another process holds it, Current
// tries again for up to wait, calling waiting once, and then returns
// that process's BusyError, l still holding what it held. It stops
// waiting at once when ctx is done (an interrupt), with that BusyError
// too. replaced tells whether l now holds another file than before.
func (l *Lock) Current(ctx context.Context, wait time.Duration, waiting func(*BusyError)) (replaced bool, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return false, fmt.Errorf("%s: its lock is closed", l.name)
	}
	if l.lockFile && samePath(lockName(l.path), l.st) && !exists(l.path) ||
		!l.lockFile && samePath(l.path, l.st) {
		return false, nil
	}
	if l.lockFile { // the file was made meanwhile: its stand-in goes
		l.release()
		l.f = nil
	}
	deadline := time.Now().Add(wait)
	told := false
	for {
		nl, err := takeOnce(l.name, l.path)
		var busy *BusyError
		switch {
		case nl != nil:
			if l.f != nil {
				l.release()
			}
			held.Lock()
			l.f, l.st, l.lockFile = nl.f, nl.st, nl.lockFile
			held.Unlock()
			return true, nil
		case errors.As(err, &busy) && time.Now().Before(deadline) && ctx.Err() == nil:
			if !told && waiting != nil {
				waiting(busy)
				told = true
			}
		case err != nil:
			return true, err
		}
		select {
		case <-ctx.Done():
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// exists tells whether something is at path.
func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// LockDir makes the folder path if need be and holds it locked (flock on
// the folder itself) until the returned closer is closed, for a writer
// of several files in it (report --out-dir), so that two such runs on
// one folder cannot mix their files: the second is refused with a
// BusyError naming the first. made tells whether the folder was made, so
// that a run that fails may remove it again.
func LockDir(path string) (l io.Closer, made bool, err error) {
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(path, 0o755); err != nil {
			return nil, false, err
		}
		made = true
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, false, err
	}
	st, err := f.Stat()
	if err == nil && !st.IsDir() {
		err = fmt.Errorf("%s is %s, not a folder", path, kind(st.Mode()))
	}
	if err == nil {
		err = lockFile(f, path)
	}
	if err != nil {
		f.Close()
		if made {
			os.Remove(path)
		}
		return nil, false, err
	}
	return f, made, nil
}
