// Command soko solves, verifies and lists Sokoban levels.
//
//	soko solve microban:1-20            solve levels with the default solver
//	soko solve --algo bfs --json FILE   JSONL results for scripts
//	soko verify microban:1 SOLUTION     replay a LURD solution
//	soko list [COLLECTION]              the embedded collections, or one's levels
//	soko solvers                        the registered solvers
//	soko show LEVEL                     print levels as XSB
//	soko play LEVEL                     play in the terminal
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
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(exitCode(err, os.Stderr))
}

// exitCode prints err and maps it to the process's exit status:
// 0 success, 1 failure, 2 usage error, 130 interrupted.
func exitCode(err error, stderr *os.File) int {
	if err == nil {
		return 0
	}
	msg := err.Error()
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
		fmt.Fprintln(stderr, "soko: interrupted")
		return 130
	case errors.Is(err, errSilent):
		return 1
	default:
		fmt.Fprintln(stderr, msg)
		return 1
	}
}
