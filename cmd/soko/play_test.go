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

// TestPlayTmux is a smoke test of soko play in a real terminal: tmux runs
// the command (this test binary acting as soko), the test types keys and
// reads the screen.
func TestPlayTmux(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed: the terminal smoke test of soko play is skipped")
	}
	if testing.Short() {
		t.Skip("runs soko play in tmux")
	}
	sock := fmt.Sprintf("soko-test-%d", os.Getpid())
	defer exec.Command("tmux", "-L", sock, "kill-server").Run()
	// startWith runs soko in a new tmux window, after prefix (such as
	// "echo |") and before suffix (such as "</dev/null").
	startWith := func(name, prefix, suffix string, args ...string) {
		cmd := fmt.Sprintf("%s env SOKO_BENCH_HELPER=1 TERM=xterm-256color %q -test.run='^TestBenchHelperProcess$' -- %s %s; echo EXIT=$?; sleep 60",
			prefix, os.Args[0], strings.Join(args, " "), suffix)
		tmux(t, sock, "new-session", "-d", "-s", name, "-x", "110", "-y", "30", cmd)
	}
	start := func(name string, args ...string) { startWith(name, "", "", args...) }
	screen := func(name string) string { return tmux(t, sock, "capture-pane", "-p", "-t", name) }
	waitFor := func(name string, want ...string) string {
		t.Helper()
		deadline := time.Now().Add(15 * time.Second)
		for {
			s := screen(name)
			ok := true
			for _, w := range want {
				ok = ok && strings.Contains(s, w)
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

	// SIGTERM and SIGHUP end a slow replay, with the terminal given back:
	// the board's screen is left for the shell's.
	for _, sig := range []string{"TERM", "HUP"} {
		name := "signal" + sig
		startWith(name, "timeout --foreground --preserve-status -s "+sig+" 2", "", "play", "--speed", "0.5", "--replay", "dlU", "microban:1")
		waitFor(name, "step 0 of 3")
		if s := waitFor(name, "soko: interrupted", "EXIT=130"); strings.Contains(s, "q quit") {
			t.Errorf("SIG%s: the board is still on the screen:\n%s", sig, s)
		}
	}
	// In the background of its terminal (timeout without --foreground)
	// soko play would be stopped by the kernel: it refuses at once.
	startWith("background", "timeout 10", "", "play", "microban:1")
	waitFor("background", "soko play runs in the foreground of its terminal", "EXIT=2")
}
