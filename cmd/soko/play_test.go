package main

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// tmux runs a tmux command on the test's own server socket.
func tmux(t *testing.T, sock string, args ...string) string {
	t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", sock}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// waitPane waits up to 15 s for tmux window target on sock to show every
// string of want (blanks and line breaks folded), and returns the screen.
func waitPane(t *testing.T, sock, target string, want ...string) string {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		s := tmux(t, sock, "capture-pane", "-p", "-t", target)
		flat := strings.Join(strings.Fields(s), " ")
		ok := true
		for _, w := range want {
			ok = ok && strings.Contains(flat, w)
		}
		if ok {
			return s
		}
		if time.Now().After(deadline) {
			t.Fatalf("screen never showed %q:\n%s", want, s)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// tmuxServer skips the test where tmux is missing or the run is short,
// and otherwise names a tmux server of its own, killed when the test
// ends; what says what the test checks, for the skip's message.
func tmuxServer(t *testing.T, what string) (sock string) {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skipf("tmux is not installed: the terminal test of %s is skipped", what)
	}
	if testing.Short() {
		t.Skip("runs soko play in tmux")
	}
	sock = fmt.Sprintf("soko-test-%s-%d", t.Name(), os.Getpid())
	t.Cleanup(func() { exec.Command("tmux", "-L", sock, "kill-server").Run() })
	return sock
}

// soloCommand is the shell command a tmux window runs: this test binary
// acting as soko with args, then its exit status, kept on screen.
func soloCommand(prefix, args, suffix string) string {
	return fmt.Sprintf("%s env SOKO_BENCH_HELPER=1 TERM=xterm-256color %q -test.run='^TestBenchHelperProcess$' -- %s %s; echo EXIT=$?; sleep 60",
		prefix, os.Args[0], args, suffix)
}

// TestPlayTmux is a smoke test of soko play in a real terminal: tmux runs
// the command (this test binary acting as soko), the test types keys and
// reads the screen.
func TestPlayTmux(t *testing.T) {
	sock := tmuxServer(t, "soko play")
	// startSized runs soko in a new tmux window of w×h, after prefix (such
	// as "echo |") and before suffix (such as "</dev/null").
	startSized := func(name string, w, h int, prefix, suffix string, args ...string) {
		tmux(t, sock, "new-session", "-d", "-s", name, "-x", fmt.Sprint(w), "-y", fmt.Sprint(h), soloCommand(prefix, strings.Join(args, " "), suffix))
	}
	startWith := func(name, prefix, suffix string, args ...string) { startSized(name, 110, 30, prefix, suffix, args...) }
	start := func(name string, args ...string) { startWith(name, "", "", args...) }
	screen := func(name string) string { return tmux(t, sock, "capture-pane", "-p", "-t", name) }
	// waitFor waits until the screen shows each of want, on one line or
	// wrapped over several.
	waitFor := func(name string, want ...string) string {
		t.Helper()
		deadline := time.Now().Add(15 * time.Second)
		for {
			s := screen(name)
			flat := strings.Join(strings.Fields(s), " ")
			ok := true
			for _, w := range want {
				ok = ok && (strings.Contains(s, w) || strings.Contains(flat, w))
			}
			if ok {
				return s
			}
			if time.Now().After(deadline) {
				t.Fatalf("screen never showed %q:\n%s", want, s)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}

	start("play", "play", "microban:1")
	waitFor("play", "moves 0", "pushes 0", "boxes on goals 1/2", "q quit")
	tmux(t, sock, "send-keys", "-t", "play", "Down", "Left", "w")
	s := waitFor("play", "moves 3", "pushes 1")
	if !strings.Contains(s, "██") || !strings.Contains(s, "[]") {
		t.Fatalf("no board on the screen:\n%s", s)
	}
	tmux(t, sock, "send-keys", "-t", "play", "u")
	waitFor("play", "moves 2", "pushes 0")
	tmux(t, sock, "send-keys", "-t", "play", "q")
	waitFor("play", "microban:1: not solved, 2 moves, 0 pushes: dl", "EXIT=0")

	// Several levels: n goes to the next, which has its own board; at the
	// end each level played has its line.
	start("levels", "play", "microban:1-3")
	waitFor("levels", "microban:1 (level 1 of 3)", "n/pgdn next level", "q quit")
	tmux(t, sock, "send-keys", "-t", "levels", "Down", "n")
	s = waitFor("levels", "microban:2 (level 2 of 3)", "moves 0", "boxes on goals 2/3")
	if !strings.Contains(s, "██░░██@ ░░██") {
		t.Fatalf("level 2's board is not on the screen:\n%s", s)
	}
	tmux(t, sock, "send-keys", "-t", "levels", "Right", "PgDn")
	waitFor("levels", "microban:3 (level 3 of 3)", "moves 0")
	tmux(t, sock, "send-keys", "-t", "levels", "PgUp")
	waitFor("levels", "microban:2 (level 2 of 3)", "moves 1")
	tmux(t, sock, "send-keys", "-t", "levels", "q")
	waitFor("levels", "microban:1: not solved, 1 move, 0 pushes: d", "microban:2: not solved, 1 move, 0 pushes: r", "EXIT=0")
	if s := screen("levels"); strings.Contains(s, "microban:3:") {
		t.Errorf("a level looked at but not played has a line:\n%s", s)
	}
	start("replaymany", "play", "--replay", "dlU", "microban:1-3")
	waitFor("replaymany", "--replay animates a solution of one level, and microban:1-3 names 3", "EXIT=2")

	// A window too small for the board says how large to make it, and
	// keeps the level's address and the keys; made larger, it shows the
	// board.
	startSized("small", 20, 8, "", "", "play", "microban:1-3")
	s = waitFor("small", "The window (20×8) is too small for this level (6×7 squares): enlarge it to", "microban:1", "q quit")
	if strings.Contains(s, "█") {
		t.Fatalf("a cut board in a window too small:\n%s", s)
	}
	tmux(t, sock, "send-keys", "-t", "small", "n")
	waitFor("small", "microban:2", "too small")
	tmux(t, sock, "resize-window", "-t", "small", "-x", "110", "-y", "30")
	waitFor("small", "██░░██@ ░░██", "microban:2 (level 2 of 3)", "q quit")

	// In a terminal, but with standard input a pipe or /dev/null: soko play
	// stops at once.
	startWith("pipe", "echo |", "", "play", "microban:1")
	waitFor("pipe", "soko play needs a terminal: standard input is not one", "EXIT=2")
	startWith("null", "", "</dev/null", "play", "--replay", "dlU", "microban:1")
	waitFor("null", "soko play needs a terminal: standard input is not one", "EXIT=2")

	start("replay", "play", "--speed", "200", "--replay", "dlUrrrdLullddrUluRuulDrddrruLdlUU", "microban:1")
	waitFor("replay", "SOLVED in 33 moves, 8 pushes")
	tmux(t, sock, "send-keys", "-t", "replay", "q")
	waitFor("replay", "microban:1: solved, 33 moves, 8 pushes", "EXIT=0")

	// Letter case as soko verify checks it: a replay with a push in lower
	// case is refused before the board is drawn, naming the step; with
	// --lenient-case it plays, and the note stays on the screen after.
	start("case", "play", "--replay", "dlurrrdlullddruluruuldrddrruldluu", "microban:1")
	waitFor("case", "soko: play: --replay refused: step 3 (u) pushes a box but is written in lower case", "--lenient-case reads each step by what it does", "EXIT=1")
	start("lenient", "play", "--lenient-case", "--speed", "200", "--replay", "dlurrrdlullddruluruuldrddrruldluu", "microban:1")
	waitFor("lenient", "SOLVED in 33 moves, 8 pushes")
	tmux(t, sock, "send-keys", "-t", "lenient", "q")
	waitFor("lenient", "soko: play: --lenient-case: the letter case of 8 steps normalised; the first: step 3 (u)", "microban:1: solved, 33 moves, 8 pushes", "EXIT=0")

	// SIGTERM and SIGHUP end a slow replay, with the terminal given back:
	// the board's screen is left for the shell's.
	for _, sig := range []string{"TERM", "HUP"} {
		name := "signal" + sig
		startWith(name, "timeout --foreground --preserve-status -s "+sig+" 2", "", "play", "--speed", "0.5", "--replay", "dlU", "microban:1")
		waitFor(name, "replay playing: 0 of 3 steps")
		if s := waitFor(name, "soko: interrupted", "EXIT=130"); strings.Contains(s, "q quit") {
			t.Errorf("SIG%s: the board is still on the screen:\n%s", sig, s)
		}
	}
	// In the background of its terminal (timeout without --foreground)
	// soko play would be stopped by the kernel: it refuses at once.
	startWith("background", "timeout 10", "", "play", "microban:1")
	waitFor("background", "soko play runs in the foreground of its terminal", "EXIT=2")
}
