package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// On Linux an external program is not started by soko itself but by a
// reaper: the running binary started again (os.Executable) with reaperArg0
// as its argv[0]. The reaper
//
//   - makes itself a child subreaper (prctl PR_SET_CHILD_SUBREAPER), so that
//     every process of the run, even one whose parent died, ends up its child
//     and is waited for by it;
//   - starts /bin/sh -c COMMAND in a new process group, and when the time
//     limit is up, when a process of the group holds more resident memory
//     than the memory limit (looked at every memoryPoll), or when soko asks
//     it to stop (SIGTERM) kills that group; when the shell has ended, it
//     kills what is left of the group and every other process still under
//     it;
//   - waits for all of them and reports, on its file descriptor 3, the CPU
//     time of every process of the run (killed ones included: their rusage
//     comes from wait4) and the largest peak resident memory of any one.
//
// Why not soko itself: Linux keeps a process's peak RSS (ru_maxrss) across
// exec, and Go starts a child sharing its own memory until the exec, so a
// program started by soko reports soko's high water mark as its own peak.
// The reaper is a fresh process, but the same holds for its children: they
// would report its 10 MB or so. So the reaper starts a trampoline, a shell
// that forks the real shell in the background (a plain fork of a small
// shell, which inherits about 1 MB), says its pid and exits; the
// trampoline's own peak is left out, and the real shell waits to start until
// the reaper has waited for the trampoline, so that every other process of
// the run is waited for by the reaper or by a process of the run.
const reaperArg0 = "soko-bench-reaper"

func init() {
	if len(os.Args) > 0 && os.Args[0] == reaperArg0 {
		os.Exit(reaperMain(os.Args[1:]))
	}
}

// prSetChildSubreaper is PR_SET_CHILD_SUBREAPER of prctl(2).
const prSetChildSubreaper = 36

// reaperMain runs "LIMIT MEMORY COMMAND": LIMIT a Go duration, MEMORY
// bytes (0: none for either).
func reaperMain(args []string) int {
	report := os.NewFile(3, "report")
	syscall.CloseOnExec(3)
	u, err := reap(args)
	if err != nil {
		u.Err = err.Error()
	}
	if report == nil {
		return 2
	}
	if err := json.NewEncoder(report).Encode(u); err != nil {
		return 2
	}
	return 0
}

func reap(args []string) (usage, error) {
	if len(args) != 3 {
		return usage{}, errors.New("reaper: want LIMIT MEMORY COMMAND")
	}
	limit, err := time.ParseDuration(args[0])
	if err != nil {
		return usage{}, fmt.Errorf("reaper: %v", err)
	}
	memory, err := strconv.ParseInt(args[1], 10, 64)
	if err != nil || memory < 0 {
		return usage{}, fmt.Errorf("reaper: bad memory limit %q", args[1])
	}
	runtime.LockOSThread() // Pdeathsig of the trampoline follows this thread
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); errno != 0 {
		return usage{}, fmt.Errorf("reaper: prctl(PR_SET_CHILD_SUBREAPER): %v", errno)
	}
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)
	if !signal.Ignored(syscall.SIGHUP) { // under nohup a hang-up stays ignored
		signal.Notify(stop, syscall.SIGHUP)
	}
	group, shell, start, u, err := startShell(args[2])
	if err != nil || shell < 0 {
		return u, err
	}
	t0 := time.Now()
	start.Close()

	// The time limit, the memory limit and SIGTERM kill the group.
	killed := make(chan killReason, 1)
	shellDone := make(chan struct{})
	var timeout <-chan time.Time
	if limit > 0 {
		timeout = time.After(limit)
	}
	var poll *time.Timer
	var polled <-chan time.Time
	if memory > 0 {
		poll = time.NewTimer(memoryPoll)
		defer poll.Stop()
		polled = poll.C
	}
	go func() {
	watch:
		for {
			select {
			case <-timeout:
				killed <- byTime
			case <-polled:
				t := time.Now()
				if groupRSS(group) <= memory {
					// At most a tenth of a core goes to looking, however
					// slow /proc is to read.
					poll.Reset(max(memoryPoll, 10*time.Since(t)))
					continue
				}
				killed <- byMemory
			case <-stop:
				killed <- byStop
			case <-shellDone:
				return
			}
			break watch
		}
		syscall.Kill(-group, syscall.SIGKILL)
	}()
	return waitAll(u, group, shell, t0, killed, shellDone)
}

// startShell starts the trampoline in a process group of its own and
// waits for it: it returns the group, the pid of the shell that will run
// command (-1 when the trampoline failed, said in u.Exit), the pipe whose
// closing lets the shell start, and the trampoline's CPU time in u.
//
// The trampoline forks a subshell in the background, in its own process
// group (no job control), says the subshell's pid on fd 3 and exits. The
// subshell waits (fd 4) until the reaper has waited for the trampoline, so
// that the trampoline cannot wait for it and take its rusage, and then
// becomes the shell that runs the command.
func startShell(command string) (group, shell int, start *os.File, u usage, err error) {
	pidR, pidW, err := os.Pipe() // the trampoline says the shell's pid
	if err != nil {
		return 0, 0, nil, u, fmt.Errorf("reaper: %v", err)
	}
	goR, goW, err := os.Pipe() // closed: the shell may start
	if err != nil {
		return 0, 0, nil, u, fmt.Errorf("reaper: %v", err)
	}
	const trampoline = `{ read _ <&4; exec 4<&-; exec /bin/sh -c "$1"; } 3>&- & echo $! >&3`
	group, err = syscall.ForkExec("/bin/sh", []string{"sh", "-c", trampoline, "sh", command}, &syscall.ProcAttr{
		Env:   os.Environ(),
		Files: []uintptr{0, 1, 2, pidW.Fd(), goR.Fd()},
		Sys:   &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL},
	})
	pidW.Close()
	goR.Close()
	if err != nil {
		pidR.Close()
		goW.Close()
		return 0, 0, nil, u, fmt.Errorf("reaper: starting /bin/sh: %v", err)
	}
	b, _ := io.ReadAll(pidR)
	pidR.Close()
	shell, err = strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		shell = -1 // no shell: the trampoline failed; say how it ended
	}
	for {
		var ws syscall.WaitStatus
		var ru syscall.Rusage
		_, err := syscall.Wait4(group, &ws, 0, &ru)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			goW.Close()
			return 0, 0, nil, u, fmt.Errorf("reaper: wait: %v", err)
		}
		// Its CPU time counts; its peak is the reaper's and does not.
		u.CPUS += time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
		if shell < 0 {
			goW.Close()
			u.Exit = "could not start /bin/sh: " + exitString(ws)
			return group, shell, nil, u, nil
		}
		return group, shell, goW, u, nil
	}
}

// waitAll waits for everything: the shell, then whatever is left. Once the
// shell has gone, the rest of its group is killed, and so (a pass every 10
// ms) is any other process still under the reaper: one that left the group
// (setsid) or was reparented here. Each process's rusage, as wait4 gives
// it, includes the processes it waited for itself.
func waitAll(u usage, group, shell int, t0 time.Time, killed <-chan killReason, shellDone chan struct{}) (usage, error) {
	done := false
	for {
		var ws syscall.WaitStatus
		var ru syscall.Rusage
		opts := 0
		if done {
			opts = syscall.WNOHANG
		}
		pid, err := syscall.Wait4(-1, &ws, opts, &ru)
		switch {
		case errors.Is(err, syscall.EINTR):
			continue
		case errors.Is(err, syscall.ECHILD):
			return u, nil
		case err != nil:
			return u, fmt.Errorf("reaper: wait: %v", err)
		case pid == 0: // WNOHANG, and the ones left have not ended yet
			killChildren()
			time.Sleep(10 * time.Millisecond)
			continue
		}
		u.CPUS += time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
		u.PeakBytes = max(u.PeakBytes, ru.Maxrss*1024)
		if pid == shell {
			u.WallS = time.Since(t0).Seconds()
			u.Exit = exitString(ws)
			select {
			case why := <-killed:
				u.TimedOut, u.MemoryOut = why == byTime, why == byMemory
			default:
			}
			close(shellDone)
			done = true
			syscall.Kill(-group, syscall.SIGKILL)
		}
	}
}

// killReason is why the reaper killed the group.
type killReason int

const (
	byTime killReason = iota
	byMemory
	byStop
)

// memoryPoll is how often the reaper looks at the group's memory, at
// most: a look that takes longer than a tenth of it spaces the next ones
// out. A process that grows past the limit between two looks is still
// caught afterwards by its peak (ru_maxrss), which decides the record's
// status.
const memoryPoll = 20 * time.Millisecond

// groupRSS returns the largest resident memory, in bytes, of a process of
// group: the measure of the record's peak, taken while it runs.
func groupRSS(group int) int64 {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	page := int64(os.Getpagesize())
	var peak int64
	for _, e := range ents {
		if e.Name()[0] < '0' || e.Name()[0] > '9' {
			continue
		}
		// state ppid pgrp ...: rss is the 22nd field after comm.
		f := procStat(e.Name())
		if len(f) < 22 || f[2] != strconv.Itoa(group) {
			continue
		}
		if pages, err := strconv.ParseInt(f[21], 10, 64); err == nil {
			peak = max(peak, pages*page)
		}
	}
	return peak
}

// procStat returns the fields of /proc/PID/stat after the command name
// (state, ppid, pgrp, ...), or nil when the process is gone. The name may
// hold blanks and parentheses, so the fields are counted from its last ')'.
func procStat(pid string) []string {
	b, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return nil
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return nil
	}
	return strings.Fields(s[i+1:])
}

// exitString says how a process ended, like os.ProcessState.String.
func exitString(ws syscall.WaitStatus) string {
	switch {
	case ws.Exited() && ws.ExitStatus() == 0:
		return ""
	case ws.Exited():
		return "exit status " + strconv.Itoa(ws.ExitStatus())
	case ws.Signaled():
		return "signal: " + ws.Signal().String()
	}
	return "ended: " + strconv.Itoa(int(ws))
}

// killChildren kills every process whose parent is the reaper.
func killChildren() {
	self := os.Getpid()
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return
	}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if f := procStat(e.Name()); len(f) >= 2 && f[1] == strconv.Itoa(self) {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// runCommand runs cmdline through the reaper, in dir, under the time limit
// and the memory limit in bytes (0: none for either). cancelled is true
// when ctx stopped it.
func runCommand(ctx context.Context, dir, cmdline string, limit time.Duration, memory int64, stdout, stderr *capped) (u usage, cancelled bool, err error) {
	exe, err := os.Executable()
	if err != nil {
		return usage{}, false, fmt.Errorf("external solver: cannot find soko's own binary to start it: %v", err)
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		return usage{}, false, err
	}
	defer pr.Close()
	cmd := exec.CommandContext(ctx, exe, limit.String(), strconv.FormatInt(memory, 10), cmdline)
	cmd.Args[0] = reaperArg0
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.ExtraFiles = []*os.File{pw}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Start(); err != nil {
		pw.Close()
		return usage{}, false, fmt.Errorf("external solver: starting the reaper: %v", err)
	}
	pw.Close()
	dec := make(chan error, 1)
	go func() { dec <- json.NewDecoder(pr).Decode(&u) }()
	waitErr := cmd.Wait()
	derr := <-dec
	if ctx.Err() != nil {
		return u, true, nil
	}
	switch {
	case derr != nil && waitErr != nil:
		return u, false, fmt.Errorf("external solver: the reaper failed: %v: %s", waitErr, lastLine(stderr.buf.String()))
	case derr != nil:
		return u, false, fmt.Errorf("external solver: no report from the reaper: %v", derr)
	case u.Err != "":
		return u, false, errors.New(u.Err)
	}
	return u, false, nil
}

// externalCPU is what an external run's cpu_s counts on Linux: every
// process of the run, through the reaper.
const externalCPU = CPUPrograms

// externalPeakOwn says that an external run's peak memory is the
// program's own (the reaper's measure), so that it can be held to the
// memory limit.
const externalPeakOwn = true
