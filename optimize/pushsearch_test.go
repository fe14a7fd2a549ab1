package optimize

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"soko/internal/testlevel"
	"soko/sokoban"
)

// On random stretches of greedy's solutions, the search over regions for
// pushes alone finds a shorter path exactly when the search over exact
// squares finds one with fewer pushes, of as many pushes; and its path is
// legal, ends on the stretch's boxes, and leaves the player a walk to the
// next push (or solves the level).
func TestPushSearchMatchesExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	gains, none := 0, 0
	for _, l := range testlevel.Resolve(t, "microban:5,10,30,60,90,120") {
		b, pushes := greedyPushes(t, l)
		for _, radii := range [][]int{{6}, {8, 3}, {20, 10}} {
			for range 8 {
				o := newOptimizer(context.Background(), b, Pushes, radii, DefaultMemory, nil)
				i := rng.IntN(len(pushes))
				j := min(len(pushes), i+1+rng.IntN(24))
				start := b.Start()
				for _, m := range pushes[:i] {
					start.Apply(m)
				}
				seg := pushes[i:j]
				var next *sokoban.Push
				if j < len(pushes) {
					next = &pushes[j]
				}
				_, gain, exactOK := o.search(start, seg, next, radii)
				exactOK = exactOK && gain.Pushes > 0
				path, ok := o.searchPushes(start, seg, next, radii)
				if o.stopped || o.outgrown || o.slow {
					t.Fatalf("%s: a search stopped early", l.Name())
				}
				if ok != exactOK || ok && len(path) != len(seg)-gain.Pushes {
					t.Fatalf("%s pushes %d–%d radii %v: push search %v with %d pushes, exact search %v saving %d of %d",
						l.Name(), i, j, radii, ok, len(path), exactOK, gain.Pushes, len(seg))
				}
				if !ok {
					none++
					continue
				}
				gains++
				p, end := start.Clone(), start.Clone()
				for _, m := range seg {
					end.Apply(m)
				}
				for k, m := range path {
					behind, front := b.Next(m.Box, m.Dir^1), b.Next(m.Box, m.Dir)
					if !p.HasBox(m.Box) || front == sokoban.None || p.HasBox(front) || !p.Reachable(behind) {
						t.Fatalf("%s pushes %d–%d: push %d of the path is not legal", l.Name(), i, j, k)
					}
					p.Apply(m)
				}
				if next == nil {
					if !p.Solved() {
						t.Fatalf("%s pushes %d–%d: the last stretch's path does not solve", l.Name(), i, j)
					}
					continue
				}
				for _, s := range end.BoxSquares() {
					if !p.HasBox(s) {
						t.Fatalf("%s pushes %d–%d: the path ends off the stretch's boxes", l.Name(), i, j)
					}
				}
				if !p.Reachable(b.Next(next.Box, next.Dir^1)) {
					t.Fatalf("%s pushes %d–%d: the path leaves the next push out of reach", l.Name(), i, j)
				}
			}
		}
	}
	t.Logf("%d with a gain, %d without", gains, none)
	if gains == 0 || none == 0 {
		t.Fatalf("%d stretches with a gain, %d without: the test needs both", gains, none)
	}
}

// The search for fewer moves after a gain never looks wider than the
// vicinity the user asked for, nor wider than polishRadii.
func TestPolishRadii(t *testing.T) {
	for _, c := range []struct{ radii, want []int }{
		{[]int{20, 10}, []int{10, 5}},
		{[]int{3}, []int{3}},
		{[]int{30, 15, 8}, []int{10, 5}},
		{[]int{8, 6}, []int{8, 5}},
	} {
		if got := polish(c.radii); !slices.Equal(got, c.want) {
			t.Errorf("radii %v: polish %v, want %v", c.radii, got, c.want)
		}
	}
}

// Under a deadline the turns of the search for pushes alone stop at the end
// of their share, and the turns over exact squares go on after it.
func TestPushShareEndsOnlyThePushTurns(t *testing.T) {
	l := testlevel.Resolve(t, "microban:40")[0]
	b, _ := greedyPushes(t, l)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	o := newOptimizer(ctx, b, Pushes, DefaultRadii, DefaultMemory, nil)
	o.pushEnd = time.Now().Add(-time.Second)
	if o.done() {
		t.Fatalf("done before the turns for pushes alone began")
	}
	o.pushOnly = true
	if !o.done() {
		t.Errorf("the turns for pushes alone go on after their share")
	}
	o.pushOnly = false
	if o.done() {
		t.Errorf("the turns over exact squares stop at the share of the turns for pushes alone")
	}
}

// A search for pushes alone stops at the end of those turns even when it
// has no share of its own (share 0: all the time left); the other
// searches do not.
func TestPushSearchEndsWithThePushTurns(t *testing.T) {
	l := testlevel.Resolve(t, "microban:40")[0]
	b, _ := greedyPushes(t, l)
	o := newOptimizer(context.Background(), b, Pushes, DefaultRadii, DefaultMemory, nil)
	o.total, o.share = time.Minute, 0
	o.pushEnd = time.Now().Add(time.Second)
	o.pushOnly = true
	if got := o.searchEnd(); !got.Equal(o.pushEnd) {
		t.Errorf("with no share the search for pushes alone ends at %v, want the end of its turns %v", got, o.pushEnd)
	}
	o.share = 16 // about 3.75 s: later than the end of the turns
	if got := o.searchEnd(); !got.Equal(o.pushEnd) {
		t.Errorf("with a share past the end of its turns it ends at %v, want %v", got, o.pushEnd)
	}
	o.pushEnd = time.Now().Add(time.Hour)
	if got := o.searchEnd(); !got.Before(o.pushEnd) || got.IsZero() {
		t.Errorf("with a share before the end of its turns it ends at %v, want its share's end", got)
	}
	o.pushOnly, o.share = false, 0
	if got := o.searchEnd(); !got.IsZero() {
		t.Errorf("a search over exact squares with no share ends at %v, want with the context", got)
	}
}
