//go:build unix

package web

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// visible reports where the element with the given id is and whether it
// is whole in the window as the page is scrolled now (inView asks for no
// scrolling at all).
func visible(b *browser, id string) (string, bool) {
	b.t.Helper()
	var r struct {
		Top, Bottom, Left, Right, Width, Height, Scroll float64
		Shown                                           bool
	}
	b.eval(fmt.Sprintf(`(() => { const e = document.getElementById(%q), r = e.getBoundingClientRect();
		return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: innerWidth, height: innerHeight, scroll: scrollY,
			shown: e.offsetParent !== null && getComputedStyle(e).visibility !== "hidden"}; })()`, id), &r)
	ok := r.Shown && r.Top >= 0 && r.Left >= 0 && r.Bottom <= r.Height && r.Right <= r.Width && r.Bottom > r.Top
	return fmt.Sprintf("%s at x %.0f–%.0f, y %.0f–%.0f of %.0f×%.0f (scrolled %.0f, shown %v)", id, r.Left, r.Right, r.Top, r.Bottom, r.Width, r.Height, r.Scroll, r.Shown), ok
}

// tap touches the middle of the element with the given id where it is
// now, without scrolling it into view first, as a finger would.
func tap(b *browser, id string) {
	b.t.Helper()
	if where, ok := visible(b, id); !ok {
		b.t.Fatalf("cannot tap %s: not in view", where)
	}
	var p struct{ X, Y float64 }
	b.eval(fmt.Sprintf(`(() => { const r = document.getElementById(%q).getBoundingClientRect(); return {x: r.x + r.width / 2, y: r.y + r.height / 2}; })()`, id), &p)
	b.must("Input.dispatchTouchEvent", map[string]any{"type": "touchStart", "touchPoints": []map[string]any{{"x": p.X, "y": p.Y}}})
	b.must("Input.dispatchTouchEvent", map[string]any{"type": "touchEnd", "touchPoints": []map[string]any{}})
}

// TestBrowserPhoneFlow plays a phone's 400×800 screen as a player does,
// never scrolling to the top for the test's sake: Solve, Undo and Next are
// under the board on the first screen; after a tap on Solve the live board
// and the Solve button (now Stop) are in view, and so they are after Solve
// is pressed in the solver's panel far below; a solved level offers the
// next one, which a tap opens; moves played survive a reload, and so do a
// snapshot and the best solution. Screenshots: docs/screenshots'
// phone-solve-tapped.png and phone-restored.png when $SOKO_SCREENSHOTS is
// set, else the test artifacts.
func TestBrowserPhoneFlow(t *testing.T) {
	b, url := browserPage(t)
	dir := os.Getenv("SOKO_SCREENSHOTS")
	if dir == "" {
		dir = artifactDir()
	}
	setDevice(b, 400, 800, true)
	b.must("Page.navigate", map[string]any{"url": url + "/?phone#xsokoban90:10"})
	b.waitFor("XSokoban 10", `window.soko && soko.ready && soko.state().level === "xsokoban90:10"`, 20*time.Second)
	b.eval("localStorage.clear()", nil)
	inSight := func(what string, ids ...string) {
		t.Helper()
		for _, id := range ids {
			if where, ok := visible(b, id); !ok {
				t.Errorf("%s: not whole in the window: %s", what, where)
			}
		}
	}
	inSight("the first screen", "board", "quickSolve", "undo", "quickNext")

	// A tap on Solve: the live board and the button in view.
	tap(b, "quickSolve")
	b.waitFor("the live board", `soko.state().live || (soko.state().job && soko.state().job.found)`, 15*time.Second)
	time.Sleep(500 * time.Millisecond)
	inSight("after tapping Solve", "board", "quickSolve", "quickStatus")
	var label string
	if b.eval(`document.getElementById("quickSolve").textContent`, &label); label != "Stop" {
		t.Errorf("the Solve button under the board says %q while the solver runs, want Stop", label)
	}
	t.Logf("screenshot: %s", b.screenshot(dir, "phone-solve-tapped.png"))
	tap(b, "quickSolve") // Stop
	b.waitFor("the job to end", `soko.state().job && !["queued", "running"].includes(soko.state().job.status) && !soko.state().live`, 10*time.Second)

	// Solve in the solver's panel, far down the page: the view comes back
	// to the board.
	b.click("solveBtn") // scrolls the panel into view, as a player would
	// The first live board scrolls the view to the board; a click on Stop
	// while that scroll runs lands where the button was.
	b.waitFor("the live board again", `soko.state().job && !soko.state().job.result && (soko.state().live || soko.state().job.found)`, 15*time.Second)
	time.Sleep(500 * time.Millisecond)
	inSight("after Solve in the panel", "board", "quickSolve")
	b.click("stopBtn")
	b.waitFor("the job to end", `soko.state().job && !["queued", "running"].includes(soko.state().job.status)`, 10*time.Second)

	// Solved: the bar under the board offers the next level.
	b.eval(`soko.load("microban", 1)`, nil)
	b.waitFor("microban:1", `soko.state().level === "microban:1"`, 10*time.Second)
	b.eval(`scrollTo(0, 0)`, nil) // a player who scrolled up to play
	if where, ok := visible(b, "solvedNext"); ok {
		t.Errorf("Next level is offered before the level is solved: %s", where)
	}
	keys := map[rune]string{'u': "ArrowUp", 'd': "ArrowDown", 'l': "ArrowLeft", 'r': "ArrowRight"}
	play := func(lurd string) {
		t.Helper()
		for _, c := range strings.ToLower(lurd) {
			b.press(keys[c])
		}
	}
	play("dlUrrrdLullddrUluRuulDrddrruLdlUU")
	b.waitFor("microban:1 solved", "soko.state().solved", 5*time.Second)
	inSight("solved", "solvedBar", "solvedNext", "board")
	tap(b, "solvedNext")
	b.waitFor("microban:2", `soko.state().level === "microban:2" && soko.state().moves === 0`, 10*time.Second)

	// Moves on Microban 2, a snapshot, more moves: a reload brings back
	// the game, the snapshot, and Microban 1's best solution.
	play("rdd")
	b.eval(`document.getElementById("snapName").value = "three in"`, nil)
	b.eval(`document.getElementById("snapSave").click()`, nil)
	play("L")
	type kept struct {
		Level  string
		Moves  int
		Lurd   string
		Kept   struct{ Snapshots []string }
		Verify string
	}
	var before, after kept
	b.eval("soko.state()", &before)
	if before.Lurd != "rddL" || strings.Join(before.Kept.Snapshots, ",") != "three in" {
		t.Fatalf("before the reload: %+v", before)
	}
	b.must("Page.reload", map[string]any{})
	b.waitFor("the page to load again", `window.soko && soko.ready && soko.state().level === "microban:2"`, 20*time.Second)
	b.eval("soko.state()", &after)
	if after.Lurd != before.Lurd || after.Moves != 4 || strings.Join(after.Kept.Snapshots, ",") != "three in" {
		t.Fatalf("after the reload: %+v, want the game %q and the snapshot back", after, before.Lurd)
	}
	var said string
	if b.eval(`document.getElementById("keptOut").textContent`, &said); !strings.Contains(said, "your game in progress is back: 4 moves") {
		t.Errorf("the page says %q of the game it brought back", said)
	}
	inSight("after the reload", "board")
	t.Logf("screenshot: %s", b.screenshot(dir, "phone-restored.png"))
	b.eval(`document.querySelector("#snapList button").click()`, nil) // Restore "three in"
	b.waitFor("the snapshot restored", `soko.state().lurd === "rdd"`, 5*time.Second)
	var best string
	b.eval(`JSON.parse(localStorage.getItem("soko.level.microban:1")).best.lurd`, &best)
	if best != "dlUrrrdLullddrUluRuulDrddrruLdlUU" {
		t.Errorf("Microban 1's best solution kept: %q", best)
	}
}

// TestBrowserAnytime watches fess on XSokoban 2 on a desktop: the solution
// the search finds is in the LURD box and on the board for replay while
// the optimizer shortens it, the status line says "optimizing: A → B
// pushes" as it does, the elapsed time runs on, and Stop keeps the best
// solution so far, kept in the browser with the optimizer named. The
// screenshot desktop-optimizing.png goes to $SOKO_SCREENSHOTS when set.
// When the optimizer is done before the page could look, the checks of
// its progress are skipped, said so (TestSolveEventsAnytime covers them).
func TestBrowserAnytime(t *testing.T) {
	b, url := browserPage(t)
	dir := os.Getenv("SOKO_SCREENSHOTS")
	if dir == "" {
		dir = artifactDir()
	}
	setDevice(b, 1400, 1000, false)
	b.must("Page.navigate", map[string]any{"url": url + "/?desktop#xsokoban90:2"})
	b.waitFor("XSokoban 2", `window.soko && soko.ready && soko.state().level === "xsokoban90:2"`, 20*time.Second)
	b.eval("localStorage.clear()", nil)
	b.click("solveBtn")
	b.waitFor("the solution found", `soko.state().job && (soko.state().job.found || soko.state().job.result)`, 20*time.Second)
	var st struct {
		Future int
		Live   bool
		Job    struct {
			Found, Solution, Status string
			Best                    *struct{ Pushes, Moves int }
			Stopped                 bool
		}
		JobStatus string
	}
	b.eval("soko.state()", &st)
	if st.Job.Found == "" {
		t.Fatalf("the result came with no solution found first: %+v", st)
	}
	var box string
	b.eval(`document.getElementById("solution").value`, &box)
	if box != st.Job.Found && box != st.Job.Solution || st.Live || st.Future == 0 {
		t.Errorf("the solution found is not in the LURD box and on the board for replay: box %q, state %+v", box, st)
	}
	if st.Job.Status == "solved" {
		t.Logf("the optimizer finished before the page looked (%q): its progress is not checked here", st.JobStatus)
		return
	}
	// The clock runs while the optimizer works.
	elapsed := func() (float64, bool) {
		var e struct {
			Text    string
			Running bool
		}
		b.eval(`({text: document.getElementById("stElapsed").textContent, running: !soko.state().job.status.startsWith("solved")})`, &e)
		var v float64
		var unit string
		fmt.Sscanf(e.Text, "%f %s", &v, &unit)
		if unit == "s" {
			v *= 1000
		}
		return v, e.Running // in ms
	}
	e1, _ := elapsed()
	b.waitFor("an improvement or the end", `soko.state().job.best || soko.state().job.status === "solved"`, 10*time.Second)
	time.Sleep(300 * time.Millisecond)
	e2, running := elapsed()
	if running && e2 <= e1 {
		t.Errorf("elapsed %v ms, then %v ms: the clock stood still while the job ran", e1, e2)
	}
	b.eval("soko.state()", &st)
	if st.Job.Status != "solved" {
		if !strings.HasPrefix(st.JobStatus, "optimizing: 153 → ") && !strings.HasPrefix(st.JobStatus, "optimizing: ") {
			t.Errorf("status %q while the optimizer runs", st.JobStatus)
		}
		t.Logf("status: %s", st.JobStatus)
		t.Logf("screenshot: %s", b.screenshot(dir, "desktop-optimizing.png"))
		b.click("stopBtn")
	}
	b.waitFor("the job's end", `soko.state().job.status === "solved"`, 15*time.Second)
	b.eval("soko.state()", &st)
	b.eval(`document.getElementById("solution").value`, &box)
	var kept struct{ Lurd, Solver, Optimized string }
	b.eval(`JSON.parse(localStorage.getItem("soko.level.xsokoban90:2")).best`, &kept)
	if box != st.Job.Solution || kept.Lurd != st.Job.Solution || kept.Solver != "fess" || kept.Optimized != "pushes" {
		t.Errorf("after the end (stopped %v): box %q, job's solution %q, kept %+v", st.Job.Stopped, box, st.Job.Solution, kept)
	}
	t.Logf("ended: %s", st.JobStatus)
}
