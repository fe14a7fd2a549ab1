package web

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
)

// The guards every request passes before a handler sees it.
//
// The Host header must name the address the connection came in on: that
// address's IP (with its port), or localhost, 127.0.0.1 or [::1] when it is
// a loopback address, or a name allowed in Config.AllowHosts. This defends
// against DNS rebinding: a page on attacker.example whose name is made to
// resolve to 127.0.0.1 sends "Host: attacker.example:PORT" and a matching
// Origin, which the cross-origin check alone takes for same-origin.
//
// Then unsafe methods (POST, DELETE) from another origin are refused
// (net/http's CrossOriginProtection). Both refusals are 403 with the usual
// JSON error.

// loopbackNames are the names a browser on this machine uses for a
// loopback address.
var loopbackNames = []string{"localhost", "127.0.0.1", "::1"}

// CheckAllowHost reports whether name can be given to Config.AllowHosts:
// a host name or IP address, optionally with a port ("soko.example",
// "soko.example:8443", "[2001:db8::1]:80").
func CheckAllowHost(name string) error {
	if strings.ContainsAny(name, "/@?# ") {
		return fmt.Errorf("allowed host %q: give a host name or NAME:PORT, not a URL", name)
	}
	host, port, err := splitHost(name)
	if err != nil {
		return err
	}
	if host == "" {
		return fmt.Errorf("allowed host %q: no host name", name)
	}
	if port != "" {
		if p, err := strconv.Atoi(port); err != nil || p < 1 || p > 65535 {
			return fmt.Errorf("allowed host %q: bad port %q", name, port)
		}
	}
	if _, err := netip.ParseAddr(host); err == nil {
		return nil
	}
	for _, c := range host {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_') {
			return fmt.Errorf("allowed host %q: %q is not a host name", name, c)
		}
	}
	return nil
}

// splitHost splits a Host header (or an allowed name) into its lower-case
// host, without brackets, and its port ("" when it has none).
func splitHost(hostport string) (host, port string, err error) {
	hostport = strings.ToLower(hostport)
	if hostport == "" {
		return "", "", nil
	}
	if strings.HasPrefix(hostport, "[") || strings.Count(hostport, ":") == 1 {
		host, port, err := net.SplitHostPort(hostport)
		if err != nil && strings.HasSuffix(hostport, "]") { // "[::1]": brackets, no port
			return strings.Trim(hostport, "[]"), "", nil
		}
		if err != nil {
			return "", "", fmt.Errorf("bad host %q", hostport)
		}
		return host, port, nil
	}
	return hostport, "", nil // a name, or an IPv6 address without brackets
}

// hostAllowed checks r's Host header against the address r came in on and
// the allowed names; the error says why it is refused.
func (s *Server) hostAllowed(r *http.Request) error {
	host, port, err := splitHost(r.Host)
	if err != nil || host == "" {
		return fmt.Errorf("refused: the request names no valid host (Host: %q)", r.Host)
	}
	for _, a := range s.cfg.AllowHosts {
		ah, ap, _ := splitHost(a)
		if host == ah && (ap == "" || ap == port || ap == "80" && port == "") {
			return nil
		}
	}
	local, _ := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	tcp, ok := local.(*net.TCPAddr)
	if !ok {
		return fmt.Errorf("refused: host %q is not allowed (the server's own address is unknown here; allow names with --allow-host)", r.Host)
	}
	if port == "" {
		port = "80"
	}
	ip, _ := netip.AddrFromSlice(tcp.IP)
	ip = ip.Unmap()
	if port == strconv.Itoa(tcp.Port) {
		if a, err := netip.ParseAddr(host); err == nil && a.Unmap() == ip {
			return nil
		}
		if ip.IsLoopback() {
			for _, n := range loopbackNames {
				if host == n {
					return nil
				}
			}
		}
	}
	return fmt.Errorf("refused: host %q is not this server's address (%s); to serve it under another name, start soko serve with --allow-host NAME",
		r.Host, net.JoinHostPort(ip.String(), strconv.Itoa(tcp.Port)))
}

// guard wraps h in the Host check and the cross-origin check.
func (s *Server) guard(h http.Handler) http.Handler {
	cop := http.NewCrossOriginProtection()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := s.hostAllowed(r); err != nil {
			writeError(w, http.StatusForbidden, "%v", err)
			return
		}
		if err := cop.Check(r); err != nil {
			writeError(w, http.StatusForbidden, "refused: %v (requests that change state must come from this server's own page)", err)
			return
		}
		h.ServeHTTP(w, r)
	})
}
