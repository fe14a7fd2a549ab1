//go:build unix

package outfile

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// nonBlock makes the open of a FIFO fail at once instead of waiting for a
// reader.
const nonBlock = unix.O_NONBLOCK

// lockFile takes an exclusive flock on f without waiting: a file another
// process holds is a BusyError naming it, and a file system without locks
// is refused, since soko would not know whether another run writes there.
func lockFile(f *os.File, path string) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var lerr error
	try := func() {
		if err := rc.Control(func(fd uintptr) {
			for {
				lerr = unix.Flock(int(fd), unix.LOCK_EX|unix.LOCK_NB)
				if lerr != unix.EINTR {
					return
				}
			}
		}); err != nil {
			lerr = err
		}
	}
	try()
	// A holder that is not in /proc/locks has just let go: try again, a
	// few times, before refusing without a name.
	pid, cmd := 0, ""
	for range 3 {
		if !errors.Is(lerr, unix.EWOULDBLOCK) {
			break
		}
		if pid, cmd = holder(f); pid > 0 {
			break
		}
		try()
	}
	switch {
	case lerr == nil:
		return nil
	case errors.Is(lerr, unix.EWOULDBLOCK):
		return &BusyError{Path: path, PID: pid, Command: cmd}
	case errors.Is(lerr, unix.ENOLCK), errors.Is(lerr, unix.EOPNOTSUPP), errors.Is(lerr, unix.ENOSYS), errors.Is(lerr, unix.EINVAL):
		return fmt.Errorf("%s: its file system cannot lock files (%v); soko writes only files it can lock, so that two runs cannot mix their results: give a file on a local disk", path, lerr)
	}
	return fmt.Errorf("%s: locking: %w", path, lerr)
}

// holder finds the process holding f's flock in /proc/locks (Linux), and
// its command line; 0 and "" where it cannot tell.
func holder(f *os.File) (int, string) {
	var st unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &st); err != nil {
		return 0, ""
	}
	id := fmt.Sprintf("%02x:%02x:%d", unix.Major(uint64(st.Dev)), unix.Minor(uint64(st.Dev)), st.Ino)
	b, err := os.ReadFile("/proc/locks")
	if err != nil {
		return 0, ""
	}
	// 1: FLOCK  ADVISORY  WRITE 9300 fe:00:9979695 0 EOF
	for line := range strings.Lines(string(b)) {
		fields := strings.Fields(line)
		if len(fields) < 6 || fields[1] != "FLOCK" || fields[5] != id {
			continue // a waiter's line has "->" in field 1
		}
		pid, err := strconv.Atoi(fields[4])
		if err != nil || pid <= 0 {
			return 0, ""
		}
		return pid, command(pid)
	}
	return 0, ""
}

// command is the command line of process pid, shortened, or "".
func command(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if err != nil {
		return ""
	}
	cmd := strings.TrimSpace(strings.ReplaceAll(string(b), "\x00", " "))
	if r := []rune(cmd); len(r) > 120 {
		cmd = string(r[:119]) + "…"
	}
	return cmd
}

// alive tells whether process pid exists.
func alive(pid int) bool {
	err := unix.Kill(pid, 0)
	return err == nil || err == unix.EPERM
}

// access tells whether this user may write path (access(2) with W_OK; a
// read-only file system too).
func access(path string) error {
	return unix.Access(path, unix.W_OK)
}
