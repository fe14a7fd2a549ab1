package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"soko/level"
	"soko/solver"
)

// usage runs soko and fails unless it ends in a usage error; it returns the
// message.
func usage(t *testing.T, stdin string, args ...string) string {
	t.Helper()
	_, _, err := soko(t, stdin, args...)
	var u usageError
	if !errors.As(err, &u) {
		t.Errorf("%q: %v, want a usage error", args, err)
		return ""
	}
	return err.Error()
}

// Every command has help: its usage line names the command and its real
// arguments, flags are written --flag (and -j), and soko CMD -h prints the
// same.
func TestHelpEveryCommand(t *testing.T) {
	flagLine := regexp.MustCompile(`^  (-j|-v|--[a-z-]+)( |,|$)`)
	for _, c := range commands {
		out, _, err := soko(t, "", append([]string{"help"}, strings.Fields(c.name)...)...)
		if err != nil || !strings.HasPrefix(out, "usage: soko "+c.name) {
			t.Errorf("help %s: %v\n%s", c.name, err, out)
			continue
		}
		again, _, err := soko(t, "", append(strings.Fields(c.name), "-h")...)
		if err != nil || again != out {
			t.Errorf("%s -h differs from help %s: %v\n%s", c.name, c.name, err, again)
		}
		_, flags, hasFlags := strings.Cut(out, "\nflags:\n")
		if hasFlags != (c.flags != nil) {
			t.Errorf("help %s: flags section %v, want %v", c.name, hasFlags, c.flags != nil)
		}
		for line := range strings.SplitSeq(strings.TrimRight(flags, "\n"), "\n") {
			if hasFlags && strings.HasPrefix(line, "  -") && !flagLine.MatchString(line) {
				t.Errorf("help %s: flag not written as --flag: %q", c.name, line)
			}
		}
	}
	out, _, _ := soko(t, "", "help", "report")
	if !strings.HasPrefix(out, "usage: soko report [flags] FILE.jsonl...\n") {
		t.Errorf("help report:\n%s", out)
	}
	out, _, _ = soko(t, "", "help", "bench")
	for _, want := range []string{"{level}", "{solution}", "{time}", "{seed}", "{iterations}", "--seeds, --seed SEEDS", "  --w VALUE", "presets (--preset NAME):"} {
		if !strings.Contains(out, want) {
			t.Errorf("help bench lacks %q", want)
		}
	}
	out, _, _ = soko(t, "", "help")
	for _, c := range commands {
		if !strings.Contains(out, "  soko "+c.name+" ") {
			t.Errorf("the overview lacks %s", c.name)
		}
	}
	if msg := usage(t, "", "help", "nosuch"); !strings.Contains(msg, `"nosuch"`) {
		t.Errorf("help nosuch: %s", msg)
	}
}

func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}} {
		out, _, err := soko(t, "", args...)
		if err != nil || !strings.HasPrefix(out, "soko ") || !strings.Contains(out, runtime.Version()) || !strings.Contains(out, "revision") {
			t.Errorf("%v: %v %q", args, err, out)
		}
	}
	usage(t, "", "version", "extra")
}

// The same flag means the same thing, and a bad value reads the same, on
// every command.
func TestFlagsConsistent(t *testing.T) {
	var msgs []string
	for _, args := range [][]string{
		{"solve", "--time", "-1", "microban:1"},
		{"bench", "--time", "-1", "microban:1"},
		{"serve", "--time", "-1"},
	} {
		_, rest, _ := strings.Cut(usage(t, "", args...), ": ")
		msgs = append(msgs, rest)
	}
	want := `bad --time "-1": want a duration such as 500ms, 10s or 2m`
	for i, m := range msgs {
		if m != want {
			t.Errorf("message %d: %q, want %q", i, m, want)
		}
	}
	for _, args := range [][]string{
		{"solve", "--time", "-1s", "microban:1"},
		{"solve", "--nodes", "-5", "microban:1"},
		{"solve", "--iterations", "x", "microban:1"},
		{"solve", "--seed", "1-5", "microban:1"},
		{"solve", "--seed", "-1", "microban:1"},
		{"solve", "-j", "-1", "microban:1"},
		{"solve", "--nosuch", "microban:1"},
		{"bench", "--seed", "5-1", "microban:1"},
		{"bench", "--nodes", "-1", "microban:1"},
		{"bench", "-j", "0", "microban:1"},
		{"play", "--speed", "NaN", "microban:1"},
		{"play", "--speed", "-1", "microban:1"},
	} {
		usage(t, "", args...)
	}
	if msg := usage(t, "", "solve", "--nosuch", "microban:1"); msg != "solve: unknown flag --nosuch" {
		t.Errorf("unknown flag: %q", msg)
	}

	// --seed and --seeds are one flag on both commands.
	for _, args := range [][]string{{"--seed", "1-3"}, {"--seeds", "1,2,3"}, {"--seed", "1", "--seeds", "2-3"}} {
		out, _, err := soko(t, "", append([]string{"bench", "--dry-run", "--nodes", "5", "microban:1"}, args...)...)
		if err != nil || !strings.Contains(out, "x 3 seeds;") {
			t.Errorf("bench %v: %v %q", args, err, out)
		}
	}
	for _, flag := range []string{"--seed", "--seeds"} {
		out, _, err := soko(t, "", "solve", "--json", "--algo", "mcts-r", "--iterations", "10", flag, "7", "microban:1")
		if err != nil || !strings.Contains(out, `"seed":7`) {
			t.Errorf("solve %s 7: %v %q", flag, err, out)
		}
	}
	// --w, --p and --c are shorthands for --param on solve and bench.
	out, _, err := soko(t, "", "bench", "--dry-run", "--algo", "wastar", "--w", "3", "--nodes", "5", "microban:1")
	if err != nil || !strings.Contains(out, "1 run:") {
		t.Errorf("bench --w: %v %q", err, out)
	}
	usage(t, "", "bench", "--algo", "astar", "--w", "3", "microban:1")
}

// A level spec that names no level is a usage error; a level file that
// exists but is bad is not.
func TestLevelSpecIsUsage(t *testing.T) {
	for _, spec := range []string{"nosuch:1", "nosuch", "microban:0", "microban:999", "microban:x", filepath.Join(t.TempDir(), "missing.xsb")} {
		usage(t, "", "solve", spec)
		usage(t, "", "show", spec)
		usage(t, "", "verify", spec, "u")
	}
	bad := filepath.Join(t.TempDir(), "bad.xsb")
	if err := os.WriteFile(bad, []byte("#####\n#@$x#\n#####\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := soko(t, "", "solve", bad)
	var u usageError
	if err == nil || errors.As(err, &u) {
		t.Errorf("a bad level file: %v, want an error that is not a usage error", err)
	}
}

func TestUnsolvedPrintsDash(t *testing.T) {
	out, _, err := soko(t, "", "solve", "--algo", "bfs", "--nodes", "1", "microban:1")
	if err != nil || !strings.Contains(out, "node limit   pushes    –  moves     –  time") {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(out, "solved 0 of 1 level with bfs") {
		t.Errorf("summary: %s", out)
	}
}

// soko verify's SOLUTION: -, an existing file, inline LURD, or else a file
// that does not exist. Files and standard input are capped at
// level.MaxSolutionText bytes and refused before they are read.
func TestVerifySolutionArgument(t *testing.T) {
	const sol = "dlUrrrdLullddrUluRuulDrddrruLdlUU"
	dir := t.TempDir()
	file := filepath.Join(dir, "sol.txt")
	if err := os.WriteFile(file, []byte(sol+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, arg := range []string{file, sol, "dlU 3rdLu2l2drUluR2ulDr2d2ruLdl2U", "-"} {
		out, _, err := soko(t, sol, "verify", "microban:1", arg)
		if err != nil || out != "microban:1: solved in 33 moves, 8 pushes\n" {
			t.Errorf("verify %s: %v %q", arg, err, out)
		}
	}
	for _, name := range []string{"missing-file", filepath.Join(dir, "missing.txt"), "sol.lurd"} {
		msg := usage(t, "", "verify", "microban:1", name)
		if !strings.Contains(msg, "solution file "+name+" does not exist") {
			t.Errorf("missing %s: %q", name, msg)
		}
	}
	if msg := usage(t, "", "verify", "microban:1"); !strings.Contains(msg, "want LEVEL SOLUTION or FILE.sok") {
		t.Errorf("one argument: %q", msg)
	}

	// A 600 MB file is refused from its size, without reading it (the file
	// is sparse: making it writes nothing).
	huge := filepath.Join(dir, "huge.lurd")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(600 << 20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	start := time.Now()
	_, _, err = soko(t, "", "verify", "microban:1", huge)
	if err == nil || !strings.Contains(err.Error(), "629145600 bytes, more than the 4194304") {
		t.Errorf("600 MB file: %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("refusing a 600 MB file took %s", d)
	}
	_, _, err = soko(t, strings.Repeat("lr", level.MaxSolutionText/2+1), "verify", "microban:1", "-")
	if err == nil || !strings.Contains(err.Error(), "standard input: more than the 4194304 bytes") {
		t.Errorf("stdin over the cap: %v", err)
	}
	// Within the text cap but over the step cap: the parser's message.
	over := filepath.Join(dir, "over.lurd")
	if err := os.WriteFile(over, []byte(strings.Repeat("lr", level.MaxSolutionSteps/2)+"l"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = soko(t, "", "verify", "microban:1", over)
	if err == nil || !strings.Contains(err.Error(), "solution file "+over+": 1:1048577: LURD longer than 1048576 steps") {
		t.Errorf("over the step cap: %v", err)
	}

	// A step that does not parse is named by where the solution came from.
	bad := filepath.Join(dir, "bad.txt")
	if err := os.WriteFile(bad, []byte("dlU\nrrX\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ cmd, arg, stdin, want string }{
		{"verify", bad, "", "solution file " + bad + ": 2:3: unexpected character 'X'"},
		{"verify", "-", "rrX", "the solution on standard input: 1:3: unexpected character 'X'"},
		{"optimize", bad, "", "solution file " + bad + ": 2:3: unexpected character 'X'"},
	} {
		out, _, err := soko(t, c.stdin, c.cmd, "microban:1", c.arg)
		if err == nil || !strings.Contains(out+err.Error(), c.want) {
			t.Errorf("%s %s: %v %q, want %q", c.cmd, c.arg, err, out, c.want)
		}
	}
	// Standard input cannot give both the level and the solution.
	for _, cmd := range []string{"verify", "optimize"} {
		for _, lvl := range []string{"-", "-:1"} {
			if msg := usage(t, "#####\n#@$.#\n#####\n", cmd, lvl, "-"); !strings.Contains(msg, "standard input can give the level or the solution, not both") {
				t.Errorf("%s %s -: %q", cmd, lvl, msg)
			}
		}
	}
}

// soko play stops at once, with exit status 2, when it has no terminal: in
// process (stdin a string, stdout a buffer) and as a real process with
// stdin /dev/null or a pipe.
func TestPlayNeedsTerminal(t *testing.T) {
	for _, args := range [][]string{{"play", "microban:1"}, {"play", "--replay", "dlU", "microban:1"}} {
		if msg := usage(t, "", args...); !strings.HasPrefix(msg, "soko play needs a terminal") {
			t.Errorf("%v: %q", args, msg)
		}
	}
	if testing.Short() {
		t.Skip("runs child processes")
	}
	for _, pipe := range []bool{false, true} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestBenchHelperProcess$", "--", "play", "microban:1")
		cmd.Env = append(os.Environ(), "SOKO_BENCH_HELPER=1")
		if pipe {
			cmd.Stdin = strings.NewReader("\n")
		}
		var stderr strings.Builder
		cmd.Stderr = &stderr
		done := make(chan error, 1)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.HasPrefix(stderr.String(), "soko play needs a terminal") {
				t.Errorf("pipe %v: %v, want exit status 2\n%s", pipe, err, stderr.String())
			}
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("pipe %v: soko play without a terminal still runs after 30 s", pipe)
		}
	}
}

// --memory 0 means no limit of soko's own; the runtime's soft limit then
// stays at four fifths of physical memory. A budget sets it to the budgets
// of the workers.
func TestMemoryLimit(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	if _, _, err := soko(t, "", "solve", "--memory", "0", "--no-solution", "microban:2"); err != nil {
		t.Fatal(err)
	}
	if got, want := debug.SetMemoryLimit(-1), solver.PhysicalMemory()*4/5; got != want {
		t.Errorf("--memory 0: soft limit %d, want %d", got, want)
	}
	if _, _, err := soko(t, "", "solve", "--memory", "64MiB", "-j", "2", "--no-solution", "microban:2-3"); err != nil {
		t.Fatal(err)
	}
	if got, want := debug.SetMemoryLimit(-1), int64(2*64<<20); got != want {
		t.Errorf("--memory 64MiB -j 2: soft limit %d, want %d", got, want)
	}
}

func TestPlurals(t *testing.T) {
	out, _, err := soko(t, "", "verify", "microban:1", "d")
	if !errors.Is(err, errSilent) || !strings.Contains(out, "after all 1 move (0 pushes)") {
		t.Errorf("%v %q", err, out)
	}
	out, _, err = soko(t, "", "bench", "--dry-run", "--nodes", "5", "microban:1")
	if err != nil || !strings.HasPrefix(out, "1 run: 1 solver x 1 level x 1 budget x 1 seed; 1 left to run") {
		t.Errorf("%v %q", err, out)
	}
}

// A level of standard input addressed by number (-:N) is an argument, not
// a flag, before or after flags; and list, like the other commands, takes
// -- before its argument.
func TestStdinAddressArgument(t *testing.T) {
	const two = "#####\n#@$.#\n#####\n\n######\n#@ $.#\n######\n"
	for _, args := range [][]string{
		{"show", "-:2"},
		{"solve", "--time", "5s", "-:2", "--optimize", "off"},
		{"list", "-:2"},
		{"verify", "-:2", "rR"},
	} {
		out, errOut, err := soko(t, two, args...)
		if err != nil || !strings.Contains(out, "#@ $.#") && !strings.Contains(out, "<stdin>:2") {
			t.Errorf("%q: %v %q %q", args, err, out, errOut)
		}
	}
	if out, _, err := soko(t, "", "list", "--", "microban:1"); err != nil || !strings.HasPrefix(out, "microban:1 ") {
		t.Errorf("list -- microban:1: %v %q", err, out)
	}
}

// runToFile runs soko args as a child process with env added, its standard
// output a regular file, and returns its exit status and standard error.
func runToFile(t *testing.T, env []string, args ...string) (int, string) {
	t.Helper()
	out, err := os.Create(filepath.Join(t.TempDir(), "out.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	cmd := exec.Command(os.Args[0], append([]string{"-test.run=^TestBenchHelperProcess$", "--"}, args...)...)
	cmd.Env = append(append(os.Environ(), "SOKO_BENCH_HELPER=1"), env...)
	cmd.Stdout = out
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err = cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	return cmd.ProcessState.ExitCode(), stderr.String()
}

// Output lost on standard output (a full disk) fails the run, exit status
// 1, whichever command printed it and however: show, list and solve's
// text lines as much as the JSON commands.
func TestStdoutWriteErrorFails(t *testing.T) {
	if testing.Short() {
		t.Skip("runs child processes")
	}
	for _, args := range [][]string{{"show", "microban:1"}, {"list", "microban"}, {"solve", "--time", "1s", "microban:1"}} {
		status, stderr := runToFile(t, []string{"SOKO_FSIZE_ZERO=1"}, args...) // every write to a regular file fails
		if status != 1 || !strings.Contains(stderr, "soko: standard output: ") {
			t.Errorf("%v: exit status %d, want 1 naming standard output\n%s", args, status, stderr)
		}
	}
}

// An output that is the regular file standard output writes (--trace
// /dev/stdout > x.out) is refused before any work: the two would write
// over each other.
func TestOutputIsStdoutRefused(t *testing.T) {
	if testing.Short() {
		t.Skip("runs child processes")
	}
	for _, args := range [][]string{{"solve", "--json", "--trace", "/dev/stdout", "microban:1"}, {"solve", "--out", "/dev/stdout", "microban:1"},
		{"optimize", "--out", "/dev/stdout", "microban:1", "dlUrrrdLullddrUluRuulDrddrruLdlUU"}} {
		status, stderr := runToFile(t, nil, args...)
		if status != 2 || !strings.Contains(stderr, "/dev/stdout is the file standard output writes") {
			t.Errorf("%v: exit status %d, want 2\n%s", args, status, stderr)
		}
	}
}

// Standard input where a command takes only a file, and a flag before the
// command, get messages that say so.
func TestDashAndFlagFirstMessages(t *testing.T) {
	for args, want := range map[string]string{
		"report -":          "report: results file - (standard input) is not taken here: give a file",
		"bench merge -":     "bench merge: results file - (standard input) is not taken here",
		"optimize --from -": "optimize: results file - (standard input) is not taken here",
		"verify -":          "verify: - (standard input) is not taken as a .sok file",
		"-t 1s solve x":     "-t before a command: the command comes first",
	} {
		if msg := usage(t, "", strings.Fields(args)...); !strings.Contains(msg, want) {
			t.Errorf("soko %s: %q, want %q", args, msg, want)
		}
	}
}
