package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	"soko/generate"
	"soko/internal/english"
	"soko/internal/progress"
	"soko/level"
	"soko/levels"
	"soko/solver"
)

const generateDoc = `Generates Boxoban-style levels (package generate): a room grown by a random
walk over the frame, goals placed, boxes pulled away from them by a
reverse-play search as in Boxoban's generator. Every level is written with the
solution its construction gives, replayed by the independent verifier. The
push-optimal A* measures each level (and --effort's solver its expansions);
levels outside the band of --min-pushes, --max-pushes, --min-expanded and
--max-expanded are dropped. With no band the optimal pushes follow Boxoban's
unfiltered levels. Level i of a seed is the same whatever --count or -j: the
output is deterministic per seed. The collection goes to standard output (or
--out); the rate of generation, and with --stats the distributions of the
levels made, to standard error. --stats-of LEVELS generates nothing: it
measures those levels in the same way and prints their distributions.
--plot draws the optimal pushes of each set of levels measured.
`

type generateConfig struct {
	cfg     generate.Config
	count   int
	workers int
	out     string
	stats   bool
	statsOf repeatValue
	plot    string
}

func generateFlags() (*flag.FlagSet, *generateConfig) {
	c := &generateConfig{count: 10, workers: 1}
	c.cfg.Width, c.cfg.Height, c.cfg.Boxes = 10, 10, 4
	fs := flag.NewFlagSet("generate", flag.ContinueOnError)
	fs.Var(sizeFlag{&c.cfg}, "size", "grid size `WxH`, outer walls included, each side "+strconv.Itoa(generate.MinSize)+" to "+strconv.Itoa(generate.MaxSize))
	fs.IntVar(&c.cfg.Boxes, "boxes", 4, "`N` boxes per level")
	fs.IntVar(&c.count, "count", 10, "generate `N` levels")
	fs.Uint64Var(&c.cfg.Seed, "seed", 1, "the level stream's seed `N`")
	fs.IntVar(&c.cfg.MinPushes, "min-pushes", 0, "drop levels whose optimal solution has fewer than `N` pushes")
	fs.IntVar(&c.cfg.MaxPushes, "max-pushes", 0, "drop levels whose optimal solution has more than `N` pushes (0: no maximum)")
	fs.Int64Var(&c.cfg.MinExpanded, "min-expanded", 0, "drop levels --effort's solver solves in fewer than `N` expansions")
	fs.Int64Var(&c.cfg.MaxExpanded, "max-expanded", 0, "drop levels --effort's solver solves in more than `N` expansions (0: no maximum)")
	fs.StringVar(&c.cfg.Effort, "effort", "astar", "the registered solver `NAME` whose expansions --min-expanded, --max-expanded and the statistics count (astar, greedy, ...)")
	fs.IntVar(&c.cfg.MaxRooms, "max-rooms", generate.DefaultMaxRooms, "rooms `N` tried for one level before giving up with what they reached")
	fs.Int64Var(&c.cfg.CheckNodes, "check-nodes", 20000, "node budget `N` of each check; a level the push-optimal A* cannot solve within it is kept only when no maximum is set")
	fs.BoolVar(&c.stats, "stats", false, "also print the distributions of optimal pushes, boxes off goals, expansions and floor squares of the levels made, to standard error")
	fs.Var(&c.statsOf, "stats-of", "generate nothing: print those distributions for the levels `LEVELS` (a level spec, such as boxoban-unfiltered-test-000; repeatable, a table each)")
	fs.StringVar(&c.plot, "plot", "", "with --stats or --stats-of, draw the optimal pushes' distribution of each set of levels to `FILE.png`")
	fs.Var(workersValue{&c.workers}, "j", "generate `N` levels at once")
	fs.StringVar(&c.out, "out", "", "write the collection to `FILE` instead of standard output")
	return fs, c
}

// maxRoomsFlag bounds --max-rooms: a room costs up to --check-nodes
// expansions, so a million of them are hours for one level.
const maxRoomsFlag = 1000000

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
	w, err1 := parseWhole(ws)
	h, err2 := parseWhole(hs)
	if !ok || err1 != nil || err2 != nil || w < 0 || h < 0 || w > math.MaxInt32 || h > math.MaxInt32 {
		return errors.New("want WIDTHxHEIGHT, such as 10x10")
	}
	v.cfg.Width, v.cfg.Height = int(w), int(h)
	return nil
}

func runGenerate(ctx context.Context, c *generateConfig, rest []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(rest) > 0 {
		return usagef("generate: unexpected argument %q", rest[0])
	}
	if c.count < 1 || c.count > 1e6 {
		return usagef("generate: bad --count \"%d\": want 1 to 1000000", c.count)
	}
	if err := checkRanges("generate",
		// 0 would be taken for the default by generate.Config.
		inRange{"--size", sizeFlag{&c.cfg}, c.cfg.Width >= generate.MinSize && c.cfg.Width <= generate.MaxSize && c.cfg.Height >= generate.MinSize && c.cfg.Height <= generate.MaxSize,
			fmt.Sprintf("each side %d to %d", generate.MinSize, generate.MaxSize)},
		inRange{"--boxes", c.cfg.Boxes, c.cfg.Boxes >= 1, "at least 1"},
		inRange{"--min-pushes", c.cfg.MinPushes, c.cfg.MinPushes >= 0, "at least 0"},
		inRange{"--max-pushes", c.cfg.MaxPushes, c.cfg.MaxPushes >= 0, "at least 0"},
		inRange{"--min-expanded", c.cfg.MinExpanded, c.cfg.MinExpanded >= 0, "at least 0"},
		inRange{"--max-expanded", c.cfg.MaxExpanded, c.cfg.MaxExpanded >= 0, "at least 0"},
		inRange{"--check-nodes", c.cfg.CheckNodes, c.cfg.CheckNodes >= 1, "at least 1"},
	); err != nil {
		return err
	}
	if c.cfg.MaxRooms < 1 || c.cfg.MaxRooms > maxRoomsFlag {
		return usagef("generate: bad --max-rooms \"%d\": want a whole number from 1 to %d", c.cfg.MaxRooms, maxRoomsFlag)
	}
	if err := c.cfg.Check(); err != nil {
		return usagef("generate: %v", err)
	}
	if c.cfg.Effort == "" {
		c.cfg.Effort = "astar" // as the generator takes it
	}
	if c.plot != "" && !c.stats && len(c.statsOf) == 0 {
		return usagef("generate: --plot goes with --stats or --stats-of")
	}
	if len(c.statsOf) > 0 && c.out != "" {
		return usagef("generate: --stats-of generates nothing, so it writes no --out")
	}
	if err := notAnInput("generate", stdin, c.statsOf, nil, output{"--plot", c.plot}, output{"--out", c.out}); err != nil {
		return err
	}
	if err := distinctOutputs("generate", stdout, output{"--plot", c.plot}, output{"--out", c.out}); err != nil {
		return err
	}
	if c.plot != "" {
		lock, err := takeOut("generate", "--plot", c.plot, kindAny)
		if err != nil {
			return err
		}
		defer lock.Close()
	}
	if err := checkPlot("generate", "--plot", c.plot); err != nil {
		return err
	}
	if len(c.statsOf) > 0 {
		return statsOf(ctx, c, stdin, stdout)
	}
	c.workers = capWorkers(stderr, "generate", c.workers, c.count)
	start := time.Now()
	var samples []generate.Sample
	keep := func(g generate.Level) {
		if c.stats {
			samples = append(samples, g.Sample())
		}
	}
	var progressOut io.Writer
	if progress.IsTerminal(stderr) {
		progressOut = stderr
	}
	prog := progress.New(progressOut, c.count)
	// Levels go to standard output as they come; to --out through a
	// temporary file put in its place at the end (when interrupted too,
	// with the whole levels made), so that a run that fails leaves a file
	// that was there as it was.
	var rooms int
	var genErr error // the generator's own error, not the file's
	interrupted := false
	write := func(out io.Writer) error {
		written, n, err := generateInOrder(ctx, c, out, keep, prog)
		rooms = n
		if errors.Is(err, errInterrupted) {
			interrupted = true
			// The file holds whole levels only; say where it stops.
			_, werr := fmt.Fprintf(out, "\n; interrupted: %d of the %d levels were written\n", written, c.count)
			return werr
		}
		genErr = err
		return err
	}
	var err error
	if c.out == "" {
		err = write(stdout)
	} else {
		lock, lerr := takeOut("generate", "--out", c.out, kindLevelFile)
		if lerr != nil {
			return lerr
		}
		defer lock.Close()
		if err = lock.Replace(write); err != nil {
			if genErr == nil || !strings.HasPrefix(genErr.Error(), "generate: ") {
				err = fmt.Errorf("generate: %w", err) // a write: Replace names the file
			} else {
				err = genErr // the generator's, which says where
			}
			err = fmt.Errorf("%w; %s left as it was", err, c.out)
		}
	}
	prog.Stop()
	if err == nil && interrupted {
		err = errInterrupted
	}
	if err != nil {
		return err
	}
	elapsed := time.Since(start)
	fmt.Fprintf(stderr, "generated %s in %s: %s levels/s with %s (%s tried)\n",
		english.Count(c.count, "level", "levels"), elapsed.Round(time.Millisecond),
		formatRate(float64(c.count)/elapsed.Seconds()), english.Count(c.workers, "worker", "workers"), english.Count(rooms, "room", "rooms"))
	if c.stats {
		title := fmt.Sprintf("generated, %dx%d, %s, seed %d", c.cfg.Width, c.cfg.Height, english.Count(c.cfg.Boxes, "box", "boxes"), c.cfg.Seed)
		fmt.Fprint(stderr, generate.Summarize(samples).Format(title, c.cfg.Effort))
		if c.plot != "" {
			return generate.PlotPushes([]generate.Set{{Name: title, Samples: samples}}, c.plot)
		}
	}
	return nil
}

// statsOf measures the levels of each --stats-of as the generator measures
// its own and prints their distributions to stdout, a table each, and
// their plot to --plot.
func statsOf(ctx context.Context, c *generateConfig, stdin io.Reader, stdout io.Writer) error {
	// Every spec is resolved before any is measured: a bad one is a usage
	// error before the work starts.
	sets := make([]generate.Set, len(c.statsOf))
	lvls := make([][]*level.Level, len(c.statsOf))
	for i, spec := range c.statsOf {
		var err error
		if lvls[i], err = levels.ResolveAll(ctx, []string{spec}, stdin); err != nil {
			return err
		}
		sets[i].Name = spec
	}
	for i, set := range sets {
		for _, l := range lvls[i] {
			m, err := generate.Measure(ctx, l, c.cfg)
			if err != nil {
				if ctx.Err() != nil {
					return errInterrupted
				}
				return fmt.Errorf("generate: %s: %w", levelID(l), err)
			}
			set.Samples = append(set.Samples, m)
		}
		sets[i] = set
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		if _, err := fmt.Fprint(stdout, generate.Summarize(set.Samples).Format(set.Name, c.cfg.Effort)); err != nil {
			return err
		}
	}
	if c.plot != "" {
		return generate.PlotPushes(sets, c.plot)
	}
	return nil
}

// formatRate writes a rate with three significant digits in plain
// notation: 2310, 23.1, 0.231.
func formatRate(r float64) string {
	digits := 0
	for x := r; x < 100 && digits < 6 && x > 0; x *= 10 {
		digits++
	}
	return strconv.FormatFloat(r, 'f', digits, 64)
}

// generateInOrder generates the levels on c.workers workers and writes
// them to w in order as they come, each level in one write, so that w
// holds whole levels whenever the process stops; it holds at most a window
// of levels in memory. It hands each level written to keep, shows the
// levels in the making and their rooms tried on prog, and returns the
// levels written and the rooms tried.
func generateInOrder(ctx context.Context, c *generateConfig, w io.Writer, keep func(generate.Level), prog *progress.Line) (written, rooms int, err error) {
	if _, err := io.WriteString(w, generate.Header(c.cfg, c.count)); err != nil {
		return 0, 0, err
	}
	type result struct {
		g   generate.Level
		err error
	}
	window := 4 * c.workers
	slots := make([]chan result, c.count)
	for i := range slots {
		slots[i] = make(chan result, 1)
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range c.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				slot := prog.Begin("level " + strconv.Itoa(i+1))
				g, err := generate.OneWatched(ctx, c.cfg, i+1, func(rooms int) {
					prog.Update(slot, solver.Progress{Stats: solver.Stats{Iterations: int64(rooms)}, Detail: "rooms tried"})
				})
				prog.End(slot, err == nil)
				slots[i] <- result{g, err}
			}
		}()
	}
	defer wg.Wait()
	defer close(next)
	handed := 0
	for i := range c.count {
		for handed < c.count && handed < i+window {
			next <- handed
			handed++
		}
		r := <-slots[i]
		slots[i] = nil
		if ctx.Err() != nil {
			return i, rooms, errInterrupted
		}
		if r.err != nil {
			return i, rooms, r.err
		}
		rooms += r.g.Rooms
		if _, err := io.WriteString(w, generate.Format(r.g)); err != nil {
			return i, rooms, err
		}
		keep(r.g)
	}
	return c.count, rooms, nil
}
