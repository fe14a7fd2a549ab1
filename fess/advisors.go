package fess

// advise weighs the children kids of a node (whose features are parent):
// a lone move weighs 0, and so does each move an advisor of the strategy
// proposes. Nothing is pruned for weight: the search stays complete.
func (e *engine) advise(kids []child, parent features) {
	if len(kids) == 1 {
		kids[0].weight = 0
	}
	for _, a := range e.strat.advisors {
		a.advise(e, kids, parent)
	}
}

// gain is an advisor that proposes the child that most improves on its
// parent by one measure (of: negative is better), if any does; ties go to
// the better features.
type gain struct {
	name string
	of   func(parent, f features) int
}

func (g gain) advise(_ *engine, kids []child, parent features) {
	best, bestGain := -1, 0
	for i, k := range kids {
		v := g.of(parent, k.feat)
		if v < bestGain || (v == bestGain && best >= 0 && k.order < kids[best].order) {
			best, bestGain = i, v
		}
	}
	if best >= 0 {
		kids[best].weight = 0
	}
}

func (g gain) String() string { return g.name }

// The advisors of the FESS paper: the pack advisor proposes the move that
// packs the most boxes along the plan, the out-of-plan advisor the one that
// leaves the fewest boxes out of plan, the hotspot advisor the one that
// leaves the fewest hotspots; the connectivity advisor the one that joins
// the most player regions, and the opener the one that, packing no box
// less, brings a box nearest the plan's next goal (docs/fess.md says where
// each pays).
var (
	advisePack         = gain{"pack", func(parent, f features) int { return int(parent.packed - f.packed) }}
	adviseOutOfPlan    = gain{"out of plan", func(parent, f features) int { return int(f.oop - parent.oop) }}
	adviseHotspots     = gain{"hotspots", func(parent, f features) int { return int(f.hot - parent.hot) }}
	adviseConnectivity = gain{"connectivity", func(parent, f features) int { return int(f.conn - parent.conn) }}
	adviseOpener       = gain{"opener", func(parent, f features) int {
		if f.packed != parent.packed {
			return 0
		}
		return int(f.next - parent.next)
	}}
)

// planAdvisors are the advisors every FESS strategy has.
var planAdvisors = []advisor{advisePack, adviseOutOfPlan, adviseHotspots}

// tailAdvisors are the tail strategy's: planAdvisors less the hotspot
// advisor, then connectivity and clearing. With the deadlock table cutting
// children at generation the hotspot advisor's pick keeps pull's search
// from XSokoban 50, which it solves without it (docs/measurements.md,
// "Small boards").
var tailAdvisors = []advisor{advisePack, adviseOutOfPlan, adviseConnectivity, clearingAdvisor{}}

// withAdvisors returns planAdvisors and more after them.
func withAdvisors(more ...advisor) []advisor {
	return append(append([]advisor(nil), planAdvisors...), more...)
}

// betterOfTwo is Festival's pair rule: of a node's two moves, the better
// by the features weighs 0 too.
type betterOfTwo struct{}

func (betterOfTwo) advise(_ *engine, kids []child, _ features) {
	if len(kids) != 2 {
		return
	}
	better := 0
	if kids[1].order < kids[0].order {
		better = 1
	}
	kids[better].weight = 0
}

func (betterOfTwo) String() string { return "better of two" }

// clearingAdvisor is Festival's clearing advisor and, where it proposes
// nothing new, the explorer (clearing.go). It reads the weights the
// advisors before it gave, so it comes last.
type clearingAdvisor struct{}

func (clearingAdvisor) prepare(e *engine) { e.clearing = newClearing(e.b) }

func (clearingAdvisor) advise(e *engine, kids []child, parent features) {
	next, ok := e.feat.nextSquare(parent.packed)
	if !ok || !e.clearing.advise(kids, parent, next) {
		e.clearing.explore(e.pos, kids, parent)
	}
}

func (clearingAdvisor) String() string { return "clearing, explorer" }
