// Package ctxio reads input that may never end — a terminal, a pipe, a
// FIFO, a device — so that cancelling a context ends the wait at once.
//
// A read or an open blocked in the kernel cannot be interrupted from Go:
// signals are retried, not passed on. So a wait that may last for ever runs
// on a goroutine of its own, and the caller stops waiting for it when the
// context ends; the goroutine is left to finish (or not) on its own, which
// is harmless in a command that is about to exit. Regular files, whose
// reads always end, are read directly, the context looked at before each
// read.
package ctxio

import (
	"context"
	"io"
	"os"
)

// Reader returns a reader of r whose Read returns ctx's error once ctx is
// done, even while a read of r is still blocked. After that, r must not be
// read by anyone else: the blocked read may still take its bytes. A regular
// file, whose reads end, is read directly, ctx looked at before each read.
func Reader(ctx context.Context, r io.Reader) io.Reader {
	if f, ok := r.(*os.File); ok && isRegular(f) {
		return checked{ctx, f}
	}
	return &reader{ctx: ctx, r: r, done: make(chan result, 1)}
}

// checked reads a regular file, ctx looked at before each read: so that a
// large file's parse ends soon after ctx does.
type checked struct {
	ctx context.Context
	f   *os.File
}

func (c checked) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.f.Read(p)
}

type result struct {
	n   int
	err error
}

// reader is Reader's type: each read of r runs on a goroutine into buf, so
// a read abandoned on cancellation never writes the caller's p after Read
// returns. Once ctx is done every Read fails, so an abandoned read is never
// waited for again.
type reader struct {
	ctx  context.Context
	r    io.Reader
	buf  []byte
	done chan result
}

func (c *reader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	if len(p) == 0 {
		return 0, nil
	}
	if len(c.buf) < len(p) {
		c.buf = make([]byte, len(p))
	}
	buf := c.buf[:len(p)]
	go func() {
		n, err := c.r.Read(buf)
		c.done <- result{n, err}
	}()
	select {
	case res := <-c.done:
		return copy(p, buf[:res.n]), res.err
	case <-c.ctx.Done():
		return 0, c.ctx.Err()
	}
}

// Open opens the named file for reading. A file that is not regular (a
// FIFO's open waits for a writer) is opened on a goroutine, and Open
// returns ctx's error once ctx is done; what it returns then reads as
// Reader does.
func Open(ctx context.Context, name string) (io.ReadCloser, error) {
	if st, err := os.Stat(name); err != nil || st.Mode().IsRegular() || st.IsDir() {
		f, err := os.Open(name) // the error, if any, names the file
		if err != nil {
			return nil, err
		}
		return readCloser{checked{ctx, f}, f}, nil
	}
	type opened struct {
		f   *os.File
		err error
	}
	ch := make(chan opened, 1)
	go func() {
		f, err := os.Open(name)
		ch <- opened{f, err}
	}()
	select {
	case o := <-ch:
		if o.err != nil {
			return nil, o.err
		}
		return readCloser{Reader(ctx, o.f), o.f}, nil
	case <-ctx.Done():
		go func() { // close what the open returns, if it ever does
			if o := <-ch; o.f != nil {
				o.f.Close()
			}
		}()
		return nil, ctx.Err()
	}
}

type readCloser struct {
	io.Reader
	io.Closer
}

func isRegular(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode().IsRegular()
}
