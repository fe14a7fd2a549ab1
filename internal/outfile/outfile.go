// Package outfile checks the files soko writes before it writes them: a
// target that exists must be a regular file. Writing a model, results or a
// profile over a device node, a FIFO or a directory would replace or feed
// something that is not soko's (run as root, "--out /dev/zero" would put a
// file where the device was), so such a target is refused before any work
// starts.
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

// Check returns nil when path does not exist or is a regular file (a
// symbolic link is followed), and an error naming the path and what it is
// otherwise. A path whose folder does not exist is an error too.
func Check(path string) error {
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		dir := filepath.Dir(path)
		if d, err := os.Stat(dir); err != nil || !d.IsDir() {
			return fmt.Errorf("%s: the folder %s does not exist", path, dir)
		}
		return nil
	case err != nil:
		return err
	case st.Mode().IsRegular():
		return nil
	}
	return fmt.Errorf("%s exists and is %s, not a regular file: give the name of a new or regular file", path, kind(st.Mode()))
}

// CheckDir returns nil when path does not exist or is a directory.
func CheckDir(path string) error {
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case st.IsDir():
		return nil
	}
	return fmt.Errorf("%s exists and is %s, not a folder", path, kind(st.Mode()))
}

// Create creates or truncates the regular file path for writing, after
// Check. The file is opened without blocking (a FIFO that appears between
// the check and the open is refused, not waited on) and checked again once
// open, before it is truncated.
func Create(path string) (*os.File, error) {
	if err := Check(path); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|nonBlock, 0o644)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = fmt.Errorf("%s is %s, not a regular file", path, kind(st.Mode()))
	}
	if err == nil {
		err = f.Truncate(0)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// Replace writes path through a temporary file in the same folder, renamed
// over path once write has written it whole, so that path holds the old
// content or the new, never a part. A path that exists and is not a
// regular file is refused (Check); a symbolic link is followed, so that the
// file it points to is replaced, not the link, and keeps its permissions
// (a new file gets 0644).
func Replace(path string, write func(io.Writer) error) error {
	if err := Check(path); err != nil {
		return err
	}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	w := bufio.NewWriter(tmp)
	err = write(w)
	if err == nil {
		err = w.Flush()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		mode := os.FileMode(0o644)
		if st, serr := os.Stat(path); serr == nil {
			mode = st.Mode().Perm()
		}
		err = os.Chmod(tmp.Name(), mode)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
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
