//go:build unix

package outfile

import "syscall"

// nonBlock makes the open of a FIFO fail at once instead of waiting for a
// reader.
const nonBlock = syscall.O_NONBLOCK
