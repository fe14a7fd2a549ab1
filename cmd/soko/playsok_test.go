package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"soko/level"
	"soko/play"
)

// solvedSok writes a .sok file of microban:1-2 with astar's solutions, as
// soko solve --out writes it, and returns its path.
func solvedSok(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "two.sok")
	if _, errOut, err := soko(t, "", "solve", "microban:1-2", "--algo", "astar", "--no-solution", "--out", path); err != nil {
		t.Fatalf("solve --out: %v\n%s", err, errOut)
	}
	return path
}

// screen is the player's screen as text.
func screen(m tea.Model) string {
	return strings.Join(strings.Fields(ansi.Strip(m.View().Content)), " ")
}

// TestPlaySokSolutions checks what soko play reads from .sok files
// (playModel, without a terminal): a file soko wrote plays with --replay,
// its own levels when none are given; the levels of a .sok come with its
// solutions, offered on the v key; a level the file has no solution of
// is refused; an inline LURD replays as before.
func TestPlaySokSolutions(t *testing.T) {
	ctx := context.Background()
	path := solvedSok(t)

	m, err := playModel(ctx, &playConfig{replay: path, speed: 8}, nil, nil, nil, io.Discard)
	if err != nil {
		t.Fatalf("play --replay FILE.sok: %v", err)
	}
	if len(m.Games()) != 2 || len(m.Games()[0].Stored()) != 1 || len(m.Games()[1].Stored()) != 1 {
		t.Fatalf("--replay FILE.sok: %d levels, want 2 each with its solution", len(m.Games()))
	}
	if s := screen(m); !strings.Contains(s, "replay playing: 0 of 33 steps") || !strings.Contains(s, "stored solution 1 of 1: 8 pushes, 33 moves, soko astar, optimized for pushes") {
		t.Errorf("--replay FILE.sok does not play the stored solution: %s", s)
	}

	m, err = playModel(ctx, &playConfig{speed: 8}, []string{path + ":2"}, nil, nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if s := screen(m); len(m.Games()[0].Stored()) != 1 || strings.Contains(s, "replay playing") || !strings.Contains(s, "v replay a stored solution (1)") {
		t.Errorf("play FILE.sok:2 does not offer its solution: %s", s)
	}

	m, err = playModel(ctx, &playConfig{replay: path, speed: 8}, []string{"microban:2"}, nil, nil, io.Discard)
	if err != nil || len(m.Games()[0].Stored()) != 1 || m.Games()[0].Stored()[0].Name != "3 pushes, 16 moves, soko astar, optimized for pushes" {
		t.Fatalf("play microban:2 --replay FILE.sok: %v", err)
	}

	// A .sok file by another name is told from a solution by its text.
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	txt := filepath.Join(t.TempDir(), "two.txt")
	if err := os.WriteFile(txt, b, 0o644); err != nil {
		t.Fatal(err)
	}
	m, err = playModel(ctx, &playConfig{replay: txt, speed: 8}, []string{"microban:1"}, nil, nil, io.Discard)
	if err != nil || len(m.Games()[0].Stored()) != 1 {
		t.Fatalf("play microban:1 --replay FILE.txt holding a .sok: %v", err)
	}

	if _, err := playModel(ctx, &playConfig{replay: path, speed: 8}, []string{"microban:3"}, nil, nil, io.Discard); err == nil || !strings.Contains(err.Error(), "holds no solution of microban:3") {
		t.Errorf("a level the file has no solution of: %v", err)
	}

	m, err = playModel(ctx, &playConfig{replay: "dlUrrrdLullddrUluRuulDrddrruLdlUU", speed: 8}, []string{"microban:1"}, nil, nil, io.Discard)
	if err != nil || !strings.Contains(screen(m), "replay playing: 0 of 33 steps") {
		t.Errorf("inline LURD: %v", err)
	}
	if _, err := playModel(ctx, &playConfig{speed: 8}, nil, nil, nil, io.Discard); err == nil || err.Error() != "play: no levels given" {
		t.Errorf("no levels: %v", err)
	}
	// A solution that does not parse is named by its file; standard input
	// cannot give both the level and the solution.
	bad := filepath.Join(t.TempDir(), "bad.txt")
	if err := os.WriteFile(bad, []byte("r\nR x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := playModel(ctx, &playConfig{replay: bad, speed: 8}, []string{"microban:1"}, nil, nil, io.Discard); err == nil ||
		err.Error() != "play: solution file "+bad+": 2:3: unexpected character 'x' in LURD" {
		t.Errorf("a solution file that does not parse: %v", err)
	}
	if _, err := playModel(ctx, &playConfig{replay: "-", speed: 8}, []string{"-"}, nil, strings.NewReader("r"), io.Discard); !errors.As(err, new(usageError)) {
		t.Errorf("play - --replay -: %v, want a usage error", err)
	}
}

// TestPlayOut checks soko play --out: the session's solutions are merged
// into the file with "Solver: soko play", a Title for the level and a
// Date; a session that solved nothing leaves the file as it was.
func TestPlayOut(t *testing.T) {
	ctx := context.Background()
	out := filepath.Join(t.TempDir(), "mine.sok")
	c := &playConfig{speed: 8, out: out}
	o, err := openPlayOut(ctx, c, []string{"microban:1-2"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := playModel(ctx, c, []string{"microban:1-2"}, o, nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	saver := &playCheckpoint{o: o, m: m}
	var errOut strings.Builder
	if err := savePlayed(ctx, saver, &errOut); err != nil || !strings.Contains(errOut.String(), "no level solved") {
		t.Fatalf("nothing solved: %v %s", err, errOut.String())
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatalf("nothing solved, yet %s was written: %v", out, err)
	}
	moves, err := level.ParseLURD("rddLruulDuullddR") // Microban 2
	if err != nil {
		t.Fatal(err)
	}
	g := m.Games()[1]
	for _, mv := range moves {
		if !g.Move(mv.Dir) {
			t.Fatal("an illegal step")
		}
	}
	if err := savePlayed(ctx, saver, &errOut); err != nil {
		t.Fatal(err)
	}
	o.close()
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	if !strings.Contains(text, "\nTitle: Microban 2\n\nSolution (3 pushes, 16 moves)\nrddLruulDuullddR\nSolver: soko play\nDate: ") || strings.Contains(text, "Microban 1") {
		t.Fatalf("--out:\n%s", text)
	}
	if vout, _, err := soko(t, "", "verify", out); err != nil || !strings.Contains(vout, "1 of 1 solution solve") {
		t.Fatalf("verify --out: %v\n%s", err, vout)
	}
}

// TestPlayOutTmux plays Microban 2 by hand in a real terminal with --out:
// at q the solution is printed as before and saved in the file.
func TestPlayOutTmux(t *testing.T) {
	sock := tmuxServer(t, "soko play --out")
	out := filepath.Join(t.TempDir(), "mine.sok")
	cmd := soloCommand("", fmt.Sprintf("play microban:2 -o %q", out), "")
	tmux(t, sock, "new-session", "-d", "-s", "out", "-x", "100", "-y", "30", cmd)
	wait := func(want ...string) string { t.Helper(); return waitPane(t, sock, "out", want...) }
	wait("moves 0", "q quit")
	vi := map[rune]string{'u': "k", 'd': "j", 'l': "h", 'r': "l"}
	for _, c := range strings.ToLower("rddLruulDuullddR") {
		tmux(t, sock, "send-keys", "-t", "out", vi[c])
	}
	s := wait("SOLVED in 16 moves, 3 pushes")
	if !strings.Contains(s, "**") {
		t.Errorf("no box on a goal drawn **:\n%s", s)
	}
	tmux(t, sock, "send-keys", "-t", "out", "q")
	wait("microban:2: solved, 16 moves, 3 pushes: rddLruulDuullddR", "1 level, 1 solution new or better, in", "EXIT=0")
	b, err := os.ReadFile(out)
	if err != nil || !strings.Contains(string(b), "Title: Microban 2\n\nSolution (3 pushes, 16 moves)\nrddLruulDuullddR\nSolver: soko play\n") {
		t.Fatalf("--out: %v\n%s", err, b)
	}
}

// press sends keys to the player as the terminal does: vi letters for
// LURD steps (in either case), other letters as themselves.
func press(m *play.Model, keys string) {
	vi := map[rune]string{'u': "k", 'd': "j", 'l': "h", 'r': "l"}
	for _, c := range strings.ToLower(keys) {
		k := string(c)
		if v, ok := vi[c]; ok {
			k = v
		}
		m.Update(tea.KeyPressMsg{Code: rune(k[0]), Text: k})
	}
}

// TestPlaySnapshot checks soko play's games in progress: --out saves the
// session as it goes (a level solved is in the file before the session
// ends), a level left unsolved as a Snapshot section; the next session
// with the same --out, or soko play of that file, offers it on the c key
// and resumes it; solving it drops the snapshot. A snapshot that does not
// replay is said with its file, level and line, and not offered.
func TestPlaySnapshot(t *testing.T) {
	ctx := context.Background()
	out := filepath.Join(t.TempDir(), "mine.sok")
	session := func(pos ...string) (*play.Model, *playCheckpoint, string) {
		t.Helper()
		c := &playConfig{speed: 8, out: out}
		o, err := openPlayOut(ctx, c, pos, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { o.close() })
		var errOut strings.Builder
		m, err := playModel(ctx, c, pos, o, nil, &errOut)
		if err != nil {
			t.Fatal(err)
		}
		saver := &playCheckpoint{o: o, m: m}
		m.SetCheckpoint(func() error { return saver.save(ctx, io.Discard) })
		return m, saver, errOut.String()
	}
	file := func() string {
		t.Helper()
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}

	m, saver, _ := session("microban:1-2")
	press(m, "dlUrrr") // Microban 1, part of the way
	press(m, "n")      // a change of level saves
	if text := file(); !strings.Contains(text, "Title: Microban 1\n\nSnapshot (1 push, 6 moves)\ndlUrrr\nDate: ") {
		t.Fatalf("the game in progress is not saved on changing levels:\n%s", text)
	}
	press(m, "rddLruulDuullddR") // Microban 2, solved
	if text := file(); !strings.Contains(text, "Title: Microban 2\n\nSolution (3 pushes, 16 moves)\nrddLruulDuullddR\nSolver: soko play\n") {
		t.Fatalf("the level solved is not saved at once:\n%s", text)
	}
	var errOut strings.Builder
	if err := savePlayed(ctx, saver, &errOut); err != nil || !strings.Contains(errOut.String(), "play: 2 levels, 1 solution new or better, 1 game in progress, in ") {
		t.Fatalf("end of the session: %v %s", err, errOut.String())
	}
	saver.o.close()

	m, saver, _ = session("microban:1")
	if s := screen(m); !strings.Contains(s, "this level has a saved game (6 moves): c resumes it") || !strings.Contains(s, "c resume the saved game (6 moves)") {
		t.Fatalf("the saved game is not offered: %s", s)
	}
	press(m, "c")
	if g := m.Games()[0]; g.LURD() != "dlUrrr" || g.Pushes() != 1 {
		t.Fatalf("c resumed %q", g.LURD())
	}
	press(m, "dLullddrUluRuulDrddrruLdlUU")
	if !m.Games()[0].Solved() {
		t.Fatal("not solved")
	}
	if err := savePlayed(ctx, saver, io.Discard); err != nil {
		t.Fatal(err)
	}
	saver.o.close()
	text := file()
	if strings.Contains(text, "Snapshot") || !strings.Contains(text, "Solution (8 pushes, 33 moves)\ndlUrrrdLullddrUluRuulDrddrruLdlUU\nSolver: soko play\n") {
		t.Fatalf("solving the saved game did not replace its snapshot by the solution:\n%s", text)
	}
	if vout, _, err := soko(t, "", "verify", out); err != nil || !strings.Contains(vout, "2 of 2 solutions solve") {
		t.Fatalf("verify: %v\n%s", err, vout)
	}

	// soko play FILE.sok offers the file's own snapshot; one that does not
	// replay is said and passed over for the next.
	own := filepath.Join(t.TempDir(), "own.sok")
	body := "; 1\n####\n# .#\n#  ###\n#*@  #\n#  $ #\n#  ###\n####\n\nSnapshot: mine\nrr\n\nSnapshot\nuuuu\n"
	if err := os.WriteFile(own, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	var warn strings.Builder
	m, err := playModel(ctx, &playConfig{speed: 8}, []string{own}, nil, nil, &warn)
	if err != nil {
		t.Fatal(err)
	}
	if want := own + ":13: level 1: snapshot: does not replay on its level: step 3 (u): walks into a wall at row 1, column 3; not offered"; !strings.Contains(warn.String(), want) {
		t.Errorf("the bad snapshot is not said as %q: %q", want, warn.String())
	}
	if s := screen(m); !strings.Contains(s, `this level has a saved game "mine" (2 moves)`) {
		t.Errorf("the named snapshot is not offered after the bad one: %s", s)
	}
}

// TestPlaySnapshotTmux plays Microban 1 part of the way in a real terminal
// with --out and quits: the game is in the file as a snapshot, and the
// next soko play with the same --out offers it and resumes it on c.
func TestPlaySnapshotTmux(t *testing.T) {
	sock := tmuxServer(t, "soko play's snapshots")
	out := filepath.Join(t.TempDir(), "mine.sok")
	cmd := soloCommand("", fmt.Sprintf("play microban:1 -o %q", out), "")
	wait := func(want ...string) string { t.Helper(); return waitPane(t, sock, "snap", want...) }
	tmux(t, sock, "new-session", "-d", "-s", "snap", "-x", "100", "-y", "30", cmd)
	wait("moves 0", "q quit")
	for _, k := range []string{"j", "h", "k"} { // d l U
		tmux(t, sock, "send-keys", "-t", "snap", k)
	}
	wait("moves 3")
	tmux(t, sock, "send-keys", "-t", "snap", "q")
	wait("microban:1: not solved, 3 moves, 1 push: dlU", "1 level, 0 solutions new or better, 1 game in progress, in", "EXIT=0")
	if b, err := os.ReadFile(out); err != nil || !strings.Contains(string(b), "Title: Microban 1\n\nSnapshot (1 push, 3 moves)\ndlU\nDate: ") {
		t.Fatalf("--out: %v\n%s", err, b)
	}
	// The second session starts before the first is killed: the server
	// exits with its last session, and a session started while it exits
	// fails ("server exited unexpectedly").
	tmux(t, sock, "new-session", "-d", "-s", "again", "-x", "100", "-y", "30", cmd)
	tmux(t, sock, "kill-session", "-t", "snap")
	wait = func(want ...string) string { t.Helper(); return waitPane(t, sock, "again", want...) }
	wait("this level has a saved game (3 moves): c resumes it", "c resume the saved game (3 moves)")
	tmux(t, sock, "send-keys", "-t", "again", "c")
	wait("moves 3", "pushes 1", "saved game resumed: 3 moves")
	tmux(t, sock, "send-keys", "-t", "again", "q")
	wait("microban:1: not solved, 3 moves, 1 push: dlU", "EXIT=0")
}
