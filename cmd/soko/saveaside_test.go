package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"soko/level"
	"soko/levels"
)

// sokOutWithSolution opens path as solve --out does and adds a level with
// its solution to it.
func sokOutWithSolution(t *testing.T, path string) *sokOut {
	t.Helper()
	o, err := openSokOut(context.Background(), "solve", "--out", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { o.close() })
	ls, err := level.Parse(strings.NewReader("####\n#@$.#\n####\n"), "x")
	if err != nil {
		t.Fatal(err)
	}
	o.add(levels.Entry{Level: ls[0]}, "R", "test")
	return o
}

// checkAside checks that a save's error names the side file holding the
// run's one solution, is no usage error (exit status 2), and that the
// file at path is as it was left (want, mode).
func checkAside(t *testing.T, err error, path string, want []byte, mode os.FileMode) {
	t.Helper()
	side := filepath.Join(filepath.Dir(path), fmt.Sprintf("all.soko-%d.sok", os.Getpid()))
	if err == nil || !strings.Contains(err.Error(), "1 level and 1 solution are in "+side+" instead") {
		t.Errorf("save: %v", err)
	}
	if errors.As(err, new(usageError)) {
		t.Errorf("save after the work is a usage error (exit status 2): %v", err)
	}
	if got := readText(t, side); strings.Count(got, "\nSolution (") != 1 {
		t.Errorf("the side file:\n%s", got)
	}
	if want == nil {
		return
	}
	st, serr := os.Stat(path)
	got, _ := os.ReadFile(path)
	if serr != nil || !bytes.Equal(got, want) || st.Mode().Perm() != mode {
		t.Errorf("the file at the path was changed: %q, %v", got, st.Mode())
	}
}

// A .sok replaced during the run by a file this run cannot merge into
// (another kind of file, a read-only one, something not a file) keeps
// it as it is and gets the run's solutions in the side file, with exit
// status 1. Before, another kind was a usage error (exit 2) with the
// solutions lost, and a read-only file renamed over the path was
// rewritten.
func TestSokSaveAsideWhenReplaced(t *testing.T) {
	sok := []byte("; mine\n\n####\n#@$.#\n####\n")
	for _, tc := range []struct {
		name    string
		content []byte
		mode    os.FileMode
		removed bool // removed, then the new content appears
		dir     bool // a folder appears instead
		why     string
	}{
		{name: "model", content: kindSamples["model"], mode: 0o644, why: "a soko model"},
		{name: "gzip", content: kindSamples["gzip"], mode: 0o644, why: "gzip"},
		// Text with no level is a .sok's header under a .sok name, and
		// merged into; binary data is not.
		{name: "binary", content: kindSamples["nul"], mode: 0o644, why: "binary data"},
		{name: "removed, then a PNG", content: kindSamples["png"], mode: 0o644, removed: true, why: "PNG"},
		{name: "read-only .sok", content: sok, mode: 0o444, why: "read-only"},
		{name: "a folder", dir: true, why: "all.sok"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "all.sok")
			if err := os.WriteFile(path, sok, 0o644); err != nil {
				t.Fatal(err)
			}
			o := sokOutWithSolution(t, path)
			switch {
			case tc.dir:
				os.Remove(path)
				if err := os.Mkdir(path, 0o755); err != nil {
					t.Fatal(err)
				}
			case tc.removed:
				os.Remove(path)
				if err := os.WriteFile(path, tc.content, tc.mode); err != nil {
					t.Fatal(err)
				}
			default: // cp and mv
				if err := os.WriteFile(path+"~", tc.content, tc.mode); err != nil {
					t.Fatal(err)
				}
				os.Chmod(path+"~", tc.mode)
				if err := os.Rename(path+"~", path); err != nil {
					t.Fatal(err)
				}
			}
			var stderr strings.Builder
			err := o.write(context.Background(), &stderr)
			checkAside(t, err, path, tc.content, tc.mode)
			// Said on stderr, so that a failed level's errSilent, joined
			// with it, does not hide it (exitCode prints neither).
			if err == nil || !strings.Contains(stderr.String(), err.Error()) || !errors.Is(err, errSilent) {
				t.Errorf("stderr does not tell where the solutions went:\n%s", stderr.String())
			}
			if err != nil && !strings.Contains(err.Error(), tc.why) {
				t.Errorf("the error does not say why (%q): %v", tc.why, err)
			}
		})
	}
}

// cancelOn is a standard error that cancels when a line holding want is
// written to it.
type cancelOn struct {
	strings.Builder
	want   string
	cancel context.CancelFunc
}

func (c *cancelOn) Write(p []byte) (int, error) {
	if strings.Contains(string(p), c.want) {
		c.cancel()
	}
	return c.Builder.Write(p)
}

// An interrupt ends the wait of a save for another soko holding the file
// renamed over the .sok at once, and one that came before the save means
// no wait at all: the run's solutions go to the side file, the message
// naming it is on stderr, and the run ends as interrupted (exit 130).
// Before, the save waited out sokSaveWait and exited 1.
func TestSokSaveInterrupted(t *testing.T) {
	saved := sokSaveWait
	sokSaveWait = time.Hour // a wait not ended by the interrupt fails the test by its timeout
	defer func() { sokSaveWait = saved }()
	for _, before := range []bool{false, true} {
		t.Run(fmt.Sprintf("interrupted before the save %v", before), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "all.sok")
			if err := os.WriteFile(path, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			o := sokOutWithSolution(t, path)
			defer editedAndHeld(t, path).Close()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			stderr := &cancelOn{want: "waiting up to", cancel: cancel}
			if before {
				cancel()
			}
			err := o.write(ctx, stderr)
			if !errors.Is(err, errInterrupted) {
				t.Errorf("save: %v, want interrupted", err)
			}
			side := filepath.Join(filepath.Dir(path), fmt.Sprintf("all.soko-%d.sok", os.Getpid()))
			if !strings.Contains(stderr.String(), "are in "+side+" instead") {
				t.Errorf("stderr:\n%s", stderr.String())
			}
			if before && strings.Contains(stderr.String(), "waiting up to") {
				t.Errorf("an interrupted run waited:\n%s", stderr.String())
			}
			checkAside(t, errors.New(stderr.String()), path, []byte("; edited\n"), 0o644)
		})
	}
}

// A level solved at its start has no moves, and a .sok no section for
// it: solve --out says so beside its counts, and verify of a file whose
// levels are all solved at their start passes, saying why it replays
// nothing. Before, solve said only "0 solutions new or better" after
// "solved 1 of 1", and verify failed with "has no solutions".
func TestSokLevelSolvedAtStart(t *testing.T) {
	dir := t.TempDir()
	lv, out := filepath.Join(dir, "solved.xsb"), filepath.Join(dir, "z.sok")
	if err := os.WriteFile(lv, []byte("####\n#@*#\n####\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, err := soko(t, "", "solve", "--algo", "astar", "--out", out, lv)
	if err != nil || !strings.Contains(stderr, "1 level is solved at its start (0 moves): it has no solution in "+out) {
		t.Fatalf("solve: %v\n%s", err, stderr)
	}
	stdout, _, err := soko(t, "", "verify", out)
	if err != nil || !strings.Contains(stdout, "its 1 level is solved at the start") {
		t.Errorf("verify: %v\n%s", err, stdout)
	}
	// A file with a level that is not solved and no solution still fails.
	if err := os.WriteFile(out, []byte("####\n#@$.#\n####\n\n####\n#@*#\n####\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := soko(t, "", "verify", out); err == nil || !strings.Contains(err.Error(), "has no solutions") {
		t.Errorf("verify of a file with an unsolved level and no solution: %v", err)
	}
}
