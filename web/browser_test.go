//go:build unix

package web

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// artifactDir is where the browser test leaves its screenshots:
// $SOKO_ARTIFACTS, or soko-artifacts in the temporary directory.
func artifactDir() string {
	if d := os.Getenv("SOKO_ARTIFACTS"); d != "" {
		return d
	}
	return filepath.Join(os.TempDir(), "soko-artifacts")
}

// TestBrowser drives the page in headless Chromium over the DevTools
// protocol: load Microban 1, play a few moves with the keyboard, watch a
// solver run live and stop it, solve the level with A*, replay the
// solution to the solved state, and check the overlays. It saves
// screenshots as test artifacts. Without Chromium it is skipped, unless
// SOKO_REQUIRE_BROWSER=1 (CI sets it once it has installed Chromium).
func TestBrowser(t *testing.T) {
	path := chromiumPath()
	if path == "" {
		if os.Getenv("SOKO_REQUIRE_BROWSER") == "1" {
			t.Fatal("SOKO_REQUIRE_BROWSER=1 but no chromium found (set SOKO_CHROMIUM or install Debian's chromium)")
		}
		t.Skip("chromium is not installed (apt-get install chromium, or set SOKO_CHROMIUM): the browser test is skipped")
	}
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	s := New(Config{MaxJobs: 2, MaxQueue: 2, MaxTime: 20 * time.Second})
	ts := httptest.NewServer(s)
	defer ts.Close()
	defer s.Close()

	b := startBrowser(ctx, t, path)
	b.must("Page.enable", nil)
	b.must("Page.navigate", map[string]any{"url": ts.URL + "/#microban:1"})
	b.waitFor("the page to load Microban 1", `window.soko && soko.ready && soko.state().level === "microban:1"`, 20*time.Second)

	// Play d l U with the keyboard: three moves, one push.
	for _, k := range []string{"ArrowDown", "ArrowLeft", "w"} {
		b.press(k)
	}
	var st struct {
		Level         string
		Moves, Pushes int
		Solved        bool
		Lurd          string
		Future        int
		Playing       bool
		Overlay       bool
		Job           *struct{ ID, Status, Solution string }
	}
	b.eval("soko.state()", &st)
	if st.Moves != 3 || st.Pushes != 1 || st.Lurd != "dlU" {
		t.Fatalf("after three keys: %+v", st)
	}
	b.press("z") // undo
	b.eval("soko.state()", &st)
	if st.Moves != 2 || st.Future != 1 {
		t.Fatalf("after undo: %+v", st)
	}
	b.press("y") // redo
	b.press("r") // restart
	b.eval("soko.state()", &st)
	if st.Moves != 0 || st.Future != 3 {
		t.Fatalf("after restart: %+v", st)
	}

	// Overlays: dead squares drawn from POST /api/analyze.
	b.click("ovDead")
	b.waitFor("the analysis", "soko.state().overlay", 10*time.Second)

	// A solver that runs until stopped, on a large level: live progress, then Stop.
	b.eval(`soko.load("xsokoban90", 90)`, nil)
	b.waitFor("xsokoban90:90", `soko.state().level === "xsokoban90:90"`, 10*time.Second)
	b.click("solveBtn")
	b.waitFor("live progress with a board", `document.getElementById("stExpanded").textContent !== "–" && document.getElementById("best").width > 10`, 15*time.Second)
	time.Sleep(1500 * time.Millisecond)
	dir := artifactDir()
	t.Logf("screenshot of a running solver: %s", b.screenshot(dir, "browser-solver-running.png"))
	b.click("stopBtn")
	b.waitFor("the stopped job", `soko.state().job && soko.state().job.status === "cancelled"`, 10*time.Second)

	// Back to Microban 1: solve it with A*, replay the solution to the end.
	b.eval(`soko.load("microban", 1)`, nil)
	b.waitFor("microban:1", `soko.state().level === "microban:1"`, 10*time.Second)
	b.press("ArrowDown")
	b.eval(`document.getElementById("memory").value = "64"`, nil)
	b.click("solveBtn")
	b.waitFor("A* to solve Microban 1", `soko.state().job && soko.state().job.status === "solved"`, 20*time.Second)
	var capBytes int64
	b.eval("soko.state().job.budget.memory", &capBytes)
	if capBytes != 64<<20 {
		t.Errorf("memory limit sent from the page: %d bytes, want 64 MiB", capBytes)
	}
	b.eval("soko.state()", &st)
	if st.Job.Solution == "" || st.Future != len(st.Job.Solution) || st.Moves != 0 {
		t.Fatalf("the solution is not loaded for replay: %+v", st)
	}
	setSpeed := func(n int) {
		b.eval(fmt.Sprintf(`(() => { const s = document.getElementById("speed"); s.value = %d; s.dispatchEvent(new Event("input")); })()`, n), nil)
	}
	setSpeed(15)
	b.click("rpPlay")
	b.waitFor("the replay to get halfway", "soko.state().moves >= 15", 10*time.Second)
	t.Logf("screenshot during the replay: %s", b.screenshot(dir, "browser-replay-running.png"))
	setSpeed(60)
	b.waitFor("the replay to reach the solved state", "soko.state().solved && !soko.state().playing", 20*time.Second)
	b.eval("soko.state()", &st)
	if st.Lurd != st.Job.Solution {
		t.Fatalf("replay played %q, the solver found %q", st.Lurd, st.Job.Solution)
	}
	var banner string
	b.eval(`document.getElementById("boardWrap").className + " " + document.getElementById("bannerText").textContent`, &banner)
	t.Logf("solved: %s", banner)
	t.Logf("screenshot of the solved replay: %s", b.screenshot(dir, "browser-solved.png"))

	// Scrub back to the middle; then verify a pasted LURD.
	b.eval(`(() => { const s = document.getElementById("scrub"); s.value = 10; s.dispatchEvent(new Event("input")); })()`, nil)
	b.eval("soko.state()", &st)
	if st.Moves != 10 || st.Solved {
		t.Fatalf("after scrubbing to 10: %+v", st)
	}
	b.eval(`document.getElementById("solution").value = "dlUrrrdLullddrUluRuulDrddrruLdlUU"`, nil)
	b.click("verifyBtn")
	b.waitFor("the verifier's answer", `soko.state().verify.includes("33 moves, 8 pushes")`, 10*time.Second)
}
