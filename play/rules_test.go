package play

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"soko/level"
	"soko/verify"
)

// boxedIn has a box on a goal and a box off one that the player can never
// reach, walled off to the right: they are drawn, never moved, and the
// level is never solved.
const boxedIn = "#########\n#@ $ .#*#\n# .$. #$#\n#########\n"

// TestStepsAgreeWithVerify plays random steps, with undos, on Microban 1
// and 2 and a level with boxes out of the player's reach, and checks every
// prefix played against the independent verifier: each step taken is
// legal there, pushes where the game says it pushed, and leaves the level
// solved exactly when the game says so. Restart brings the first drawing
// back, and the unreachable boxes stay drawn where they were.
func TestStepsAgreeWithVerify(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	longest, pushed := 0, 0 // the walk must have moved and pushed, or it checked nothing
	for _, l := range parse(t, microban1+"\n"+microban2+"\n"+boxedIn) {
		g := newGame(l)
		start := g.Board(false)
		for range 400 {
			if rng.IntN(5) == 0 {
				g.Undo()
			} else {
				g.Move(level.Dir(rng.IntN(4)))
			}
			moves, err := level.ParseLURD(g.LURD())
			if err != nil {
				t.Fatal(err)
			}
			longest, pushed = max(longest, len(moves)), max(pushed, g.Pushes())
			rep := verify.Replay(l, moves)
			if rep.FailStep != 0 || rep.CaseStep != 0 || rep.Pushes != g.Pushes() || rep.Solved != g.Solved() {
				t.Fatalf("level %d, %s: verifier says %+v; game: %d pushes, solved %v", l.Index, g.LURD(), rep, g.Pushes(), g.Solved())
			}
			if b := ansi.Strip(g.Board(false)); strings.Count(b, "@")+strings.Count(b, "+") != 1 {
				t.Fatalf("level %d, %s: not one player drawn:\n%s", l.Index, g.LURD(), g.Board(false))
			}
		}
		g.Restart()
		if got := g.Board(false); got != start {
			t.Fatalf("level %d: restart draws\n%s\nwant\n%s", l.Index, got, start)
		}
	}
	if longest < 50 || pushed == 0 {
		t.Fatalf("the random walks made at most %d moves and %d pushes", longest, pushed)
	}
	g := newGame(parse(t, boxedIn)[0])
	if g.OnGoals() != 1 || g.Solved() {
		t.Fatalf("boxed-in level: %d on goals, solved %v; want 1, false", g.OnGoals(), g.Solved())
	}
	if b := ansi.Strip(g.Board(false)); !strings.Contains(b, "█*█\n") || !strings.Contains(b, "█$█\n") {
		t.Fatalf("boxed-in level: the unreachable boxes are not drawn:\n%s", b)
	}
}
