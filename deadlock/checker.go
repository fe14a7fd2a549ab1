package deadlock

import (
	"context"
	"fmt"
	"strings"

	"soko/sokoban"
)

// Kind names one dynamic detector.
type Kind uint8

// The detectors, in the order a Checker runs them (cheapest first).
const (
	KindWallPair    Kind = iota // two boxes side by side against a wall (003 §2.3.2)
	KindBlock2x2                // 2×2 block of boxes and walls (004 §3, Fig. 3)
	KindWallSweep               // sweep line along an outer wall (000 Alg. 3)
	KindWallSegment             // wall segment between corners, no door (001 Alg. 2)
	KindFreeze                  // frozen-box group (000 §4.2.1, locked boxes)
	KindCorral                  // sealed corral, relaxed search (000 §4.2.2, Fig. 4.7)
	KindTable                   // dead sets of 1–3 boxes, tabulated at set-up (Table)
	NumKinds
)

var kindNames = [NumKinds]string{"wallpair", "2x2", "wallsweep", "wallsegment", "freeze", "corral", "table"}

func (k Kind) String() string {
	if k < NumKinds {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// Detectors switches the dynamic detectors on and off. Block2x2 and
// WallPair find only positions Freeze finds too; they exist to reproduce
// the seed solvers that use them alone, and to measure what the general
// rule adds. Likewise WallSweep finds only what WallSegment finds.
type Detectors struct {
	Block2x2    bool
	WallPair    bool
	WallSweep   bool
	WallSegment bool
	Freeze      bool
	Corral      bool
	Table       bool
}

// All switches every detector on.
func All() Detectors {
	return Detectors{Block2x2: true, WallPair: true, WallSweep: true, WallSegment: true, Freeze: true, Corral: true, Table: true}
}

// Core is the set the solvers used before the suite: frozen boxes only.
func Core() Detectors { return Detectors{Freeze: true} }

// On reports whether detector k is switched on.
func (d Detectors) On(k Kind) bool {
	on := d.switchOf(k)
	return on != nil && *on
}

// switchOf is the switch of detector k in d, nil for no detector.
func (d *Detectors) switchOf(k Kind) *bool {
	if k >= NumKinds {
		return nil
	}
	return [NumKinds]*bool{&d.WallPair, &d.Block2x2, &d.WallSweep, &d.WallSegment, &d.Freeze, &d.Corral, &d.Table}[k]
}

// ParseDetectors reads a comma-separated list of detector names (see
// Kind.String), "all" or "none", for command-line flags.
func ParseDetectors(s string) (Detectors, error) {
	var d Detectors
	for _, f := range strings.Split(s, ",") {
		switch f = strings.TrimSpace(f); f {
		case "", "none":
		case "all":
			d = All()
		default:
			found := false
			for k := Kind(0); k < NumKinds; k++ {
				if k.String() == f {
					*d.switchOf(k) = true
					found = true
				}
			}
			if !found {
				return Detectors{}, fmt.Errorf("unknown deadlock detector %q (known: %s, all, none)", f, strings.Join(kindNames[:], ", "))
			}
		}
	}
	return d, nil
}

// Checker runs the switched-on detectors after each push and counts how
// often each fired. It keeps scratch space; use one per goroutine.
//
// Solvers call Deadlocked (or Check) right after applying a push, with the
// pushed box's new square, exactly where they called Freeze.Deadlocked.
// Dead squares are not tested here: push generation leaves pushes onto them
// out (Position.Pushes with Dead as avoid).
type Checker struct {
	On   Detectors
	Dead []bool

	freeze  *Freeze
	sweep   *wallLines
	segs    *wallLines
	corrals *Corrals
	table   *Table // nil when off or too big for its limits

	// Checks counts calls; Fired[k] counts the positions detector k was
	// the first to call dead (detectors run in Kind order and stop at the
	// first that fires, so a position is counted once).
	Checks uint64
	Fired  [NumKinds]uint64
}

// NewChecker returns a checker for b with dead squares dead (from
// DeadSquares or DeadFromDistances) and the detectors in on; the table,
// when on, is built under DefaultTableLimits.
func NewChecker(b *sokoban.Board, dead []bool, on Detectors) *Checker {
	c, _ := NewCheckerWith(context.Background(), b, dead, on, DefaultTableLimits)
	return c
}

// NewCheckerWith is NewChecker that builds the table, when on, under ctx
// and limits; it returns the context's error when ctx ends first. A table
// past the limits is left out, and its detector never fires.
func NewCheckerWith(ctx context.Context, b *sokoban.Board, dead []bool, on Detectors, limits TableLimits) (*Checker, error) {
	c := &Checker{
		On:      on,
		Dead:    dead,
		freeze:  NewFreeze(b, dead),
		sweep:   sweepLines(b),
		segs:    wallSegments(b),
		corrals: NewCorrals(b, dead),
	}
	if on.Table {
		t, err := NewTable(ctx, b, limits)
		if err != nil {
			return nil, err
		}
		c.table = t
	}
	return c, nil
}

// SetTable gives the checker table t, built later than the checker (nil:
// none); the table detector looks it up from then on.
func (c *Checker) SetTable(t *Table) { c.table = t }

// Table returns the checker's table, nil when it has none.
func (c *Checker) Table() *Table { return c.table }

// Bytes returns the memory the checker's static tables take: the dead
// squares, the detectors' scratch space and wall lines and the table, not the corral
// cache, which grows as the search goes.
func (c *Checker) Bytes() int64 {
	n := int64(len(c.Dead))
	lines := func(w *wallLines) int64 {
		m := 24 * int64(len(w.at))
		for _, l := range w.lines {
			m += 4*int64(len(l.squares)) + 32
		}
		return m
	}
	n = n*(1+2+4+4+1+4) + lines(c.sweep) + lines(c.segs)
	if c.table != nil {
		n += c.table.Bytes()
	}
	return n
}

// Corrals returns the checker's corral examiner, whose limits may be
// changed and whose PICorral a solver may call.
func (c *Checker) Corrals() *Corrals { return c.corrals }

// Deadlocked reports whether the push that just put a box on s left p dead.
func (c *Checker) Deadlocked(p *sokoban.Position, s sokoban.Square) bool {
	_, dead := c.Check(p, s)
	return dead
}

// Check is Deadlocked that also says which detector fired.
func (c *Checker) Check(p *sokoban.Position, s sokoban.Square) (Kind, bool) {
	c.Checks++
	for k := Kind(0); k < NumKinds; k++ {
		if c.On.On(k) && c.after(k, p, s) {
			c.Fired[k]++
			return k, true
		}
	}
	return NumKinds, false
}

func (c *Checker) after(k Kind, p *sokoban.Position, s sokoban.Square) bool {
	switch k {
	case KindBlock2x2:
		return block2x2(p, s)
	case KindWallPair:
		return wallPair(p, s)
	case KindWallSweep:
		return c.sweep.overfull(p, s)
	case KindWallSegment:
		return c.segs.overfull(p, s)
	case KindFreeze:
		return c.freeze.Deadlocked(p, s)
	case KindCorral:
		return c.corrals.DeadAfterPush(p, s)
	case KindTable:
		return c.table != nil && c.table.DeadAfterPush(p, s)
	}
	return false
}

// CheckPosition examines the whole position, not just one push: every box
// for the local detectors, every line, every corral. It is for start
// positions and tests; it also reports a box on a dead square (Kind
// NumKinds). It does not count.
func (c *Checker) CheckPosition(p *sokoban.Position) (Kind, bool) {
	for _, s := range p.BoxSquares() {
		if c.Dead[s] {
			return NumKinds, true
		}
	}
	for k := Kind(0); k < NumKinds; k++ {
		if !c.On.On(k) {
			continue
		}
		if k == KindCorral {
			if c.corrals.Dead(p) {
				return k, true
			}
			continue
		}
		if k == KindTable {
			if c.table != nil && c.table.Dead(p) {
				return k, true
			}
			continue
		}
		for _, s := range p.BoxSquares() {
			if c.after(k, p, s) {
				return k, true
			}
		}
	}
	return NumKinds, false
}

// Counts formats the counters as "checks=N 2x2=N ...", for logs.
func (c *Checker) Counts() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "checks=%d", c.Checks)
	for k := Kind(0); k < NumKinds; k++ {
		fmt.Fprintf(&sb, " %s=%d", k, c.Fired[k])
	}
	return sb.String()
}
