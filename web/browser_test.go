//go:build unix

package web

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"soko/level"
)

// browserPage starts a server and headless Chromium for a browser test,
// which is skipped without Chromium, saying so loudly (skipNoBrowser);
// both stop with the test. It returns the browser and the server's URL.
func browserPage(t *testing.T) (*browser, string) {
	t.Helper()
	path := chromiumPath()
	if path == "" {
		skipNoBrowser(t)
	}
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 180*time.Second)
	t.Cleanup(cancel)
	s := New(Config{MaxJobs: 2, MaxQueue: 2, MaxTime: 20 * time.Second})
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	t.Cleanup(s.Close)
	b := startBrowser(ctx, t, path)
	b.must("Page.enable", nil)
	return b, ts.URL
}

// noBrowserOnce makes the warning of a skipped browser test go to the
// test binary's standard error once, beside each test's own t.Log.
var noBrowserOnce sync.Once

// skipNoBrowser fails the test when SOKO_REQUIRE_BROWSER=1, and otherwise
// skips it with a warning that cannot be missed: a skip is no pass, and a
// page nobody drove may be broken. The warning is written with t.Log
// (go test -v, go test -json) and once to standard error (go test run in
// the package's folder prints it; go test ./... shows it only with -v).
func skipNoBrowser(t *testing.T) {
	t.Helper()
	if os.Getenv("SOKO_REQUIRE_BROWSER") == "1" {
		t.Fatal("SOKO_REQUIRE_BROWSER=1 but no chromium found (set SOKO_CHROMIUM or install Debian's chromium)")
	}
	const warn = "WARNING: the browser tests are SKIPPED: no chromium on the PATH (apt-get install chromium, or set SOKO_CHROMIUM=/path/to/chromium). " +
		"The page is NOT tested. SOKO_REQUIRE_BROWSER=1 makes this a failure."
	noBrowserOnce.Do(func() { fmt.Fprintln(os.Stderr, "soko/web: "+warn) })
	t.Log(warn)
	t.Skip("SKIPPED: no chromium")
}

// artifactDir is where the browser test leaves its screenshots:
// $SOKO_ARTIFACTS, or soko-artifacts in the temporary directory.
func artifactDir() string {
	if d := os.Getenv("SOKO_ARTIFACTS"); d != "" {
		return d
	}
	return filepath.Join(os.TempDir(), "soko-artifacts")
}

// allowDownloads sends the downloads of b to a folder of their own, removed
// when the test ends, and returns it.
func allowDownloads(t *testing.T, b *browser) string {
	t.Helper()
	downloads, err := os.MkdirTemp("", "soko-downloads-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(downloads) })
	b.must("Browser.setDownloadBehavior", map[string]any{"behavior": "allow", "downloadPath": downloads})
	return downloads
}

// download waits up to 10 s for the file name in downloads to hold
// something, and returns what it holds.
func download(t *testing.T, downloads, name string) string {
	t.Helper()
	path := filepath.Join(downloads, name)
	deadline := time.Now().Add(10 * time.Second)
	for {
		if data, err := os.ReadFile(path); err == nil && len(data) > 0 {
			return string(data)
		}
		if time.Now().After(deadline) {
			t.Fatalf("no download %s", path)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestBrowser drives the page in headless Chromium over the DevTools
// protocol: load Microban 1, play a few moves with the keyboard, watch a
// solver run live and stop it, solve the level with A*, replay the
// solution to the solved state, and check the overlays. It saves
// screenshots as test artifacts. Without Chromium it is skipped, unless
// SOKO_REQUIRE_BROWSER=1 (CI sets it once it has installed Chromium).
func TestBrowser(t *testing.T) {
	b, url := browserPage(t)
	b.must("Page.navigate", map[string]any{"url": url + "/#microban:1"})
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

	// fess runs its strategies on the server's slots (2 here) by default,
	// a solver that runs on one thread gets 1 and the field is off.
	var threadsField string
	b.eval(`(() => { const s = document.getElementById("solverSel"), th = document.getElementById("threads");
		const fess = th.value + (th.disabled ? " off" : ""); s.value = "astar"; s.onchange();
		const astar = th.value + (th.disabled ? " off" : ""); s.value = "fess"; s.onchange();
		return fess + ", " + astar + ", " + th.value; })()`, &threadsField)
	if threadsField != "2, 1 off, 2" {
		t.Errorf("the threads field for fess, astar, fess again: %q, want %q", threadsField, "2, 1 off, 2")
	}

	// A solver that runs until stopped, on a large level: live progress, then Stop.
	b.eval(`soko.load("xsokoban90", 39)`, nil)
	b.waitFor("xsokoban90:39", `soko.state().level === "xsokoban90:39"`, 10*time.Second)
	// Another player's job holds one of the two slots: fess, asking for
	// two threads, runs at once on the free one, and the status says so
	// (on one thread it does not solve 39 before the stop).
	busy := startJob(t, url, hard)
	b.click("solveBtn")
	b.waitFor("the status to say one of two threads", `document.getElementById("jobStatus").textContent.includes("on 1 of 2 threads")`, 15*time.Second)
	b.waitFor("live progress on the main board", `document.getElementById("stExpanded").textContent !== "–" && soko.state().live`, 15*time.Second)
	time.Sleep(1500 * time.Millisecond)
	dir := artifactDir()
	var caption string
	b.eval(`document.getElementById("liveCaption").textContent`, &caption)
	if !strings.HasPrefix(caption, "Live: the most promising position fess") {
		t.Errorf("live caption %q", caption)
	}
	t.Logf("screenshot of a running solver: %s", b.screenshot(dir, "browser-solver-running.png"))
	// A move brings the game back; the solver's positions go to the small board.
	b.press("ArrowLeft")
	b.waitFor("the position on the small board", `!soko.state().live && soko.state().moves === 1 && document.getElementById("best").width > 10`, 10*time.Second)
	b.click("stopBtn")
	b.waitFor("the stopped job", `soko.state().job && soko.state().job.status === "cancelled"`, 10*time.Second)
	post(t, url+"/api/jobs/"+busy+"/cancel", "")

	// Back to Microban 1: solve it with fess, replay the solution to the end.
	b.eval(`soko.load("microban", 1)`, nil)
	b.waitFor("microban:1", `soko.state().level === "microban:1"`, 10*time.Second)
	b.press("ArrowDown")
	b.eval(`document.getElementById("memory").value = "64"`, nil)
	var maxThreads int
	b.eval(`+document.getElementById("threads").max`, &maxThreads)
	b.eval(`document.getElementById("threads").value = "5"`, nil)
	b.click("solveBtn")
	b.waitFor("fess to solve Microban 1", `soko.state().job && soko.state().job.status === "solved"`, 20*time.Second)
	var capBytes int64
	b.eval("soko.state().job.budget.memory", &capBytes)
	if capBytes != 64<<20 {
		t.Errorf("memory limit sent from the page: %d bytes, want 64 MiB", capBytes)
	}
	var threads int
	b.eval("soko.state().job.budget.threads", &threads)
	if threads != 2 || maxThreads != 2 {
		t.Errorf("threads: the page's field allows %d, the job got %d for 5 asked; want 2 and 2 (the server's job slots)", maxThreads, threads)
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

	// The page's LURD parser has the server's cap, level.MaxSolutionSteps:
	// a replay of exactly that many steps loads, one more is refused.
	max := level.MaxSolutionSteps
	var steps int
	b.eval(fmt.Sprintf(`parseLURD("%dl").length`, max), &steps)
	if steps != max {
		t.Fatalf("the page parsed %d steps of %d", steps, max)
	}
	b.eval(fmt.Sprintf(`document.getElementById("solution").value = "u %dl"`, max), nil)
	b.click("replayBtn")
	want := fmt.Sprintf("line 1, column 3: LURD longer than %d steps", max)
	b.waitFor("the page to refuse a replay over the cap", fmt.Sprintf(`soko.state().verify.includes(%q)`, want), 10*time.Second)
}

// navState is what TestBrowserNavigation reads of the page.
type navState struct {
	Level    string
	Hash     string
	Error    string
	Controls bool
	Moves    int
}

// TestBrowserNavigation follows the URL: a deep link, the level buttons,
// Back and Forward, a fragment typed in the address bar, a pasted level
// (its board in the fragment; Back and Forward bring it back, and its link
// opens it), and links to an unknown
// collection and to a level past the end, which say so and leave the
// controls off. After every step the board shows what the URL names.
func TestBrowserNavigation(t *testing.T) {
	b, url := browserPage(t)
	dir := artifactDir()
	var st navState
	state := func() navState {
		t.Helper()
		var s navState
		b.eval("soko.state()", &s)
		return s
	}
	// at waits for the board to show id and checks that the URL agrees.
	at := func(id string) {
		t.Helper()
		b.waitFor(id, fmt.Sprintf(`window.soko && soko.ready && soko.state().level === %q`, id), 10*time.Second)
		st = state()
		if st.Hash != "#"+id || st.Error != "" || !st.Controls {
			t.Fatalf("showing %s: %+v", id, st)
		}
		var sel string
		b.eval(`document.getElementById("collection").value + ":" + document.getElementById("levelSel").value`, &sel)
		if sel != id {
			t.Fatalf("showing %s, the level list shows %s", id, sel)
		}
	}

	b.must("Page.navigate", map[string]any{"url": url + "/#microban:12"})
	at("microban:12")
	t.Logf("screenshot of the deep link: %s", b.screenshot(dir, "browser-deep-link.png"))
	b.click("nextLevel")
	at("microban:13")
	b.press("n")
	at("microban:14")
	b.eval("history.back()", nil)
	at("microban:13")
	b.eval("history.back()", nil)
	at("microban:12")
	b.eval("history.forward()", nil)
	at("microban:13")
	b.eval(`location.hash = "#microban:3"`, nil) // typed in the address bar
	at("microban:3")
	b.eval(`(() => { const s = document.getElementById("levelSel"); s.value = "7"; s.dispatchEvent(new Event("change")); })()`, nil)
	at("microban:7")
	b.eval("history.back()", nil)
	at("microban:3")

	// An event that leaves the URL as it was keeps the moves on the board.
	b.press("ArrowRight")
	b.eval(`new Promise(r => { dispatchEvent(new PopStateEvent("popstate")); dispatchEvent(new HashChangeEvent("hashchange")); setTimeout(r, 300); })`, nil)
	if st = state(); st.Moves != 1 || st.Level != "microban:3" {
		t.Fatalf("the same URL again reset the board: %+v", st)
	}

	// An unknown collection: said so, nothing on the board, controls off.
	b.eval(`location.hash = "#nosuch:5"`, nil)
	b.waitFor("the unknown collection", `soko.state().error !== ""`, 10*time.Second)
	st = state()
	if st.Level != "" || st.Controls || !strings.Contains(st.Error, `Unknown collection "nosuch"`) || st.Hash != "#nosuch:5" {
		t.Fatalf("#nosuch:5: %+v", st)
	}
	noBoard := func(what string) {
		t.Helper()
		var off struct {
			Undo, Restart, Solve, Verify, Next, Prev, Canvas bool
			Msg, Name                                        string
		}
		b.eval(`(() => { const d = id => document.getElementById(id).disabled; return {undo: d("undo"), restart: d("restart"),
			solve: d("solveBtn"), verify: d("verifyBtn"), next: d("nextLevel"), prev: d("prevLevel"),
			canvas: document.getElementById("board").offsetParent === null,
			msg: document.getElementById("boardMsg").textContent, name: document.getElementById("levelName").textContent}; })()`, &off)
		if !off.Undo || !off.Restart || !off.Solve || !off.Verify || !off.Next || !off.Prev || !off.Canvas || off.Msg == "" {
			t.Fatalf("%s: controls or board still on: %+v", what, off)
		}
		t.Logf("%s: %q / %q", what, off.Name, off.Msg)
	}
	noBoard("#nosuch:5")
	t.Logf("screenshot of an unknown collection: %s", b.screenshot(dir, "browser-unknown-collection.png"))
	b.press("ArrowDown") // nothing to move, nothing breaks
	b.press("n")
	if st = state(); st.Level != "" || st.Hash != "#nosuch:5" {
		t.Fatalf("keys without a level: %+v", st)
	}
	b.eval("history.back()", nil)
	at("microban:3")

	// A level past the end of its collection.
	b.eval(`location.hash = "#microban:999"`, nil)
	b.waitFor("the missing level", `soko.state().error !== ""`, 10*time.Second)
	st = state()
	if st.Level != "" || st.Controls || !strings.Contains(st.Error, "levels 1 to 155") || !strings.Contains(st.Error, "no level") {
		t.Fatalf("#microban:999: %+v", st)
	}
	noBoard("#microban:999")
	t.Logf("screenshot of a missing level: %s", b.screenshot(dir, "browser-no-such-level.png"))
	var coll string
	b.eval(`document.getElementById("collection").value`, &coll)
	if coll != "microban" {
		t.Fatalf("#microban:999: the collection list shows %q", coll)
	}
	b.eval("history.back()", nil)
	at("microban:3")

	// A pasted level's fragment is its board, run-length encoded; Back
	// returns to the collection's level and Forward to the pasted one.
	const link = "#level=5%23|%23@$.%23|5%23"
	b.eval(`document.getElementById("paste").value = "#####\n#@$.#\n#####"`, nil)
	b.click("loadPaste")
	b.waitFor("the pasted level", `soko.state().level === "pasted:1"`, 10*time.Second)
	if st = state(); st.Hash != link || !st.Controls {
		t.Fatalf("pasted: %+v, want the fragment %s", st, link)
	}
	b.eval("history.back()", nil)
	at("microban:3")
	b.eval("history.forward()", nil)
	b.waitFor("the pasted level again", fmt.Sprintf(`soko.state().level === "pasted:1" && soko.state().hash === %q`, link), 10*time.Second)
	// Its one-push solution is counted in the singular.
	b.eval(`document.getElementById("solution").value = "R"`, nil)
	b.click("verifyBtn")
	b.waitFor("the verifier's answer in the singular", `soko.state().verify.endsWith(": 1 move, 1 push")`, 10*time.Second)

	// The pasted level's link, and one whose board cannot be read, on a
	// fresh load.
	b.must("Page.navigate", map[string]any{"url": url + "/?shared" + link})
	b.waitFor("the shared pasted level", fmt.Sprintf(`window.soko && soko.ready && soko.state().level === "pasted:1" && soko.state().hash === %q && soko.state().controls`, link), 20*time.Second)
	b.must("Page.navigate", map[string]any{"url": url + "/?broken#level=5%23|%23@$x.%23|5%23"})
	b.waitFor("the broken link", `window.soko && soko.ready && soko.state().error.includes("cannot be read")`, 20*time.Second)
	noBoard("#level= with a bad board")

	// Deep links on a fresh load.
	b.must("Page.navigate", map[string]any{"url": url + "/?fresh#nosuch:5"})
	b.waitFor("the unknown collection on load", `window.soko && soko.ready && soko.state().error.includes("Unknown collection")`, 20*time.Second)
	noBoard("fresh #nosuch:5")
	b.must("Page.navigate", map[string]any{"url": url + "/?again#microban:155"})
	at("microban:155")
	var next bool
	b.eval(`document.getElementById("nextLevel").disabled`, &next)
	if !next {
		t.Fatal("next is on at the last level")
	}
}
