//go:build unix

package main

import (
	"os"

	"golang.org/x/sys/unix"
)

// inForeground reports whether the process is in the foreground process
// group of the terminal f. A background process that sets the terminal's
// modes is stopped by the kernel (SIGTTOU), and a stopped process answers
// no signal: soko play started by 'timeout' without --foreground would hang
// for ever.
func inForeground(f *os.File) bool {
	pgrp, err := unix.IoctlGetInt(int(f.Fd()), unix.TIOCGPGRP)
	return err != nil || pgrp == unix.Getpgrp()
}
