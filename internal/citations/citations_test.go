package citations

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// root returns the module's root directory: the nearest parent holding
// go.mod.
func root(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's directory")
		}
		dir = parent
	}
}

// outside are the ways a file has pointed outside the repository: the
// shared folder beside the checkout, absolute paths into the machine's
// work tree, and the source documents' file names. They are built from
// pieces so that this file does not match itself.
var outside = []string{
	".." + "/shared",
	"/" + "work/",
	"shared" + "/seeds",
	"seeds" + "/00",
	"0b79e597" + "665ea7e7", "0b64c79b" + "03a6d680", "79c9250c" + "1f417a62",
	"afb94baf" + "cfaf53bf", "d7326573" + "078d7134",
}

// TestNothingPointsOutside reads every text file of the repository (not the
// results/ data, which holds only measurements) and fails on each
// reference to a place outside it.
func TestNothingPointsOutside(t *testing.T) {
	top := root(t)
	files := 0
	err := filepath.WalkDir(top, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(top, path)
		if d.Name() == ".git" { // a directory, or in a worktree a file naming one
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			if rel == "results" {
				return filepath.SkipDir
			}
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if bytes.IndexByte(b, 0) >= 0 {
			return nil // binary
		}
		files++
		for i, line := range strings.Split(string(b), "\n") {
			for _, p := range outside {
				if strings.Contains(line, p) {
					t.Errorf("%s:%d points outside the repository (%q): %s", rel, i+1, p, strings.TrimSpace(line))
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("read only %d files under %s; is this the repository?", files, top)
	}
}

// TestSourceDocumentsListed checks that the README's References name each
// of the five source documents that code and documents cite by number.
func TestSourceDocumentsListed(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(root(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, refs, ok := strings.Cut(string(b), "\n## References\n")
	if !ok {
		t.Fatal("the README has no References section")
	}
	for _, doc := range []struct{ number, title string }{
		{"000", "Schokoban: Using Monte Carlo Tree Search for Solving Sokoban"},
		{"001", "Hybrid informed search Q-Learning for solving Sokoban puzzles"},
		{"002", "Monte Carlo Tree Search With Reversibility Compression"},
		{"003", "Solve Sokoban with AlphaZero"},
		{"004", "Sokoban Project Report"},
	} {
		if !strings.Contains(refs, "- **"+doc.number+"**:") {
			t.Errorf("References lack source document %s", doc.number)
		}
		if !strings.Contains(strings.Join(strings.Fields(refs), " "), doc.title) {
			t.Errorf("References lack the title of %s: %q", doc.number, doc.title)
		}
	}
}
