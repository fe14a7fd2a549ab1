package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"soko/generate"
	"soko/internal/english"
)

const generateDoc = `Generates Boxoban-style levels (package generate): a room grown by a random
walk, goals placed, boxes pulled away from them by random reverse play. Every
level is written with the solution its construction gives, replayed by the
independent verifier, and levels the push-optimal A* solves in fewer than
--min-pushes pushes are rejected. Level i of a seed is the same whatever
--count or -j: the output is deterministic per seed. The collection goes to
standard output (or --out); the rate of generation to standard error.
`

type generateConfig struct {
	cfg     generate.Config
	count   int
	workers int
	out     string
}

func generateFlags() (*flag.FlagSet, *generateConfig) {
	c := &generateConfig{count: 10, workers: 1}
	c.cfg.Width, c.cfg.Height, c.cfg.Boxes = 10, 10, 4
	fs := flag.NewFlagSet("generate", flag.ContinueOnError)
	fs.Var(sizeFlag{&c.cfg}, "size", "grid size `WxH`, outer walls included, each side "+strconv.Itoa(generate.MinSize)+" to "+strconv.Itoa(generate.MaxSize))
	fs.IntVar(&c.cfg.Boxes, "boxes", 4, "`N` boxes per level")
	fs.IntVar(&c.count, "count", 10, "generate `N` levels")
	fs.Uint64Var(&c.cfg.Seed, "seed", 1, "the level stream's seed `N`")
	fs.IntVar(&c.cfg.MinPushes, "min-pushes", 0, "reject levels solved in fewer than `N` pushes (default: 2 per box)")
	fs.Int64Var(&c.cfg.CheckNodes, "check-nodes", 20000, "node budget `N` of the push-optimal check; a level it cannot solve within it is kept")
	fs.Var(workersValue{&c.workers}, "j", "generate `N` levels at once")
	fs.StringVar(&c.out, "out", "", "write the collection to `FILE` instead of standard output")
	return fs, c
}

// sizeFlag is --size WxH.
type sizeFlag struct{ cfg *generate.Config }

func (v sizeFlag) String() string {
	if v.cfg == nil {
		return ""
	}
	return fmt.Sprintf("%dx%d", v.cfg.Width, v.cfg.Height)
}

func (v sizeFlag) Set(s string) error {
	ws, hs, ok := strings.Cut(strings.ToLower(strings.TrimSpace(s)), "x")
	w, err1 := strconv.Atoi(ws)
	h, err2 := strconv.Atoi(hs)
	if !ok || err1 != nil || err2 != nil {
		return errors.New("want WIDTHxHEIGHT, such as 10x10")
	}
	v.cfg.Width, v.cfg.Height = w, h
	return nil
}

func runGenerate(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs, c := generateFlags()
	rest, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usagef("generate: unexpected argument %q", rest[0])
	}
	if c.count < 1 || c.count > 1e6 {
		return usagef("generate: --count %d: want 1 to 1000000", c.count)
	}
	if c.cfg.Boxes < 1 || c.cfg.Width < 1 || c.cfg.Height < 1 {
		return usagef("generate: --boxes and --size must be at least 1")
	}
	if c.cfg.MinPushes < 0 || c.cfg.CheckNodes < 0 {
		return usagef("generate: --min-pushes and --check-nodes must be at least 0")
	}
	if err := c.cfg.Check(); err != nil {
		return usagef("generate: %v", err)
	}
	start := time.Now()
	levels := make([]generate.Level, c.count)
	errs := make([]error, c.count)
	next := make(chan int)
	var wg sync.WaitGroup
	for range c.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				levels[i], errs[i] = generate.One(ctx, c.cfg, i+1)
			}
		}()
	}
	for i := range c.count {
		next <- i
	}
	close(next)
	wg.Wait()
	if ctx.Err() != nil {
		return errInterrupted
	}
	rooms := 0
	for i, err := range errs {
		if err != nil {
			return err
		}
		rooms += levels[i].Rooms
	}
	elapsed := time.Since(start)
	text := generate.Collection(c.cfg, levels)
	if c.out != "" {
		if err := os.WriteFile(c.out, []byte(text), 0o644); err != nil {
			return fmt.Errorf("generate: %w", err)
		}
	} else if _, err := io.WriteString(stdout, text); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "generated %s in %s: %.0f levels/s with %s (%s tried)\n",
		english.Count(c.count, "level", "levels"), elapsed.Round(time.Millisecond),
		float64(c.count)/elapsed.Seconds(), english.Count(c.workers, "worker", "workers"), english.Count(rooms, "room", "rooms"))
	return nil
}
