//go:build unix

package web

import (
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
