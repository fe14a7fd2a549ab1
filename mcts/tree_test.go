package mcts

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// inSubtree reports whether y lies in the subtree rooted at x.
func inSubtree(t *Tree, y, x int32) bool {
	for ; y != None; y = t.at(y).parent {
		if y == x {
			return true
		}
	}
	return false
}

// liveNodes lists the nodes reachable from the root.
func liveNodes(t *Tree) []int32 {
	var out []int32
	stack := []int32{Root}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		out = append(out, x)
		for c := t.First(x); c != None; c = t.Next(c) {
			stack = append(stack, c)
		}
	}
	return out
}

// TestRestructuringKeepsStatistics grows random trees with integer-valued
// backups and restructures them at random, with re-parenting as Schokoban
// does it (only to a strictly shallower place, 000 Alg. 4, and also
// anywhere legal), Recursive Node Elimination and subtree removal. After
// every step each node's visits and value sum must equal those recomputed
// from scratch from its leaves up (000 §5.2), depths must be parent + 1, and
// the child lists intact.
func TestRestructuringKeepsStatistics(t *testing.T) {
	for seed := uint64(1); seed <= 8; seed++ {
		rng := rand.New(rand.NewPCG(seed, 99))
		tr := NewTree(0)
		removed := 0
		for step := 0; step < 2500; step++ {
			nodes := liveNodes(tr)
			x := nodes[rng.IntN(len(nodes))]
			switch op := rng.IntN(10); {
			case op < 4: // grow
				for k := rng.IntN(4); k >= 0; k-- {
					y := tr.Add(x, 0, uint32(step))
					if rng.IntN(2) == 0 {
						tr.Backup(y, float64(rng.IntN(41)-30), false)
					}
				}
			case op < 7: // backup from a random node
				tr.Backup(x, float64(rng.IntN(41)-30), false)
			case op < 9: // re-parent j under i
				j := nodes[rng.IntN(len(nodes))]
				if j == Root || inSubtree(tr, x, j) || tr.at(j).parent == x {
					continue
				}
				if op == 7 && tr.Depth(x)+1 >= tr.Depth(j) {
					continue // Schokoban moves only to a shorter path
				}
				old := tr.Reparent(j, x)
				if tr.First(old) == None {
					tr.Eliminate(old, func(int32) { removed++ })
				}
			default: // eliminate a leaf, or remove a subtree
				if x == Root {
					continue
				}
				if tr.First(x) == None {
					tr.Eliminate(x, func(int32) { removed++ })
				} else {
					tr.Remove(x, func(int32) { removed++ })
				}
			}
			if err := tr.check(false, 0); err != nil {
				t.Fatalf("seed %d, step %d: %v", seed, step, err)
			}
		}
		if removed == 0 || tr.Len() < 10 {
			t.Fatalf("seed %d: %d nodes left, %d removed: the test exercised too little", seed, tr.Len(), removed)
		}
	}
}

// TestNegatedBackup checks the two-player backup of 000 Appendix B.1: the
// value flips sign at every level up.
func TestNegatedBackup(t *testing.T) {
	tr := NewTree(0)
	tr.Backup(Root, 0, true)
	a := tr.Add(Root, 0, 1)
	b := tr.Add(a, 0, 2)
	tr.Backup(a, -1, true)
	if tr.Value(a) != -1 || tr.Value(Root) != 0.5 || tr.Visits(Root) != 2 {
		t.Fatalf("after the second backup: v(a)=%v v(root)=%v n(root)=%d; want -1, 0.5, 2 (Fig. B.7)", tr.Value(a), tr.Value(Root), tr.Visits(Root))
	}
	tr.Backup(b, 1, true)
	if tr.Value(b) != 1 || tr.Value(a) != -1 || tr.Value(Root) != 2.0/3 {
		t.Fatalf("v(b)=%v v(a)=%v v(root)=%v", tr.Value(b), tr.Value(a), tr.Value(Root))
	}
	if err := tr.check(true, 0); err != nil {
		t.Fatal(err)
	}
}

// TestSelectUnvisitedFirst checks Alg. 1: unvisited children are chosen
// first, uniformly at random; then the UCT maximum.
func TestSelectUnvisitedFirst(t *testing.T) {
	tr := NewTree(0)
	kids := make([]int32, 4)
	for i := range kids {
		kids[i] = tr.Add(Root, uint32(i), uint32(i))
	}
	tr.Backup(kids[0], 5, false)
	rng := rand.New(rand.NewPCG(1, 2))
	count := map[int32]int{}
	for range 3000 {
		count[tr.Select(Root, 1, rng)]++
	}
	if count[kids[0]] != 0 {
		t.Fatalf("a visited child was chosen while others were unvisited")
	}
	for _, k := range kids[1:] {
		if count[k] < 800 || count[k] > 1200 {
			t.Fatalf("unvisited children not chosen uniformly: %v", count)
		}
	}
	// Table B.1/B.2: ten root visits, children valued 0, -1, 1, ...; c = 2.
	tr = NewTree(0)
	tr.Backup(Root, 0, false)
	for _, v := range []float64{0, -1, 1, 1, -1, 0, 1, 0, -1} {
		tr.Backup(tr.Add(Root, 0, 0), v, false)
	}
	for range 100 {
		if v := tr.Value(tr.Select(Root, 2, rng)); v != 1 {
			t.Fatalf("UCT chose a child of value %v; Table B.2's maximum is at the children of value 1", v)
		}
	}
}

// TestSelectWithNaNScores: selection must return a child even when every
// score is NaN (a NaN exploration constant, or values gone NaN), never None.
func TestSelectWithNaNScores(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	tr := NewTree(0)
	var kids []int32
	for range 3 {
		y := tr.Add(Root, 0, 0)
		tr.Backup(y, 1, false)
		kids = append(kids, y)
	}
	for _, c := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if y := tr.Select(Root, c, rng); !slices.Contains(kids, y) {
			t.Errorf("c=%g: selected %d, not a child", c, y)
		}
	}
	tr.Backup(kids[1], math.NaN(), false) // a NaN value
	for range 20 {
		if y := tr.Select(Root, 1, rng); !slices.Contains(kids, y) {
			t.Fatalf("NaN value: selected %d, not a child", y)
		}
	}
}
