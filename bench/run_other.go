//go:build !unix

package bench

import (
	"context"
	"os/exec"
	"time"
)

// runCommand runs cmdline through /bin/sh, in dir, under the time limit (0:
// none). Here (neither Linux nor another Unix) there are no process groups:
// only the shell is killed, and CPU time and peak memory are not measured.
func runCommand(ctx context.Context, dir, cmdline string, limit time.Duration, memory int64, stdout, stderr *capped) (u usage, cancelled bool, err error) {
	rctx := ctx
	if limit > 0 {
		var cancel context.CancelFunc
		rctx, cancel = context.WithTimeout(ctx, limit)
		defer cancel()
	}
	cmd := exec.CommandContext(rctx, "/bin/sh", "-c", cmdline)
	cmd.Dir = dir
	cmd.WaitDelay = 2 * time.Second
	cmd.Stdout, cmd.Stderr = stdout, stderr
	t0 := time.Now()
	runErr := cmd.Run()
	u.WallS = time.Since(t0).Seconds()
	if ctx.Err() != nil {
		return u, true, nil
	}
	u.TimedOut = rctx.Err() != nil
	if runErr != nil {
		u.Exit = runErr.Error()
	}
	return u, false, nil
}

// externalCPU is what an external run's cpu_s counts here: nothing.
const externalCPU = CPUNone

// externalPeakOwn is false here: no peak is measured.
const externalPeakOwn = false
