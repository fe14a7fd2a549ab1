package outfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// A Lock holds an output file that is replaced as a whole (a .sok
// collection, a model, a plot) from before the work until the last write,
// so that a read-modify-write (a .sok merge) cannot interleave with
// another soko's. The lock is flock(2) on the file at the path itself, not
// on a sibling lock file, so that nothing is left beside the user's files:
// a rename would take the locked inode away from the path, so Replace
// locks its temporary file before renaming it over the path, and the new
// inode at the path is locked from the moment it appears there; one who
// locked an old inode meanwhile sees that the path no longer names it and
// tries again (openLocked). A path that does not exist is created empty to
// be locked, and removed again by Close when nothing was written. Take makes one.
type Lock struct {
	mu      sync.Mutex
	path    string      // the file locked, symbolic links followed
	f       *os.File    // the open, locked file now at path
	st      fs.FileInfo // and its identity
	created bool        // Take made path, empty, and nothing has replaced it
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
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	f, created, err := openLocked(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	l := &Lock{path: path, f: f, st: st, created: created}
	held.Lock()
	held.locks = append(held.locks, l)
	held.Unlock()
	cleanTemps(path)
	return l, nil
}

// heldLock is this process's Lock on the file at path, or nil.
func heldLock(path string) *Lock {
	st, err := os.Stat(path)
	if err != nil {
		return nil
	}
	held.Lock()
	defer held.Unlock()
	for _, l := range held.locks {
		if os.SameFile(l.st, st) {
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
		return fmt.Errorf("writing %s: its lock is closed", l.path)
	}
	tmpPath := tempName(l.path, os.Getpid())
	os.Remove(tmpPath) // named by this process's id: no other's
	tmp, err := os.OpenFile(tmpPath, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("writing %s: %w", l.path, err)
	}
	err = lockFile(tmp, tmpPath)
	if err == nil {
		err = writeTemp(tmp, write)
	}
	if err == nil {
		mode := os.FileMode(0o644)
		if !l.created {
			mode = l.st.Mode().Perm()
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
		return fmt.Errorf("writing %s: %w", l.path, err)
	}
	held.Lock()
	old := l.f
	l.f, l.st, l.created = tmp, st, false
	held.Unlock()
	return old.Close() // the replaced inode: its lock goes with it
}

// Close releases the lock; a file Take created that is still empty is
// removed.
func (l *Lock) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return nil
	}
	held.Lock()
	held.locks = slices.DeleteFunc(held.locks, func(h *Lock) bool { return h == l })
	held.Unlock()
	if l.created {
		if st, err := l.f.Stat(); err == nil && st.Size() == 0 {
			if now, err := os.Stat(l.path); err == nil && os.SameFile(now, st) {
				os.Remove(l.path)
			}
		}
	}
	err := l.f.Close()
	l.f = nil
	return err
}

// openLocked opens the regular file path for reading and writing,
// creating it if need be, and locks it. It tries again when, by the time
// the lock is taken, path names another file than the one opened (a
// writer renamed a new one over it, or removed it): the lock must be on
// what is at path.
func openLocked(path string) (f *os.File, created bool, err error) {
	for try := 0; try < 10; try++ {
		created = true
		f, err = os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL|nonBlock, 0o644)
		if errors.Is(err, fs.ErrExist) {
			created = false
			f, err = os.OpenFile(path, os.O_RDWR|nonBlock, 0)
			if errors.Is(err, fs.ErrNotExist) {
				continue // removed meanwhile
			}
		}
		if err != nil {
			return nil, false, err
		}
		st, err := f.Stat()
		if err == nil && !st.Mode().IsRegular() {
			err = fmt.Errorf("%s is %s, not a regular file", path, kind(st.Mode()))
		}
		if err == nil {
			err = lockFile(f, path)
		}
		if err != nil {
			f.Close()
			return nil, false, err
		}
		if now, err := os.Stat(path); err == nil && os.SameFile(now, st) {
			return f, created, nil
		}
		f.Close()
	}
	return nil, false, fmt.Errorf("%s: it keeps being replaced by another process; cannot lock it", path)
}

// tempName is the temporary file of Replace: hidden beside path, and
// named so that a user sees whose it is.
func tempName(path string, pid int) string {
	return filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+tempInfix+strconv.Itoa(pid))
}

const tempInfix = ".soko-tmp-"

// cleanTemps removes the temporary files of path's earlier writers whose
// process is gone (killed during a save). Called with path locked, so no
// live soko is writing one.
func cleanTemps(path string) {
	dir, prefix := filepath.Dir(path), "."+filepath.Base(path)+tempInfix
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
	who := "another process"
	switch {
	case e.PID == os.Getpid():
		who = fmt.Sprintf("this process (%d), for another output of the same run", e.PID)
	case e.PID > 0 && e.Command != "":
		who = fmt.Sprintf("process %d (%s)", e.PID, e.Command)
	case e.PID > 0:
		who = fmt.Sprintf("process %d", e.PID)
	}
	return fmt.Sprintf("%s is being written by %s: soko lets one run write a file at a time, so this one stops; wait for that one to end, or give another file", e.Path, who)
}
