package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal: its master, to read what is drawn,
// and its slave, a terminal to draw on.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	fd := int(m.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		m.Close()
		t.Skipf("unlocking the pseudo-terminal: %v", err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		m.Close()
		t.Skipf("naming the pseudo-terminal: %v", err)
	}
	s, err := os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		m.Close()
		t.Skipf("opening the pseudo-terminal: %v", err)
	}
	return m, s
}

// TestGenerateProgress replays generate trying rooms with nothing on a
// terminal: the levels in the making and their rooms tried are drawn on
// stderr when it is a terminal.
func TestGenerateProgress(t *testing.T) {
	master, slave := openPTY(t)
	defer master.Close()
	var drawn bytes.Buffer
	read := make(chan struct{})
	go func() {
		defer close(read)
		io.Copy(&drawn, master) // until the slave is closed
	}()
	// A few seconds of rooms, none of them in the band.
	var out strings.Builder
	err := run(context.Background(), []string{"generate", "--count", "1", "--min-pushes", "300", "--max-rooms", "2500"}, strings.NewReader(""), &out, slave)
	slave.Close()
	<-read
	if err == nil || !strings.Contains(err.Error(), "no acceptable level in 2500 rooms") {
		t.Fatalf("generate: %v", err)
	}
	if !strings.Contains(drawn.String(), "| level 1 ") || !strings.Contains(drawn.String(), "rooms tried") {
		t.Errorf("no progress drawn on the terminal: %q", drawn.String())
	}
}
