package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"soko/level"
	"soko/solver"
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
//	{memory}      the memory limit in MiB (0: none)
//
// The program is killed (its whole process group) when the run's time limit
// is up, and on Linux when one of its processes holds more resident memory
// than the memory limit; there a run whose peak memory (below) is over the
// limit is recorded as "memory limit" whatever else it did, since it broke
// its budget. When its shell ends, whatever it left running is killed too. On
// Linux the record's CPU time is that of every process of the run, and its
// peak memory the largest peak RSS of any one of them, the program's own
// (see reaper_linux.go); elsewhere both are the shell's rusage. Its solution is read from the {solution} file when it wrote one,
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
	if _, ok := solver.Lookup(name); ok { // its runs would be keyed as the solver's: a resume would skip them, a report mix them
		return SolverSpec{}, fmt.Errorf("external solver name %q is a solver of soko's: give the program another name, such as %s-ext", name, name)
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
		"{memory}", strconv.FormatInt(rec.MemoryLimit>>20, 10),
	).Replace(e.Template)

	stdout, stderr := &capped{max: maxOutput}, &capped{max: 64 << 10}
	u, cancelled, err := runCommand(ctx, dir, cmdline, j.Budget.Time, rec.MemoryLimit, stdout, stderr)
	if cancelled {
		return false
	}
	if err != nil {
		rec.Status, rec.Error = StatusError, err.Error()
		return true
	}
	rec.WallS, rec.CPUS, rec.PeakBytes, rec.CPUScope = u.WallS, u.CPUS, u.PeakBytes, externalCPU
	if u.MemoryOut || externalPeakOwn && rec.MemoryLimit > 0 && u.PeakBytes > rec.MemoryLimit {
		rec.Status = "memory limit"
		return true
	}
	if u.TimedOut {
		rec.Status = "time limit"
		return true
	}

	lurd, err := readSolution(solPath)
	if err != nil {
		rec.Status, rec.Error = StatusError, "invalid solution: "+err.Error()
		return true
	}
	if strings.TrimSpace(lurd) == "" {
		lurd = lastLURDLine(stdout.buf.String())
	}
	if lurd == "" {
		rec.Status = StatusFailed
		msg := "no solution printed"
		if u.Exit != "" {
			msg = u.Exit
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
		// As it should be written: a program's push in lower case is
		// counted by replay and recorded in upper case.
		rec.Solution = level.FormatLURD(verify.Recase(j.Level, ms))
	}
	return true
}

// readSolution reads the {solution} file, "" when the program wrote none.
// A file longer than level.MaxSolutionText, the one cap for solutions, is
// refused without being read.
func readSolution(path string) (string, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, level.MaxSolutionText+1))
	if err != nil {
		return "", fmt.Errorf("reading the solution file: %w", err)
	}
	if len(b) > level.MaxSolutionText {
		size := fmt.Sprintf("more than %d bytes", level.MaxSolutionText)
		if st, err := f.Stat(); err == nil {
			size = fmt.Sprintf("%d bytes", st.Size())
		}
		return "", fmt.Errorf("the solution file has %s, more than the %d allowed (a solution has at most %d steps)",
			size, level.MaxSolutionText, level.MaxSolutionSteps)
	}
	return level.Text(b, "the solution file") // a byte order mark, UTF-16, as in level files
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

// usage is how an external run went: what runCommand returns, and on
// Linux what the reaper reports on its file descriptor 3, as JSON.
type usage struct {
	WallS     float64 `json:"wall_s"`     // from start until the shell ended
	CPUS      float64 `json:"cpu_s"`      // user+system of every process of the run
	PeakBytes int64   `json:"peak_bytes"` // largest max RSS of one process
	TimedOut  bool    `json:"timed_out"`  // the time limit killed it
	MemoryOut bool    `json:"memory_out"` // the memory limit killed it
	Exit      string  `json:"exit"`       // how the shell ended: "", "exit status 3", "signal: killed"
	Err       string  `json:"err,omitempty"`
}
