package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/term"

	"soko/internal/english"
	"soko/level"
	"soko/levels"
	"soko/play"
)

type playConfig struct {
	replay string
	speed  float64
}

const playDoc = `Plays LEVEL in the terminal: arrows, WASD or HJKL move, U/Z/Backspace
undo, Y redo, R restart, Q quits and prints the moves played in LURD. With
--replay it animates a solution (a file, - for standard input, or inline
LURD, as for soko verify); Space pauses, + and - change the speed.

It needs a terminal for the board and the keys: with standard output or
standard input not a terminal it stops at once (exit status 2). When the
level or the solution is read from standard input (-), the keys are read
from the controlling terminal. To check a solution without a terminal, use
soko verify.
`

func playFlags() (*flag.FlagSet, *playConfig) {
	c := &playConfig{}
	fs := flag.NewFlagSet("play", flag.ContinueOnError)
	fs.StringVar(&c.replay, "replay", "", "animate `SOLUTION`: a file, - for stdin, or inline LURD")
	fs.Float64Var(&c.speed, "speed", 8, "replay speed in `STEPS` per second")
	return fs, c
}

// minSpeed and maxSpeed bound --speed: the slowest is the pace the - key
// slows a replay down to (a step every 2 s), the fastest far beyond what a
// terminal redraws.
const (
	minSpeed = 0.5
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
// it prints the moves played in LURD.
func runPlay(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs, c := playFlags()
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("play: want one LEVEL, got %s", english.Count(len(pos), "argument", "arguments"))
	}
	if !(c.speed >= minSpeed && c.speed <= maxSpeed) {
		return usagef("play: bad --speed %v: want steps per second from %v to %v", c.speed, minSpeed, maxSpeed)
	}
	// The terminal comes first: without one, nothing is read.
	if _, ok := terminal(stdout); !ok {
		return errNoTerminal("standard output is not one")
	}
	keys, ok := terminal(stdin)
	if !ok {
		if pos[0] != "-" && c.replay != "-" {
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
	if len(lvls) != 1 {
		return usagef("play: %q names %d levels; name exactly one", pos[0], len(lvls))
	}
	m := play.New(lvls[0])
	if c.replay != "" {
		text, err := readSolution(ctx, c.replay, stdin)
		if err != nil {
			return err
		}
		moves, err := level.ParseLURD(text)
		if err != nil {
			return fmt.Errorf("play: solution: %w", err)
		}
		m.Replay(moves, c.speed)
	}
	opts := []tea.ProgramOption{tea.WithContext(ctx), tea.WithOutput(stdout), tea.WithInput(keys)}
	if _, err := tea.NewProgram(m, opts...).Run(); err != nil {
		if errors.Is(err, tea.ErrInterrupted) || errors.Is(err, tea.ErrProgramKilled) || ctx.Err() != nil {
			return errInterrupted
		}
		return fmt.Errorf("play: %w", err)
	}
	result := "not solved"
	if m.Solved() {
		result = "solved"
	}
	fmt.Fprintf(stdout, "%s: %s, %s, %s: %s\n", levelID(lvls[0]), result,
		english.Count(m.Moves(), "move", "moves"), english.Count(m.Pushes(), "push", "pushes"), m.LURD())
	return nil
}
