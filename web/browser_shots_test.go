//go:build unix

package web

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// shotDevices are the two screens the page is shown on in
// docs/screenshots: a desktop's 1400×1000 window and a phone's 400×800,
// with touch.
var shotDevices = []struct {
	name          string
	width, height int
	phone         bool
}{
	{"desktop", 1400, 1000, false},
	{"phone", 400, 800, true},
}

// setDevice makes the page's viewport exactly the device's, with touch on
// a phone.
func setDevice(b *browser, width, height int, phone bool) {
	b.t.Helper()
	b.must("Emulation.setDeviceMetricsOverride", map[string]any{"width": width, "height": height, "deviceScaleFactor": 1, "mobile": phone})
	b.must("Emulation.setTouchEmulationEnabled", map[string]any{"enabled": phone, "maxTouchPoints": 1})
}

// inView reports where the element with the given id is and whether it is
// whole in the window without scrolling.
func inView(b *browser, id string) (string, bool) {
	b.t.Helper()
	var r struct {
		Top, Bottom, Left, Right, Width, Height, Scroll float64
	}
	b.eval(fmt.Sprintf(`(() => { const r = document.getElementById(%q).getBoundingClientRect();
		return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: innerWidth, height: innerHeight, scroll: scrollY}; })()`, id), &r)
	ok := r.Scroll == 0 && r.Top >= 0 && r.Left >= 0 && r.Bottom <= r.Height && r.Right <= r.Width && r.Bottom > r.Top
	return fmt.Sprintf("%s at x %.0f–%.0f, y %.0f–%.0f of %.0f×%.0f (scrolled %.0f)", id, r.Left, r.Right, r.Top, r.Bottom, r.Width, r.Height, r.Scroll), ok
}

// TestBrowserScreens plays through what docs/screenshots shows, on a
// desktop's 1400×1000 window and a phone's 400×800: a level mid-play, the
// live view of fess on XSokoban 10 (more than a few seconds' search), a finished
// solution with its download, and the level list with solved marks. At
// each step the board (and, live, its caption; with the solver's counters
// opened on the desktop) is whole in the window without scrolling. The
// screenshots go to $SOKO_SCREENSHOTS when it is set (docs/screenshots
// is made so), else to the test artifacts.
func TestBrowserScreens(t *testing.T) {
	b, url := browserPage(t)
	dir := os.Getenv("SOKO_SCREENSHOTS")
	if dir == "" {
		dir = artifactDir()
	}
	downloads := allowDownloads(t, b)
	keys := map[rune]string{'u': "ArrowUp", 'd': "ArrowDown", 'l': "ArrowLeft", 'r': "ArrowRight"}
	play := func(lurd string) {
		t.Helper()
		for _, c := range strings.ToLower(lurd) {
			b.press(keys[c])
		}
	}
	whole := func(what string, ids ...string) {
		t.Helper()
		for _, id := range ids {
			where, ok := inView(b, id)
			if !ok {
				t.Errorf("%s: not whole in the window: %s", what, where)
			}
		}
	}
	shot := func(name string) {
		t.Helper()
		t.Logf("screenshot: %s", b.screenshot(dir, name))
	}
	load := func(id string) {
		t.Helper()
		coll, n, _ := strings.Cut(id, ":")
		b.eval(fmt.Sprintf(`soko.load(%q, %s)`, coll, n), nil)
		b.waitFor(id, fmt.Sprintf(`soko.state().level === %q`, id), 10*time.Second)
		b.eval("scrollTo(0, 0)", nil)
	}

	for _, dev := range shotDevices {
		setDevice(b, dev.width, dev.height, dev.phone)
		// Nothing kept from the last device's scenes: the browser's
		// storage is cleared from a page of the server's that keeps
		// nothing when it is left, as the game's page does.
		b.must("Page.navigate", map[string]any{"url": url + "/api/limits"})
		b.waitFor("the limits", `document.readyState === "complete"`, 20*time.Second)
		b.eval("localStorage.clear()", nil)
		b.must("Page.navigate", map[string]any{"url": fmt.Sprintf("%s/?%s#microban:3", url, dev.name)})
		b.waitFor("the page to load Microban 3", `window.soko && soko.ready && soko.state().level === "microban:3" && soko.state().moves === 0`, 20*time.Second)

		// A level mid-play: a few moves and a push by hand.
		play("ruuLLLddl")
		b.eval("scrollTo(0, 0)", nil)
		whole(dev.name+" mid-play", "board")
		shot(dev.name + "-play.png")

		// The live view: fess on XSokoban 10 for a couple of seconds, its
		// position on the main board under the caption; on the desktop
		// with the solver's counters opened beside it.
		// Solve is pressed in the solver's panel (scrolled to, on a
		// phone): the view follows the board, with no scrolling by the test.
		load("xsokoban90:10")
		b.eval(`document.getElementById("threads").value = "1"`, nil) // one strategy's view at a time, as before threads were the default
		b.click("solveBtn")
		b.waitFor("live progress on the main board", `soko.state().live && document.getElementById("stExpanded").textContent !== "–"`, 15*time.Second)
		time.Sleep(2 * time.Second)
		if !dev.phone {
			b.eval(`document.getElementById("countsBox").open = true`, nil)
		}
		var live bool
		var moves int
		b.eval("soko.state().live", &live)
		if live { // not when fess has solved it already: then there is no live view to see
			for _, id := range []string{"liveCaption", "board"} {
				if where, ok := visible(b, id); !ok {
					t.Errorf("%s live: not whole in the window: %s", dev.name, where)
				}
			}
			if !dev.phone {
				// fess's words about its position, under the numbers, in
				// sight with the counters opened, the panels from the top.
				b.eval("scrollTo(0, 0)", nil)
				// The captions of its terms too, where the words have
				// terms: the back strategy's, and the optimizer's once
				// the level is solved, have none.
				ids := []string{"bestDetail", "countsSum"}
				var gloss bool
				if b.eval(`!document.getElementById("bestGloss").hidden`, &gloss); gloss {
					ids = append(ids, "bestGloss")
				}
				whole(dev.name+" live", ids...)
			}
			shot(dev.name + "-live.png")
			if !dev.phone {
				// A move brings the game back to the main board; the
				// solver's position goes beside its numbers, whole.
				for _, k := range []string{"ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"} {
					b.press(k)
					if b.eval("soko.state().moves", &moves); moves > 0 {
						break
					}
				}
				b.waitFor("the position on the small board", `!soko.state().live && document.getElementById("best").width > 10`, 10*time.Second)
				b.eval("scrollTo(0, 0)", nil)
				whole(dev.name+" live beside the numbers", "best", "bestDetail")
				shot(dev.name + "-live-beside.png")
			}
		} else {
			t.Logf("%s: fess finished XSokoban 10 before the screenshot: no live view to check", dev.name)
		}
		b.click("stopBtn")
		b.waitFor("the job to end", `soko.state().job && soko.state().job.status !== "running" && soko.state().job.status !== "queued" && !soko.state().live`, 10*time.Second)

		// A finished solution with its download: fess's solution of
		// Microban 3 replayed to the end, then saved as .sok.
		load("microban:3")
		b.click("solveBtn")
		b.waitFor("fess to solve Microban 3", `soko.state().job && soko.state().job.status === "solved" && soko.state().level === "microban:3"`, 20*time.Second)
		b.click("rpEnd")
		b.waitFor("the replay at its end", "soko.state().solved", 10*time.Second)
		b.click("dlSok")
		b.waitFor("the download", `document.getElementById("saveOut").textContent.startsWith("downloaded microban-3.sok")`, 10*time.Second)
		path := filepath.Join(downloads, "microban-3.sok")
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			if data, err := os.ReadFile(path); err == nil && strings.Contains(string(data), "Solution (") && strings.Contains(string(data), "Solver: soko fess") {
				break
			}
			if time.Now().After(deadline) {
				data, _ := os.ReadFile(path)
				t.Fatalf("%s: the download %s holds %q", dev.name, path, data)
			}
		}
		os.Remove(path)
		if dev.phone { // the Save panel is under the board: the banner and the panel together
			b.eval(`document.getElementById("saveOut").scrollIntoView({block: "end"})`, nil)
		} else {
			b.eval("scrollTo(0, 0)", nil)
			whole(dev.name+" solved", "board", "saveOut")
		}
		time.Sleep(700 * time.Millisecond) // the banner's animation
		shot(dev.name + "-solution.png")

		// The level list with solved marks: Microban 1 and 2 solved by hand
		// too, the list opened as a list box (a screenshot shows no
		// drop-down).
		for _, lv := range []struct{ id, lurd string }{
			{"microban:1", "dlUrrrdLullddrUluRuulDrddrruLdlUU"},
			{"microban:2", "rddLruulDuullddR"},
		} {
			load(lv.id)
			play(lv.lurd)
			b.waitFor(lv.id+" solved by hand", "soko.state().solved", 5*time.Second)
		}
		var marks []string
		b.eval(`[...document.querySelectorAll("#levelSel option")].filter(o => o.textContent.startsWith("✓")).map(o => o.value)`, &marks)
		if strings.Join(marks, ",") != "1,2" { // not 3: a solver's solution replayed is not solved by hand
			t.Errorf("%s: levels marked solved %v, want 1 and 2", dev.name, marks)
		}
		b.eval(`(() => { const s = document.getElementById("levelSel"); s.size = 8; s.scrollTop = 0; })()`, nil)
		if dev.phone {
			b.eval(`document.getElementById("levelSel").scrollIntoView({block: "center"})`, nil)
		} else {
			b.eval("scrollTo(0, 0)", nil)
		}
		shot(dev.name + "-levels.png")
	}
}
