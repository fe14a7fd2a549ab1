//go:build unix

package outfile

import (
	"bufio"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestHelperHold is not a test: run by holdIn in a child process, it
// takes the file $OUTFILE_HOLD as $OUTFILE_KIND does, says "locked" and
// holds it until its standard input closes.
func TestHelperHold(t *testing.T) {
	path := os.Getenv("OUTFILE_HOLD")
	if path == "" {
		t.Skip("run by holdIn")
	}
	var closer io.Closer
	var err error
	switch os.Getenv("OUTFILE_KIND") {
	case "take", "take new":
		closer, err = Take(path)
	case "create":
		closer, err = Create(path)
	default:
		closer, err = OpenAppend(path)
	}
	if err != nil {
		t.Fatal(err)
	}
	os.Stdout.WriteString("locked\n")
	io.Copy(io.Discard, os.Stdin)
	closer.Close()
}

// holdIn starts a child process that holds path as kind does, and returns
// it once it holds it, and a function that ends it.
func holdIn(t *testing.T, path, kind string) (pid int, release func()) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperHold$")
	cmd.Env = append(os.Environ(), "OUTFILE_HOLD="+path, "OUTFILE_KIND="+kind)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != "locked\n" {
		in.Close()
		cmd.Wait()
		t.Fatalf("the holder did not lock %s: %q, %v", path, line, err)
	}
	return cmd.Process.Pid, func() { in.Close(); cmd.Wait() }
}

// One writer per file: whichever way a process holds a file (Take for a
// replaced file, Create, OpenAppend), every way of another process to
// write it is refused at once, naming the holder's pid and command, and
// the file is left as it was; once the holder ends, it is taken.
func TestSecondWriterRefused(t *testing.T) {
	for _, holdKind := range []string{"take", "take new", "create", "append"} {
		t.Run(holdKind, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "out.jsonl")
			if holdKind != "take new" {
				if err := os.WriteFile(path, []byte("{\"a\":1}\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			pid, release := holdIn(t, path, holdKind)
			want := "process " + strconv.Itoa(pid) + " (" + os.Args[0]
			tries := map[string]func() error{
				"Take":       func() error { l, err := Take(path); closeIf(l, err); return err },
				"Create":     func() error { f, err := Create(path); closeIf(f, err); return err },
				"OpenAppend": func() error { f, err := OpenAppend(path); closeIf(f, err); return err },
				"Replace":    func() error { return Replace(path, writeString("spliced\n")) },
			}
			for name, try := range tries {
				err := try()
				var busy *BusyError
				if !errors.As(err, &busy) || busy.PID != pid || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "wait for that one to end") {
					t.Errorf("%s while another holds it: %v; want a refusal naming %s", name, err, want)
				}
			}
			b, err := os.ReadFile(path)
			switch holdKind {
			case "take new":
				if !errors.Is(err, os.ErrNotExist) {
					t.Errorf("the refused writers made the file: %q, %v", b, err)
				}
			case "take", "append":
				if string(b) != "{\"a\":1}\n" || err != nil {
					t.Errorf("the refused writers changed the file: %q, %v", b, err)
				}
			}
			release()
			if err := Replace(path, writeString("mine\n")); err != nil {
				t.Fatalf("after the holder ended: %v", err)
			}
			if b, _ := os.ReadFile(path); string(b) != "mine\n" {
				t.Errorf("after the holder ended: %q", b)
			}
		})
	}
}

func closeIf(c io.Closer, err error) {
	if err == nil {
		c.Close()
	}
}

func writeString(s string) func(io.Writer) error {
	return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
}

// A rename puts a new inode at the path; the lock must stay with the
// path: a writer that locked the old inode, or opens the new one, is
// refused while the Lock is held, across any number of Replaces. Replace
// on the path in the holding process goes through its Lock. A path that
// does not exist is held by its lock file until the first Replace; one
// nothing was written to is left as it was, with no file beside it.
func TestLockFollowsReplace(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "all.sok")
	l, err := Take(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".all.sok.soko-lock")); err != nil {
		t.Fatalf("Take of a new file made no lock file: %v", err)
	}
	if _, err := Take(path); !errors.As(err, new(*BusyError)) {
		t.Fatalf("a second Take of a new file: %v", err)
	}
	for i := range 3 {
		if err := Replace(path, writeString("v"+strconv.Itoa(i))); err != nil {
			t.Fatal(err)
		}
		if f, err := openLocked(path); err == nil {
			f.Close()
			t.Fatalf("after replace %d another writer took the file", i)
		} else if !errors.As(err, new(*BusyError)) {
			t.Fatalf("after replace %d: %v", i, err)
		}
	}
	if b, _ := os.ReadFile(path); string(b) != "v2" {
		t.Errorf("the file holds %q", b)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "v2" {
		t.Errorf("Close changed a written file: %q", b)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("files left in the folder: %v", entries)
	}

	unused := filepath.Join(dir, "unused.bin")
	l, err = Take(unused)
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("after a Take of %s that wrote nothing: %v", unused, entries)
	}
}

// A lock file left by a killed process (nobody holds it) is removed by the
// next writer of the path, whether the path exists by then or not.
func TestStaleLockFileCleaned(t *testing.T) {
	dir := t.TempDir()
	for _, exists := range []bool{false, true} {
		path := filepath.Join(dir, "m"+strconv.FormatBool(exists))
		if exists {
			if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(lockName(path), nil, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := Replace(path, writeString("new")); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(lockName(path)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("exists %v: the stale lock file was kept", exists)
		}
	}
}

// The user's files: a file with no write bit, a file in a folder with no
// write bit, are refused before anything is written, by every writer that
// would change them; in place (Create, OpenAppend) an existing writable
// file in a read-only folder is fine. Run as root, access(2) allows all of
// these, so the rule is the permission bits: no write bit, no write, for
// root too.
func TestReadOnlyRefused(t *testing.T) {
	dir := t.TempDir()
	ro := filepath.Join(dir, "ro.sok")
	if err := os.WriteFile(ro, []byte("mine"), 0o444); err != nil {
		t.Fatal(err)
	}
	roDir := filepath.Join(dir, "ro")
	if err := os.Mkdir(roDir, 0o755); err != nil {
		t.Fatal(err)
	}
	inRO := filepath.Join(roDir, "w.jsonl")
	if err := os.WriteFile(inRO, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(roDir, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(roDir, 0o755) })
	newInRO := filepath.Join(roDir, "new.bin")
	for _, c := range []struct {
		name, path, want string
		write            func(string) error
	}{
		{"Replace 0444", ro, "read-only (mode 0444)", func(p string) error { return Replace(p, writeString("x")) }},
		{"Take 0444", ro, "read-only (mode 0444)", func(p string) error { l, err := Take(p); closeIf(l, err); return err }},
		{"Create 0444", ro, "read-only (mode 0444)", func(p string) error { f, err := Create(p); closeIf(f, err); return err }},
		{"OpenAppend 0444", ro, "read-only (mode 0444)", func(p string) error { f, err := OpenAppend(p); closeIf(f, err); return err }},
		{"Replace in a 0555 folder", inRO, "folder " + roDir + " is read-only", func(p string) error { return Replace(p, writeString("x")) }},
		{"Create new in a 0555 folder", newInRO, "read-only", func(p string) error { f, err := Create(p); closeIf(f, err); return err }},
		{"CheckDir 0555", roDir, "read-only", func(p string) error { return CheckDir(p) }},
	} {
		err := c.write(c.path)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", c.name, err, c.want)
		}
	}
	if b, _ := os.ReadFile(ro); string(b) != "mine" {
		t.Errorf("%s was changed: %q", ro, b)
	}
	if b, _ := os.ReadFile(inRO); string(b) != "mine" {
		t.Errorf("%s was changed: %q", inRO, b)
	}
	if _, err := os.Stat(newInRO); err == nil {
		t.Errorf("%s was made", newInRO)
	}
	f, err := OpenAppend(inRO) // in place: the folder is not written
	if err != nil {
		t.Errorf("appending to a writable file in a read-only folder: %v", err)
	} else {
		f.Close()
	}
}

// A save killed between its temporary file and the rename leaves
// .NAME.soko-tmp-PID; the next Take of NAME removes it when PID is gone,
// and leaves those of live processes and other names alone.
func TestStaleTempsCleaned(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.bin")
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Skip("no true(1) to make a dead process id:", err)
	}
	dead := tempName(path, gone.Process.Pid)
	live := tempName(path, os.Getppid())
	other := tempName(filepath.Join(dir, "other.bin"), gone.Process.Pid)
	for _, p := range []string{dead, live, other} {
		if err := os.WriteFile(p, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if !strings.HasPrefix(filepath.Base(dead), ".m.bin.soko-tmp-") {
		t.Errorf("temporary file %s: want .m.bin.soko-tmp-PID", dead)
	}
	var during []string
	err := Replace(path, func(w io.Writer) error {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			during = append(during, e.Name())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	mine := filepath.Base(tempName(path, os.Getpid()))
	if !strings.Contains(strings.Join(during, " "), mine) {
		t.Errorf("while writing, the folder held %v; want the temporary file %s", during, mine)
	}
	if _, err := os.Stat(dead); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the dead process's %s was kept", dead)
	}
	for _, p := range []string{live, other} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s was removed: %v", p, err)
		}
	}
}

// A file whose name is as long as a name may be is written like any other:
// its temporary and lock files are named within the limit, and found
// again by the next writer.
func TestLongName(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []int{200, 240, 244, 255} {
		path := filepath.Join(dir, strings.Repeat("é", n/2)+strings.Repeat("a", n%2))
		if err := os.WriteFile(lockName(path), nil, 0o600); err != nil {
			t.Fatalf("%d bytes: %v", n, err)
		}
		if err := Replace(path, writeString("x")); err != nil {
			t.Errorf("%d bytes: %v", n, err)
		}
		if _, err := os.Stat(lockName(path)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%d bytes: the stale lock file was kept", n)
		}
		if len(filepath.Base(tempName(path, 1<<31-1))) > 255 {
			t.Errorf("%d bytes: temporary name too long", n)
		}
	}
}
