package outfile

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestFollow: a writer whose file is still at its path stays; one whose
// file was renamed over takes the new file and puts there the lines it
// wrote that the new one lacks, once each; one whose file was removed is
// told so; a new file that open refuses is that refusal.
func TestFollow(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.jsonl")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	var mine []Line
	for _, key := range []string{"a", "b"} {
		off, _ := f.Seek(0, 1)
		line := key + "\n"
		if _, err := f.WriteString(line); err != nil {
			t.Fatal(err)
		}
		mine = append(mine, Line{Off: off, Len: len(line), Key: key})
	}
	open := func(path string) (appended, error) {
		nf, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND, 0o644)
		if err != nil {
			return appended{}, err
		}
		b, _ := os.ReadFile(path)
		return appended{nf, strings.Fields(string(b))}, nil
	}
	if nf, n, err := Follow(f, path, mine, open); nf.f != nil || n != 0 || err != nil {
		t.Fatalf("unmoved: %v %d %v", nf.f, n, err)
	}
	other := filepath.Join(dir, "other")
	if err := os.WriteFile(other, []byte("b\nc\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(other, path); err != nil {
		t.Fatal(err)
	}
	taken, n, err := Follow(f, path, mine, open)
	if err != nil || taken.f == nil || n != 1 {
		t.Fatalf("renamed over: %v %d %v", taken.f, n, err)
	}
	nf := taken.f
	defer nf.Close()
	if b, _ := os.ReadFile(path); string(b) != "b\nc\na\n" {
		t.Errorf("the new file holds %q, want the missing line a after its own", b)
	}
	if _, err := f.Write([]byte("x")); err == nil {
		t.Error("the old file is still open")
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Follow(nf, path, nil, open); !errors.Is(err, ErrRemoved) {
		t.Errorf("removed: %v, want ErrRemoved", err)
	}
	refused := errors.New("not mine")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Follow(nf, path, nil, func(string) (appended, error) { return appended{}, refused }); err != refused {
		t.Errorf("refused by open: %v", err)
	}
}

// appended is a file of lines, each line its key, as Follow takes it.
type appended struct {
	f    *os.File
	keys []string
}

func (a appended) File() *os.File { return a.f }

func (a appended) Done(key string) bool { return slices.Contains(a.keys, key) }
