// Package generate makes Boxoban-style Sokoban levels with a solution known
// from their construction: training data for the learning solvers (seed 001
// §2.2.2, seed 003 §2.4), unlimited and reproducible. It follows the recipe
// the Boxoban levels were made with (Racanière et al. 2017,
// "Imagination-Augmented Agents", appendix; Schrader's gym-sokoban,
// room_utils; see the README's References), written anew here:
//
//  1. Room: all walls, then a random walk over the interior that may turn
//     with probability 0.35 at each step and carves one of five small floor
//     patterns around each square it reaches. The walk is connected, so
//     every floor square is reachable. Its length (42 steps on a 10×10
//     grid) makes rooms of about half the interior, as in Boxoban.
//  2. Goals and player: Boxes goals and the player on distinct random floor
//     squares, a box on every goal.
//  3. Reverse play: a depth-first search from that solved position over
//     player steps and pulls (a pull is a push played backwards), at most
//     Explore positions and Depth steps deep, as Boxoban's generator
//     searches. Each position is scored by the path that first reached it:
//     the number of times the pulled box changed times the total distance
//     of the boxes from their goals (Boxoban's score), 0 while a box stands
//     on a goal. The best position is the level; its path, reversed with
//     pulls turned into pushes, is the solution.
//  4. Checks: the construction's solution is replayed by the independent
//     verifier (package verify); the push-optimal A* (package search)
//     measures the level within CheckNodes expansions, and the Effort
//     solver's expansions with it. A level outside the band set by
//     MinPushes, MaxPushes, MinExpanded and MaxExpanded is dropped and
//     another room tried. With no band the levels' optimal pushes follow
//     those of Boxoban's unfiltered levels (docs/learning.md); a band makes
//     sets like its medium or hard ones.
//
// Level i of a seed is drawn from a generator seeded with (Seed, i) alone,
// so a level depends only on the configuration, the seed and its number —
// not on the levels before it or on how many run at once.
package generate

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"

	"soko/internal/english"
	"soko/level"
	"soko/solver"
	"soko/verify"
)

// Config describes the levels to generate. The zero value of a field means
// its default; a zero bound means no bound.
type Config struct {
	Width, Height int    // grid size, the outer walls included; default 10×10 as Boxoban
	Boxes         int    // default 4
	Seed          uint64 // the level stream

	// The difficulty band. A level the push-optimal check cannot solve
	// within CheckNodes has no known optimum: it is kept only when neither
	// maximum is set.
	MinPushes, MaxPushes     int    // push-optimal solution length
	MinExpanded, MaxExpanded int64  // expansions of the Effort solver to solve the level
	Effort                   string // registered solver whose expansions are measured; default "astar"
	CheckNodes               int64  // node budget of each check; default 20000

	MaxRooms  int // rooms tried for one level before giving up; default 10000
	RoomSteps int // steps of the room's random walk; default 42·(Width+Height−4)/16
	Explore   int // positions the reverse play may visit per room; default 2000, 500 a box beyond 4 boxes
	Depth     int // steps deep the reverse play may go; default 300 as Boxoban's generator, 75 a box beyond 4
}

// Limits on Config.
const (
	MinSize  = 5
	MaxSize  = 40
	MaxBoxes = 30
)

// withDefaults fills the defaults and checks the ranges.
func (c Config) withDefaults() (Config, error) {
	if c.Width == 0 {
		c.Width = 10
	}
	if c.Height == 0 {
		c.Height = 10
	}
	if c.Boxes == 0 {
		c.Boxes = 4
	}
	if c.Effort == "" {
		c.Effort = "astar"
	}
	if c.CheckNodes == 0 {
		c.CheckNodes = 20000
	}
	if c.MaxRooms == 0 {
		c.MaxRooms = DefaultMaxRooms
	}
	if c.RoomSteps == 0 {
		// 42 on Boxoban's 10×10 grid fills about half of its 8×8 interior,
		// as Boxoban's rooms do (32 floor squares on average).
		c.RoomSteps = 42 * (c.Width + c.Height - 4) / 16
	}
	// More boxes need a longer search to pull every one off its goal.
	scale := max(c.Boxes, 4)
	if c.Explore == 0 {
		// 2000 with 4 boxes: enough for Boxoban's distribution of optimal
		// pushes on 10×10 grids (docs/learning.md), a millisecond's work.
		c.Explore = 500 * scale
	}
	if c.Depth == 0 {
		c.Depth = 75 * scale
	}
	switch {
	case c.Width < MinSize || c.Width > MaxSize || c.Height < MinSize || c.Height > MaxSize:
		return c, fmt.Errorf("size %dx%d: want each side from %d to %d", c.Width, c.Height, MinSize, MaxSize)
	case c.Boxes < 1 || c.Boxes > MaxBoxes:
		return c, fmt.Errorf("%d boxes: want 1 to %d", c.Boxes, MaxBoxes)
	case c.Boxes+1 > (c.Width-2)*(c.Height-2)/3:
		return c, fmt.Errorf("%d boxes do not fit a %dx%d room (at most %d)", c.Boxes, c.Width, c.Height, (c.Width-2)*(c.Height-2)/3-1)
	case c.MinPushes < 0 || c.MaxPushes < 0 || c.MinExpanded < 0 || c.MaxExpanded < 0 ||
		c.Explore < 0 || c.Depth < 0 || c.RoomSteps < 0 || c.CheckNodes < 0 || c.MaxRooms < 0:
		return c, errors.New("negative limit")
	case c.MinPushes > c.Depth:
		// A level is the end of a reverse play at most Depth steps deep, and
		// every push of its solution is one of those steps reversed: the
		// optimum is at most the construction's pushes, at most Depth.
		return c, fmt.Errorf("at least %d pushes: out of reach, since the solution a level is built with has at most %d pushes with %s (the reverse play goes %d steps deep at most)",
			c.MinPushes, c.Depth, english.Count(c.Boxes, "box", "boxes"), c.Depth)
	case c.MinExpanded > c.CheckNodes:
		// The Effort solver's check stops at CheckNodes expansions.
		return c, fmt.Errorf("at least %d expansions: out of reach, since each check stops at %d (raise the check's node budget)", c.MinExpanded, c.CheckNodes)
	case c.MaxPushes > 0 && c.MaxPushes < c.MinPushes:
		return c, fmt.Errorf("pushes from %d to %d: an empty band", c.MinPushes, c.MaxPushes)
	case c.MaxExpanded > 0 && c.MaxExpanded < c.MinExpanded:
		return c, fmt.Errorf("expansions from %d to %d: an empty band", c.MinExpanded, c.MaxExpanded)
	}
	if _, ok := solver.Lookup(c.Effort); !ok {
		return c, fmt.Errorf("effort: %w", solver.UnknownError(c.Effort))
	}
	return c, nil
}

// Check reports whether c is a configuration levels can be made from.
func (c Config) Check() error {
	_, err := c.withDefaults()
	return err
}

// Level is one generated level with the solution its construction gives.
type Level struct {
	Level    *level.Level
	Solution []level.Move // verified
	Pushes   int          // pushes in Solution
	Optimal  int          // push-optimal length found by the check, or 0 when its budget ran out
	Expanded int64        // expansions of the Effort solver
	EffortOK bool         // the Effort solver solved the level within CheckNodes
	Score    int          // the reverse play's score (box changes × distance)
	Rooms    int          // rooms tried for this level, rejected ones included
}

// DefaultMaxRooms bounds the rooms tried for one level (Config.MaxRooms):
// a configuration that yields nothing (too many boxes for the floor a walk
// carves, a band no level falls in) ends with an error instead of looping.
const DefaultMaxRooms = 10000

// One returns level number i (from 1) of cfg's seed.
func One(ctx context.Context, cfg Config, i int) (Level, error) {
	return OneWatched(ctx, cfg, i, nil)
}

// OneWatched is One that calls tried, when it is not nil, with the
// number of rooms tried so far after each one that is not the level.
func OneWatched(ctx context.Context, cfg Config, i int, tried func(rooms int)) (Level, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return Level{}, fmt.Errorf("generate: %w", err)
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, uint64(i)))
	var seen reach
	for rooms := 1; rooms <= cfg.MaxRooms; rooms++ {
		if err := ctx.Err(); err != nil {
			return Level{}, err
		}
		if tried != nil && rooms > 1 {
			tried(rooms - 1)
		}
		r := newRoom(cfg, rng)
		if r == nil {
			continue
		}
		score, boxes, player, moves, err := r.reversePlay(cfg, rng)
		if err != nil {
			return Level{}, err
		}
		if score == 0 {
			continue
		}
		l, err := r.level(boxes, player, cfg, i)
		if err != nil {
			return Level{}, err
		}
		g := Level{Level: l, Solution: forward(moves), Score: score, Rooms: rooms}
		rep := verify.Replay(l, g.Solution)
		if !rep.Solved {
			return Level{}, fmt.Errorf("generate: level %d: the construction's solution fails: %s", i, rep.Reason)
		}
		g.Pushes = rep.Pushes
		m, err := measure(ctx, l, cfg)
		if err != nil {
			return Level{}, err
		}
		if m.Status == solver.NoSolution {
			return Level{}, fmt.Errorf("generate: %s: A* finds no solution of a level built with one", l.Title)
		}
		if cfg.inBand(m) {
			g.Optimal, g.Expanded, g.EffortOK = m.Optimal, m.Expanded, m.EffortOK
			return g, nil
		}
		seen.add(m)
	}
	return Level{}, fmt.Errorf("generate: level %d: no acceptable level in %d rooms%s; widen the band, or try fewer boxes or a larger size", i, cfg.MaxRooms, seen)
}

// reach is what the levels measured and dropped reached: the range of
// their optimal pushes (of those A* solved) and of the expansions.
type reach struct {
	measured, solved int
	minOpt, maxOpt   int
	minExp, maxExp   int64
}

func (r *reach) add(m Sample) {
	if r.measured == 0 || m.Expanded < r.minExp {
		r.minExp = m.Expanded
	}
	r.maxExp = max(r.maxExp, m.Expanded)
	r.measured++
	if m.Optimal > 0 {
		if r.solved == 0 || m.Optimal < r.minOpt {
			r.minOpt = m.Optimal
		}
		r.maxOpt = max(r.maxOpt, m.Optimal)
		r.solved++
	}
}

// String says what was reached, for the error after the last room: ""
// when no room got as far as a level.
func (r reach) String() string {
	if r.measured == 0 {
		return " (none of them gave a level with every box off its goal)"
	}
	s := fmt.Sprintf(" (%s measured and dropped: ", english.Count(r.measured, "level", "levels"))
	if r.solved > 0 {
		s += fmt.Sprintf("optimal pushes %d to %d, ", r.minOpt, r.maxOpt)
	}
	return s + fmt.Sprintf("expansions %d to %d)", r.minExp, r.maxExp)
}

// inBand reports whether a level measured m falls in the difficulty band.
// A check that ran out of budget meets every minimum and no maximum.
func (c Config) inBand(m Sample) bool {
	pushes := m.Optimal == 0 && c.MaxPushes == 0 ||
		m.Optimal > 0 && m.Optimal >= c.MinPushes && (c.MaxPushes == 0 || m.Optimal <= c.MaxPushes)
	expanded := m.Expanded >= c.MinExpanded && (c.MaxExpanded == 0 || m.EffortOK && m.Expanded <= c.MaxExpanded)
	return pushes && expanded
}

// Collection formats levels as a collection file: Header, then each level
// as Format writes it, so that the file reads back with level.Parse.
func Collection(cfg Config, levels []Level) string {
	var b strings.Builder
	b.WriteString(Header(cfg, len(levels)))
	for _, g := range levels {
		b.WriteString(Format(g))
	}
	return b.String()
}

// Header is the comment line that starts a collection of count levels; it
// names the difficulty band when one is set.
func Header(cfg Config, count int) string {
	if full, err := cfg.withDefaults(); err == nil {
		cfg = full
	}
	band := ""
	if cfg.MinPushes > 0 || cfg.MaxPushes > 0 {
		band += ", optimal pushes " + span(int64(cfg.MinPushes), int64(cfg.MaxPushes))
	}
	if cfg.MinExpanded > 0 || cfg.MaxExpanded > 0 {
		band += ", " + cfg.Effort + " expansions " + span(cfg.MinExpanded, cfg.MaxExpanded)
	}
	return fmt.Sprintf("; soko generate: %d levels, %dx%d, %d boxes, seed %d%s (Boxoban-style, see package generate)\n",
		count, cfg.Width, cfg.Height, cfg.Boxes, cfg.Seed, band)
}

// span writes a band with 0 for an open end.
func span(lo, hi int64) string {
	switch {
	case hi == 0:
		return fmt.Sprintf("%d or more", lo)
	case lo == 0:
		return fmt.Sprintf("at most %d", hi)
	}
	return fmt.Sprintf("%d to %d", lo, hi)
}

// Format writes one level for a collection: a blank line, a comment with
// its construction's solution and the optimal push count when known, and
// the level.
func Format(g Level) string {
	opt := "unknown"
	if g.Optimal > 0 {
		opt = fmt.Sprint(g.Optimal)
	}
	return fmt.Sprintf("\n; solution (from the construction, %d moves, %d pushes; optimal pushes %s): %s\n%s",
		len(g.Solution), g.Pushes, opt, level.FormatLURD(g.Solution), level.Format(g.Level))
}
