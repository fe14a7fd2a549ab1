package outfile

import (
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
