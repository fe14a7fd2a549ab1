package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/term"

	"soko/internal/english"
	"soko/level"
	"soko/levels"
	"soko/play"
)

type playConfig struct {
	replay  string
	speed   float64
	lenient bool // --lenient-case
}

const playDoc = `Plays LEVELS in the terminal, one at a time: a level (microban:12), a range
(microban:1-10) or a whole collection (microban). Arrows, WASD or HJKL move,
U/Z/Backspace undo, Y redo, R restart, N/PgDn and P/PgUp go to the next and
previous level (each keeps its position), Q quits and prints, for each level
where a step was played, whether it is solved and the moves in LURD. With
--replay it animates a solution of one level (a file, - for standard input,
or inline LURD, as for soko verify, whose rule on letter case it follows:
a step in the wrong case is refused unless --lenient-case); Space pauses,
+ and - change the speed.

It needs a terminal for the board and the keys: with standard output or
standard input not a terminal it stops at once (exit status 2). When the
levels or the solution are read from standard input (-), the keys are read
from the controlling terminal. To check a solution without a terminal, use
soko verify.
`

func playFlags() (*flag.FlagSet, *playConfig) {
	c := &playConfig{}
	fs := flag.NewFlagSet("play", flag.ContinueOnError)
	fs.StringVar(&c.replay, "replay", "", "animate `SOLUTION`: a file, - for stdin, or inline LURD")
	fs.Float64Var(&c.speed, "speed", 8, "replay speed in `STEPS` per second")
	lenientCaseFlag(fs, &c.lenient)
	return fs, c
}

// minSpeed and maxSpeed bound --speed: the slowest is the pace the - key
// slows a replay down to (a step every 2 s), the fastest far beyond what a
// terminal redraws.
const (
	minSpeed = play.MinSpeed
	maxSpeed = 1000
)

// errNoTerminal is soko play without a terminal; why says what is missing.
func errNoTerminal(why string) error {
	return usagef("soko play needs a terminal: %s (to check a solution without one, use soko verify)", why)
}

// terminal returns x as a file when it is a terminal (not merely a
// character device such as /dev/null).
func terminal(x any) (*os.File, bool) {
	f, ok := x.(*os.File)
	return f, ok && f != nil && term.IsTerminal(f.Fd())
}

// runPlay is soko play: the terminal player (package play). When it ends
// it prints the moves played in LURD, a line for each level played.
func runPlay(ctx context.Context, c *playConfig, pos []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if !(c.speed >= minSpeed && c.speed <= maxSpeed) {
		return usagef("play: bad --speed %v: want steps per second from %v to %v", c.speed, minSpeed, maxSpeed)
	}
	// The terminal comes first: without one, nothing is read.
	tty, ok := terminal(stdout)
	if !ok {
		return errNoTerminal("standard output is not one")
	}
	if !inForeground(tty) {
		return usagef("soko play runs in the foreground of its terminal, and this process is in the background (with timeout, use timeout --foreground)")
	}
	keys, ok := terminal(stdin)
	if !ok {
		if !slices.Contains(pos, "-") && c.replay != "-" {
			return errNoTerminal("standard input is not one")
		}
		in, out, err := tea.OpenTTY()
		if err != nil {
			return errNoTerminal("standard input holds the level or solution, and there is no controlling terminal to read keys from")
		}
		defer in.Close()
		defer out.Close()
		keys = in
	}
	lvls, err := levels.ResolveAll(ctx, pos, stdin)
	if err != nil {
		return err
	}
	m := play.New(lvls)
	m.SetSpeed(c.speed)
	if c.replay != "" {
		if len(lvls) != 1 {
			return usagef("play: --replay animates a solution of one level, and %s names %d; name one, such as %s",
				strings.Join(pos, " "), len(lvls), levelID(lvls[0]))
		}
		text, err := readSolution(ctx, c.replay, stdin)
		if err != nil {
			return err
		}
		moves, err := level.ParseLURD(text)
		if err != nil {
			return fmt.Errorf("play: solution: %w", err)
		}
		// Before the board takes the screen, so that a refusal or the
		// note is read in the shell's.
		note, err := checkCase(lvls[0], moves, c.lenient)
		if err != nil {
			return fmt.Errorf("play: --replay refused: %w", err)
		}
		if note != "" {
			fmt.Fprintf(stderr, "soko: play: %s\n", note)
		}
		m.Replay(moves)
	}
	// A signal (SIGINT, SIGTERM, SIGHUP: see process) ends the context; the
	// program then quits as the q key does, drawing its last frame and
	// giving the terminal back, rather than being killed mid-frame.
	opts := []tea.ProgramOption{tea.WithOutput(stdout), tea.WithInput(keys), tea.WithoutSignalHandler()}
	prog := tea.NewProgram(m, opts...)
	stop := context.AfterFunc(ctx, prog.Quit)
	defer stop()
	if _, err := prog.Run(); err != nil {
		if errors.Is(err, tea.ErrInterrupted) || errors.Is(err, tea.ErrProgramKilled) || ctx.Err() != nil {
			return errInterrupted
		}
		return fmt.Errorf("play: %w", err)
	}
	if ctx.Err() != nil {
		return errInterrupted
	}
	for _, g := range m.Played() {
		result := "not solved"
		if g.Solved() {
			result = "solved"
		}
		fmt.Fprintf(stdout, "%s: %s, %s, %s: %s\n", levelID(g.Level()), result,
			english.Count(g.Moves(), "move", "moves"), english.Count(g.Pushes(), "push", "pushes"), g.LURD())
	}
	return nil
}
