package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"net"
	"strconv"
	"strings"
	"syscall"
	"time"

	"soko/internal/english"
	"soko/level"
	"soko/solver"
	"soko/web"
)

type serveConfig struct {
	addr  string
	web   web.Config
	typed map[string]*string // flag name: the text it was given, "" if none
}

const serveDoc = `Serves the web page and its JSON API until Ctrl-C, SIGTERM or SIGHUP (see docs/web.md:
the page, its API, and how to expose it behind a proxy).
--time and --memory are the budget of every job, which a request may lower
but not raise. Unlike on solve and bench, 0 is refused for them: every job
of a server has a time and a memory limit, and the memory is at least
16MiB. The Go runtime's soft memory limit is set from --jobs and --memory
as solve and bench set it from -j and --memory.
`

func serveFlags() (*flag.FlagSet, *serveConfig) {
	c := &serveConfig{}
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	c.addr = "127.0.0.1:8080"
	fs.StringVar(&c.addr, "addr", c.addr, "listen on `HOST:PORT` (port 0 picks a free one)")
	fs.Var(workersValue{&c.web.MaxJobs}, "jobs", "`N` CPU slots for solver jobs, one per thread of a job (default: one per core)")
	alias(fs, "j", "jobs")
	fs.IntVar(&c.web.MaxQueue, "queue", 0, "`N` solver jobs waiting for a slot; more are answered 429 busy (default: one per core)")
	fs.Var(durationValue{&c.web.MaxTime}, "time", "time limit `D` per job, e.g. 10s, 2m; requests may ask for less (default 1m0s)")
	fs.Var(sizeValue{&c.web.MaxMemory}, "memory", "memory limit `SIZE` per job, at least 16MiB, e.g. 512MiB; requests may ask for less (default: a third of physical memory shared by the jobs, at most 1GiB)")
	fs.Var(sizeValue{&c.web.MaxBody}, "max-body", "largest request body `SIZE`, e.g. 1MiB (default 1MiB)")
	fs.Var(durationValue{&c.web.IdleCancel}, "idle", "cancel a job nobody has watched for `D` (default 15s)")
	fs.IntVar(&c.web.MaxConns, "max-conns", 0, "`N` connections open at once; more are answered 503 and closed (default 512)")
	fs.IntVar(&c.web.MaxConnsPerIP, "max-conns-per-ip", 0, "`N` connections open at once from one client address, and so its requests at once; more are answered 429 and closed (default 64)")
	fs.Var(hostsValue{&c.web.AllowHosts}, "allow-host", "also accept requests whose Host header is `NAME` (any port) or NAME:PORT, e.g. behind a proxy that keeps the Host; repeat or separate with commas (default: only the listening address, and localhost on loopback)")
	// The defaults after fs.Var, so that help does not print this
	// machine's numbers; the usages above say what they are.
	c.web = web.DefaultConfig()
	// Every flag keeps its text, which the range checks echo (-j is
	// --jobs's alias and shares its value; a boolean flag, which
	// typedValue would make take a value, has no range).
	c.typed = map[string]*string{}
	fs.VisitAll(func(f *flag.Flag) {
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); f.Name != "j" && !(ok && b.IsBoolFlag()) {
			c.typed[f.Name] = new(string)
			f.Value = typedValue{f.Value, c.typed[f.Name]}
		}
	})
	fs.Lookup("j").Value = fs.Lookup("jobs").Value
	return fs, c
}

// shown is how a range error of serve shows the value of flag name: as
// typed, or as value says when the flag was not given.
func (c *serveConfig) shown(name string, value any) string {
	if t := c.typed[name]; t != nil && *t != "" {
		return *t
	}
	return fmt.Sprint(value)
}

// checkAddr checks a listening address as far as it can be checked
// before listening: HOST:PORT with a port from 0 to 65535 or a service
// name. Whether the host is this machine's is up to net.Listen.
func checkAddr(addr string) error {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return errors.New("want HOST:PORT, such as 127.0.0.1:8080 or :0")
	}
	if _, err := net.LookupPort("tcp", port); err != nil {
		return fmt.Errorf("port %q: want a number from 0 to 65535 or a service name", port)
	}
	return nil
}

// Ranges of serve's flags beyond those the values themselves check. A
// waiting job waits for every job ahead of it, so a queue of more than
// maxQueuePerJob per slot would wait that many time limits; a day is more
// than any job of a shared server needs; each open connection holds about
// 30 KiB (a goroutine and the HTTP server's buffers), so maxServeConns of
// them take some 300 MiB at most. A job gets at least minServeMemory: the
// process's own memory (the runtime, the level, the server) is some
// megabytes, and less would stop every search before it starts.
const (
	minServeMemory = 16 << 20
	maxQueuePerJob = 64
	maxServeTime   = 24 * time.Hour
	maxServeConns  = 10000
)

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
		"To keep it private, listen on 127.0.0.1 and put an authenticating reverse proxy in front (docs/web.md, \"Exposing it\", says how).\n", where)
}

// runServe is soko serve: the web page and its JSON API (package web) until
// ctx is cancelled (Ctrl-C, SIGTERM, SIGHUP), then a graceful shutdown.
func runServe(ctx context.Context, c *serveConfig, pos []string, _ io.Reader, stdout, stderr io.Writer) error {
	if len(pos) != 0 {
		return usagef("serve: takes no arguments, got %q", pos)
	}
	c.web.MaxJobs = capWorkersOf(stderr, "serve", "--jobs", "job slots", c.web.MaxJobs, math.MaxInt)
	if t := c.typed["memory"]; t == nil || *t == "" {
		// A third of physical memory shared by the job slots, as web.DefaultConfig for --jobs.
		c.web.MaxMemory = min(web.MemoryCap, solver.DefaultMemory(c.web.MaxJobs))
		if c.web.MaxMemory < minServeMemory {
			return usagef("serve: --jobs %d: a third of this machine's memory shared by them is %s a job, below the %dMiB a job needs; give fewer --jobs, or --memory",
				c.web.MaxJobs, formatBytes(c.web.MaxMemory), minServeMemory>>20)
		}
	}
	switch {
	case c.web.MaxTime == 0:
		return usagef("serve: --time %s (no limit, as on solve and bench) is refused: every job of a server needs a time limit, such as 1m", c.shown("time", 0))
	case c.web.MaxMemory == 0:
		return usagef("serve: --memory %s (no limit, as on solve and bench) is refused: every job of a server needs a memory limit, such as 1GiB", c.shown("memory", 0))
	case c.web.MaxTime > maxServeTime:
		return usagef("serve: bad --time %q: want at most %dh a job", c.shown("time", c.web.MaxTime), int(maxServeTime.Hours()))
	case c.web.MaxMemory < minServeMemory:
		return usagef("serve: bad --memory %q: want at least %dMiB a job", c.shown("memory", formatBytes(c.web.MaxMemory)), minServeMemory>>20)
	case c.web.MaxMemory > solver.PhysicalMemory():
		return usagef("serve: bad --memory %q: more than this machine's memory (%s)", c.shown("memory", formatBytes(c.web.MaxMemory)), formatBytes(solver.PhysicalMemory()))
	case c.web.MaxQueue < 0 || c.web.MaxQueue > maxQueuePerJob*c.web.MaxJobs:
		return usagef("serve: bad --queue %q: want a whole number from 0 to %d (%d per --jobs slot)", c.shown("queue", c.web.MaxQueue), maxQueuePerJob*c.web.MaxJobs, maxQueuePerJob)
	case c.web.MaxBody == 0 || c.web.MaxBody > level.MaxInput:
		return usagef("serve: bad --max-body %q: want a size from 1 byte to %s, such as 1MiB", c.shown("max-body", formatBytes(c.web.MaxBody)), formatBytes(level.MaxInput))
	case c.web.IdleCancel == 0:
		return usagef("serve: bad --idle %q: want a duration of more than 0, such as 15s", c.shown("idle", 0))
	case c.web.MaxConns < 1 || c.web.MaxConns > maxServeConns:
		return usagef("serve: bad --max-conns %q: want a whole number from 1 to %d", c.shown("max-conns", c.web.MaxConns), maxServeConns)
	case c.web.MaxConnsPerIP < 1 || c.web.MaxConnsPerIP > c.web.MaxConns:
		return usagef("serve: bad --max-conns-per-ip %q: want a whole number from 1 to --max-conns (%d)", c.shown("max-conns-per-ip", c.web.MaxConnsPerIP), c.web.MaxConns)
	}
	if err := checkAddr(c.addr); err != nil {
		return usagef("serve: bad --addr %q: %v", c.addr, err)
	}
	setMemoryLimit(c.web.MaxJobs, c.web.MaxMemory)

	ln, err := net.Listen("tcp", c.addr)
	var dnsErr *net.DNSError
	switch {
	case errors.As(err, &dnsErr) || errors.Is(err, syscall.EADDRNOTAVAIL):
		// A host that does not resolve, or is not this machine's: the
		// address is wrong, not the machine's state (a port in use is).
		return usagef("serve: bad --addr %q: %v", c.addr, err)
	case err != nil:
		return fmt.Errorf("serve: %w", err)
	}
	if w := exposureWarning(ln.Addr()); w != "" {
		fmt.Fprint(stderr, w)
	}
	s := web.New(c.web)
	fmt.Fprintf(stdout, "soko: serving on http://%s/ (%s at once, %d waiting, %s and %s per job); Ctrl-C stops\n",
		pageAddr(ln.Addr()), english.Count(c.web.MaxJobs, "job", "jobs"), c.web.MaxQueue, c.web.MaxTime, formatBytes(c.web.MaxMemory))
	err = s.Serve(ctx, ln, 5*time.Second)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	fmt.Fprintln(stdout, "soko: server stopped")
	return nil
}
