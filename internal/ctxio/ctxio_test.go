package ctxio

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A pipe nobody writes to: the read must end when the context does.
func TestReaderCancelsBlockedRead(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(20 * time.Millisecond); cancel() }()
	_, err = io.ReadAll(Reader(ctx, r))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("want context.Canceled, got %v", err)
	}
}

func TestReaderReadsEverything(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Repeat("#$.@ \n", 50000)
	go func() { io.WriteString(w, text); w.Close() }()
	got, err := io.ReadAll(Reader(context.Background(), r))
	if err != nil || string(got) != text {
		t.Fatalf("read %d of %d bytes, err %v", len(got), len(text), err)
	}
}

// A FIFO without a writer: os.Open itself blocks, and Open must not.
func TestOpenFIFOCancels(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	f, err := Open(ctx, fifo)
	if !errors.Is(err, context.DeadlineExceeded) {
		if f != nil {
			f.Close()
		}
		t.Fatalf("want context.DeadlineExceeded, got %v", err)
	}
}

// A regular file is read directly, and once the context ends its next
// read fails: a large file's parse ends soon after.
func TestOpenRegularFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "level.xsb")
	text := "#####\n#@$.#\n#####\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	f, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b := make([]byte, 6)
	if n, err := f.Read(b); err != nil || string(b[:n]) != text[:6] {
		t.Errorf("read %q, %v", b[:n], err)
	}
	cancel()
	if _, err := f.Read(b); !errors.Is(err, context.Canceled) {
		t.Errorf("read after cancel: %v, want context.Canceled", err)
	}
	if _, err := Open(context.Background(), filepath.Join(t.TempDir(), "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: want ErrNotExist, got %v", err)
	}
}
