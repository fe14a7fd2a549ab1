package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"soko/level"
	"soko/verify"
)

// External is another solver program, run once per job through /bin/sh -c
// with its command template filled in:
//
//	{level}       a temporary file holding the level in XSB
//	{solution}    a file name the program may write its LURD to
//	{time}        the time limit in seconds (0: none)
//	{seed}        the run's seed
//	{iterations}  the iteration limit (0: none)
//
// The program is killed (its whole process group) when the run's time limit
// is up. Its solution is read from the {solution} file when it wrote one,
// otherwise from its standard output: the last line made only of LURD letters,
// repeat counts and blanks. The solution is replayed by package verify; a
// wrong one is recorded as an error, never as solved.
type External struct {
	Name     string
	Template string
}

// ParseExternal reads NAME=COMMAND TEMPLATE.
func ParseExternal(s string) (SolverSpec, error) {
	name, tmpl, ok := strings.Cut(s, "=")
	name, tmpl = strings.TrimSpace(name), strings.TrimSpace(tmpl)
	if !ok || name == "" || tmpl == "" {
		return SolverSpec{}, fmt.Errorf("external solver: want NAME='command {level}', got %q", s)
	}
	if strings.ContainsAny(name, ":|(), ") {
		return SolverSpec{}, fmt.Errorf("external solver name %q: use letters, digits, - and _", name)
	}
	if !strings.Contains(tmpl, "{level}") {
		return SolverSpec{}, fmt.Errorf("external solver %s: the command must contain {level}", name)
	}
	return SolverSpec{Name: name, External: &External{Name: name, Template: tmpl}}, nil
}

// shellQuote quotes s for /bin/sh.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// maxOutput bounds how much of a program's output is kept.
const maxOutput = 16 << 20

// capped is a buffer that keeps at most max bytes and discards the rest.
type capped struct {
	buf bytes.Buffer
	max int
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - c.buf.Len(); room > 0 {
		c.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// run does one job; ok is false when ctx (not the time limit) stopped it.
func (e *External) run(ctx context.Context, j Job, rec *Record) (ok bool) {
	dir, err := os.MkdirTemp("", "soko-external-")
	if err != nil {
		rec.Status, rec.Error = StatusError, err.Error()
		return true
	}
	defer os.RemoveAll(dir)
	levelPath := filepath.Join(dir, "level.xsb")
	solPath := filepath.Join(dir, "solution.txt")
	if err := os.WriteFile(levelPath, []byte(level.Format(j.Level)), 0o644); err != nil {
		rec.Status, rec.Error = StatusError, err.Error()
		return true
	}
	cmdline := strings.NewReplacer(
		"{level}", shellQuote(levelPath),
		"{solution}", shellQuote(solPath),
		"{time}", strconv.FormatFloat(j.Budget.Time.Seconds(), 'g', -1, 64),
		"{seed}", strconv.FormatUint(j.Seed, 10),
		"{iterations}", strconv.FormatInt(j.Budget.Iterations, 10),
	).Replace(e.Template)

	rctx := ctx
	if j.Budget.Time > 0 {
		var cancel context.CancelFunc
		rctx, cancel = context.WithTimeout(ctx, j.Budget.Time)
		defer cancel()
	}
	cmd := exec.CommandContext(rctx, "/bin/sh", "-c", cmdline)
	cmd.Dir = dir
	setProcessGroup(cmd)
	cmd.WaitDelay = 2 * time.Second
	stdout, stderr := &capped{max: maxOutput}, &capped{max: 64 << 10}
	cmd.Stdout, cmd.Stderr = stdout, stderr

	t0 := time.Now()
	runErr := cmd.Run()
	rec.WallS = time.Since(t0).Seconds()
	if ps := cmd.ProcessState; ps != nil {
		rec.CPUS = (ps.UserTime() + ps.SystemTime()).Seconds()
		rec.PeakBytes = maxRSS(ps)
	}
	switch {
	case ctx.Err() != nil:
		return false
	case rctx.Err() != nil:
		rec.Status = "time limit"
		return true
	}

	lurd := ""
	if b, err := os.ReadFile(solPath); err == nil && len(bytes.TrimSpace(b)) > 0 {
		lurd = string(b)
	} else {
		lurd = lastLURDLine(stdout.buf.String())
	}
	if lurd == "" {
		rec.Status = StatusFailed
		msg := "no solution printed"
		if runErr != nil {
			msg = runErr.Error()
		}
		if tail := lastLine(stderr.buf.String()); tail != "" {
			msg += ": " + tail
		}
		rec.Error = msg
		return true
	}
	rep, err := verify.Check(j.Level, lurd)
	if err == nil && !rep.Solved {
		why := rep.Reason
		if why == "" {
			why = "the boxes are not all on goals at the end"
		}
		err = errors.New(why)
	}
	if err != nil {
		rec.Status, rec.Error = StatusError, "invalid solution: "+err.Error()
		return true
	}
	rec.Status, rec.Verified = "solved", true
	rec.Pushes, rec.Moves = rep.Pushes, rep.Moves
	if ms, err := level.ParseLURD(lurd); err == nil {
		rec.Solution = level.FormatLURD(ms)
	}
	return true
}

// lastLURDLine returns the last line of out made only of LURD letters, repeat
// counts and blanks, with at least one letter.
func lastLURDLine(out string) string {
	lines := strings.Split(out, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		t := strings.TrimSpace(lines[i])
		if t != "" && strings.Trim(t, "udlrUDLR0123456789 \t") == "" && strings.ContainsAny(t, "udlrUDLR") {
			return t
		}
	}
	return ""
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	if len(s) > 200 {
		s = s[:200]
	}
	return s
}
