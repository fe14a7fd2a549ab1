package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"soko/internal/outfile"
)

// levelFile writes microban:1 as an XSB file in dir and returns its path
// and text.
func levelFile(t *testing.T, dir string) (string, string) {
	t.Helper()
	text, _, err := soko(t, "", "show", "microban:1")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "lv.xsb")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, text
}

// An output that is standard input, when the run reads it (- as a level
// spec or a solution), is refused before any work like any output that
// names an input: the file the shell gave as standard input named by its
// path, and /dev/stdin or /proc/self/fd/0 in a real process.
func TestOutputIsStdin(t *testing.T) {
	dir := t.TempDir()
	lv, text := levelFile(t, dir)
	const sol = "dlUrrrdLullddrUluRuulDrddrruLdlUU"
	for _, args := range [][]string{
		{"solve", "-", "--trace", lv},
		{"solve", "-", "--cpuprofile", lv},
		{"solve", "-", "--memprofile", lv},
		{"train", "-", "--rounds", "1", "--out", lv},
		{"bench", "-", "--out", lv},
		{"bench", "-", "--sok", lv},
		{"solve", "-", "--out", lv},
		{"optimize", "-", sol, "--out", lv},
		{"optimize", "microban:1", "-", "--out", lv},
		{"generate", "--stats-of", "-", "--plot", lv},
	} {
		in, err := os.Open(lv)
		if err != nil {
			t.Fatal(err)
		}
		var out, errOut bytes.Buffer
		err = run(context.Background(), args, in, &out, &errOut)
		in.Close()
		var u usageError
		if !errors.As(err, &u) || !strings.Contains(err.Error(), "is also an input of this run (standard input)") {
			t.Errorf("%q < lv.xsb: %v, want a usage error naming standard input", args, err)
		}
		if readText(t, lv) != text {
			t.Fatalf("%q < lv.xsb changed lv.xsb", args)
		}
	}
	if testing.Short() {
		return
	}
	if _, err := os.Stat("/proc/self/fd/0"); err != nil {
		t.Skip("no /proc/self/fd:", err)
	}
	for _, args := range [][]string{
		{"solve", "-", "--algo", "astar", "--trace", "/dev/stdin"},
		{"solve", "-", "--algo", "astar", "--cpuprofile", "/proc/self/fd/0"},
		{"train", "-", "--rounds", "1", "--out", "/dev/stdin"},
	} {
		in, err := os.Open(lv)
		if err != nil {
			t.Fatal(err)
		}
		cmd, stderr := child(t, in, args...)
		in.Close()
		if code := exitStatus(cmd, 30*time.Second); code != 2 || !strings.Contains(stderr.String(), "standard input") {
			t.Errorf("%q < lv.xsb: exit status %d, want 2 naming standard input\n%s", args, code, stderr)
		}
		if readText(t, lv) != text {
			t.Fatalf("%q < lv.xsb changed lv.xsb", args)
		}
	}
}

// A results file named .gz is gzip: bench --out and optimize --out, which
// append plain JSON lines, refuse the name before any work; bench merge
// --out writes it gzipped, also over a gzipped bench file, which stays
// one that report reads.
func TestGzipOutputs(t *testing.T) {
	dir := t.TempDir()
	runs := filepath.Join(dir, "runs.jsonl")
	if _, _, err := soko(t, "", "bench", "--algo", "astar", "--out", runs, "microban:1-2"); err != nil {
		t.Fatal(err)
	}
	const sol = "dlUrrrdLullddrUluRuulDrddrruLdlUU"
	for _, args := range [][]string{
		{"bench", "--algo", "astar", "--out", filepath.Join(dir, "new.jsonl.gz"), "microban:1"},
		{"optimize", "--out", filepath.Join(dir, "o.jsonl.gz"), "microban:1", sol},
	} {
		out, _, err := soko(t, "", args...)
		var u usageError
		if !errors.As(err, &u) || !strings.Contains(err.Error(), "gzip it afterwards") || out != "" {
			t.Errorf("%q: %v, want a usage error before any work", args, err)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("files made by refused runs: %v", entries)
	}
	merged := filepath.Join(dir, "m.jsonl.gz")
	for range 2 { // a new file, then over the gzipped file it made
		if _, _, err := soko(t, "", "bench", "merge", runs, "--out", merged); err != nil {
			t.Fatal(err)
		}
		if got := strings.Count(gunzipText(t, merged), "\n"); got != 2 {
			t.Errorf("%s holds %d lines, want 2", merged, got)
		}
		if out, _, err := soko(t, "", "report", merged); err != nil || !strings.Contains(out, "astar") {
			t.Errorf("report %s: %v", merged, err)
		}
	}
}

// bench merge --out replaces only a file that is new, empty or soko bench
// results, as bench --out and optimize --out do, and replaces it whole:
// a merge that fails leaves it as it was.
func TestMergeOutRefusesOtherFiles(t *testing.T) {
	dir := t.TempDir()
	runs := filepath.Join(dir, "runs.jsonl")
	if _, _, err := soko(t, "", "bench", "--algo", "astar", "--out", runs, "microban:1"); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.jsonl")
	if err := os.WriteFile(bad, []byte("not a record\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, old string
		inputs    []string
		ok        bool
	}{
		{"notes.txt", "my precious notes", []string{runs}, false},
		{"plain.jsonl.gz", readText(t, runs), []string{runs}, false}, // not gzip: not replaced by gzip
		{"optimized.jsonl", `{"level":"microban:1","metric":"pushes"}` + "\n", []string{runs}, false},
		{"old.jsonl", readText(t, runs), []string{bad}, false}, // an input that cannot be read
		{"empty.jsonl", "", []string{runs}, true},
		{"bench.jsonl", readText(t, runs), []string{runs}, true},
	} {
		path := filepath.Join(dir, c.name)
		if err := os.WriteFile(path, []byte(c.old), 0o644); err != nil {
			t.Fatal(err)
		}
		_, _, err := soko(t, "", append([]string{"bench", "merge", "--out", path}, c.inputs...)...)
		got := readText(t, path)
		switch {
		case c.ok && (err != nil || got != readText(t, runs)):
			t.Errorf("merge into %s: %v; the file holds %q", c.name, err, got)
		case !c.ok && (err == nil || got != c.old):
			t.Errorf("merge into %s: %v, want a refusal; the file holds %q", c.name, err, got)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 8 {
		t.Errorf("files left: %v", entries)
	}
}

// A symbolic link that points to no file yet, given as an output, is
// followed: the file it points to is made and the link kept; it is
// locked as that file, and two outputs of one run that are one file
// through it are refused before any work.
func TestDanglingLinkOutputs(t *testing.T) {
	dir := t.TempDir()
	link := func(name, to string) string {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.Symlink(to, path); err != nil {
			t.Fatal(err)
		}
		return path
	}
	dl := link("dl.sok", "target.sok")
	if _, _, err := soko(t, "", "solve", "--algo", "astar", "--out", dl, "microban:1"); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(dl); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("%s is no longer a link: %v", dl, err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "target.sok")); err != nil || !strings.Contains(string(b), "Solution") {
		t.Errorf("target.sok: %v, holds %q", err, b)
	}

	// The lock is the target's, whichever name takes it first.
	tn := filepath.Join(dir, "tn.sok")
	toTN := link("to-tn.sok", "tn.sok")
	l, err := outfile.Take(tn)
	if err != nil {
		t.Fatal(err)
	}
	for _, take := range []func(string) error{
		func(p string) error { l, err := outfile.Take(p); closeIf(l, err); return err },
		func(p string) error { f, err := outfile.Create(p); closeIf(f, err); return err },
	} {
		if err := take(toTN); !errors.As(err, new(*outfile.BusyError)) {
			t.Errorf("%s taken while %s is held: %v", toTN, tn, err)
		}
	}
	l.Close()

	two := link("two.sok", "two.jsonl")
	tr2 := link("tr2", "tr1")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"bench", "--algo", "astar", "--out", filepath.Join(dir, "two.jsonl"), "--sok", two, "microban:1"}, "--out and --sok are the same file"},
		{[]string{"solve", "--trace", filepath.Join(dir, "tr1"), "--cpuprofile", tr2, "microban:1"}, "--trace and --cpuprofile are the same file"},
	} {
		out, _, err := soko(t, "", c.args...)
		var u usageError
		if !errors.As(err, &u) || !strings.Contains(err.Error(), c.want) || out != "" {
			t.Errorf("%q: %v, want a usage error with %q before any work", c.args, err, c.want)
		}
	}
	for _, name := range []string{"two.jsonl", "tr1"} {
		if _, err := os.Lstat(filepath.Join(dir, name)); err == nil {
			t.Errorf("%s was made by a refused run", name)
		}
	}
}

// closeIf closes c when it was opened.
func closeIf(c io.Closer, err error) {
	if err == nil {
		c.Close()
	}
}

// generate --out that fails leaves the file that was there as it was, and
// no temporary file.
func TestGenerateFailureKeepsOut(t *testing.T) {
	dir := t.TempDir()
	keep := filepath.Join(dir, "keep.xsb")
	text, _, err := soko(t, "", "show", "microban:1-2")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keep, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = soko(t, "", "generate", "--min-pushes", "200", "--max-rooms", "20", "--count", "1", "--out", keep)
	if err == nil || !strings.Contains(err.Error(), "left as it was") {
		t.Errorf("generate past its rooms: %v, want an error saying the file was kept", err)
	}
	if readText(t, keep) != text {
		t.Error("a failed generate changed keep.xsb")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("files left: %v", entries)
	}
}

// On a full disk (every write fails: a file size limit of 0), a profile,
// trace or results file soko made is removed when its first write fails,
// and one that was there is left; the run fails either way.
func TestFullDiskLeavesNoEmptyFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("runs child processes")
	}
	dir := t.TempDir()
	existing := filepath.Join(dir, "existing")
	if err := os.WriteFile(existing, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	dangling := filepath.Join(dir, "dangling")
	if err := os.Symlink("made", dangling); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"solve", "--algo", "astar", "--cpuprofile", "FILE", "microban:1"},
		{"solve", "--algo", "astar", "--memprofile", "FILE", "microban:1"},
		{"solve", "--nodes", "1000", "--trace", "FILE", "microban:1"},
		{"bench", "--algo", "astar", "--out", "FILE", "microban:1"},
	} {
		for _, path := range []string{filepath.Join(dir, "new"), existing, dangling} {
			a := strings.Split(strings.ReplaceAll(strings.Join(args, "\x00"), "FILE", path), "\x00")
			cmd, stderr := childEnv(t, "SOKO_FSIZE_ZERO=1", a...)
			if code := exitStatus(cmd, 30*time.Second); code != 1 {
				t.Errorf("%q on a full disk: exit status %d, want 1\n%s", a, code, stderr)
			}
			if a[0] == "bench" && !strings.Contains(stderr.String(), "writing the results to "+path+" failed after 0 runs written now") {
				t.Errorf("%q on a full disk: stderr does not say the write failed:\n%s", a, stderr)
			}
			_, err := os.Stat(path)
			if path == existing && err != nil || path != existing && err == nil {
				t.Errorf("%q on a full disk: the file is there: %v, want %v\n%s", a, err == nil, path == existing, stderr)
			}
			if st, err := os.Lstat(dangling); err != nil || st.Mode()&os.ModeSymlink == 0 {
				t.Fatalf("%q on a full disk: the link %s was removed or replaced: %v", a, dangling, err)
			}
		}
	}
}

// childEnv is child with one more environment variable.
func childEnv(t *testing.T, env string, args ...string) (*exec.Cmd, *strings.Builder) {
	t.Helper()
	t.Setenv(strings.SplitN(env, "=", 2)[0], strings.SplitN(env, "=", 2)[1])
	return child(t, nil, args...)
}

// A resumed bench --sok over runs recorded with --no-solution says on
// stderr how many solved runs had no solution to put in the .sok.
func TestBenchSokNoSolutionNote(t *testing.T) {
	dir := t.TempDir()
	out, sok := filepath.Join(dir, "r.jsonl"), filepath.Join(dir, "s.sok")
	if _, _, err := soko(t, "", "bench", "--algo", "astar", "--no-solution", "--out", out, "microban:1"); err != nil {
		t.Fatal(err)
	}
	_, stderr, err := soko(t, "", "bench", "--algo", "astar", "--out", out, "--sok", sok, "microban:2")
	if err != nil {
		t.Fatal(err)
	}
	if want := "1 run of " + out + " solved its level without the solution recorded (--no-solution)"; !strings.Contains(stderr, want) {
		t.Errorf("stderr does not say %q:\n%s", want, stderr)
	}
	if n := strings.Count(readText(t, sok), "\nSolution"); n != 1 {
		t.Errorf("%s has %d solutions, want 1 (microban:2's)", sok, n)
	}
}

// A .sok output (solve --out, bench --sok) that is a level file of the
// run is refused before any work, the level file left as it was, unless
// it is named .sok: a .sok collection solved into itself is merged. So is
// a results file in report --out-dir with a name report writes there.
func TestOutputNamesALevelFile(t *testing.T) {
	dir := t.TempDir()
	lv, text := levelFile(t, dir)
	link := filepath.Join(dir, "link.sok") // a .sok name for lv.xsb
	if err := os.Symlink(lv, link); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"bench", "--algo", "astar", lv, "--sok", lv},
		{"bench", "--algo", "astar", lv + ":1", "--sok", link},
		{"solve", "--algo", "astar", lv, "--out", lv},
		{"solve", "--algo", "astar", link, "--out", link},
	} {
		out, _, err := soko(t, "", args...)
		var u usageError
		if !errors.As(err, &u) || !strings.Contains(err.Error(), "is also an input of this run (") ||
			!strings.Contains(err.Error(), "only a collection named .sok is solved into itself") {
			t.Errorf("%q: %v, want a usage error naming the level file", args, err)
		}
		if out != "" || readText(t, lv) != text {
			t.Fatalf("%q: refused after work, or changed lv.xsb:\n%s", args, out)
		}
	}
	// A .sok collection solved into itself is merged, by both.
	all := filepath.Join(dir, "all.sok")
	if err := os.WriteFile(all, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"bench", "--algo", "astar", all, "--sok", all},
		{"solve", "--algo", "bfs", all, "--out", all},
	} {
		if _, _, err := soko(t, "", args...); err != nil {
			t.Fatalf("%q: %v", args, err)
		}
	}
	if got := readText(t, all); !strings.Contains(got, "\nSolution (") || !strings.HasPrefix(got, text) {
		t.Errorf("all.sok solved into itself by bench and solve:\n%s", got)
	}

	// report --out-dir: a results file there named as a table, a link to
	// one, or a plot's name (unless --no-plots) would be written over.
	results := filepath.Join(dir, "r.jsonl")
	if _, _, err := soko(t, "", "bench", "--algo", "astar", "--out", results, "microban:1"); err != nil {
		t.Fatal(err)
	}
	od := filepath.Join(dir, "od")
	if err := os.Mkdir(od, 0o755); err != nil {
		t.Fatal(err)
	}
	runs := readText(t, results)
	for _, name := range []string{"runs.csv", "fig.png"} {
		if err := os.WriteFile(filepath.Join(od, name), []byte(runs), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(results, filepath.Join(od, "summary.csv")); err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{filepath.Join(od, "runs.csv"), filepath.Join(od, "fig.png"), results} {
		out, _, err := soko(t, "", "report", "--out-dir", od, in)
		var u usageError
		if !errors.As(err, &u) || !strings.Contains(err.Error(), "the input "+in+" is a file report may write there") {
			t.Errorf("report --out-dir %s %s: %v, want a usage error naming the input", od, in, err)
		}
		if out != "" || readText(t, in) != runs {
			t.Fatalf("report --out-dir %s %s: refused after work, or changed the input", od, in)
		}
	}
	// runs.csv and summary.csv hold results, not report's tables, which
	// report does not write over either.
	os.Remove(filepath.Join(od, "runs.csv"))
	os.Remove(filepath.Join(od, "summary.csv"))
	if _, _, err := soko(t, "", "report", "--no-plots", "--out-dir", od, filepath.Join(od, "fig.png")); err != nil {
		t.Errorf("report --no-plots with an input named .png in --out-dir: %v", err)
	}
}
