package outfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestTargets(t *testing.T) {
	dir := t.TempDir()
	regular := filepath.Join(dir, "old.jsonl")
	if err := os.WriteFile(regular, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	toDevice := filepath.Join(dir, "link")
	if err := os.Symlink(os.DevNull, toDevice); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path, want string // want: "" for accepted, else a word of the error
	}{
		{filepath.Join(dir, "new.bin"), ""},
		{regular, ""},
		{os.DevNull, "character device"},
		{toDevice, "character device"},
		{fifo, "FIFO"},
		{dir, "folder"},
		{filepath.Join(dir, "missing", "x.bin"), "does not exist"},
	} {
		err := Check(c.path)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("Check(%s) = %v, want %q", c.path, err, c.want)
		}
		f, err := Create(c.path)
		if c.want == "" {
			if err != nil {
				t.Errorf("Create(%s): %v", c.path, err)
				continue
			}
			f.WriteString("new\n")
			f.Close()
			if b, _ := os.ReadFile(c.path); string(b) != "new\n" {
				t.Errorf("Create(%s) left %q", c.path, b)
			}
		} else if err == nil {
			f.Close()
			t.Errorf("Create(%s) accepted it", c.path)
		}
	}
	if st, err := os.Stat(os.DevNull); err != nil || st.Mode()&os.ModeCharDevice == 0 {
		t.Errorf("%s is no longer a device: %v", os.DevNull, err)
	}
	if err := CheckDir(dir); err != nil {
		t.Error(err)
	}
	if err := CheckDir(regular); err == nil {
		t.Error("CheckDir accepted a regular file")
	}
}

// Replace writes whole files or none, follows a link and keeps the
// permissions of the file it replaces.
func TestReplace(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.bin")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(path, link); err != nil {
		t.Fatal(err)
	}
	write := func(text string, fail bool) func(io.Writer) error {
		return func(w io.Writer) error {
			io.WriteString(w, text)
			if fail {
				return errors.New("disk full")
			}
			return nil
		}
	}
	if err := Replace(link, write("new", false)); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Lstat(link)
	b, _ := os.ReadFile(path)
	info, _ := os.Stat(path)
	if string(b) != "new" || st.Mode()&os.ModeSymlink == 0 || info.Mode().Perm() != 0o600 {
		t.Errorf("after Replace through a link: %q, link kept %v, mode %v", b, st.Mode()&os.ModeSymlink != 0, info.Mode().Perm())
	}
	if err := Replace(path, write("half", true)); err == nil {
		t.Error("a failed write was not reported")
	}
	entries, _ := os.ReadDir(dir)
	if b, _ := os.ReadFile(path); string(b) != "new" || len(entries) != 2 {
		t.Errorf("after a failed write: %q, %d files in the folder", b, len(entries))
	}
}

// Target follows links to the file a write makes, a link that points to
// nothing yet included, relative to the link's folder; Check and Create
// through such a link make the file it points to and keep the link.
func TestTargetDanglingLink(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	links := map[string]string{
		filepath.Join(dir, "a"):    "sub/b", // a → sub/b → c (in sub) → nothing yet
		filepath.Join(sub, "b"):    "c",
		filepath.Join(dir, "dsub"): "sub", // a link to a folder on the way
	}
	for from, to := range links {
		if err := os.Symlink(to, from); err != nil {
			t.Fatal(err)
		}
	}
	want := filepath.Join(sub, "c")
	for _, p := range []string{filepath.Join(dir, "a"), filepath.Join(sub, "b"), filepath.Join(dir, "dsub", "b"), filepath.Join(dir, "dsub", "c")} {
		if got := Target(p); got != want {
			t.Errorf("Target(%s) = %s, want %s", p, got, want)
		}
	}
	missing := filepath.Join(dir, "gone")
	if err := os.Symlink(filepath.Join(dir, "nofolder", "x"), missing); err != nil {
		t.Fatal(err)
	}
	if err := Check(missing); err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "nofolder")) {
		t.Errorf("Check through a link into no folder: %v", err)
	}
	f, err := Create(filepath.Join(dir, "a"))
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if st, err := os.Lstat(filepath.Join(dir, "a")); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v", err)
	}
	if _, err := os.Stat(want); err != nil {
		t.Errorf("the target was not made: %v", err)
	}
}
