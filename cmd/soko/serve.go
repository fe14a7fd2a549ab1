package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"runtime/debug"
	"strconv"
	"strings"
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
	fs.Var(hostsValue{&c.web.AllowHosts}, "allow-host", "also accept requests whose Host header is `NAME` (any port) or NAME:PORT, e.g. behind a proxy that keeps the Host; repeat or separate with commas (default: only the listening address, and localhost on loopback)")
	return fs, c
}

// hostsValue is a repeatable flag holding a list of host names, each
// value one name or several separated by commas.
type hostsValue struct{ names *[]string }

func (v hostsValue) String() string {
	if v.names == nil {
		return ""
	}
	return strings.Join(*v.names, ",")
}

func (v hostsValue) Set(s string) error {
	for name := range strings.SplitSeq(s, ",") {
		name = strings.TrimSpace(name)
		if err := web.CheckAllowHost(name); err != nil {
			return err
		}
		*v.names = append(*v.names, name)
	}
	return nil
}

// pageAddr is the address to show for the page: a listener on every
// interface is shown as loopback, which the browser beside it can open.
func pageAddr(addr net.Addr) string {
	if tcp, ok := addr.(*net.TCPAddr); ok && tcp.IP.IsUnspecified() {
		return net.JoinHostPort("127.0.0.1", strconv.Itoa(tcp.Port))
	}
	return addr.String()
}

// exposureWarning is what soko serve says on stderr when it listens on
// an address other machines can reach: "" for a loopback one.
func exposureWarning(addr net.Addr) string {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok || tcp.IP.IsLoopback() {
		return ""
	}
	where := "on " + addr.String()
	if tcp.IP.IsUnspecified() {
		where = fmt.Sprintf("on every network interface (port %d)", tcp.Port)
	}
	return fmt.Sprintf("soko: warning: listening %s, open to the network without authentication: "+
		"anyone who can reach it can run solvers on this machine up to the job limits. "+
		"Requests must name this machine by its IP address or a name given with --allow-host. "+
		"To keep it private, listen on 127.0.0.1 and put an authenticating reverse proxy in front (see the README).\n", where)
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
	if w := exposureWarning(ln.Addr()); w != "" {
		fmt.Fprint(stderr, w)
	}
	s := web.New(c.web)
	fmt.Fprintf(stdout, "soko: serving on http://%s/ (%d jobs at once, %d waiting, %s and %s per job); Ctrl-C stops\n",
		pageAddr(ln.Addr()), c.web.MaxJobs, c.web.MaxQueue, c.web.MaxTime, formatBytes(c.web.MaxMemory))
	err = s.Serve(ctx, ln, 5*time.Second)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	fmt.Fprintln(stdout, "soko: server stopped")
	return nil
}
