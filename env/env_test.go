package env

import (
	"math/rand/v2"
	"slices"
	"testing"

	"soko/internal/testlevel"
	"soko/level"
	"soko/verify"
)

// corridor: the player pushes the box right twice onto the goal.
func corridor(t *testing.T) *level.Level {
	return testlevel.Parse(t, "######\n#@$ .#\n######\n")
}

func TestMovesPaperRewards(t *testing.T) {
	e, err := New(Config{}, corridor(t))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Reset(); err != nil {
		t.Fatal(err)
	}
	if got := e.Legal(nil); !slices.Equal(got, []Action{Action(level.Right)}) {
		t.Fatalf("Legal = %v, want only Right", got)
	}
	_, r, done, info := e.Step(Action(level.Up)) // into the wall
	if r != RewardUnchanged || done || info.Changed || info.Steps != 1 {
		t.Fatalf("into a wall: r=%v done=%v info=%+v", r, done, info)
	}
	_, r, done, info = e.Step(Action(level.Right))
	if r != RewardCloser || done || !info.Pushed {
		t.Fatalf("first push: r=%v done=%v info=%+v, want closer", r, done, info)
	}
	_, r, done, info = e.Step(Action(level.Right))
	if r != RewardSolved || !done || !info.Solved || info.OnGoal != 1 {
		t.Fatalf("second push: r=%v done=%v info=%+v, want solved", r, done, info)
	}
	if rep := verify.Replay(e.Level(), e.History()); !rep.Solved {
		t.Fatalf("history %s does not solve the level: %s", level.FormatLURD(e.History()), rep.Reason)
	}
}

func TestStepAfterEndPanics(t *testing.T) {
	e, _ := New(Config{}, corridor(t))
	e.Reset()
	e.Step(Action(level.Right))
	e.Step(Action(level.Right))
	defer func() {
		if recover() == nil {
			t.Fatal("Step after the end did not panic")
		}
	}()
	e.Step(Action(level.Left))
}

func TestDeadlockEndsEpisode(t *testing.T) {
	// Pushing the box up puts it in a corner off the goal.
	l := testlevel.Parse(t, "#####\n#   #\n# $ #\n# @.#\n#####\n")
	for _, on := range []bool{false, true} {
		e, _ := New(Config{Deadlocks: on}, l)
		e.Reset()
		_, r, done, info := e.Step(Action(level.Up))
		if done != on || info.Deadlock != on {
			t.Fatalf("Deadlocks=%v: done=%v info=%+v", on, done, info)
		}
		if on && r != RewardDeadlock {
			t.Fatalf("deadlock reward %v, want %v", r, RewardDeadlock)
		}
	}
}

func TestStepLimit(t *testing.T) {
	e, _ := New(Config{MaxSteps: 3}, corridor(t))
	e.Reset()
	for i := 1; i <= 3; i++ {
		_, _, done, info := e.Step(Action(level.Left))
		if done != (i == 3) || info.Truncated != (i == 3) {
			t.Fatalf("step %d: done=%v info=%+v", i, done, info)
		}
	}
}

func TestBoxobanRewards(t *testing.T) {
	// Two boxes; the first push moves a box off its goal, the second onto one.
	l := testlevel.Parse(t, "#######\n#@*  .#\n#  $  #\n#######\n")
	e, _ := New(Config{Rewards: Boxoban}, l)
	e.Reset()
	_, r, _, _ := e.Step(Action(level.Right))
	if want := BoxobanStep + BoxobanOff; r != want {
		t.Fatalf("box off a goal: %v, want %v", r, want)
	}
	_, r, _, _ = e.Step(Action(level.Up)) // a wall: nothing changes
	if r != BoxobanStep {
		t.Fatalf("no change: %v, want %v", r, BoxobanStep)
	}
}

func TestPushesMode(t *testing.T) {
	l := testlevel.Parse(t, "######\n#@$ .#\n#    #\n######\n")
	e, _ := New(Config{Mode: Pushes}, l)
	e.Reset()
	right := PushAction(l.Width, 2, 1, level.Right)
	if !slices.Contains(e.Legal(nil), right) {
		t.Fatalf("Legal %v lacks the push right", e.Legal(nil))
	}
	_, r, _, info := e.Step(PushAction(l.Width, 3, 1, level.Right)) // no box there
	if info.Changed || r != RewardUnchanged {
		t.Fatalf("push of no box: r=%v info=%+v", r, info)
	}
	e.Step(right)
	_, r, done, info := e.Step(PushAction(l.Width, 3, 1, level.Right))
	if !done || !info.Solved || r != RewardSolved || info.Moves != 1 {
		t.Fatalf("last push: r=%v done=%v info=%+v", r, done, info)
	}
	if rep := verify.Replay(l, e.History()); !rep.Solved {
		t.Fatalf("history does not solve: %s", rep.Reason)
	}
}

// TestPlanesIncremental checks the planes Step keeps up to date against
// planes drawn from scratch, along random episodes in both modes.
func TestPlanesIncremental(t *testing.T) {
	l := testlevel.Resolve(t, "microban:3")[0]
	for _, mode := range []Mode{Moves, Pushes} {
		e, err := New(Config{Mode: mode, MaxSteps: 200}, l)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(1, 2))
		for range 20 {
			e.Reset()
			for !e.Done() {
				legal := e.Legal(nil)
				if len(legal) == 0 {
					break
				}
				obs, _, _, _ := e.Step(legal[rng.IntN(len(legal))])
				got := slices.Clone(obs.Planes)
				e.drawAll()
				if !slices.Equal(got, e.planes) {
					t.Fatalf("mode %d step %d: incremental planes differ from a fresh drawing", mode, e.Steps())
				}
				if obs.At(PlanePlayer, int(e.cell(e.pos.Player()))%l.Width, e.cell(e.pos.Player())/l.Width) != 1 {
					t.Fatal("player plane misses the player")
				}
			}
			if rep := verify.Replay(l, e.History()); rep.FailStep > 0 {
				t.Fatalf("history has an illegal step: %s", rep.Reason)
			}
		}
	}
}

func TestPlanesMatchLevel(t *testing.T) {
	l := corridor(t)
	e, _ := New(Config{}, l)
	obs, _ := e.Reset()
	for y, row := range l.Rows {
		for x, c := range []byte(row) {
			want := [NumPlanes]float32{}
			switch c {
			case level.Wall:
				want[PlaneWall] = 1
			case level.Goal:
				want[PlaneGoal] = 1
			case level.Box:
				want[PlaneBox] = 1
			case level.Player:
				want[PlanePlayer] = 1
			}
			for k := range NumPlanes {
				if obs.At(k, x, y) != want[k] {
					t.Fatalf("plane %d at (%d,%d) = %v, want %v (%q)", k, x, y, obs.At(k, x, y), want[k], c)
				}
			}
		}
	}
}

func TestSeededLevelChoice(t *testing.T) {
	ls := testlevel.Resolve(t, "microban:1-5")
	draw := func(seed uint64) []string {
		e, err := New(Config{Seed: seed}, ls...)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for range 20 {
			e.Reset()
			names = append(names, e.Level().Name())
		}
		return names
	}
	if !slices.Equal(draw(7), draw(7)) {
		t.Fatal("equal seeds drew different levels")
	}
	if slices.Equal(draw(7), draw(8)) {
		t.Fatal("seeds 7 and 8 drew the same 20 levels")
	}
}

func TestStepMovesMacro(t *testing.T) {
	e, _ := New(Config{}, corridor(t))
	e.Reset()
	moves, _ := level.ParseLURD("RR")
	_, r, done, info, err := e.StepMoves(moves)
	if err != nil || r != RewardSolved || !done || info.Steps != 1 || info.Moves != 2 {
		t.Fatalf("macro: r=%v done=%v info=%+v err=%v", r, done, info, err)
	}
	e.Reset()
	bad, _ := level.ParseLURD("rU")
	if _, _, _, _, err := e.StepMoves(bad); err == nil {
		t.Fatal("an illegal macro was accepted")
	}
}

func TestCloneIsIndependent(t *testing.T) {
	e, _ := New(Config{}, corridor(t))
	e.Reset()
	c := e.Clone()
	c.Step(Action(level.Right))
	if e.Position().Player() == c.Position().Player() || e.observation().Planes[0:1] == nil {
		t.Fatal("stepping the clone moved the original")
	}
	if slices.Equal(e.observation().Planes, c.observation().Planes) {
		t.Fatal("the clone shares its planes")
	}
}

func TestBadConfig(t *testing.T) {
	l := corridor(t)
	for _, cfg := range []Config{{MaxSteps: -1}, {P: 0.5}, {Mode: 9}} {
		if _, err := New(cfg, l); err == nil {
			t.Errorf("New(%+v) accepted", cfg)
		}
	}
	if _, err := New(Config{}); err == nil {
		t.Error("New with no level accepted")
	}
}

// A level solved at its start gives an episode that is over at Reset, with
// no moves, on every Reset; Step then panics.
func TestResetOnSolvedLevel(t *testing.T) {
	for _, text := range []string{"####\n#@*#\n####\n", "#####\n#@ *#\n#####\n"} {
		e, err := New(Config{Deadlocks: true}, testlevel.Parse(t, text))
		if err != nil {
			t.Fatal(err)
		}
		for range 2 {
			if _, err := e.Reset(); err != nil {
				t.Fatal(err)
			}
			if !e.Done() || len(e.History()) != 0 || e.Steps() != 0 {
				t.Fatalf("%q: after Reset done=%v, %d moves, %d steps; want done with none", text, e.Done(), len(e.History()), e.Steps())
			}
		}
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%q: Step on a level solved at Reset did not panic", text)
				}
			}()
			e.Step(Action(level.Right))
		}()
	}
}
