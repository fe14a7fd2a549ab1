//go:build unix

package web

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// upload gives the page's file input the file at path, as a player
// choosing it does: the input's change event loads it.
func upload(b *browser, path string) {
	b.t.Helper()
	var doc struct{ Root struct{ NodeID int } }
	if err := json.Unmarshal(b.must("DOM.getDocument", map[string]any{}), &doc); err != nil {
		b.t.Fatal(err)
	}
	var in struct{ NodeID int }
	if err := json.Unmarshal(b.must("DOM.querySelector", map[string]any{"nodeId": doc.Root.NodeID, "selector": "#upload"}), &in); err != nil || in.NodeID == 0 {
		b.t.Fatalf("no file input: %v", err)
	}
	b.must("DOM.setFileInputFiles", map[string]any{"nodeId": in.NodeID, "files": []string{path}})
}

// TestBrowserSnapshot saves an unfinished game and gets it back: Microban
// 2 played part of the way downloads as a .sok file with a Snapshot
// section (not refused as "not a solution"), and the collection's export
// holds it too; in a browser that keeps nothing, loading either file puts
// the game at the same position, which a reload keeps. A file whose
// snapshot does not replay still loads its level and says why, naming the
// line.
func TestBrowserSnapshot(t *testing.T) {
	b, url := browserPage(t)
	downloads := allowDownloads(t, b)
	b.must("Page.navigate", map[string]any{"url": url + "/#microban:2"})
	b.waitFor("Microban 2", `window.soko && soko.ready && soko.state().level === "microban:2"`, 20*time.Second)
	b.eval("localStorage.clear()", nil)
	keys := map[rune]string{'u': "ArrowUp", 'd': "ArrowDown", 'l': "ArrowLeft", 'r': "ArrowRight"}
	for _, c := range "rddl" {
		b.press(keys[c])
	}
	type state struct {
		Level, Lurd string
		Moves       int
		Pushes      int
		Solved      bool
		Player      []int
	}
	var played state
	b.eval("soko.state()", &played)
	if played.Lurd != "rddL" || played.Solved {
		t.Fatalf("after r d d l: %+v", played)
	}
	file := func(name string) string { t.Helper(); return download(t, downloads, name) }
	said := func(id string) string {
		var s string
		b.eval(`document.getElementById("`+id+`").textContent`, &s)
		return s
	}

	b.click("dlSok")
	one := file("microban-2.sok")
	if !strings.Contains(one, "Title: Microban 2\n\nSnapshot (1 push, 4 moves)\nrddL\nDate: ") || strings.Contains(one, "Solution") {
		t.Fatalf("microban-2.sok of the unfinished game:\n%s", one)
	}
	if s := said("saveOut"); !strings.Contains(s, "your unfinished game (4 moves) as a snapshot") {
		t.Errorf("the page says %q of the download", s)
	}
	// After an undo the LURD box still holds the move undone: the game as
	// it stands is saved, not the box refused as a solution.
	first := filepath.Join(downloads, "microban-2.sok")
	if err := os.Rename(first, first+".first"); err != nil {
		t.Fatal(err)
	}
	b.press("z")
	b.click("dlSok")
	if undone := file("microban-2.sok"); !strings.Contains(undone, "Snapshot (0 pushes, 3 moves)\nrdd\nDate: ") {
		t.Fatalf("microban-2.sok after an undo:\n%s", undone)
	}
	if err := os.Rename(first+".first", first); err != nil {
		t.Fatal(err)
	}
	b.press("y")
	b.click("exportColl")
	b.waitFor("the export", `document.getElementById("keptOut").textContent.startsWith("exported 0 solutions and 1 game in progress of microban")`, 10*time.Second)
	all := file("microban.sok")
	if strings.Count(all, "Snapshot") != 1 || !strings.Contains(all, "Title: Microban 2\n\nSnapshot (1 push, 4 moves)\nrddL\nDate: ") {
		t.Fatalf("microban.sok holds no snapshot of Microban 2:\n%.800s", all)
	}

	// Another browser, as it were: nothing kept, another level on the board.
	for _, name := range []string{"microban-2.sok", "microban.sok"} {
		b.eval("localStorage.clear()", nil)
		b.must("Page.navigate", map[string]any{"url": url + "/?" + name + "#microban:1"})
		b.waitFor("Microban 1", `window.soko && soko.ready && soko.state().level === "microban:1"`, 20*time.Second)
		upload(b, filepath.Join(downloads, name))
		b.waitFor(name+" loaded", `soko.state().level && soko.state().level.startsWith("pasted:")`, 10*time.Second)
		var got state
		b.eval("soko.state()", &got)
		if got.Lurd != played.Lurd || got.Pushes != 1 || got.Player[0] != played.Player[0] || got.Player[1] != played.Player[1] {
			t.Fatalf("%s loaded: %+v, want the game %+v", name, got, played)
		}
		if s := said("keptOut"); !strings.Contains(s, "the file's saved game is resumed: 4 moves") {
			t.Errorf("%s: the page says %q of the game it resumed", name, s)
		}
		b.must("Page.reload", map[string]any{})
		b.waitFor("the page to load again", `window.soko && soko.ready && (soko.state().level || "").startsWith("pasted:")`, 20*time.Second)
		b.eval("soko.state()", &got)
		if got.Lurd != played.Lurd || got.Player[0] != played.Player[0] || got.Player[1] != played.Player[1] {
			t.Fatalf("%s, after a reload: %+v, want the game %+v", name, got, played)
		}
	}

	// A snapshot that does not replay: the level loads, the page says why.
	bad := filepath.Join(t.TempDir(), "bad.sok")
	if err := os.WriteFile(bad, []byte("#######\n#@ $ .#\n#######\n\nSnapshot\nRRRR\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	upload(b, bad)
	b.waitFor("bad.sok loaded", `soko.state().level === "pasted:1" && soko.state().moves === 0 && document.getElementById("keptOut").textContent !== ""`, 10*time.Second)
	if s := said("keptOut"); s != "the file's saved game cannot be resumed: pasted:5: level 1: snapshot: does not replay on its level: step 4 (R): push blocked by wall at row 2, column 7" {
		t.Errorf("a snapshot that does not replay: the page says %q", s)
	}
}

// TestBrowserVerifyCase: Verify of a solution whose pushes are written in
// lower case says it solves the level only when read leniently, as soko
// verify refuses it, and does not show it as a solution.
func TestBrowserVerifyCase(t *testing.T) {
	b, url := browserPage(t)
	b.must("Page.navigate", map[string]any{"url": url + "/#microban:1"})
	b.waitFor("Microban 1", `window.soko && soko.ready && soko.state().level === "microban:1"`, 20*time.Second)
	b.eval(`document.getElementById("solution").value = "dlurrrdlullddruluruuldrddrruldluu"`, nil)
	b.click("verifyBtn")
	b.waitFor("the verdict", `document.getElementById("verifyOut").textContent !== ""`, 10*time.Second)
	var out struct{ Text, Class string }
	b.eval(`({text: document.getElementById("verifyOut").textContent, class: document.getElementById("verifyOut").className})`, &out)
	if out.Class != "err" || !strings.HasPrefix(out.Text, "solves microban:1 only when read leniently, as soko verify does not: step 3 (u) pushes a box but is written in lower case (and 7 more steps)") {
		t.Errorf("verify of a lower-case solution: %+v", out)
	}
}
