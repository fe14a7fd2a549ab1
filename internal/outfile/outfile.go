// Package outfile checks and takes the files soko writes. A target that
// exists must be a regular file the user may write: writing a model,
// results or a profile over a device node, a FIFO or a directory would
// replace or feed something that is not soko's (run as root, "--out
// /dev/zero" would put a file where the device was), and a file marked
// read-only is the user's "do not touch". Every output is held under an
// advisory lock (Take, Create, OpenAppend) from before the work until its
// last write, so that a second soko on the same file refuses at once
// instead of splicing lines or overwriting the first one's results. A
// file appended to that another is renamed over meanwhile is followed
// (Follow), with the lines written to the old one that the new one lacks.
package outfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Check returns nil when path does not exist and its folder takes a new
// file, or is a regular file (a symbolic link is followed) the user may
// write, neither on a pseudo file system such as /proc or /sys, and an
// error naming the path and what is wrong otherwise.
func Check(path string) error {
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		dir := filepath.Dir(Target(path)) // a dangling link's target is made
		if d, err := os.Stat(dir); err != nil || !d.IsDir() {
			return fmt.Errorf("%s: the folder %s does not exist", path, dir)
		}
		if err := checkStorage(path, dir); err != nil {
			return err
		}
		return checkFolder(path)
	case err != nil:
		return err
	case st.Mode().IsRegular():
		if err := checkStorage(path, path); err != nil {
			return err
		}
		return checkWritable(path, st)
	}
	return fmt.Errorf("%s exists and is %s, not a regular file: give the name of a new or regular file", path, kind(st.Mode()))
}

// CheckReplace is Check for a file written through a rename (Replace):
// its folder must take a new file too, also when the file exists.
func CheckReplace(path string) error {
	if err := Check(path); err != nil {
		return err
	}
	return checkFolder(path)
}

// checkStorage refuses an output whose file or folder (at) is on a pseudo
// file system of the kernel (/proc, /sys, ...): its "files" are controls,
// not storage, and a write there changes the system and keeps nothing.
func checkStorage(path, at string) error {
	if fs := pseudoFS(at); fs != "" {
		return fmt.Errorf("%s is on %s, a file system of the kernel, not storage: soko writes no output there; give a file on a disk", path, fs)
	}
	return nil
}

// checkWritable refuses a file the user may not write, and a file with no
// write permission bit at all, for root too: root may write anything, so
// the bits are the only sign that the user marked it read-only.
func checkWritable(path string, st fs.FileInfo) error {
	if st.Mode().Perm()&0o222 == 0 {
		return fmt.Errorf("%s is read-only (mode %04o): soko does not replace it; make it writable (chmod u+w) or give another file", path, st.Mode().Perm())
	}
	if err := access(path); err != nil {
		return fmt.Errorf("%s is not writable: %w", path, err)
	}
	return nil
}

// checkFolder refuses when the folder of path takes no new file (for a new
// output, or the temporary file of Replace): it is not writable by the
// user, or has no write permission bit (root included, as for files).
func checkFolder(path string) error {
	dir := filepath.Dir(Target(path))
	st, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if st.Mode().Perm()&0o222 == 0 {
		return fmt.Errorf("%s: the folder %s is read-only (mode %04o): give a file in a writable folder", path, dir, st.Mode().Perm())
	}
	if err := access(dir); err != nil {
		return fmt.Errorf("%s: cannot write in the folder %s: %w", path, dir, err)
	}
	return nil
}

// CheckDir returns nil when path is a directory the user may write in,
// or does not exist and its folder, when it exists, takes a new one.
func CheckDir(path string) error {
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if _, err := os.Stat(filepath.Dir(path)); err != nil {
			return nil // made with its parents
		}
		return checkFolder(path)
	case err != nil:
		return err
	case st.IsDir():
		if st.Mode().Perm()&0o222 == 0 {
			return fmt.Errorf("%s is a read-only folder (mode %04o): give a writable folder", path, st.Mode().Perm())
		}
		if err := access(path); err != nil {
			return fmt.Errorf("%s is a folder this user cannot write in: %w", path, err)
		}
		return nil
	}
	return fmt.Errorf("%s exists and is %s, not a folder", path, kind(st.Mode()))
}

// Create creates or truncates the regular file path for writing, after
// Check, and holds it locked until it is closed. The file is opened
// without blocking (a FIFO that appears between the check and the open is
// refused, not waited on) and checked again once open and locked, before
// it is truncated; a file another process holds is refused (BusyError).
func Create(path string) (*os.File, error) {
	if err := Check(path); err != nil {
		return nil, err
	}
	f, err := openLocked(path)
	if err != nil {
		return nil, err
	}
	if err := f.Truncate(0); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// OpenAppend opens or creates the regular file path for reading and
// appending, after Check, and holds it locked until it is closed; the
// offset is at the start, so that the caller reads what is there first.
// A file another process holds is refused (BusyError).
func OpenAppend(path string) (*os.File, error) {
	if err := Check(path); err != nil {
		return nil, err
	}
	return openLocked(path)
}

// Replace writes path through a temporary file in the same folder, renamed
// over path once write has written it whole, so that path holds the old
// content or the new, never a part. A path that exists and is not a
// regular file, or may not be written, is refused (CheckReplace); a
// symbolic link is followed, so that the file it points to is replaced,
// not the link, and keeps its permissions (a new file gets 0644). When
// this process holds path's Lock the write goes through it; otherwise path
// is locked for the write.
func Replace(path string, write func(io.Writer) error) error {
	if l := heldLock(path); l != nil {
		return l.Replace(write)
	}
	l, err := Take(path)
	if err != nil {
		return err
	}
	err = l.Replace(write)
	return errors.Join(err, l.Close())
}

// writeTemp writes what write writes to the temporary file f, flushed and
// synced, so that the rename that follows publishes whole content.
func writeTemp(f *os.File, write func(io.Writer) error) error {
	w := bufio.NewWriter(f)
	err := write(w)
	if err == nil {
		err = w.Flush()
	}
	if err == nil {
		err = f.Sync()
	}
	return err
}

// Trim cuts the open file f at size and sets the offset there, so that
// what is written next follows the whole records kept (a results file
// resumed after a killed process left half a line).
func Trim(f *os.File, size int64) error {
	if err := f.Truncate(size); err != nil {
		return err
	}
	_, err := f.Seek(size, io.SeekStart)
	return err
}

// kind names what a file that is not regular is.
func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m.IsRegular():
		return "a regular file"
	}
	return "an irregular file"
}

// WriteTo writes what wt writes to path through Replace, as a plot's
// WriterTo gives it.
func WriteTo(path string, wt io.WriterTo) error {
	return Replace(path, func(w io.Writer) error {
		_, err := wt.WriteTo(w)
		return err
	})
}

// Moved tells whether path no longer names the open file f: another file
// was renamed over it (an editor, sed -i, cp and mv) or it was removed,
// so that what is written to f is no longer in the file at path. removed
// tells which.
func Moved(f *os.File, path string) (moved, removed bool) {
	now, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return true, true
	}
	st, ferr := f.Stat()
	if err != nil || ferr != nil {
		return false, false // cannot tell: the write says what is wrong
	}
	return !os.SameFile(now, st), false
}
