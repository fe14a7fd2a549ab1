package sokoban

// Cuts is a depth-first numbering of the free squares of a board, from
// which its cut squares (articulation points) follow: with a box on s, the
// free squares without s fall into one part per child of s whose subtree
// reaches no higher than s (Low[child] >= Num[s]), and the rest of s's
// tree (Part). It is the one articulation-point search (Hopcroft and
// Tarjan 1973) of the module: the side links and pull distances of the
// board, the player's Region after a push, fess's macro-moves (the
// player's sides of a box joined or not), the frozen-goal detector's pull
// reach and the group bound's pulls are built on it. It keeps scratch
// space for one board.
type Cuts struct {
	Visit  Marks    // squares numbered since Visit was last cleared
	Num    []int32  // depth-first number, from 1 up
	Low    []int32  // the least number one back edge reaches from the square's subtree
	Last   []int32  // the greatest number in the square's subtree
	Parent []Square // None at a root
	SubMin []Square // the smallest square of the square's subtree
	Tree   []int32  // the tree label the square was numbered under
	Met    []Square // the squares numbered, in order: appended to, never cleared here
	frames []cutFrame
}

type cutFrame struct {
	s Square
	d Dir
}

// NewCuts returns the scratch space for a board of n squares.
func NewCuts(n int) Cuts {
	return Cuts{Visit: NewMarks(n), Num: make([]int32, n), Low: make([]int32, n), Last: make([]int32, n),
		Parent: make([]Square, n), SubMin: make([]Square, n), Tree: make([]int32, n)}
}

// CutsBytes is the most memory a Cuts takes per square: its six tables,
// Visit's stamps, and Met and the search's stack grown to every square.
const CutsBytes = 6*4 + 4 + 4 + 8

// Number numbers the squares not in occ that root reaches and Visit does
// not hold, depth first from root, from count+1 on, under tree label tree.
// It returns the last number given.
func (c *Cuts) Number(b *Board, occ []bool, root Square, count, tree int32) int32 {
	count++
	c.Visit.Add(int32(root))
	c.Num[root], c.Low[root], c.Parent[root], c.SubMin[root], c.Tree[root] = count, count, None, root, tree
	c.Met = append(c.Met, root)
	stack := append(c.frames[:0], cutFrame{s: root})
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		s := f.s
		if f.d < 4 {
			n := b.Next(s, f.d)
			f.d++
			switch {
			case n == None || occ[n]:
			case !c.Visit.Has(int32(n)):
				count++
				c.Visit.Add(int32(n))
				c.Num[n], c.Low[n], c.Parent[n], c.SubMin[n], c.Tree[n] = count, count, s, n, tree
				c.Met = append(c.Met, n)
				stack = append(stack, cutFrame{s: n})
			case n != c.Parent[s]:
				c.Low[s] = min(c.Low[s], c.Num[n])
			}
			continue
		}
		c.Last[s] = count
		stack = stack[:len(stack)-1]
		if p := c.Parent[s]; p != None {
			c.Low[p] = min(c.Low[p], c.Low[s])
			c.SubMin[p] = min(c.SubMin[p], c.SubMin[s])
		}
	}
	c.frames = stack
	return count
}

// Part returns which part of the free squares without s holds x, for x a
// square other than s numbered in s's tree: the child of s whose subtree
// holds x when a box on s cuts that subtree off (Low[child] >= Num[s],
// always so at a root), or None for the part holding s's ancestors, which
// the subtrees of the other children hang on to. Squares outside s's
// subtree lie in that part too.
func (c *Cuts) Part(b *Board, s, x Square) Square {
	ns, nx := c.Num[s], c.Num[x]
	if nx < ns || nx > c.Last[s] {
		return None
	}
	for _, ch := range b.next[s] {
		if ch != None && c.Visit.Has(ch) && c.Parent[ch] == s && c.Num[ch] <= nx && nx <= c.Last[ch] {
			if c.Low[ch] >= ns {
				return ch
			}
			return None
		}
	}
	return None // unreachable: x is in s's subtree, so in one child's
}

// Links returns, for each side d of s, the least side e whose neighbour
// lies in the same part of the free squares without s as d's neighbour
// (Part), or -1 where d's neighbour is a wall or in occ (nil: none): with
// a box on s, the player walks between the d and e neighbours exactly when
// their links are equal and not -1. s must be numbered.
func (c *Cuts) Links(b *Board, occ []bool, s Square) [4]int8 {
	var part [4]Square
	var links [4]int8
	for d, n := range b.next[s] {
		links[d] = -1
		if n == None || occ != nil && occ[n] {
			continue
		}
		part[d], links[d] = c.Part(b, s, n), int8(d)
		for e := range d {
			if links[e] >= 0 && part[e] == part[d] {
				links[d] = int8(e)
				break
			}
		}
	}
	return links
}
