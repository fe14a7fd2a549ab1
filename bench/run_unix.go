//go:build unix && !linux

package bench

import (
	"context"
	"os/exec"
	"syscall"
	"time"
)

// runCommand runs cmdline through /bin/sh in its own process group, in dir,
// under the time limit (0: none), and kills the group when the limit is up
// or ctx is done. cancelled is true when ctx stopped it.
//
// Here (not Linux) the CPU time and peak memory are the shell's rusage: the
// CPU time of the processes it waited for, and a peak that may include soko's
// own. Linux has the reaper (reaper_linux.go), which measures the run alone.
func runCommand(ctx context.Context, dir, cmdline string, limit time.Duration, memory int64, stdout, stderr *capped) (u usage, cancelled bool, err error) {
	rctx := ctx
	if limit > 0 {
		var cancel context.CancelFunc
		rctx, cancel = context.WithTimeout(ctx, limit)
		defer cancel()
	}
	cmd := exec.CommandContext(rctx, "/bin/sh", "-c", cmdline)
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
			return cmd.Process.Kill()
		}
		return nil
	}
	cmd.WaitDelay = 2 * time.Second
	cmd.Stdout, cmd.Stderr = stdout, stderr
	t0 := time.Now()
	runErr := cmd.Run()
	u.WallS = time.Since(t0).Seconds()
	if ps := cmd.ProcessState; ps != nil {
		u.CPUS = (ps.UserTime() + ps.SystemTime()).Seconds()
		if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
			u.PeakBytes = maxRSSBytes(ru)
		}
	}
	if ctx.Err() != nil {
		return u, true, nil
	}
	u.TimedOut = rctx.Err() != nil
	if runErr != nil {
		u.Exit = runErr.Error()
	}
	return u, false, nil
}

// externalCPU is what an external run's cpu_s counts here: the shell's
// rusage, which includes the processes it waited for.
const externalCPU = CPUPrograms

// externalPeakOwn is false here: the shell's peak may be soko's own, so
// it is not held to the memory limit.
const externalPeakOwn = false
