//go:build unix

package web

import (
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// planState is what the plan and detail browser tests read of the page.
type planState struct {
	Level string
	Plan  *struct {
		Level string
		Order []xy
		Error string
	}
	Detail   string
	Strategy string
}

// TestBrowserPlanOverlay: the packing plan toggle numbers the goals on the
// board in the order POST /api/plan gives (the board's pixels change with
// it on and come back with it off), follows the level, and says why a level
// that cannot be solved has no plan.
func TestBrowserPlanOverlay(t *testing.T) {
	b, url := browserPage(t)
	dir := artifactDir()
	state := func() planState {
		t.Helper()
		var s planState
		b.eval("soko.state()", &s)
		return s
	}
	pixels := func() string {
		t.Helper()
		var s string
		b.eval(`document.getElementById("board").toDataURL()`, &s)
		return s
	}
	apiPlan := func(body string) []xy {
		t.Helper()
		resp, data := post(t, url+"/api/plan", body)
		var p planJSON
		if err := json.Unmarshal(data, &p); err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("plan %s: %d %s", body, resp.StatusCode, data)
		}
		return p.Order
	}

	b.must("Page.navigate", map[string]any{"url": url + "/#microban:3"})
	b.waitFor("the page to load Microban 3", `window.soko && soko.ready && soko.state().level === "microban:3"`, 20*time.Second)
	plain := pixels()
	b.click("ovPlan")
	b.waitFor("the packing plan", `soko.state().plan && soko.state().plan.order`, 10*time.Second)
	st := state()
	if want := apiPlan(`{"collection":"microban","n":3}`); st.Plan.Level != "microban:3" || !slices.Equal(st.Plan.Order, want) {
		t.Fatalf("the page's plan %+v; the API's %v", st.Plan, want)
	}
	if pixels() == plain {
		t.Fatal("the board looks the same with the plan on")
	}
	var note string
	b.eval(`document.getElementById("planNote").textContent`, &note)
	if !strings.Contains(note, "fess packing plan") {
		t.Errorf("plan note %q", note)
	}
	t.Logf("screenshot of the plan overlay: %s", b.screenshot(dir, "browser-plan-overlay.png"))
	b.click("ovPlan")
	if pixels() != plain {
		t.Fatal("the board does not come back with the plan off")
	}
	b.click("ovPlan")

	// The next level gets its own plan.
	b.click("nextLevel")
	b.waitFor("the plan of Microban 4", `soko.state().plan && soko.state().plan.level === "microban:4"`, 10*time.Second)
	if st, want := state(), apiPlan(`{"collection":"microban","n":4}`); !slices.Equal(st.Plan.Order, want) {
		t.Fatalf("Microban 4: the page's plan %+v; the API's %v", st.Plan, want)
	}

	// A level that cannot be solved has none, and the page says why.
	b.eval(`document.getElementById("paste").value = "#######\n#@$ .##\n#######\n#$#.  #\n#######"`, nil)
	b.click("loadPaste")
	b.waitFor("the plan's error", `soko.state().level === "pasted:1" && soko.state().plan && soko.state().plan.error`, 10*time.Second)
	b.eval(`document.getElementById("planNote").textContent`, &note)
	if !strings.Contains(note, "no packing plan") || !strings.Contains(note, "cannot be solved") {
		t.Errorf("plan note for an unsolvable level %q", note)
	}
}

// TestBrowserSolverDetail: while a search runs, its words about the best
// board stand under that board; a portfolio's result names the member that
// solved the level, as a member of the solver chosen, and lists the
// members' counters.
func TestBrowserSolverDetail(t *testing.T) {
	b, url := browserPage(t)
	dir := artifactDir()
	b.must("Page.navigate", map[string]any{"url": url + "/#xsokoban90:39"})
	b.waitFor("the page to load XSokoban 39", `window.soko && soko.ready && soko.state().level === "xsokoban90:39"`, 20*time.Second)
	b.click("solveBtn") // fess, the page's default: a portfolio, so the member speaks
	b.waitFor("the best board's detail", `soko.state().detail !== ""`, 15*time.Second)
	b.waitFor("a detail with fess's features", `soko.state().detail.includes("packed")`, 15*time.Second)
	var st planState
	b.eval("soko.state()", &st)
	if !regexp.MustCompile(`^(greedy: boxes on goals \d+ of 25|\w+: packed \d+ of 25, regions \d+, .*)$`).MatchString(st.Detail) {
		t.Errorf("detail %q", st.Detail)
	}
	// Only the rows fess fills are shown, and its terms are explained.
	var live struct {
		Empty []string
		Gloss string
	}
	b.eval(`({empty: [...document.querySelectorAll("#stats tr")].filter(r => !r.hidden && r.cells[1].textContent === "–").map(r => r.cells[0].textContent),
		gloss: document.getElementById("bestGloss").hidden ? "" : document.getElementById("bestGloss").textContent})`, &live)
	if len(live.Empty) > 0 {
		t.Errorf("rows fess leaves empty are shown: %v", live.Empty)
	}
	if strings.Contains(st.Detail, "packed") && !strings.Contains(live.Gloss, "packed: boxes home in plan order") {
		t.Errorf("detail %q explained as %q", st.Detail, live.Gloss)
	}
	b.eval(`document.getElementById("bestDetail").scrollIntoView({block: "center"})`, nil)
	t.Logf("screenshot of the detail: %s", b.screenshot(dir, "browser-solver-detail.png"))
	b.click("stopBtn")
	b.waitFor("the stopped job", `soko.state().job && soko.state().job.status === "cancelled"`, 10*time.Second)

	b.eval(`soko.load("microban", 2)`, nil)
	b.waitFor("microban:2", `soko.state().level === "microban:2"`, 10*time.Second)
	b.eval(`(() => { const s = document.getElementById("solverSel"); s.value = "portfolio"; s.dispatchEvent(new Event("change")); })()`, nil)
	b.click("solveBtn")
	b.waitFor("the portfolio to solve Microban 2", `soko.state().job && soko.state().job.status === "solved"`, 20*time.Second)
	b.eval("soko.state()", &st)
	var shown struct {
		Status string
		Counts string
		Hidden bool
	}
	b.eval(`({status: document.getElementById("jobStatus").textContent, counts: document.getElementById("stCounts").textContent,
		hidden: document.getElementById("countsBox").hidden})`, &shown)
	if st.Strategy != "astar" || !strings.HasSuffix(shown.Status, " by portfolio (its astar member)") || shown.Hidden || !strings.Contains(shown.Counts, "astar.expanded") {
		t.Errorf("portfolio result: strategy %q, %+v", st.Strategy, shown)
	}
	b.eval(`document.getElementById("countsBox").open = true`, nil)
	t.Logf("screenshot of the portfolio's result: %s", b.screenshot(dir, "browser-portfolio-result.png"))
}
