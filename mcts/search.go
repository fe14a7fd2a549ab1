package mcts

import "math/rand/v2"

// Game is what the MCTS loop needs from a domain. The loop keeps one working
// state in the game: Reset puts it at the root's state and Play walks it
// down one edge, so the game never stores a state per node unless it wants
// to.
type Game interface {
	// Reset sets the working state to the root's state.
	Reset()
	// Play changes the working state from the state of x's parent to the
	// state of x.
	Play(t *Tree, x int32)
	// Expand adds children to x, whose state is the working state, and
	// marks it expanded. It reports found when it has met a solution (the
	// game keeps it). On return the working state must again be x's.
	Expand(t *Tree, x int32) (found bool)
	// Evaluate returns the value of the working state, x's: a rollout's
	// outcome or an immediate reward. It reports found when it has met a
	// solution (the game keeps it).
	Evaluate(t *Tree, x int32) (value float64, found bool)
}

// Visitor is implemented by games that look at every node selection passes
// (MCTS-R's reversibility check, 002 Alg. 1). Visit is called after Play on
// each node the selection descends to; returning true ends the iteration at
// once (the game has restructured the tree).
type Visitor interface {
	Visit(t *Tree, x int32) (restart bool)
}

// Remover is implemented by games that must hear of every node that
// Recursive Node Elimination deletes (Schokoban's state table).
type Remover interface {
	Removed(t *Tree, x int32)
}

// Stopper is implemented by games whose expansion looks at the search's
// budget itself and can end part way when it runs out (a push game's node
// with hundreds of boxes). Stopped reports whether the last Expand did:
// the node may then be half expanded, and the iteration ends at once with
// Stopped, without Recursive Node Elimination or backup, for the search
// must end.
type Stopper interface {
	Stopped() bool
}

// Outcome says how one iteration ended.
type Outcome int8

// The outcomes of Search.Iterate.
const (
	Continue  Outcome = iota // go on
	Found                    // the game met a solution
	Exhausted                // Recursive Node Elimination deleted everything: no solution
	Stopped                  // the game's expansion stopped on its budget (Stopper): end the search
)

// Search is the generic MCTS loop of 000 §3.2 (Fig. 3.2): selection with UCT,
// expansion of every action, evaluation of one new child, backup. The phases
// are pluggable: selection is Tree.Select unless the game is a Visitor,
// expansion and evaluation belong to the Game, backup is averaging with or
// without negation (Negate), and Eliminate switches Recursive Node
// Elimination on.
//
// One iteration:
//
//  1. Selection: from the root, while the node has children, descend to the
//     child UCT picks (unvisited children first, at random).
//  2. If the leaf has never been visited, evaluate it and back the value up
//     (000 §3.2.2: a node with visit count zero skips expansion).
//  3. Otherwise expand it. If it gets children, evaluate one unvisited child
//     chosen at random and back its value up. If it gets none, either delete
//     it and every ancestor left childless (Eliminate) or evaluate the leaf
//     itself again (a terminal state, or a state whose successors are all in
//     the tree already).
type Search struct {
	Tree      *Tree
	Game      Game
	Rand      *rand.Rand
	C         float64 // UCT exploration constant
	Negate    bool    // two-player backup: the value flips sign at every level
	Eliminate bool    // Recursive Node Elimination of childless expanded nodes

	visitor  Visitor
	stopper  Stopper
	removed  func(int32)
	revisits int64 // see Revisits
}

// Revisits counts the iterations that evaluated again a node expanded in
// an earlier one that got no children (kept, as Eliminate is off):
// iterations that add nothing to the tree, which a tree that has stopped
// growing runs for ever.
func (s *Search) Revisits() int64 { return s.revisits }

// NewSearch returns a search of game g over tree t with a random source
// seeded by seed.
func NewSearch(t *Tree, g Game, seed uint64) *Search {
	s := &Search{Tree: t, Game: g, Rand: rand.New(rand.NewPCG(seed, 0x6d637473)), C: 1}
	s.visitor, _ = g.(Visitor)
	s.stopper, _ = g.(Stopper)
	if r, ok := g.(Remover); ok {
		s.removed = func(x int32) { r.Removed(t, x) }
	}
	return s
}

// Iterate runs one iteration.
func (s *Search) Iterate() Outcome {
	t, g := s.Tree, s.Game
	g.Reset()
	x := Root
	for t.at(x).first != None {
		x = t.Select(x, s.C, s.Rand)
		g.Play(t, x)
		if s.visitor != nil && s.visitor.Visit(t, x) {
			return Continue
		}
	}
	if t.at(x).n == 0 {
		return s.evaluate(x)
	}
	before := t.at(x).flags&expanded != 0
	if !before {
		if g.Expand(t, x) {
			return Found
		}
		if s.stopper != nil && s.stopper.Stopped() {
			return Stopped
		}
	}
	if t.at(x).first == None {
		if s.Eliminate {
			if t.Eliminate(x, s.removed) {
				return Exhausted
			}
			return Continue
		}
		if before {
			s.revisits++
		}
		return s.evaluate(x)
	}
	y := t.RandomUnvisited(x, s.Rand)
	if y == None {
		return Continue // only children that already had visits (re-parented ones)
	}
	g.Play(t, y)
	return s.evaluate(y)
}

func (s *Search) evaluate(x int32) Outcome {
	u, found := s.Game.Evaluate(s.Tree, x)
	if found {
		return Found
	}
	s.Tree.Backup(x, u, s.Negate)
	return Continue
}
