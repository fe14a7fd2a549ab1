//go:build unix

package web

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// contrastJS returns the contrast ratio (WCAG 2) of the text of the
// element with the given id against its background, as computed now.
const contrastJS = `(id => {
	const lum = css => {
		const [r, g, b] = css.match(/[\d.]+/g).slice(0, 3).map(v => {
			v = +v / 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
		});
		return 0.2126 * r + 0.7152 * g + 0.0722 * b;
	};
	const s = getComputedStyle(document.getElementById(id)), a = lum(s.color), b = lum(s.backgroundColor);
	return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
})`

// TestBrowserButtonHover: Solve and Stop keep readable text with the mouse
// over them, as they have it right after every click.
func TestBrowserButtonHover(t *testing.T) {
	b, url := browserPage(t)
	b.must("Page.navigate", map[string]any{"url": url + "/#xsokoban90:39"})
	b.waitFor("the page to load XSokoban 39", `window.soko && soko.ready && soko.state().level === "xsokoban90:39"`, 20*time.Second)
	check := func(id string) {
		t.Helper()
		var plain, over float64
		b.hover("levelName")
		b.eval(contrastJS+"("+`"`+id+`"`+")", &plain)
		b.hover(id)
		b.eval(contrastJS+"("+`"`+id+`"`+")", &over)
		t.Logf("%s: contrast %.1f, %.1f under the mouse", id, plain, over)
		if over < 4.5 {
			t.Errorf("%s under the mouse: contrast %.1f, want at least 4.5", id, over)
		}
	}
	check("solveBtn")
	b.click("solveBtn")
	b.waitFor("the job to run", `!document.getElementById("stopBtn").disabled`, 10*time.Second)
	check("stopBtn")
	t.Logf("screenshot of Stop under the mouse: %s", b.screenshot(artifactDir(), "browser-stop-hover.png"))
	b.click("stopBtn")
	b.waitFor("the stopped job", `soko.state().job && soko.state().job.status === "cancelled"`, 10*time.Second)
	check("solveBtn")
	t.Logf("screenshot of Solve under the mouse: %s", b.screenshot(artifactDir(), "browser-solve-hover.png"))
}

// TestBrowserStaleState: what the page shows belongs to the level on the
// board. A link to an unknown level clears the last level's LURD and says
// why once; a pasted level empties the collection and level lists.
func TestBrowserStaleState(t *testing.T) {
	b, url := browserPage(t)
	dir := artifactDir()
	b.must("Page.navigate", map[string]any{"url": url + "/#microban:1"})
	b.waitFor("the page to load Microban 1", `window.soko && soko.ready && soko.state().level === "microban:1"`, 20*time.Second)
	b.eval(`document.getElementById("solution").value = "dlUrrrdLullddrUluRuulDrddrruLdlUU"`, nil)
	b.click("replayBtn")

	b.eval(`location.hash = "#nosuch:5"`, nil)
	b.waitFor("the unknown collection", `soko.state().error !== ""`, 10*time.Second)
	var page struct {
		Solution, Collection, Levels, Text string
	}
	read := func() {
		t.Helper()
		b.eval(`(() => { const c = document.getElementById("collection");
			return {solution: document.getElementById("solution").value, collection: c.options[c.selectedIndex].textContent,
				levels: document.getElementById("levelSel").value, text: document.querySelector("main").innerText}; })()`, &page)
	}
	read()
	if page.Solution != "" {
		t.Errorf("#nosuch:5 keeps Microban 1's LURD %q", page.Solution)
	}
	if n := strings.Count(page.Text, `Unknown collection "nosuch"`); n != 1 {
		t.Errorf("#nosuch:5: the reason is on the page %d times, want once", n)
	}
	if page.Collection != "unknown: nosuch" {
		t.Errorf("#nosuch:5: the collection list shows %q", page.Collection)
	}
	t.Logf("screenshot of an unknown collection: %s", b.screenshot(dir, "browser-stale-unknown.png"))

	b.eval("history.back()", nil)
	b.waitFor("microban:1 again", `soko.state().level === "microban:1"`, 10*time.Second)
	b.eval(`document.getElementById("paste").value = "#####\n#@$.#\n#####"`, nil)
	b.click("loadPaste")
	b.waitFor("the pasted level", `soko.state().level === "pasted:1"`, 10*time.Second)
	read()
	if page.Collection != "pasted level" || page.Levels != "" {
		t.Errorf("pasted: the lists show collection %q, level %q", page.Collection, page.Levels)
	}
	t.Logf("screenshot of a pasted level: %s", b.screenshot(dir, "browser-stale-pasted.png"))
	b.eval("history.back()", nil)
	b.waitFor("microban:1 again", `soko.state().level === "microban:1"`, 10*time.Second)
	var sel string
	b.eval(`document.getElementById("collection").value + ":" + document.getElementById("levelSel").value`, &sel)
	if sel != "microban:1" {
		t.Errorf("back from the pasted level, the lists show %s", sel)
	}
}

// TestBrowserSave: moves played by hand appear in the LURD box; a level
// solved by hand is marked in the level list, and stays marked after a
// reload; the level downloads as .xsb, and with that solution as .sok (the
// file soko writes, from POST /api/sok); copying puts the same text on the
// clipboard. An unfinished game saves as a snapshot; a LURD that is
// neither it nor a solution is not saved, and says why.
// The collection's kept solutions and games export as one .sok.
func TestBrowserSave(t *testing.T) {
	b, url := browserPage(t)
	dir := artifactDir()
	downloads := allowDownloads(t, b)
	b.must("Browser.grantPermissions", map[string]any{"origin": url, "permissions": []string{"clipboardReadWrite", "clipboardSanitizedWrite"}})
	b.must("Page.navigate", map[string]any{"url": url + "/#microban:1"})
	b.waitFor("the page to load Microban 1", `window.soko && soko.ready && soko.state().level === "microban:1"`, 20*time.Second)

	const sol = "dlUrrrdLullddrUluRuulDrddrruLdlUU"
	keys := map[rune]string{'u': "ArrowUp", 'd': "ArrowDown", 'l': "ArrowLeft", 'r': "ArrowRight"}
	box := func() string {
		var s string
		b.eval(`document.getElementById("solution").value`, &s)
		return s
	}
	for i, c := range strings.ToLower(sol) {
		b.press(keys[c])
		if i == 2 {
			if got := box(); got != "dlU" {
				t.Fatalf("after three moves by hand the LURD box holds %q", got)
			}
		}
	}
	b.waitFor("the level solved by hand", "soko.state().solved", 5*time.Second)
	if got := box(); got != sol {
		t.Fatalf("solved by hand, the LURD box holds %q, want %q", got, sol)
	}
	// The level list marks the level solved, and keeps the mark.
	mark := func() string {
		var s string
		b.eval(`(() => { const o = document.querySelector('#levelSel option[value="1"]'); return o.textContent + " | " + o.title; })()`, &s)
		return s
	}
	const marked = "✓ 1 — 6×7, 2 boxes | best kept here: 33 moves, 8 pushes by you"
	if got := mark(); got != marked {
		t.Errorf("level 1 in the list: %q, want %q", got, marked)
	}
	file := func(name string) string { t.Helper(); return download(t, downloads, name) }
	// The player's solution: played with soko's player, on the date it was
	// played (RFC 3339, UTC), as soko play --out writes it.
	wantSok := "Microban 1\n####\n# .#\n#  ###\n#*@  #\n#  $ #\n#  ###\n####\nTitle: Microban 1\n\nSolution (8 pushes, 33 moves)\n" + sol + "\nSolver: soko play\nDate: "
	sokOK := func(got string) bool {
		date, ok := strings.CutPrefix(got, wantSok)
		_, err := time.Parse(time.RFC3339, strings.TrimSuffix(date, "\n"))
		return ok && err == nil && strings.HasSuffix(date, "Z\n")
	}
	b.click("dlSok")
	if got := file("microban-1.sok"); !sokOK(got) {
		t.Errorf("microban-1.sok:\n%s\nwant\n%sDATE", got, wantSok)
	}
	var xsb string
	b.eval(`soko.xsb()`, &xsb)
	b.click("dlXsb")
	if got := file("microban-1.xsb"); got != xsb || !strings.Contains(got, "#*@  #") {
		t.Errorf("microban-1.xsb:\n%s\nwant\n%s", got, xsb)
	}
	t.Logf("screenshot of the saved solution: %s", b.screenshot(dir, "browser-save.png"))

	clip := func() string {
		var s string
		b.eval(`navigator.clipboard.readText()`, &s)
		return s
	}
	b.click("cpSok")
	b.waitFor("the copy", `document.getElementById("saveOut").textContent.startsWith("copied")`, 5*time.Second)
	if got := clip(); !sokOK(got) {
		t.Errorf("copied .sok:\n%s\nwant\n%sDATE", got, wantSok)
	}
	b.click("cpXsb")
	b.waitFor("the copy", `document.getElementById("saveOut").textContent.startsWith("copied the level's XSB")`, 5*time.Second)
	if got := clip(); got != xsb {
		t.Errorf("copied XSB:\n%s\nwant\n%s", got, xsb)
	}

	// Restart and a move the solution does not make: the box holds the
	// moves now played, an unfinished game, which saves as a snapshot
	// (TestBrowserSnapshot reads it back); a LURD typed in the box that is
	// neither the game nor a solution is refused.
	b.press("r")
	if got := box(); got != sol {
		t.Fatalf("after a restart the LURD box holds %q, want the solution still", got)
	}
	b.press("ArrowUp")
	if got := box(); got != "u" {
		t.Fatalf("after a restart and another move the LURD box holds %q, want \"u\"", got)
	}
	b.click("dlSok")
	b.waitFor("the game saved", `document.getElementById("saveOut").textContent.includes("your unfinished game (1 move) as a snapshot")`, 5*time.Second)
	b.eval(`document.getElementById("solution").value = "dl"`, nil)
	b.click("dlSok")
	b.waitFor("the refusal", `document.getElementById("saveOut").textContent.includes("not a solution of microban:1")`, 5*time.Second)

	b.must("Page.navigate", map[string]any{"url": url + "/?again#microban:1"})
	b.waitFor("the page to load again", `window.soko && soko.ready && soko.state().level === "microban:1"`, 20*time.Second)
	if got := mark(); got != marked {
		t.Errorf("level 1 in the list after a reload: %q, want %q", got, marked)
	}
	// The collection's solutions and games kept here, exported as one
	// .sok: all of Microban, level 1 with the solution played and the game
	// in progress after it.
	b.click("exportColl")
	b.waitFor("the export", `document.getElementById("keptOut").textContent === "exported 1 solution and 1 game in progress of microban in microban.sok"`, 10*time.Second)
	if got := file("microban.sok"); !strings.Contains(got, "Title: Microban 1\n\nSolution (8 pushes, 33 moves)\n"+sol+"\nSolver: soko play\nDate: ") ||
		!strings.Contains(got, "\n\nSnapshot (0 pushes, 1 move)\nu\nDate: ") ||
		strings.Count(got, "Title: ") != 155 || strings.Count(got, "Solution") != 1 || strings.Count(got, "Snapshot") != 1 {
		t.Errorf("microban.sok:\n%.600s…", got)
	}
	b.eval(`document.getElementById("levelSel").size = 6`, nil) // opened, as a list box: a screenshot has no drop-down
	t.Logf("screenshot of the level list with a solved mark: %s", b.screenshot(dir, "browser-solved-mark.png"))
}

// TestBrowserPhone plays on a phone's screen, 400×800 with touch: the
// board comes first and is whole without scrolling, a swipe moves the
// player, a tap on a box beside the player pushes it, a tap on a floor
// square walks there, and the on-screen arrows move. Then a click on the
// desktop's board walks too.
func TestBrowserPhone(t *testing.T) {
	b, url := browserPage(t)
	dir := artifactDir()
	b.must("Emulation.setDeviceMetricsOverride", map[string]any{"width": 400, "height": 800, "deviceScaleFactor": 1, "mobile": true})
	b.must("Emulation.setTouchEmulationEnabled", map[string]any{"enabled": true, "maxTouchPoints": 1})
	b.must("Page.navigate", map[string]any{"url": url + "/#microban:1"})
	b.waitFor("the page to load Microban 1", `window.soko && soko.ready && soko.state().level === "microban:1"`, 20*time.Second)

	// whole checks that the board and the arrows under it are in sight.
	whole := func(id string) {
		t.Helper()
		var box struct{ Top, Bottom, Left, Right, Scroll, PadBottom, Width, Height float64 }
		b.eval(`(() => { const r = document.getElementById("board").getBoundingClientRect(), p = document.getElementById("pad").getBoundingClientRect();
			return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, scroll: scrollY, padBottom: p.bottom, width: innerWidth, height: innerHeight}; })()`, &box)
		t.Logf("%s: board at %+v", id, box)
		if box.Width != 400 || box.Height != 800 || box.Scroll != 0 || box.Top < 0 || box.Left < 0 || box.Right > 400 || box.Bottom > 800 || box.PadBottom > 800 {
			t.Errorf("%s: the board or the arrows are not whole on a 400×800 screen: %+v", id, box)
		}
	}
	b.eval(`soko.load("xsokoban90", 39)`, nil)
	b.waitFor("xsokoban90:39", `soko.state().level === "xsokoban90:39"`, 10*time.Second)
	whole("xsokoban90:39")
	t.Logf("screenshot of a large level on a phone: %s", b.screenshot(dir, "browser-phone-large.png"))
	b.eval("history.back()", nil)
	b.waitFor("microban:1", `soko.state().level === "microban:1"`, 10*time.Second)
	whole("microban:1")

	type state struct {
		Moves  int
		Lurd   string
		Player []int
	}
	var st state
	read := func() state {
		t.Helper()
		var s state
		b.eval("soko.state()", &s)
		return s
	}
	// at returns the middle of square (x, y) of the board in the window.
	at := func(x, y int) (float64, float64) {
		t.Helper()
		var p struct{ X, Y float64 }
		b.eval(fmt.Sprintf(`(() => { const r = document.getElementById("board").getBoundingClientRect(), t = r.width / %d;
			return {x: r.left + (%d + .5) * t, y: r.top + (%d + .5) * t}; })()`, 6, x, y), &p)
		return p.X, p.Y
	}
	touch := func(points ...[2]float64) {
		t.Helper()
		for i, p := range points {
			typ := "touchMove"
			if i == 0 {
				typ = "touchStart"
			}
			b.must("Input.dispatchTouchEvent", map[string]any{"type": typ, "touchPoints": []map[string]any{{"x": p[0], "y": p[1]}}})
		}
		b.must("Input.dispatchTouchEvent", map[string]any{"type": "touchEnd", "touchPoints": []map[string]any{}})
	}

	// Microban 1: the player starts at (2, 3), a box at (3, 4).
	x, y := at(2, 3)
	touch([2]float64{x, y}, [2]float64{x, y + 30}, [2]float64{x + 5, y + 70}) // a swipe down
	if st = read(); st.Lurd != "d" {
		t.Fatalf("after a swipe down: %+v", st)
	}
	x, y = at(3, 4)
	touch([2]float64{x, y}) // a tap on the box beside the player
	b.waitFor("the push", `soko.state().lurd === "dR"`, 5*time.Second)
	x, y = at(1, 1)
	touch([2]float64{x, y}) // a tap on a floor square: walk there
	b.waitFor("the walk", `soko.state().player[0] === 1 && soko.state().player[1] === 1`, 5*time.Second)
	if st = read(); st.Moves != 7 || st.Lurd[:2] != "dR" || strings.ContainsAny(st.Lurd[2:], "UDLR") {
		t.Errorf("after the walk to (1, 1): %+v, want 5 moves after dR without a push", st)
	}
	b.click("padD")
	if st = read(); st.Moves != 8 || st.Player[0] != 1 || st.Player[1] != 2 {
		t.Errorf("after the down arrow: %+v", st)
	}
	b.eval("scrollTo(0, 0)", nil)
	t.Logf("screenshot of a phone mid-play: %s", b.screenshot(dir, "browser-phone-play.png"))

	// The live view of fess on a phone: on the main board, in sight.
	b.eval(`soko.load("xsokoban90", 39)`, nil)
	b.waitFor("xsokoban90:39", `soko.state().level === "xsokoban90:39"`, 10*time.Second)
	b.eval(`document.getElementById("threads").value = "1"`, nil) // two threads may solve it before the view is seen
	b.click("solveBtn")
	b.waitFor("live progress on the main board", `soko.state().live`, 15*time.Second)
	b.eval("scrollTo(0, 0)", nil)
	time.Sleep(time.Second)
	whole("xsokoban90:39, live")
	t.Logf("screenshot of the live view on a phone: %s", b.screenshot(dir, "browser-phone-live.png"))
	b.click("stopBtn")
	b.waitFor("the stopped job", `soko.state().job && soko.state().job.status === "cancelled" && !soko.state().live`, 10*time.Second)

	// A level solved on a phone: its mark in the level list, and Save.
	// The game played on it above is forgotten first: it would come back.
	b.eval(`localStorage.clear()`, nil)
	b.eval(`soko.load("microban", 1)`, nil)
	b.waitFor("microban:1", `soko.state().level === "microban:1"`, 10*time.Second)
	keys := map[rune]string{'u': "ArrowUp", 'd': "ArrowDown", 'l': "ArrowLeft", 'r': "ArrowRight"}
	for _, c := range "dlurrrdlullddruluruuldrddrruldluu" {
		b.press(keys[c])
	}
	b.waitFor("the level solved", "soko.state().solved", 5*time.Second)
	b.eval("scrollTo(0, 0)", nil)
	t.Logf("screenshot of a solved level on a phone: %s", b.screenshot(dir, "browser-phone-solved.png"))
	b.eval(`document.getElementById("saveOut").scrollIntoView({block: "end"})`, nil)
	t.Logf("screenshot of Save on a phone: %s", b.screenshot(dir, "browser-phone-save.png"))
	b.eval(`(() => { const s = document.getElementById("levelSel"); s.size = 6; s.scrollIntoView({block: "center"}); })()`, nil)
	t.Logf("screenshot of the level list on a phone: %s", b.screenshot(dir, "browser-phone-levels.png"))

	b.must("Emulation.setTouchEmulationEnabled", map[string]any{"enabled": false})
	b.must("Emulation.clearDeviceMetricsOverride", nil)
	b.must("Page.navigate", map[string]any{"url": url + "/?desktop#microban:1"})
	b.waitFor("the page to load Microban 1", `window.soko && soko.ready && soko.state().level === "microban:1"`, 20*time.Second)
	var pad string
	b.eval(`getComputedStyle(document.getElementById("pad")).display`, &pad)
	if pad != "none" {
		t.Errorf("on-screen arrows on a desktop: display %q", pad)
	}
	x, y = at(1, 4)
	for _, typ := range []string{"mouseMoved", "mousePressed", "mouseReleased"} {
		b.must("Input.dispatchMouseEvent", map[string]any{"type": typ, "x": x, "y": y, "button": "left", "clickCount": 1})
	}
	b.waitFor("the walk", `soko.state().player[0] === 1 && soko.state().player[1] === 4`, 5*time.Second)
}

// TestBrowserShorten: the page's solve hands the solution to the optimizer
// by default and says how long it was found; "no: the solver's own" sends
// optimize off and shows the solver's solution. Greedy's on Microban 3 is
// 59 moves, which the optimizer shortens.
func TestBrowserShorten(t *testing.T) {
	b, url := browserPage(t)
	b.must("Page.navigate", map[string]any{"url": url + "/#microban:3"})
	b.waitFor("the page to load Microban 3", `window.soko && soko.ready && soko.state().level === "microban:3"`, 20*time.Second)
	for _, tc := range []struct {
		shorten string
		cond    string // on the finished job
	}{
		{"pushes", `j.moves > 0 && j.found_moves === 59 && j.moves < 59 && /shortened by the optimizer from 59 moves/.test(document.getElementById("jobStatus").textContent)`},
		{"off", `j.moves === 59 && j.found_moves === 0 && !/shortened/.test(document.getElementById("jobStatus").textContent)`},
	} {
		b.eval(`(() => { document.getElementById("solverSel").value = "greedy"; document.getElementById("shortenSel").value = "`+tc.shorten+`"; return true; })()`, nil)
		var prev string
		b.eval(`soko.state().job ? String(soko.state().job.id) : ""`, &prev)
		b.click("solveBtn")
		b.waitFor("the "+tc.shorten+" job to end", `(j => j && String(j.id) !== "`+prev+`" && j.status === "solved")(soko.state().job)`, 20*time.Second)
		var ok bool
		b.eval(`(j => `+tc.cond+`)(soko.state().job)`, &ok)
		if !ok {
			var state any
			b.eval(`[soko.state().job, document.getElementById("jobStatus").textContent]`, &state)
			t.Errorf("shorten %s: job and status %v", tc.shorten, state)
		}
	}
}
