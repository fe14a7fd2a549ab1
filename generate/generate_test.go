package generate

import (
	"context"
	"slices"
	"strings"
	"testing"

	"soko/level"
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
		if g.Optimal != 0 && (g.Optimal < 8 || g.Optimal > g.Pushes) {
			t.Fatalf("level %d: optimal %d pushes, construction %d, minimum 8", i, g.Optimal, g.Pushes)
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

// TestMinimumPushes checks that every level kept needs at least the
// minimum number of pushes the check enforces.
func TestMinimumPushes(t *testing.T) {
	cfg := Config{Seed: 1, Boxes: 2, MinPushes: 12}
	for i := 1; i <= 4; i++ {
		g, err := One(context.Background(), cfg, i)
		if err != nil {
			t.Fatal(err)
		}
		if g.Optimal != 0 && g.Optimal < 12 {
			t.Fatalf("level %d kept with %d optimal pushes, minimum 12", i, g.Optimal)
		}
	}
}

func TestBadConfig(t *testing.T) {
	for _, cfg := range []Config{{Width: 3}, {Width: 100}, {Boxes: -1}, {Boxes: 40}, {Width: 6, Height: 6, Boxes: 5}, {MinPushes: -2}} {
		if _, err := One(context.Background(), cfg, 1); err == nil {
			t.Errorf("%+v accepted", cfg)
		}
	}
}

func TestCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := One(ctx, Config{}, 1); err == nil {
		t.Fatal("a cancelled context still generated")
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
