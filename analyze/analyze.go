// Package analyze describes a level's static structure for people: the
// board with dead squares, tunnels and goal rooms marked (package
// deadlock), and the search-space estimate of 000 Appendix A. It backs the
// `soko analyze LEVEL` command.
package analyze

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"strings"
	"time"

	"soko/deadlock"
	"soko/fess"
	"soko/internal/english"
	"soko/level"
	"soko/sokoban"
)

// Legend explains the marks Render puts on the board. Boxes, goals and the
// player keep their XSB characters; an empty floor square gets the first
// mark that applies, in this order. The tunnel marks are characters no
// level format gives a meaning ('-' is floor in XSB, '|' separates rows in
// its run-length form), so a marked board cannot be read as another level.
const Legend = `legend: # wall  $ box  * box on goal  . goal  @ player  + player on goal
        x dead square (a box there can never reach a goal)
        = horizontal tunnel square (walls above and below)
        ! vertical tunnel square (walls left and right)
        a-z goal room (area with goals and at most 2 tunnel entrances;
            x is left out, and ? marks the 26th room and later)
        blank: other floor, or squares the player can never reach
        (column,row): a square, both counted from 1 at the top left`

// PlanTime is the budget of the fess plans Render prints, one after the
// other: the packing plan, then the parking plans of park, sink and pull
// (each parking search stops itself at 2 s). On a 128×128 board with 255
// boxes one alone takes seconds. A plan not worked out within it is
// reported as such; the rest of the analysis takes milliseconds on any
// board.
const PlanTime = 3 * time.Second

// Render returns the board of l with dead squares, tunnel squares and goal
// rooms marked (see Legend), followed by the legend and the counts: floor
// squares, dead squares, boxes, tunnel squares, rooms with their packing
// order where they have one (deadlock.Fill), the fess solver's packing
// plan (fess.PlanOrder) and parking plan (fess.ParkPlan), both within
// PlanTime, and the search-space estimate. It returns ctx.Err() when ctx
// is done first.
func Render(ctx context.Context, l *level.Level) (string, error) {
	return render(ctx, l, PlanTime)
}

// render is Render with planTime for the fess plans' budget.
func render(ctx context.Context, l *level.Level, planTime time.Duration) (string, error) {
	b, err := sokoban.NewBoard(l)
	if err != nil {
		return "", err
	}
	dead := deadlock.DeadSquares(b)
	m, err := deadlock.NewMacros(ctx, b)
	if err != nil {
		return "", err
	}
	var sb strings.Builder
	tunnels := 0
	for s := range m.Tunnel {
		if m.Tunnel[s] != 0 {
			tunnels++
		}
	}
	for y, row := range l.Rows {
		r := []byte(row)
		for x, c := range r {
			s := b.At(x, y)
			if s == sokoban.None || c != level.Floor {
				continue
			}
			switch {
			case dead[s]:
				r[x] = 'x'
			case m.Tunnel[s]&deadlock.TunnelHorizontal != 0:
				r[x] = '='
			case m.Tunnel[s]&deadlock.TunnelVertical != 0:
				r[x] = '!'
			case m.Room[s] >= 0:
				r[x] = roomMark(int(m.Room[s]))
			}
		}
		sb.WriteString(strings.TrimRight(string(r), " "))
		sb.WriteByte('\n')
	}
	sb.WriteByte('\n')
	sb.WriteString(Legend)
	sb.WriteString("\n\n")
	sp := space(l, b, dead)
	fmt.Fprintf(&sb, "floor squares %d, dead squares %d, boxes %d, tunnel squares %d, goal rooms %d\n",
		sp.Tiles, sp.Locking, sp.Boxes, tunnels, len(m.Rooms))
	for i, r := range m.Rooms {
		fmt.Fprintf(&sb, "room %c: %s, %s, %s", roomMark(i), english.Count(len(r.Squares), "square", "squares"),
			english.Count(len(r.Goals), "goal", "goals"), english.Count(len(r.Entrances), "entrance", "entrances"))
		if r.Fill != nil {
			sb.WriteString("; packing order (column,row):")
			for _, g := range r.Fill.Order {
				x, y := b.XY(g)
				fmt.Fprintf(&sb, " (%d,%d)", x+1, y+1)
			}
		}
		sb.WriteByte('\n')
	}
	if err := ctx.Err(); err != nil {
		return "", err
	}
	why := Impossible(b, dead)
	if why == "" && len(b.Goals()) > 0 {
		if err := writePlans(ctx, &sb, b, planTime); err != nil {
			return "", err
		}
	}
	if b.Fixed > 0 {
		fmt.Fprintf(&sb, "boxes on goals the player can never reach (treated as walls): %d\n", b.Fixed)
	}
	if why != "" {
		fmt.Fprintf(&sb, "unsolvable: %s\n", why)
	}
	fmt.Fprintf(&sb, "search space (000 A.0.0.1): C(%d-%d, %d)·(%d-%d) = %s (10^%.1f)\n",
		sp.Tiles, sp.Locking, sp.Boxes, sp.Tiles, sp.Boxes, sp.Size, sp.Log10())
	if sp.ThesisTiles != sp.Tiles {
		fmt.Fprintf(&sb, "  counting tiles as the thesis's table does (n = %d): %s\n", sp.ThesisTiles, sp.ThesisSize)
	}
	return sb.String(), nil
}

// Impossible says why the level of board b cannot be solved, as far as its
// board and its dead squares (dead, deadlock.DeadSquares) tell: the
// board's reason, or a box that starts where no box can reach a goal; ""
// when neither does.
func Impossible(b *sokoban.Board, dead []bool) string {
	if b.Impossible != "" {
		return b.Impossible
	}
	for _, sq := range b.Start().BoxSquares() {
		if dead[sq] {
			x, y := b.XY(sq)
			return fmt.Sprintf("the box at column %d, row %d starts where no box can reach a goal", x+1, y+1)
		}
	}
	return ""
}

// writePlans writes the fess packing and parking plans of b, worked out one
// after the other within planTime. A plan not done by then is reported as
// such; other errors, and ctx's when it is done, are returned.
func writePlans(ctx context.Context, sb *strings.Builder, b *sokoban.Board, planTime time.Duration) error {
	plans, cancel := context.WithTimeout(ctx, planTime)
	defer cancel()
	// overBudget reports whether err is the plans' budget running out, not
	// ctx ending or a failure.
	overBudget := func(err error) bool { return err != nil && ctx.Err() == nil && plans.Err() != nil }
	order, err := fess.PlanOrder(plans, b)
	switch {
	case overBudget(err):
		fmt.Fprintf(sb, "fess packing plan: not worked out within the %s the analysis gives the fess plans\n", planTime)
	case err != nil:
		return err
	default:
		sb.WriteString("fess packing plan, goals in fill order (column,row):")
		for _, g := range order {
			x, y := b.XY(g)
			fmt.Fprintf(sb, " (%d,%d)", x+1, y+1)
		}
		sb.WriteByte('\n')
	}
	for _, kind := range []struct{ moving, pullOrder bool }{{false, false}, {true, false}, {true, true}} {
		if err := writeParking(sb, b, plans, kind.moving, kind.pullOrder, overBudget, planTime); err != nil {
			return err
		}
	}
	return nil
}

// writeParking writes the parking plan of the park strategy, with moving
// of the sink strategy (Festival's moving sink), and with pullOrder too of
// the pull strategy (ordered as Festival's pull search).
func writeParking(sb *strings.Builder, b *sokoban.Board, plans context.Context, moving, pullOrder bool, overBudget func(error) bool, planTime time.Duration) error {
	name := "parking plan (park strategy)"
	switch {
	case pullOrder:
		name = "parking plan with the moving sink, ordered as Festival's pull search (pull strategy)"
	case moving:
		name = "parking plan with the moving sink (sink strategy)"
	}
	park, sink, complete, err := fess.ParkPlan(plans, b, moving, pullOrder)
	switch {
	case overBudget(err):
		fmt.Fprintf(sb, "fess %s: not worked out within the %s the analysis gives the fess plans\n", name, planTime)
		return nil
	case err != nil:
		return err
	}
	fmt.Fprintf(sb, "fess %s", name)
	if !moving {
		fmt.Fprintf(sb, ", sink of %d squares", len(sink))
	}
	if !complete {
		sb.WriteString(", from the parking search's best position (it found none to start from)")
	}
	sb.WriteByte(':')
	for i, en := range park {
		fx, fy := b.XY(en.From)
		tx, ty := b.XY(en.To)
		fmt.Fprintf(sb, "\n  %d: (%d,%d) -> (%d,%d)", i, fx+1, fy+1, tx+1, ty+1)
		if en.Sink {
			sb.WriteString(" from the sink")
		}
		if en.Until >= 0 {
			fmt.Fprintf(sb, ", parked until %d", en.Until)
		}
	}
	sb.WriteByte('\n')
	return nil
}

// roomMarks mark the goal rooms in turn: the letters but x, which marks a
// dead square.
const roomMarks = "abcdefghijklmnopqrstuvwyz"

func roomMark(i int) byte {
	if i < len(roomMarks) {
		return roomMarks[i]
	}
	return '?'
}

// Space is the search-space estimate of 000 Appendix A, formula A.0.0.1:
// C(n − p, b)·(n − b), the box placements that avoid dead squares times the
// player squares.
type Space struct {
	Tiles   int      // n: floor squares the player can ever reach
	Locking int      // p: dead squares ("locking tiles", 000 §4.2.1)
	Boxes   int      // b: movable boxes
	Size    *big.Int // C(n − p, b)·(n − b)

	// The same formula with n counted as the thesis's own table counts it
	// (ThesisTiles), to compare with its values.
	ThesisTiles int
	ThesisSize  *big.Int
}

// ThesisTiles counts a board's tiles the way the thesis's table
// (schokoban-results/utils/*_search_space_comp.csv) does: the characters
// ' ', '.', '$', '*' and '@' between the first and last non-blank character
// of each row. That includes floor the player can never reach (a gap in the
// outer wall row, a walled-in square) and leaves out the player standing on
// a goal ('+'), so it can differ from Tiles.
func ThesisTiles(l *level.Level) int {
	n := 0
	for _, r := range l.Rows {
		for _, c := range []byte(strings.TrimSpace(r)) {
			switch c {
			case ' ', '.', '$', '*', '@':
				n++
			}
		}
	}
	return n
}

// Log10 returns log10 of Size (−Inf for 0).
func (s Space) Log10() float64 {
	if s.Size.Sign() == 0 {
		return math.Inf(-1)
	}
	f, _ := new(big.Float).SetInt(s.Size).Float64()
	if !math.IsInf(f, 0) {
		return math.Log10(f)
	}
	// Beyond float64: use the bit length.
	e := s.Size.BitLen() - 53
	f, _ = new(big.Float).SetInt(new(big.Int).Rsh(s.Size, uint(e))).Float64()
	return math.Log10(f) + float64(e)*math.Log10(2)
}

// space computes the estimate of 000 Appendix A for l on board b with dead
// squares dead.
//
// n counts the floor squares the player can ever reach (package sokoban's
// squares), boxes and goals included. The thesis' own table
// (utils/*_search_space_comp.csv in the Schokoban repository) counts the
// board's characters instead, so its n differs on boards with floor the
// player cannot reach (gaps in the outer wall, isolated floor squares) and
// where the player starts on a goal ('+' is not counted there); see the
// test for the comparison. Its p and b agree with ours on all 160 levels.
func space(l *level.Level, b *sokoban.Board, dead []bool) Space {
	sp := Space{Tiles: b.N, Boxes: b.Boxes(), ThesisTiles: ThesisTiles(l)}
	for _, d := range dead {
		if d {
			sp.Locking++
		}
	}
	sp.Size = Estimate(sp.Tiles, sp.Locking, sp.Boxes)
	// The thesis's non-locking tiles n − p agree with ours; only n differs.
	sp.ThesisSize = Estimate(sp.ThesisTiles, sp.ThesisTiles-(sp.Tiles-sp.Locking), sp.Boxes)
	return sp
}

// Estimate returns C(n − p, b)·(n − b), or 0 when a term is negative.
func Estimate(n, p, b int) *big.Int {
	if n-p < b || n < b || b < 0 {
		return new(big.Int)
	}
	c := new(big.Int).Binomial(int64(n-p), int64(b))
	return c.Mul(c, big.NewInt(int64(n-b)))
}
