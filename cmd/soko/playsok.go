package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"soko/internal/ctxio"
	"soko/level"
	"soko/levels"
	"soko/play"
	"soko/sokfile"
)

// This file is what soko play does with .sok files: the solutions a level
// comes with (offered on the V key), --replay FILE.sok, and --out FILE.sok.

// playSolver is the "Solver:" of the solutions soko play --out saves.
const playSolver = "soko play"

// playModel reads soko play's levels and solutions into the player: the
// levels of pos (the file of --replay FILE.sok when pos is empty), each
// with the solutions a .sok file stores for it, and the replay asked for.
func playModel(ctx context.Context, c *playConfig, pos []string, stdin io.Reader, stderr io.Writer) (*play.Model, error) {
	var replaySok *sokfile.File
	var replayLURD string
	if c.replay != "" {
		var err error
		if replaySok, replayLURD, err = readReplay(ctx, c.replay, stdin); err != nil {
			return nil, err
		}
	}
	if len(pos) == 0 {
		if replaySok == nil {
			return nil, usagef("play: no levels given")
		}
		pos = []string{c.replay}
	}
	lvls, err := levels.ResolveAll(ctx, pos, stdin)
	if err != nil {
		return nil, err
	}
	m := play.New(lvls)
	m.SetSpeed(c.speed)
	stored := storedSolutions(ctx, lvls, replaySok)
	for i, s := range stored {
		m.SetStored(i, s)
	}
	switch {
	case replaySok != nil:
		first := slices.IndexFunc(stored, func(s []play.Stored) bool { return len(s) > 0 })
		if first < 0 {
			return nil, fmt.Errorf("play: --replay %s holds no solution of %s", c.replay, strings.Join(pos, " "))
		}
		m.ReplayStored(first)
	case c.replay != "":
		if len(lvls) != 1 {
			return nil, usagef("play: --replay animates a solution of one level, and %s names %d; name one, such as %s",
				strings.Join(pos, " "), len(lvls), levelID(lvls[0]))
		}
		moves, err := level.ParseLURD(replayLURD)
		if err != nil {
			return nil, fmt.Errorf("play: solution: %w", err)
		}
		// Before the board takes the screen, so that a refusal or the
		// note is read in the shell's.
		note, err := checkCase(lvls[0], moves, c.lenient)
		if err != nil {
			return nil, fmt.Errorf("play: --replay refused: %w", err)
		}
		if note != "" {
			fmt.Fprintf(stderr, "soko: play: %s\n", note)
		}
		m.Replay(moves)
	}
	return m, nil
}

// readReplay reads --replay's argument: a .sok file (named .sok, or a
// file that is not LURD but holds solutions, as a collection site may
// serve one named .txt), or else one solution as soko verify reads it
// (readSolution), its text returned unparsed.
func readReplay(ctx context.Context, arg string, stdin io.Reader) (*sokfile.File, string, error) {
	if arg != "-" && strings.EqualFold(filepath.Ext(arg), ".sok") {
		if st, err := os.Stat(arg); err == nil && st.Mode().IsRegular() {
			f, err := readSok(ctx, "play", arg)
			return f, "", err
		}
	}
	text, err := readSolution(ctx, arg, stdin)
	if err != nil {
		return nil, "", err
	}
	if _, perr := level.ParseLURD(text); perr != nil && arg != "-" && !isLURD(arg) {
		if f, serr := sokfile.Read(strings.NewReader(text), arg); serr == nil && hasSolutions(f) {
			return f, "", nil
		}
	}
	return nil, text, nil
}

// hasSolutions reports whether a .sok file holds a solution section.
func hasSolutions(f *sokfile.File) bool {
	return slices.ContainsFunc(f.Entries, func(e *sokfile.Entry) bool { return len(e.Solutions) > 0 })
}

// storedSolutions returns, for each of lvls, the sound solutions stored
// for it (sokfile.Entry.Score: they solve it, each step in its right
// case), best first in pushes, then moves: those of the file it was read
// from, when that file has solution sections, and those of extra (the
// --replay FILE.sok) for its board. A file that cannot be read again as a
// .sok adds none.
func storedSolutions(ctx context.Context, lvls []*level.Level, extra *sokfile.File) [][]play.Stored {
	files := map[string]*sokfile.File{}
	fileOf := func(source string) *sokfile.File {
		f, seen := files[source]
		if seen {
			return f
		}
		files[source] = nil
		if name, ok := levels.File(source); ok && name == source {
			if st, err := os.Stat(source); err == nil && st.Mode().IsRegular() {
				if fh, err := ctxio.Open(ctx, source); err == nil {
					defer fh.Close()
					if f, err = sokfile.Read(fh, source); err == nil && hasSolutions(f) {
						files[source] = f
					}
				}
			}
		}
		return files[source]
	}
	out := make([][]play.Stored, len(lvls))
	for i, l := range lvls {
		var entries []*sokfile.Entry
		if f := fileOf(l.Source); f != nil && l.Index >= 1 && l.Index <= len(f.Entries) {
			if e := f.Entries[l.Index-1]; e.Level != nil && slices.Equal(e.Level.Rows, l.Rows) {
				entries = append(entries, e)
			}
		}
		if extra != nil {
			if ms := extra.Matches(l); len(ms) > 0 && !slices.Contains(entries, ms[0]) {
				entries = append(entries, ms[0])
			}
		}
		out[i] = storedOf(entries)
	}
	return out
}

// storedOf is the sound solutions of entries, best first, each LURD once.
func storedOf(entries []*sokfile.Entry) []play.Stored {
	type scored struct {
		pushes, moves int
		s             play.Stored
		lurd          string
	}
	var all []scored
	for _, e := range entries {
		for _, s := range e.Solutions {
			p, mv, sound, _ := e.Score(s)
			if !sound || slices.ContainsFunc(all, func(o scored) bool { return o.lurd == s.LURD }) {
				continue
			}
			moves, err := level.ParseLURD(s.LURD)
			if err != nil {
				continue
			}
			name := fmt.Sprintf("%d pushes, %d moves", p, mv)
			if s.Solver != "" {
				name += ", " + s.Solver
			}
			all = append(all, scored{p, mv, play.Stored{Name: name, Moves: moves}, s.LURD})
		}
	}
	slices.SortStableFunc(all, func(a, b scored) int {
		if a.pushes != b.pushes {
			return a.pushes - b.pushes
		}
		return a.moves - b.moves
	})
	var out []play.Stored
	for _, a := range all {
		out = append(out, a.s)
	}
	return out
}

// openPlayOut checks and locks --out FILE.sok before the game starts, as
// soko solve does its --out: a file of the run's levels named .sok is
// played into, merged.
func openPlayOut(ctx context.Context, c *playConfig, pos []string, stdin io.Reader) (*sokOut, error) {
	var inputs []string
	if c.replay != "" && !strings.EqualFold(filepath.Ext(c.replay), ".sok") {
		inputs = append(inputs, c.replay)
	}
	if len(pos) == 0 {
		pos = []string{c.replay}
	}
	if err := notAnInputSok("play", stdin, pos, inputs, output{"--out", c.out}); err != nil {
		return nil, err
	}
	return openSokOut(ctx, "play", "--out", c.out)
}

// savePlayed puts the session's solutions in --out and writes it: each
// solution the player found (play.Game.Solutions), under its level. A
// session that found none leaves the file as it was, and says so.
func savePlayed(ctx context.Context, o *sokOut, m *play.Model, stderr io.Writer) error {
	for _, g := range m.Games() {
		for _, lurd := range g.Solutions() {
			o.add(levels.Entry{Level: g.Level()}, lurd, playSolver)
		}
	}
	if len(o.adds) == 0 {
		fmt.Fprintf(stderr, "play: no level solved this session: %s left as it was\n", o.path)
		return nil
	}
	return o.write(ctx, stderr)
}
