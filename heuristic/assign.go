package heuristic

// Inf is the cost of a box–goal pair with no push path. Matcher never uses an
// Inf entry; a matrix whose every perfect matching needs one is infeasible.
const Inf = int32(1 << 28)

// unreached is the distance of a column no finite entry has reached yet in
// the current shortest-path search. Real distances stay far below it: they are
// sums of at most n reduced costs, each under a few times n·Inf.
const unreached = int64(1) << 62

// Matcher solves the assignment problem (minimum-cost perfect matching on a
// complete bipartite graph with some edges missing) for square matrices of
// push distances. It keeps its work arrays between calls, so Solve does not
// allocate once the Matcher has been sized for the largest n it sees.
//
// Layout, for a matrix of size n (rows are boxes, columns are goals):
//
//	v[j]      potential of column j
//	p[j]      row matched to column j, or -1
//	assign[i] column matched to row i, or -1 while row i is free
//	d[j]      tentative reduced distance to column j in the current phase
//	pred[j]   row from which column j was last reached in the current phase
//	cols      permutation of the columns: [0, low) scanned, [low, up) at the
//	          current minimum distance and waiting to be scanned, [up, n)
//	          the rest
//
// Row potentials are implicit: u[i] = min over finite j of cost[i][j] − v[j].
// Invariant between phases: every matched pair attains that minimum, so all
// reduced costs cost[i][j] − u[i] − v[j] of finite entries are ≥ 0 and those
// of matched pairs are 0. Potentials are int64 so that sums of up to 255
// costs just below Inf cannot overflow.
type Matcher struct {
	v, d         []int64
	p, pred      []int32
	cols, assign []int
	n            int // size of the last solve

	// Row i of the matrix is table[off[i] : off[i]+n]. Solve sets off[i] to
	// i·n; PushMatching points the rows at a square-major distance table,
	// so a box's row is the slice of its square and no matrix is built.
	table []int32
	off   []int
}

// NewMatcher returns a Matcher with work arrays for n×n matrices.
func NewMatcher(n int) *Matcher {
	m := &Matcher{}
	m.grow(n)
	return m
}

func (m *Matcher) grow(n int) {
	m.v = make([]int64, n)
	m.d = make([]int64, n)
	m.p = make([]int32, n)
	m.pred = make([]int32, n)
	m.cols = make([]int, n)
	m.assign = make([]int, n)
	m.off = make([]int, n)
}

// row returns row i of the current matrix.
func (m *Matcher) row(i, n int) []int32 {
	o := m.off[i]
	return m.table[o : o+n]
}

// Solve returns the minimum total cost of a perfect matching of the n×n
// row-major matrix cost (rows are boxes, columns are goals) that uses no Inf
// entry. ok is false, and total is Inf, when every perfect matching needs an
// Inf entry. A feasible total that does not fit below Inf is reported as
// Inf−1, which is still a lower bound. Entries must lie in [0, Inf].
//
// It is the Hungarian algorithm in the shortest-augmenting-path form of
// Jonker and Volgenant (1987): column and row reduction and a greedy match
// on tight entries first, then, for each row still free, Dijkstra on reduced
// costs to the nearest free column, augmentation along that path and a
// potential update; O(n³) in all. Inf entries are skipped as missing edges.
// If some phase reaches no free column, no perfect matching exists (Berge:
// the free row and the rows matched so far cannot all be matched).
//
// Solve allocates only when n exceeds every size this Matcher has seen.
// It panics if len(cost) < n*n.
func (m *Matcher) Solve(cost []int32, n int) (total int32, ok bool) {
	if n > len(m.v) {
		m.grow(n)
	}
	m.table = cost[:n*n]
	for i := range m.off[:n] {
		m.off[i] = i * n
	}
	return m.solve(n)
}

// solve is Solve on the rows m.table and m.off[:n] already point at.
func (m *Matcher) solve(n int) (total int32, ok bool) {
	m.n = n
	v, p, assign := m.v[:n], m.p[:n], m.assign[:n]
	for j := range p {
		p[j] = -1
		v[j] = int64(Inf)
	}

	// Column reduction, row reduction and a greedy match of each row to a
	// free column on a tight entry. On push-distance matrices this settles
	// most rows in O(n²); only the rest need a shortest-path phase.
	for i := range assign {
		row := m.row(i, n)
		rv := v[:len(row)]
		for j, c := range row {
			rv[j] = min(rv[j], int64(c))
		}
	}
	for _, lo := range v {
		if lo == int64(Inf) {
			return Inf, false // no box reaches some goal
		}
	}
	for i := range assign {
		row := m.row(i, n)
		rv := v[:len(row)]
		lo := unreached
		for j, c := range row {
			if c < Inf {
				lo = min(lo, int64(c)-rv[j])
			}
		}
		if lo == unreached {
			return Inf, false // box i reaches no goal
		}
		assign[i] = -1
		for j, c := range row {
			if c < Inf && int64(c)-rv[j] == lo && p[j] < 0 {
				p[j] = int32(i)
				assign[i] = j
				break
			}
		}
	}

	for f := range assign {
		if assign[f] < 0 && !m.augment(n, f) {
			return Inf, false
		}
	}
	return m.total(n), true
}

// total returns the cost of the current assignment, saturated below Inf.
func (m *Matcher) total(n int) int32 {
	var sum int64
	for i, j := range m.assign[:n] {
		sum += int64(m.table[m.off[i]+j])
	}
	if sum >= int64(Inf) {
		return Inf - 1
	}
	return int32(sum)
}

// augment matches the free row f by one shortest augmenting path and
// restores the potential invariant. It reports false if no free column can
// be reached.
func (m *Matcher) augment(n, f int) bool {
	v, d := m.v[:n], m.d[:n]
	p, pred, cols, assign := m.p[:n], m.pred[:n], m.cols[:n], m.assign[:n]

	row := m.row(f, n)
	for j, c := range row {
		d[j] = unreached
		if c < Inf {
			d[j] = int64(c) - v[j]
		}
		pred[j] = int32(f)
		cols[j] = j
	}
	low, up, last := 0, 0, 0
	var mu int64 // distance of the columns in cols[low:up]
	end := -1    // the free column the path ends at
	for end < 0 {
		if up == low {
			// Collect the next level of closest columns. low < n here: the
			// scanned columns are all matched, and f is free.
			last = low
			mu = unreached
			for k := low; k < n; k++ {
				j := cols[k]
				if h := d[j]; h <= mu {
					if h < mu {
						up, mu = low, h
					}
					cols[k], cols[up] = cols[up], j
					up++
				}
			}
			if mu == unreached {
				return false
			}
			for _, j := range cols[low:up] {
				if p[j] < 0 {
					end = j
					break
				}
			}
			if end >= 0 {
				break
			}
		}
		// Scan one closest column: relax the row matched to it.
		j1 := cols[low]
		low++
		i := int(p[j1])
		r := m.row(i, n)
		rv, rd := v[:len(r)], d[:len(r)]
		u1 := int64(r[j1]) - rv[j1] - mu
		for k := up; k < n; k++ {
			j := cols[k]
			c := r[j]
			if c >= Inf {
				continue
			}
			if h := int64(c) - rv[j] - u1; h < rd[j] {
				rd[j] = h
				pred[j] = int32(i)
				if h == mu {
					if p[j] < 0 {
						end = j
						break
					}
					cols[k], cols[up] = cols[up], j
					up++
				}
			}
		}
	}

	// Columns settled before the last level move their potentials by how
	// much closer than mu they were; that keeps every reduced cost ≥ 0 and
	// makes the new path tight.
	for _, j := range cols[:last] {
		v[j] += d[j] - mu
	}
	for {
		i := int(pred[end])
		p[end] = int32(i)
		end, assign[i] = assign[i], end
		if i == f {
			return true
		}
	}
}

// matchState is a copy of a solved Matcher: its potentials, its matching
// and its rows, to start repairs from.
type matchState struct {
	v      []int64
	p      []int32
	assign []int
	off    []int
}

// save copies the state of the last successful solve of size n into s.
func (m *Matcher) save(s *matchState, n int) {
	s.v = append(s.v[:0], m.v[:n]...)
	s.p = append(s.p[:0], m.p[:n]...)
	s.assign = append(s.assign[:0], m.assign[:n]...)
	s.off = append(s.off[:0], m.off[:n]...)
}

// restore makes s, saved from a solve of size n on the same table, the
// current state again.
func (m *Matcher) restore(s *matchState, n int) {
	m.n = n
	copy(m.v, s.v)
	copy(m.p, s.p)
	copy(m.assign, s.assign)
	copy(m.off, s.off)
}

// unmatch frees row i and the column matched to it, before its row is
// changed. The potentials stay: every other row keeps a matched pair with
// reduced cost 0 and no negative reduced cost, which is all augment needs.
func (m *Matcher) unmatch(i int) {
	if j := m.assign[i]; j >= 0 {
		m.p[j] = -1
		m.assign[i] = -1
	}
}

// rematch matches every free row again, one shortest augmenting path each,
// and returns the total as solve does: O(n²) per row instead of O(n³).
// Optimality holds for the same reason as in solve's phases, which start
// from the same situation (Jonker and Volgenant 1987): dual feasibility of
// the matched rows, tight matched pairs, and free rows of any cost.
func (m *Matcher) rematch(n int, free []int) (int32, bool) {
	for _, f := range free {
		if m.assign[f] < 0 && !m.augment(n, f) {
			return Inf, false
		}
	}
	return m.total(n), true
}
