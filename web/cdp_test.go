//go:build unix

package web

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// A small Chrome DevTools Protocol client for the browser test: it starts
// headless Chromium with a debugging port on loopback, attaches to its page
// over a websocket and sends commands (navigate, evaluate, key and mouse
// events, screenshots).

// chromiumPath finds the browser: $SOKO_CHROMIUM, or chromium,
// chromium-browser, google-chrome on the PATH.
func chromiumPath() string {
	if p := os.Getenv("SOKO_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

type browser struct {
	t    *testing.T
	cmd  *exec.Cmd
	conn *websocket.Conn
	ctx  context.Context
	dir  string // the profile

	mu   sync.Mutex
	next int
	wait map[int]chan cdpReply
	done chan struct{}
}

type cdpReply struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Message string `json:"message"`
	} `json:"error"`
}

// startBrowser runs headless Chromium and attaches to its first page. The
// browser is stopped when the test ends.
func startBrowser(ctx context.Context, t *testing.T, path string) *browser {
	t.Helper()
	// Not t.TempDir: Chromium's helper processes may still write there for
	// a moment after it exits, and the cleanup must not fail the test.
	dir, err := os.MkdirTemp("", "soko-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, path,
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-extensions", "--disable-dev-shm-usage", "--mute-audio",
		"--user-data-dir="+dir, "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0",
		"--window-size=1400,1000", "about:blank")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // its helpers share the group, stopped together
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", path, err)
	}
	b := &browser{t: t, cmd: cmd, ctx: ctx, dir: dir, wait: map[int]chan cdpReply{}, done: make(chan struct{})}
	t.Cleanup(b.stop)

	// Chromium prints "DevTools listening on ws://127.0.0.1:PORT/devtools/browser/ID".
	found := make(chan string, 1)
	var log strings.Builder
	go func() {
		sc := bufio.NewScanner(stderr)
		sent := false
		for sc.Scan() {
			line := sc.Text()
			if !sent {
				log.WriteString(line + "\n")
			}
			if _, url, ok := strings.Cut(line, "DevTools listening on "); ok && !sent {
				found <- strings.TrimSpace(url)
				sent = true
			}
		}
		if !sent {
			close(found)
		}
	}()
	var wsURL string
	select {
	case u, ok := <-found:
		if !ok {
			t.Fatalf("chromium exited without a debugging port:\n%s", log.String())
		}
		wsURL = u
	case <-time.After(60 * time.Second):
		t.Fatalf("chromium did not open its debugging port in 60 s")
	}
	host := strings.TrimPrefix(wsURL, "ws://")
	host, _, _ = strings.Cut(host, "/")

	// The page target's own websocket.
	var pageWS string
	for deadline := time.Now().Add(10 * time.Second); pageWS == "" && time.Now().Before(deadline); {
		resp, err := http.Get("http://" + host + "/json/list")
		if err == nil {
			var targets []struct{ Type, WebSocketDebuggerURL string }
			if json.NewDecoder(resp.Body).Decode(&targets) != nil {
				targets = nil // a list cut short: asked again below
			}
			resp.Body.Close()
			for _, tg := range targets {
				if tg.Type == "page" && tg.WebSocketDebuggerURL != "" {
					pageWS = tg.WebSocketDebuggerURL
					break
				}
			}
		}
		if pageWS == "" {
			time.Sleep(100 * time.Millisecond)
		}
	}
	if pageWS == "" {
		t.Fatalf("no page target at http://%s/json/list", host)
	}
	conn, _, err := websocket.Dial(ctx, pageWS, nil)
	if err != nil {
		t.Fatalf("attaching to the page: %v", err)
	}
	conn.SetReadLimit(64 << 20) // screenshots are large
	b.conn = conn
	go b.read()
	return b
}

func (b *browser) read() {
	defer close(b.done)
	for {
		_, data, err := b.conn.Read(b.ctx)
		if err != nil {
			return
		}
		var msg struct {
			ID int `json:"id"`
			cdpReply
		}
		if json.Unmarshal(data, &msg) != nil || msg.ID == 0 {
			continue // an event
		}
		b.mu.Lock()
		ch := b.wait[msg.ID]
		delete(b.wait, msg.ID)
		b.mu.Unlock()
		if ch != nil {
			ch <- msg.cdpReply
		}
	}
}

// stop closes the browser: politely over the protocol, then by killing
// its process group; then it removes the profile.
func (b *browser) stop() {
	exited := make(chan struct{})
	go func() { b.cmd.Wait(); close(exited) }()
	if b.conn != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		msg, _ := json.Marshal(map[string]any{"id": 1 << 30, "method": "Browser.close"})
		b.conn.Write(ctx, websocket.MessageText, msg)
		cancel()
	}
	select {
	case <-exited:
	case <-time.After(5 * time.Second):
	}
	if b.cmd.Process != nil {
		syscall.Kill(-b.cmd.Process.Pid, syscall.SIGKILL) // the group we started
	}
	<-exited
	if b.conn != nil {
		b.conn.CloseNow()
	}
	for i := 0; i < 20; i++ {
		if os.RemoveAll(b.dir) == nil {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	b.t.Logf("could not remove the browser profile %s", b.dir)
}

// call sends a command and returns its result.
func (b *browser) call(method string, params any) (json.RawMessage, error) {
	b.mu.Lock()
	b.next++
	id := b.next
	ch := make(chan cdpReply, 1)
	b.wait[id] = ch
	b.mu.Unlock()
	msg, err := json.Marshal(map[string]any{"id": id, "method": method, "params": params})
	if err != nil {
		return nil, err
	}
	if err := b.conn.Write(b.ctx, websocket.MessageText, msg); err != nil {
		return nil, err
	}
	select {
	case r := <-ch:
		if r.Error != nil {
			return nil, fmt.Errorf("%s: %s", method, r.Error.Message)
		}
		return r.Result, nil
	case <-b.done:
		return nil, errors.New(method + ": the browser connection closed")
	case <-b.ctx.Done():
		return nil, fmt.Errorf("%s: %w", method, b.ctx.Err())
	}
}

func (b *browser) must(method string, params any) json.RawMessage {
	b.t.Helper()
	r, err := b.call(method, params)
	if err != nil {
		b.t.Fatal(err)
	}
	return r
}

// eval evaluates a JavaScript expression in the page and decodes its value
// into v (which may be nil).
func (b *browser) eval(expr string, v any) {
	b.t.Helper()
	r := b.must("Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true, "awaitPromise": true})
	var out struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text      string `json:"text"`
			Exception struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	if err := json.Unmarshal(r, &out); err != nil {
		b.t.Fatal(err)
	}
	if e := out.ExceptionDetails; e != nil {
		b.t.Fatalf("evaluating %s: %s %s", expr, e.Text, e.Exception.Description)
	}
	if v != nil && len(out.Result.Value) > 0 {
		if err := json.Unmarshal(out.Result.Value, v); err != nil {
			b.t.Fatalf("evaluating %s: %v: %s", expr, err, out.Result.Value)
		}
	}
}

// waitFor evaluates cond until it is true or the timeout passes.
func (b *browser) waitFor(what, cond string, timeout time.Duration) {
	b.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		var ok bool
		b.eval("!!("+cond+")", &ok)
		if ok {
			return
		}
		if time.Now().After(deadline) {
			var state any
			b.eval("window.soko && window.soko.state()", &state)
			b.t.Fatalf("waited %s for %s; page state %v", timeout, what, state)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// keyCodes are the Windows virtual key codes Chromium wants for keys.
var keyCodes = map[string]int{"ArrowLeft": 37, "ArrowUp": 38, "ArrowRight": 39, "ArrowDown": 40, " ": 32}

// press sends a key down and up, as a user's keyboard would.
func (b *browser) press(key string) {
	b.t.Helper()
	code := keyCodes[key]
	if code == 0 && len(key) == 1 {
		code = int(strings.ToUpper(key)[0])
	}
	down := map[string]any{"type": "keyDown", "key": key, "code": key, "windowsVirtualKeyCode": code}
	if len(key) == 1 {
		down["type"] = "keyDown"
		down["text"] = key
		down["code"] = "Key" + strings.ToUpper(key)
	}
	b.must("Input.dispatchKeyEvent", down)
	b.must("Input.dispatchKeyEvent", map[string]any{"type": "keyUp", "key": key, "code": down["code"], "windowsVirtualKeyCode": code})
}

// click clicks the middle of the element with the given id with the mouse.
func (b *browser) click(id string) {
	b.t.Helper()
	b.mouse(id, "mouseMoved", "mousePressed", "mouseReleased")
}

// hover moves the mouse over the middle of the element with the given id.
func (b *browser) hover(id string) {
	b.t.Helper()
	b.mouse(id, "mouseMoved")
}

// mouse sends mouse events of the given types at the middle of the element
// with the given id, scrolled into view.
func (b *browser) mouse(id string, types ...string) {
	b.t.Helper()
	var r struct{ X, Y float64 }
	b.eval(fmt.Sprintf(`(() => { const e = document.getElementById(%q); e.scrollIntoView({block: "center"});
		const r = e.getBoundingClientRect(); return {x: r.x + r.width / 2, y: r.y + r.height / 2}; })()`, id), &r)
	for _, typ := range types {
		button := "left"
		if typ == "mouseMoved" { // no button held: a hover, not a drag
			button = "none"
		}
		b.must("Input.dispatchMouseEvent", map[string]any{"type": typ, "x": r.X, "y": r.Y, "button": button, "clickCount": 1})
	}
}

// screenshot saves the page as a PNG under dir and returns the path.
func (b *browser) screenshot(dir, name string) string {
	b.t.Helper()
	r := b.must("Page.captureScreenshot", map[string]any{"format": "png"})
	var out struct{ Data string }
	if err := json.Unmarshal(r, &out); err != nil {
		b.t.Fatal(err)
	}
	png, err := base64.StdEncoding.DecodeString(out.Data)
	if err != nil {
		b.t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		b.t.Fatal(err)
	}
	return path
}
