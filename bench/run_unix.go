//go:build unix && !linux

package bench

import (
	"os"
	"os/exec"
	"syscall"
)

// inGroup starts the shell in its own process group and kills the group
// when the limit is up or ctx is done.
func inGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
			return cmd.Process.Kill()
		}
		return nil
	}
}

// measure reads the shell's rusage (not Linux): the CPU time of the
// processes it waited for, and a peak that may include soko's own.
func measure(ps *os.ProcessState, u *usage) {
	u.CPUS = (ps.UserTime() + ps.SystemTime()).Seconds()
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		u.PeakBytes = maxRSSBytes(ru)
	}
}

// externalCPU is what an external run's cpu_s counts here: the shell's
// rusage, which includes the processes it waited for.
const externalCPU = CPUPrograms

// externalPeakOwn is false here: the shell's peak may be soko's own, so
// it is not held to the memory limit.
const externalPeakOwn = false
