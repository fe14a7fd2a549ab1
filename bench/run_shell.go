//go:build !linux

package bench

import (
	"context"
	"os/exec"
	"time"
)

// runCommand runs cmdline through /bin/sh, in dir, under the time limit (0:
// none). cancelled is true when ctx stopped it. Where there are process
// groups (run_unix.go) the shell runs in its own, which is killed whole,
// and its rusage is read; elsewhere (run_other.go) only the shell is
// killed and nothing is measured. Linux has the reaper (reaper_linux.go),
// which measures the run alone.
func runCommand(ctx context.Context, dir, cmdline string, limit time.Duration, memory int64, stdout, stderr *capped) (u usage, cancelled bool, err error) {
	rctx := ctx
	if limit > 0 {
		var cancel context.CancelFunc
		rctx, cancel = context.WithTimeout(ctx, limit)
		defer cancel()
	}
	cmd := exec.CommandContext(rctx, "/bin/sh", "-c", cmdline)
	cmd.Dir = dir
	inGroup(cmd)
	cmd.WaitDelay = 2 * time.Second
	cmd.Stdout, cmd.Stderr = stdout, stderr
	t0 := time.Now()
	runErr := cmd.Run()
	u.WallS = time.Since(t0).Seconds()
	if ps := cmd.ProcessState; ps != nil {
		measure(ps, &u)
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
