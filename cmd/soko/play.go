package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	tea "charm.land/bubbletea/v2"

	"soko/level"
	"soko/levels"
	"soko/play"
)

type playConfig struct {
	replay string
	speed  float64
}

func playFlags() (*flag.FlagSet, *playConfig) {
	c := &playConfig{}
	fs := flag.NewFlagSet("play", flag.ContinueOnError)
	fs.StringVar(&c.replay, "replay", "", "a solution to animate: a file, - for stdin, or inline LURD")
	fs.Float64Var(&c.speed, "speed", 8, "replay speed in steps per second")
	return fs, c
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
		return usagef("play: want one LEVEL, got %d arguments", len(pos))
	}
	if c.speed <= 0 {
		return usagef("play: --speed must be positive")
	}
	lvls, err := levels.Resolve(pos[0], stdin)
	if err != nil {
		return err
	}
	if len(lvls) != 1 {
		return usagef("play: %q names %d levels; name exactly one", pos[0], len(lvls))
	}
	m := play.New(lvls[0])
	if c.replay != "" {
		text, err := readSolution(c.replay, stdin)
		if err != nil {
			return err
		}
		moves, err := level.ParseLURD(text)
		if err != nil {
			return fmt.Errorf("play: solution: %w", err)
		}
		m.Replay(moves, c.speed)
	}
	opts := []tea.ProgramOption{tea.WithContext(ctx), tea.WithOutput(stdout)}
	if stdin != nil && pos[0] != "-" && c.replay != "-" {
		opts = append(opts, tea.WithInput(stdin))
	}
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
	fmt.Fprintf(stdout, "%s: %s, %d moves, %d pushes: %s\n", levelID(lvls[0]), result, m.Moves(), m.Pushes(), m.LURD())
	return nil
}
