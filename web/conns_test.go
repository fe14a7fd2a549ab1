package web

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"runtime"
	"strings"
	"testing"
	"time"
)

// serveOn starts s.Serve on a loopback port and returns its address; the
// server stops when the test ends.
func serveOn(t *testing.T, s *Server) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln, time.Second) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return ln.Addr().String()
}

// slowDial opens a connection from the local address from (nil: any) and
// sends the start of a request whose header never ends, as a slow client
// does.
func slowDial(t *testing.T, addr string, from net.Addr) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: from, Timeout: 5 * time.Second}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if _, err := fmt.Fprintf(c, "GET /api/limits HTTP/1.1\r\nHost: %s\r\n", addr); err != nil {
		t.Fatal(err)
	}
	return c
}

// status reads the status code of the response on c.
func status(t *testing.T, c net.Conn) int {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("reading the response: %v", err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// finish ends the slow request's header, so that it is served.
func finish(t *testing.T, c net.Conn) int {
	t.Helper()
	if _, err := fmt.Fprint(c, "Connection: close\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	return status(t, c)
}

// TestConnCaps replays soko serve without a connection cap: thousands of
// slow clients each held a goroutine and buffers. Connections past the
// cap in all (503) or from one address (429) are answered and closed at
// once; those within it are served; a closed one frees its place.
func TestConnCaps(t *testing.T) {
	for _, tc := range []struct {
		name          string
		total, perIP  int
		want          int
		wantInMessage string
	}{
		{"total", 3, 100, http.StatusServiceUnavailable, "--max-conns"},
		{"per address", 100, 3, http.StatusTooManyRequests, "--max-conns-per-ip"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := New(Config{MaxConns: tc.total, MaxConnsPerIP: tc.perIP})
			defer s.Close()
			addr := serveOn(t, s)
			// Dialled one after another, the connections are accepted
			// in that order: the first 3 are held, the rest refused.
			var conns []net.Conn
			for range 8 {
				conns = append(conns, slowDial(t, addr, nil))
			}
			for i, c := range conns[3:] {
				c.SetReadDeadline(time.Now().Add(10 * time.Second))
				resp, err := http.ReadResponse(bufio.NewReader(c), nil)
				if err != nil {
					t.Fatalf("connection %d past the cap: %v", 4+i, err)
				}
				var b strings.Builder
				bufio.NewReader(resp.Body).WriteTo(&b)
				resp.Body.Close()
				if resp.StatusCode != tc.want || !strings.Contains(b.String(), tc.wantInMessage) || resp.Header.Get("Retry-After") == "" {
					t.Errorf("connection %d past the cap: %d %q (Retry-After %q), want %d naming %s",
						4+i, resp.StatusCode, b.String(), resp.Header.Get("Retry-After"), tc.want, tc.wantInMessage)
				}
			}
			for i, c := range conns[:3] {
				if got := finish(t, c); got != http.StatusOK {
					t.Errorf("connection %d within the cap: %d, want 200", i+1, got)
				}
			}
			// The three closed by the server after answering: their places
			// are free again.
			for i := range 3 {
				c := slowDial(t, addr, nil)
				if got := finish(t, c); got != http.StatusOK {
					t.Errorf("connection %d after the first closed: %d, want 200", i+1, got)
				}
			}
		})
	}
}

// TestConnCapPerAddress checks that the per-address cap counts each
// client address apart: 127.0.0.2 is served while 127.0.0.1 is at its
// cap.
func TestConnCapPerAddress(t *testing.T) {
	s := New(Config{MaxConns: 100, MaxConnsPerIP: 2})
	defer s.Close()
	addr := serveOn(t, s)
	one := []net.Conn{slowDial(t, addr, nil), slowDial(t, addr, nil)}
	if got := status(t, slowDial(t, addr, nil)); got != http.StatusTooManyRequests {
		t.Fatalf("third connection of 127.0.0.1: %d, want 429", got)
	}
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 2)}}
	probe, err := d.Dial("tcp", addr)
	if err != nil {
		t.Skipf("no second loopback address here: %v", err)
	}
	probe.Close()
	for i := range 2 {
		c := slowDial(t, addr, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 2)})
		if got := finish(t, c); got != http.StatusOK {
			t.Errorf("connection %d of 127.0.0.2: %d, want 200", i+1, got)
		}
	}
	for i, c := range one {
		if got := finish(t, c); got != http.StatusOK {
			t.Errorf("connection %d of 127.0.0.1: %d, want 200", i+1, got)
		}
	}
}

// TestConnFloodBounded opens many more slow connections than the cap: the
// server's goroutines (one per connection it holds, with its buffers) stay
// within the cap, where without it they grew with every connection.
func TestConnFloodBounded(t *testing.T) {
	const capConns, flood = 8, 200
	s := New(Config{MaxConns: capConns, MaxConnsPerIP: capConns})
	defer s.Close()
	addr := serveOn(t, s)
	time.Sleep(10 * time.Millisecond) // let Serve's goroutines start
	base := runtime.NumGoroutine()
	for i := range flood {
		c := slowDial(t, addr, nil)
		if i < capConns {
			continue // accepted first, held open
		}
		// Each refusal is read before the next dial, so that the client's
		// own descriptors do not pile up either.
		if got := status(t, c); got != http.StatusServiceUnavailable {
			t.Fatalf("connection %d, past the cap of %d: %d, want 503", i+1, capConns, got)
		}
		c.Close()
	}
	if grew := runtime.NumGoroutine() - base; grew > capConns+4 {
		t.Errorf("%d slow connections grew the goroutines by %d, want at most the cap %d and a few", flood, grew, capConns)
	}
}

// The per-address cap counts an IPv4 address, mapped or not, as one
// client, and an IPv6 /64 as one.
func TestClientKey(t *testing.T) {
	for _, tc := range []struct{ a, b string }{
		{"127.0.0.1", "127.0.0.1"},
		{"::ffff:127.0.0.1", "127.0.0.1"},
		{"2001:db8:1:2:3:4:5:6", "2001:db8:1:2::"},
		{"2001:db8:1:2::ffff", "2001:db8:1:2::"},
		{"::1", "::"},
	} {
		if got := clientKey(netip.MustParseAddr(tc.a)); got != netip.MustParseAddr(tc.b) {
			t.Errorf("clientKey(%s) = %s, want %s", tc.a, got, tc.b)
		}
	}
}
