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
	"soko/internal/english"
	"soko/level"
	"soko/levels"
	"soko/play"
	"soko/sokfile"
)

// This file is what soko play does with .sok files: the solutions a level
// comes with (offered on the V key), its saved game (a snapshot section,
// resumed on the C key), --replay FILE.sok, and --out FILE.sok, written as
// the session goes.

// playSolver is the "Solver:" of the solutions soko play --out saves.
const playSolver = "soko play"

// playModel reads soko play's levels and solutions into the player: the
// levels of pos (the file of --replay FILE.sok when pos is empty), each
// with the solutions and the saved game .sok files store for it (out, the
// --out file when there is one, first), and the replay asked for.
func playModel(ctx context.Context, c *playConfig, pos []string, out *sokOut, stdin io.Reader, stderr io.Writer) (*play.Model, error) {
	var replaySok *sokfile.File
	var replayLURD, replayFrom string
	if c.replay != "" {
		if c.replay == "-" && slices.ContainsFunc(pos, levels.Stdin) {
			return nil, usagef("play: standard input can give the levels or the --replay solution, not both")
		}
		var err error
		if replaySok, replayLURD, replayFrom, err = readReplay(ctx, c.replay, stdin); err != nil {
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
	var outFile *sokfile.File
	if out != nil {
		outFile = out.read
	}
	var stored [][]play.Stored
	for i, entries := range levelEntries(ctx, lvls, outFile, replaySok) {
		stored = append(stored, storedOf(entries))
		m.SetStored(i, stored[i])
		if name, moves, ok := savedGame(entries, stderr); ok {
			m.SetSaved(i, name, moves)
		}
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
			return nil, fmt.Errorf("play: %s: %w", replayFrom, err)
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
// (readSolution), its text returned unparsed with where it came from.
func readReplay(ctx context.Context, arg string, stdin io.Reader) (f *sokfile.File, text, from string, err error) {
	if arg != "-" && strings.EqualFold(filepath.Ext(arg), ".sok") {
		if st, err := os.Stat(arg); err == nil && st.Mode().IsRegular() {
			f, err := readSok(ctx, "play", arg)
			return f, "", "", err
		}
	}
	text, from, err = readSolution(ctx, arg, stdin)
	if err != nil {
		return nil, "", "", err
	}
	if _, perr := level.ParseLURD(text); perr != nil && arg != "-" && !isLURD(arg) {
		if f, serr := sokfile.Read(strings.NewReader(text), arg); serr == nil && hasSolutions(f) {
			return f, "", "", nil
		}
	}
	return nil, text, from, nil
}

// hasSolutions reports whether a .sok file holds a solution section.
func hasSolutions(f *sokfile.File) bool {
	return slices.ContainsFunc(f.Entries, func(e *sokfile.Entry) bool { return len(e.Solutions) > 0 })
}

// hasSections reports whether a .sok file holds a solution or snapshot
// section.
func hasSections(f *sokfile.File) bool {
	return slices.ContainsFunc(f.Entries, func(e *sokfile.Entry) bool { return len(e.Solutions)+len(e.Snapshots) > 0 })
}

// levelEntries returns, for each of lvls, the .sok entries that store
// sections for it: its entry in out (the --out file) for its board, its
// entry in the file it was read from, when that file has solution or
// snapshot sections, and its entry in extra (the --replay FILE.sok) for
// its board, each once. A file that cannot be read again as a .sok adds
// none.
func levelEntries(ctx context.Context, lvls []*level.Level, out, extra *sokfile.File) [][]*sokfile.Entry {
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
					if f, err = sokfile.Read(fh, source); err == nil && hasSections(f) {
						files[source] = f
					}
				}
			}
		}
		return files[source]
	}
	all := make([][]*sokfile.Entry, len(lvls))
	for i, l := range lvls {
		var entries []*sokfile.Entry
		matching := func(f *sokfile.File) {
			if f == nil {
				return
			}
			if ms := f.Matches(l); len(ms) > 0 && !slices.Contains(entries, ms[0]) {
				entries = append(entries, ms[0])
			}
		}
		matching(out)
		if f := fileOf(l.Source); f != nil && l.Index >= 1 && l.Index <= len(f.Entries) {
			if e := f.Entries[l.Index-1]; e.Level != nil && slices.Equal(e.Level.Rows, l.Rows) && !slices.Contains(entries, e) {
				entries = append(entries, e)
			}
		}
		matching(extra)
		all[i] = entries
	}
	return all
}

// savedGame picks the saved game offered for a level from its entries:
// the first of the first entry's snapshots, in their ResumeOrder, that
// replays on the level. One that does not is said on stderr, with its
// file, level and line, and passed over.
func savedGame(entries []*sokfile.Entry, stderr io.Writer) (string, []level.Move, bool) {
	for _, e := range entries {
		for _, s := range e.ResumeOrder() {
			moves, err := e.CheckSnapshot(s)
			if err != nil {
				fmt.Fprintf(stderr, "soko: play: %v; not offered\n", err)
				continue
			}
			return s.Name, moves, true
		}
	}
	return "", nil, false
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

// playedAdds makes the session's progress what o adds to its file: each
// solution the player found (play.Game.Solutions), under its level, and
// for each level played on by the player (not only a replay watched), the
// game in progress as its unnamed snapshot, or, when the level stands
// solved or at its start, none.
func playedAdds(o *sokOut, m *play.Model) {
	o.adds = o.adds[:0]
	for _, g := range m.Games() {
		for _, lurd := range g.Solutions() {
			o.add(levels.Entry{Level: g.Level()}, lurd, playSolver)
		}
		if g.Touched() && g.Own() {
			snap := &sokfile.Snapshot{Date: sokDate()}
			if !g.Solved() {
				snap.LURD = g.LURD()
			}
			o.addSnapshot(g.Level(), snap)
		}
	}
}

// playCheckpoint saves the session's progress to --out as it goes
// (play.Model.SetCheckpoint) and at its end. added counts the solutions
// new or better over the session, snapped the levels given a snapshot,
// whose snapshot a game solved or restarted must drop, and wrote whether
// the file was written.
type playCheckpoint struct {
	o       *sokOut
	m       *play.Model
	added   int
	snapped map[*level.Level]bool
	wrote   bool
}

// save merges the progress into the file, unless there is none: only
// games at their start on levels that have no snapshot to drop.
func (c *playCheckpoint) save(ctx context.Context, stderr io.Writer) error {
	playedAdds(c.o, c.m)
	if c.snapped == nil {
		c.snapped = map[*level.Level]bool{}
	}
	if !slices.ContainsFunc(c.o.adds, func(a sokAdd) bool {
		return a.snap == nil || a.snap.LURD != "" || c.snapped[a.level] || slices.ContainsFunc(c.o.read.Matches(a.level), func(e *sokfile.Entry) bool { return len(e.Snapshots) > 0 })
	}) {
		return nil
	}
	if err := c.o.save(ctx, stderr); err != nil {
		return err
	}
	c.added += c.o.added
	c.wrote = true
	for _, a := range c.o.adds {
		if a.snap != nil && a.snap.LURD != "" {
			c.snapped[a.level] = true
		}
	}
	return nil
}

// savePlayed writes the session's progress to --out at its end (also
// after an interrupt) and says what the file holds of it. A session that
// neither solved a level nor left a game in progress leaves the file as
// it was, and says so.
func savePlayed(ctx context.Context, c *playCheckpoint, stderr io.Writer) error {
	o := c.o
	if err := c.save(ctx, stderr); err != nil {
		return err
	}
	if !c.wrote {
		fmt.Fprintf(stderr, "play: no level solved or left in progress this session: %s left as it was\n", o.path)
		return nil
	}
	games := ""
	if o.games > 0 {
		games = ", " + english.Count(o.games, "game in progress", "games in progress")
	}
	fmt.Fprintf(stderr, "play: %s, %s new or better%s, in %s\n", english.Count(o.levels, "level", "levels"),
		english.Count(c.added, "solution", "solutions"), games, o.path)
	return nil
}
