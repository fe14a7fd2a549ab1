//go:build unix

package outfile

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A Lock whose file another was renamed over (an editor, sed -i, cp and
// mv) holds nothing of the path; Current locks the file now there, so
// that another process is kept out of it again, waits a bounded time for
// one that holds it, and then refuses naming that one.
func TestLockCurrentAfterRename(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "all.sok")
	if err := os.WriteFile(path, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	editorRename := func() {
		t.Helper()
		if err := os.WriteFile(path+"~", []byte("edited\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(path+"~", path); err != nil {
			t.Fatal(err)
		}
	}
	l, err := Take(path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if replaced, err := l.Current(context.Background(), 0, nil); replaced || err != nil {
		t.Fatalf("Current on an unchanged path: %v, %v", replaced, err)
	}
	editorRename()
	if replaced, err := l.Current(context.Background(), 0, nil); !replaced || err != nil {
		t.Fatalf("Current after a rename: %v, %v", replaced, err)
	}
	if f, err := OpenAppend(path); !errors.As(err, new(*BusyError)) { // the new file is held now
		closeIf(f, err)
		t.Fatalf("the new file is not held: %v", err)
	}

	// Another process takes the file renamed over it: Current waits for
	// it, telling once, and takes the file when that one lets go.
	editorRename()
	pid, release1 := holdIn(t, path, "append")
	told := 0
	replaced, err := l.Current(context.Background(), time.Minute, func(b *BusyError) {
		told++
		if b.PID != pid {
			t.Errorf("waiting names process %d, want %d", b.PID, pid)
		}
		go release1() // the holder ends while Current waits
	})
	if !replaced || err != nil || told != 1 {
		t.Fatalf("Current while another held the new file: %v, %v, told %d times", replaced, err, told)
	}

	// One that holds it past the wait is named, and l keeps what it held.
	editorRename()
	pid, release := holdIn(t, path, "append")
	defer release()
	_, err = l.Current(context.Background(), 0, nil)
	var busy *BusyError
	if !errors.As(err, &busy) || busy.PID != pid {
		t.Fatalf("Current while another holds the new file past the wait: %v", err)
	}
	// An interrupt (ctx) ends the wait at once, with the holder's
	// BusyError: before, Current waited out the whole of wait.
	ctx, cancel := context.WithCancel(context.Background())
	_, err = l.Current(ctx, time.Hour, func(*BusyError) { cancel() })
	if !errors.As(err, &busy) || busy.PID != pid {
		t.Fatalf("Current interrupted while another holds the new file: %v", err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
}

// A file made private (chmod 600) while its Lock held it keeps that mode
// when Replace writes it: before, the mode it had when taken came back.
func TestReplaceKeepsModeChangedMeanwhile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "all.sok")
	if err := os.WriteFile(path, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := Take(path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := l.Replace(func(w io.Writer) error { _, err := io.WriteString(w, "new\n"); return err }); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("after Replace: %v, %v", st.Mode(), err)
	}
}
