package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"runtime/debug"
	"time"

	"soko/solver"
	"soko/web"
)

type serveConfig struct {
	addr string
	web  web.Config
}

func serveFlags() (*flag.FlagSet, *serveConfig) {
	c := &serveConfig{web: web.DefaultConfig()}
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.StringVar(&c.addr, "addr", "127.0.0.1:8080", "address to listen on (host:port; port 0 picks a free one)")
	fs.IntVar(&c.web.MaxJobs, "jobs", c.web.MaxJobs, "solver jobs running at once")
	fs.IntVar(&c.web.MaxQueue, "queue", c.web.MaxQueue, "solver jobs waiting for a slot; more are answered 429 busy")
	fs.DurationVar(&c.web.MaxTime, "time", c.web.MaxTime, "time limit of a job (requests may ask for less)")
	fs.Var(sizeValue{&c.web.MaxMemory}, "memory", "memory limit of a job's search tables, e.g. 512MiB (requests may ask for less)")
	fs.Var(sizeValue{&c.web.MaxBody}, "max-body", "largest request body, e.g. 1MiB")
	fs.DurationVar(&c.web.IdleCancel, "idle", c.web.IdleCancel, "cancel a job nobody has watched for this long")
	return fs, c
}

// runServe is soko serve: the web page and its JSON API (package web) until
// ctx is cancelled (Ctrl-C, SIGTERM), then a graceful shutdown.
func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, c := serveFlags()
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return usagef("serve: takes no arguments, got %q", pos)
	}
	if c.web.MaxJobs < 1 || c.web.MaxQueue < 0 || c.web.MaxTime <= 0 || c.web.MaxMemory <= 0 || c.web.MaxBody <= 0 || c.web.IdleCancel <= 0 {
		return usagef("serve: --jobs, --time, --memory, --max-body and --idle must be positive, --queue not negative")
	}
	// As in soko solve: a soft memory limit a little above what the jobs
	// may hold makes the collector work harder instead of growing.
	soft := int64(c.web.MaxJobs)*c.web.MaxMemory*5/4 + 128<<20
	debug.SetMemoryLimit(min(soft, solver.PhysicalMemory()*4/5))

	ln, err := net.Listen("tcp", c.addr)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	s := web.New(c.web)
	fmt.Fprintf(stdout, "soko: serving on http://%s/ (%d jobs at once, %d waiting, %s and %s per job); Ctrl-C stops\n",
		ln.Addr(), c.web.MaxJobs, c.web.MaxQueue, c.web.MaxTime, formatBytes(c.web.MaxMemory))
	err = s.Serve(ctx, ln, 5*time.Second)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	fmt.Fprintln(stdout, "soko: server stopped")
	return nil
}
