package web

import (
	"net"
	"net/netip"
	"strconv"
	"sync"
	"time"
)

// The connection caps. Every open connection holds a goroutine and the
// server's read and write buffers (about 30 KiB), whether or not its
// request ever arrives, so a client that opens thousands of connections
// and sends their requests slowly would otherwise grow the server without
// bound. connLimit sits under the HTTP server: a connection over
// Config.MaxConns in all, or over Config.MaxConnsPerIP from one client
// address, is answered at once with the API's JSON error (503 for the
// total, 429 for one address) and closed, before any goroutine or buffer is
// spent on it. HTTP/1.1 carries one request at a time on a connection, so
// the per-address cap is also the cap on one client's requests at once.

// connLimit is a net.Listener that counts its open connections, in all
// and per client IP address.
type connLimit struct {
	net.Listener
	maxConns, perIP int

	mu   sync.Mutex
	open int
	byIP map[netip.Addr]int
}

func newConnLimit(ln net.Listener, maxConns, perIP int) *connLimit {
	return &connLimit{Listener: ln, maxConns: maxConns, perIP: perIP, byIP: map[netip.Addr]int{}}
}

// refusalDeadline bounds the write of a refusal, so that a client that
// does not read cannot hold the accept loop.
const refusalDeadline = 100 * time.Millisecond

// Accept returns the next connection within the caps, answering and
// closing those over them.
func (l *connLimit) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		ip := remoteIP(c)
		l.mu.Lock()
		var refuse string
		switch {
		case l.open >= l.maxConns:
			refuse = connRefusal("503 Service Unavailable", "busy: the server has as many connections open as it takes (--max-conns)")
		case l.byIP[ip] >= l.perIP:
			refuse = connRefusal("429 Too Many Requests", "busy: this address has as many connections open as one client may (--max-conns-per-ip)")
		default:
			l.open++
			l.byIP[ip]++
		}
		l.mu.Unlock()
		if refuse != "" {
			c.SetWriteDeadline(time.Now().Add(refusalDeadline))
			c.Write([]byte(refuse))
			c.Close()
			continue
		}
		return &countedConn{Conn: c, l: l, ip: ip}, nil
	}
}

// connRefusal is the whole HTTP response of a refused connection: the JSON
// error every answer of the API has.
func connRefusal(status, msg string) string {
	body := `{"error": "` + msg + `"}` + "\n"
	return "HTTP/1.1 " + status + "\r\nContent-Type: application/json\r\nRetry-After: 2\r\nConnection: close\r\nContent-Length: " +
		strconv.Itoa(len(body)) + "\r\n\r\n" + body
}

// release forgets a closed connection of ip.
func (l *connLimit) release(ip netip.Addr) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.open--
	if l.byIP[ip]--; l.byIP[ip] <= 0 {
		delete(l.byIP, ip)
	}
}

// remoteIP is the client address of c as the per-address cap counts it:
// an IPv4 address, or the /64 network of an IPv6 one, since one client
// commonly holds a whole /64; the zero Addr when it has none (all such
// connections then share one count).
func remoteIP(c net.Conn) netip.Addr {
	if tcp, ok := c.RemoteAddr().(*net.TCPAddr); ok {
		if a, ok := netip.AddrFromSlice(tcp.IP); ok {
			return clientKey(a)
		}
	}
	return netip.Addr{}
}

// clientKey is remoteIP for the address a.
func clientKey(a netip.Addr) netip.Addr {
	a = a.Unmap()
	if a.Is6() {
		p, _ := a.Prefix(64)
		return p.Addr()
	}
	return a
}

// countedConn gives its place back to the limit when it is closed, once.
type countedConn struct {
	net.Conn
	l    *connLimit
	ip   netip.Addr
	once sync.Once
}

func (c *countedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() { c.l.release(c.ip) })
	return err
}
