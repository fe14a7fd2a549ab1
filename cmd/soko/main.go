// Command soko solves, verifies and lists Sokoban levels.
//
//	soko solve microban:1-20            solve levels with the default solver
//	soko solve --algo bfs --json FILE   JSONL results for scripts
//	soko verify microban:1 SOLUTION     replay a LURD solution
//	soko list [LEVELS]                  the embedded collections, or a file's or collection's levels
//	soko solvers                        the registered solvers
//	soko show LEVELS                    print levels as XSB
//	soko play LEVELS                    play in the terminal
//	soko serve                          the web page
//	soko bench, soko report             benchmarks, tables and plots
//	soko version                        the build's version and revision
//
// Run "soko help" for the list of commands and "soko help CMD" for the
// usage and flags of one.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"soko/level"
)

func main() {
	os.Exit(process(os.Args[1:]))
}

// process is the soko process: it runs the command of args on the
// process's standard streams, ends it on a signal, and returns the exit
// status.
func process(args []string) int {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, stopSignals()...)
	defer signal.Stop(signals)
	done := make(chan error, 1)
	stdout := &checkedStdout{errWriter: errWriter{w: os.Stdout}, f: os.Stdout}
	go func() { done <- run(ctx, args, os.Stdin, stdout, os.Stderr) }()
	var err error
	select {
	case err = <-done:
	case <-signals:
		err = stopped(cancel, done, signals)
	}
	if err == nil && stdout.err != nil {
		err = fmt.Errorf("standard output: %w: what this command printed is lost", stdout.err)
	}
	return exitCode(err, os.Stderr)
}

// checkedStdout is standard output as the commands get it: it keeps the
// first write error, so that output lost to a full disk fails the run
// however the command wrote it; f is the file, for the terminal checks.
type checkedStdout struct {
	errWriter
	f *os.File
}

// fileOf returns the file under w: w itself, or standard output's.
func fileOf(w any) (*os.File, bool) {
	if c, ok := w.(*checkedStdout); ok {
		return c.f, true
	}
	f, ok := w.(*os.File)
	return f, ok && f != nil
}

// stopSignals are the signals that stop a command: SIGINT, SIGTERM, and
// SIGHUP unless the process was started with it ignored (nohup), since
// catching a signal ends its being ignored.
func stopSignals() []os.Signal {
	sigs := []os.Signal{os.Interrupt, syscall.SIGTERM}
	if !signal.Ignored(syscall.SIGHUP) {
		sigs = append(sigs, syscall.SIGHUP)
	}
	return sigs
}

// stopGrace is how long a command may take to wind up after the first
// signal (write its last results, save a model, restore the terminal)
// before the process ends without it.
const stopGrace = 10 * time.Second

// stopped cancels the command's context on the first interrupt, terminate
// or hang-up signal and waits for the command to wind up. Every wait of
// soko's ends on the context; should one not, a second signal or stopGrace
// ends the process all the same, with the status of an interrupted run.
func stopped(cancel context.CancelFunc, done <-chan error, signals <-chan os.Signal) error {
	cancel()
	timeout := time.NewTimer(stopGrace)
	defer timeout.Stop()
	select {
	case err := <-done:
		if err == nil {
			err = errInterrupted
		}
		return err
	case <-signals:
	case <-timeout.C:
	}
	return errInterrupted
}

// exitCode prints err and maps it to the process's exit status:
// 0 success, 1 failure, 2 usage error, 130 interrupted.
func exitCode(err error, stderr *os.File) int {
	if err == nil {
		return 0
	}
	lines := strings.Split(err.Error(), "\n")
	for i := range lines { // a name in the message may hold what would drive the terminal
		lines[i] = level.Printable(lines[i])
	}
	msg := strings.Join(lines, "\n")
	if !strings.HasPrefix(msg, "soko ") {
		msg = "soko: " + msg
	}
	var u usageError
	switch {
	case errors.As(err, &u):
		fmt.Fprintln(stderr, msg)
		fmt.Fprintln(stderr, strings.TrimSpace("run 'soko help "+u.cmd)+"' for usage")
		return 2
	case errors.Is(err, errInterrupted):
		if err == errInterrupted {
			msg = "soko: interrupted"
		}
		fmt.Fprintln(stderr, msg) // with what the command said of it, when it said more
		return 130
	case errors.Is(err, errSilent):
		return 1
	default:
		fmt.Fprintln(stderr, msg)
		return 1
	}
}
