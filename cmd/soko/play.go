package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/term"

	"soko/internal/english"
	"soko/play"
)

type playConfig struct {
	replay  string
	speed   float64
	lenient bool   // --lenient-case
	out     string // --out FILE.sok
}

const playDoc = `Plays LEVELS in the terminal, one at a time: a level (microban:12), a range
(microban:1-10) or a whole collection (microban). Arrows, WASD or HJKL move,
U/Z/Backspace undo, Y redo, R restart, N/PgDn and P/PgUp go to the next and
previous level (each keeps its position), Q quits and prints, for each level
where a step was played, whether it is solved and the moves in LURD. A box
on a goal is drawn ** (a box elsewhere []). --out FILE.sok saves the
session there, merged as soko solve --out does: the solutions found, with
"Solver: soko play", and each level left unsolved as a Snapshot section
(its moves so far). It is written as the session goes: when a level is
solved, when the level shown changes, at most every 30 s while playing,
and at the end, after Q or a signal.

A level read from a .sok file (soko solve --out writes one), or found in
the --out file, comes with the solutions and the saved game stored there:
V replays the best solution, V again the next; C resumes the saved game
(a Snapshot section: the unnamed one, else the last named). With
--replay it animates a solution of one level (a file, - for standard input,
or inline LURD, as for soko verify, whose rule on letter case it follows:
a step in the wrong case is refused unless --lenient-case), or, given a
.sok file, the stored solution of each level (the file's own levels when
no LEVELS are given); Space pauses, + and - change the speed.

It needs a terminal for the board and the keys: with standard output or
standard input not a terminal it stops at once (exit status 2). When the
levels or the solution are read from standard input (-), the keys are read
from the controlling terminal. To check a solution without a terminal, use
soko verify.
`

func playFlags() (*flag.FlagSet, *playConfig) {
	c := &playConfig{}
	fs := flag.NewFlagSet("play", flag.ContinueOnError)
	fs.StringVar(&c.replay, "replay", "", "animate `SOLUTION`: a file, - for stdin, inline LURD, or a .sok file's solutions")
	fs.StringVar(&c.out, "out", "", "save the session's solutions and games in progress to `FILE.sok` as it goes (merged, as by soko solve --out)")
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
	f, ok := fileOf(x)
	return f, ok && term.IsTerminal(f.Fd())
}

// runPlay is soko play: the terminal player (package play). When it ends
// it prints the moves played in LURD, a line for each level played.
func runPlay(ctx context.Context, c *playConfig, pos []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if !(c.speed >= minSpeed && c.speed <= maxSpeed) {
		return usagef("play: bad --speed \"%v\": want steps per second from %v to %v", c.speed, minSpeed, maxSpeed)
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
	var out *sokOut
	if c.out != "" {
		var err error
		if out, err = openPlayOut(ctx, c, pos, stdin); err != nil {
			return err
		}
		defer out.close()
	}
	m, err := playModel(ctx, c, pos, out, stdin, stderr)
	if err != nil {
		return err
	}
	var saver *playCheckpoint
	if out != nil { // the progress is saved as the session goes, quietly
		saver = &playCheckpoint{o: out, m: m}
		m.SetCheckpoint(func() error { return saver.save(ctx, io.Discard) })
	}
	// A signal (SIGINT, SIGTERM, SIGHUP: see process) ends the context; the
	// program then quits as the q key does, drawing its last frame and
	// giving the terminal back, rather than being killed mid-frame.
	opts := []tea.ProgramOption{tea.WithOutput(tty), tea.WithInput(keys), tea.WithoutSignalHandler()} // the terminal itself: the program asks it its size
	prog := tea.NewProgram(m, opts...)
	stop := context.AfterFunc(ctx, prog.Quit)
	defer stop()
	_, runErr := prog.Run()
	interrupted := ctx.Err() != nil || m.Interrupted() || errors.Is(runErr, tea.ErrInterrupted) || errors.Is(runErr, tea.ErrProgramKilled)
	if runErr == nil { // what was played, also when interrupted: a command winds up so
		for _, g := range m.Played() {
			result := "not solved"
			if g.Solved() {
				result = "solved"
			}
			fmt.Fprintf(stdout, "%s: %s, %s, %s: %s\n", levelID(g.Level()), result,
				english.Count(g.Moves(), "move", "moves"), english.Count(g.Pushes(), "push", "pushes"), g.LURD())
		}
	}
	if saver != nil { // and at the end, also after an interrupt
		if err := savePlayed(ctx, saver, stderr); err != nil {
			return err
		}
	}
	switch {
	case interrupted:
		return errInterrupted
	case runErr != nil:
		return fmt.Errorf("play: %w", runErr)
	}
	return nil
}
