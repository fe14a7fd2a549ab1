// Package generate makes Boxoban-style Sokoban levels with a solution known
// from their construction: the training data of the learning solvers of
// issue 13 (seed 001 §2.2.2, seed 003 §2.4), unlimited and reproducible. It
// follows the recipe of the Boxoban levels (Racanière et al. 2017,
// "Imagination-Augmented Agents", appendix, and Schrader's gym-sokoban; see
// the README's References), written anew here:
//
//  1. Room: all walls, then a random walk through the interior that changes
//     direction with probability 0.35 per step and carves one of five small
//     floor patterns around each square it visits. The walk is connected,
//     so every floor square is reachable.
//  2. Goals and player: Boxes goals and the player on distinct random floor
//     squares, a box on every goal.
//  3. Reverse play: the player walks at random and, when it steps away from
//     a box, pulls it along with probability one half. A pull is a push
//     played backwards, so the reversed walk with pulls turned into pushes
//     solves the level the walk ends in. Several walks are tried per room;
//     the position kept is the one, along any walk, with the best score:
//     the number of times the pulled box changed times the total distance
//     of the boxes from their goals (Boxoban's score), with every box off
//     every goal.
//  4. Checks: the construction's solution is replayed by the independent
//     verifier (package verify); a level is rejected when the push-optimal
//     A* (package search) solves it within its node budget in fewer than
//     MinPushes pushes — trivially solved levels never pass. When the node
//     budget runs out first the level is kept: it is hard, not trivial.
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

	"soko/level"
	"soko/search"
	"soko/solver"
	"soko/verify"
)

// Config describes the levels to generate. The zero value of a field means
// its default.
type Config struct {
	Width, Height int    // grid size, the outer walls included; default 10×10 as Boxoban
	Boxes         int    // default 4
	Seed          uint64 // the level stream
	MinPushes     int    // reject levels the push-optimal check solves in fewer pushes; default 2·Boxes
	Walks         int    // reverse-play walks tried per room; default 8
	WalkSteps     int    // steps per walk; default 10·(Width + Height), times Boxes/4 beyond 4 boxes
	CheckNodes    int64  // node budget of the push-optimal check; default 20000
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
	if c.MinPushes == 0 {
		c.MinPushes = 2 * c.Boxes
	}
	if c.Walks == 0 {
		c.Walks = 8
	}
	if c.WalkSteps == 0 {
		// Every box must leave its goal: more boxes need longer walks.
		c.WalkSteps = 10 * (c.Width + c.Height) * max(c.Boxes, 4) / 4
	}
	if c.CheckNodes == 0 {
		c.CheckNodes = 20000
	}
	switch {
	case c.Width < MinSize || c.Width > MaxSize || c.Height < MinSize || c.Height > MaxSize:
		return c, fmt.Errorf("size %dx%d: want each side from %d to %d", c.Width, c.Height, MinSize, MaxSize)
	case c.Boxes < 1 || c.Boxes > MaxBoxes:
		return c, fmt.Errorf("%d boxes: want 1 to %d", c.Boxes, MaxBoxes)
	case c.Boxes+1 > (c.Width-2)*(c.Height-2)/3:
		return c, fmt.Errorf("%d boxes do not fit a %dx%d room (at most %d)", c.Boxes, c.Width, c.Height, (c.Width-2)*(c.Height-2)/3-1)
	case c.MinPushes < 0 || c.Walks < 0 || c.WalkSteps < 0 || c.CheckNodes < 0:
		return c, errors.New("negative limit")
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
	Score    int          // the reverse play's score (box changes × distance)
	Rooms    int          // rooms tried for this level, rejected ones included
}

// maxRooms bounds the rooms tried for one level: a configuration that
// yields nothing (too many boxes for the floor a walk carves) ends with an
// error instead of looping.
const maxRooms = 10000

// One returns level number i (from 1) of cfg's seed.
func One(ctx context.Context, cfg Config, i int) (Level, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return Level{}, fmt.Errorf("generate: %w", err)
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, uint64(i)))
	for rooms := 1; rooms <= maxRooms; rooms++ {
		if err := ctx.Err(); err != nil {
			return Level{}, err
		}
		r := newRoom(cfg, rng)
		if r == nil {
			continue
		}
		best := r.reversePlay(cfg, rng)
		if best.score == 0 {
			continue
		}
		l, err := r.level(best, cfg, i)
		if err != nil {
			return Level{}, err
		}
		g := Level{Level: l, Solution: best.solution(), Score: best.score, Rooms: rooms}
		rep := verify.Replay(l, g.Solution)
		if !rep.Solved {
			return Level{}, fmt.Errorf("generate: level %d: the construction's solution fails: %s", i, rep.Reason)
		}
		g.Pushes = rep.Pushes
		ok, err := g.check(ctx, cfg)
		if err != nil {
			return Level{}, err
		}
		if ok {
			return g, nil
		}
	}
	return Level{}, fmt.Errorf("generate: level %d: no acceptable level in %d rooms; try fewer boxes or a larger size", i, maxRooms)
}

// check runs the push-optimal A* within the node budget and reports
// whether the level is not trivial: not solved in fewer than MinPushes.
func (g *Level) check(ctx context.Context, cfg Config) (bool, error) {
	opts := solver.Options{Budget: solver.Budget{Nodes: cfg.CheckNodes}}
	res, err := solver.Run(ctx, search.AStar{}, g.Level, opts)
	switch {
	case err != nil:
		return false, err
	case res.Status == solver.Solved:
		g.Optimal = res.Pushes
		return res.Pushes >= cfg.MinPushes, nil
	case res.Status == solver.NoSolution:
		return false, fmt.Errorf("generate: %s: A* finds no solution of a level built with one", g.Level.Title)
	case ctx.Err() != nil:
		return false, ctx.Err()
	}
	return true, nil // the budget ran out: not trivial
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

// Header is the comment line that starts a collection of count levels.
func Header(cfg Config, count int) string {
	if full, err := cfg.withDefaults(); err == nil {
		cfg = full
	}
	return fmt.Sprintf("; soko generate: %d levels, %dx%d, %d boxes, seed %d (Boxoban-style, see package generate)\n",
		count, cfg.Width, cfg.Height, cfg.Boxes, cfg.Seed)
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
