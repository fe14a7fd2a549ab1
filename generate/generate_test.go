package generate

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"soko/level"
	"soko/solver"
	"soko/verify"
)

func TestLevelsAreSolvedByTheirConstruction(t *testing.T) {
	ctx := context.Background()
	cfg := Config{Seed: 3}
	var got []Level
	for i := 1; i <= 8; i++ {
		g, err := One(ctx, cfg, i)
		if err != nil {
			t.Fatal(err)
		}
		rep := verify.Replay(g.Level, g.Solution)
		if !rep.Solved {
			t.Fatalf("level %d: solution fails: %s", i, rep.Reason)
		}
		if g.Level.Boxes() != 4 || g.Level.Width != 10 || g.Level.Height != 10 {
			t.Fatalf("level %d: %dx%d with %d boxes", i, g.Level.Width, g.Level.Height, g.Level.Boxes())
		}
		if g.Optimal != 0 && (g.Optimal < 4 || g.Optimal > g.Pushes) {
			t.Fatalf("level %d: optimal %d pushes, construction %d, 4 boxes off their goals", i, g.Optimal, g.Pushes)
		}
		for _, row := range g.Level.Rows {
			if strings.ContainsRune(row, level.BoxOnGoal) {
				t.Fatalf("level %d starts with a box on a goal:\n%s", i, level.Format(g.Level))
			}
		}
		got = append(got, g)
	}
	// The collection reads back as the same boards.
	text := Collection(cfg, got)
	back, err := level.ParseString(text, "gen")
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != len(got) || len(got) == 0 {
		t.Fatalf("%d levels read back of %d written", len(back), len(got))
	}
	for i, l := range back {
		if !slices.Equal(l.Rows, got[i].Level.Rows) || l.Index != i+1 {
			t.Fatalf("level %d does not read back", i+1)
		}
	}
}

func TestDeterministicPerSeedAndIndex(t *testing.T) {
	ctx := context.Background()
	a, err := One(ctx, Config{Seed: 11, Boxes: 2, Width: 8, Height: 8}, 5)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := One(ctx, Config{Seed: 11, Boxes: 2, Width: 8, Height: 8}, 5)
	c, _ := One(ctx, Config{Seed: 12, Boxes: 2, Width: 8, Height: 8}, 5)
	if !slices.Equal(a.Level.Rows, b.Level.Rows) || !slices.Equal(a.Solution, b.Solution) {
		t.Fatal("equal seed and index gave different levels")
	}
	if slices.Equal(a.Level.Rows, c.Level.Rows) {
		t.Fatal("seeds 11 and 12 gave the same level")
	}
}

// TestBandHonoured checks that every level kept lies in the difficulty
// band, measured again here, for the push-optimal length and for the
// expansions of astar and of greedy.
func TestBandHonoured(t *testing.T) {
	ctx := context.Background()
	for _, cfg := range []Config{
		{Seed: 1, MinPushes: 14, MaxPushes: 16, MinExpanded: 15, MaxExpanded: 300},
		{Seed: 2, MaxPushes: 9},
		{Seed: 3, Effort: "greedy", MinExpanded: 12},
	} {
		for i := 1; i <= 4; i++ {
			g, err := One(ctx, cfg, i)
			if err != nil {
				t.Fatal(err)
			}
			m, err := Measure(ctx, g.Level, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if m.Optimal != g.Optimal || m.Expanded != g.Expanded {
				t.Fatalf("%+v level %d: generated with %d pushes, %d expanded; measured %d, %d", cfg, i, g.Optimal, g.Expanded, m.Optimal, m.Expanded)
			}
			if m.Optimal == 0 || m.Optimal < cfg.MinPushes || cfg.MaxPushes > 0 && m.Optimal > cfg.MaxPushes ||
				m.Expanded < cfg.MinExpanded || cfg.MaxExpanded > 0 && m.Expanded > cfg.MaxExpanded {
				t.Fatalf("%+v level %d: %d pushes, %d expanded: outside the band", cfg, i, m.Optimal, m.Expanded)
			}
		}
	}
}

// TestRoomsFillTheFrame checks that rooms spread over the 10×10 frame as
// Boxoban's do (on boxoban-unfiltered-test-000: 32 floor squares and a
// bounding box of 51 squares on average; the sparse rooms this generator
// made before: 26 and 40).
func TestRoomsFillTheFrame(t *testing.T) {
	const n = 40
	floorSum, boxSum := 0, 0
	for i := 1; i <= n; i++ {
		g, err := One(context.Background(), Config{Seed: 5}, i)
		if err != nil {
			t.Fatal(err)
		}
		l := g.Level
		floorSum += floor(l)
		x0, y0, x1, y1 := l.Width, l.Height, 0, 0
		for y, row := range l.Rows {
			for x := range row {
				if row[x] != level.Wall {
					x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
				}
			}
		}
		boxSum += (x1 - x0 + 1) * (y1 - y0 + 1)
	}
	if floorSum < 29*n || boxSum < 45*n {
		t.Fatalf("mean floor %.1f squares, mean bounding box %.1f: want at least 29 and 45",
			float64(floorSum)/n, float64(boxSum)/n)
	}
}

func TestStats(t *testing.T) {
	l, err := level.ParseString("#######\n#@$ . #\n#  $ .#\n#######\n", "t")
	if err != nil {
		t.Fatal(err)
	}
	m, err := Measure(context.Background(), l[0], Config{})
	if err != nil {
		t.Fatal(err)
	}
	if m.Status != solver.Solved || m.Optimal != 4 || m.OffGoals != 2 || m.Floor != 10 || m.Expanded < 1 {
		t.Fatalf("measured %+v: want solved in 4 pushes, 2 boxes off goals, 10 floor squares", m)
	}
	samples := []Sample{
		{Status: solver.Solved, Optimal: 4, Expanded: 10, OffGoals: 2, Floor: 20},
		{Status: solver.Solved, Optimal: 12, Expanded: 40, OffGoals: 4, Floor: 30},
		{Status: solver.Solved, Optimal: 8, Expanded: 20, OffGoals: 3, Floor: 40},
		{Status: solver.Solved, Optimal: 10, Expanded: 30, OffGoals: 3, Floor: 10},
		{Status: solver.NodeLimit, Expanded: 1000, OffGoals: 4, Floor: 50},
	}
	s := Summarize(samples)
	want := Dist{N: 4, Mean: 8.5, Min: 4, Q1: 7, Median: 9, Q3: 10.5, Max: 12}
	if s.Levels != 5 || s.Unsolved != 1 || s.Pushes != want {
		t.Fatalf("pushes %+v of %d levels, %d unsolved: want %+v of 5, 1", s.Pushes, s.Levels, s.Unsolved, want)
	}
	if s.Expanded.Mean != 25 || s.OffGoals.N != 5 || s.OffGoals.Median != 3 || s.Floor.Mean != 30 {
		t.Fatalf("expanded %+v, off goals %+v, floor %+v", s.Expanded, s.OffGoals, s.Floor)
	}
	text := s.Format("tiny", "astar")
	for _, line := range []string{"tiny: 5 levels, 1 not solved", "optimal pushes", "8.50", "astar expanded", "25.00"} {
		if !strings.Contains(text, line) {
			t.Fatalf("the table lacks %q:\n%s", line, text)
		}
	}
}

func TestBadConfig(t *testing.T) {
	for _, cfg := range []Config{{Width: 3}, {Width: 100}, {Boxes: -1}, {Boxes: 40}, {Width: 6, Height: 6, Boxes: 5}, {MinPushes: -2},
		{MinPushes: 10, MaxPushes: 9}, {MinExpanded: 10, MaxExpanded: 5}, {MaxExpanded: -1}, {Effort: "nope"}} {
		if _, err := One(context.Background(), cfg, 1); err == nil {
			t.Errorf("%+v accepted", cfg)
		}
	}
}

func TestCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := One(ctx, Config{}, 1); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled context: %v, want context.Canceled", err)
	}
}

func BenchmarkOne(b *testing.B) {
	n := 0
	for b.Loop() {
		n++
		if _, err := One(context.Background(), Config{Seed: 1}, n); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "levels/s")
}

// TestBandWhenABudgetRunsOut: a level a check could not solve within its
// budget counts as hard: it meets minimums, never a maximum, and a known
// optimum still has to meet its own band.
func TestBandWhenABudgetRunsOut(t *testing.T) {
	for _, c := range []struct {
		cfg  Config
		m    Sample
		want bool
	}{
		{Config{MinPushes: 20, MinExpanded: 100}, Sample{Expanded: 20000}, true},
		{Config{MaxPushes: 20}, Sample{Expanded: 20000}, false},
		{Config{MaxExpanded: 30000}, Sample{Optimal: 12, Expanded: 20000}, false},
		{Config{MinPushes: 20}, Sample{Optimal: 10, Expanded: 20000}, false},
		{Config{MinPushes: 10, MaxExpanded: 50}, Sample{Optimal: 10, Expanded: 50, EffortOK: true}, true},
	} {
		if got := c.cfg.inBand(c.m); got != c.want {
			t.Errorf("%+v, %+v: in band %v, want %v", c.cfg, c.m, got, c.want)
		}
	}
}
