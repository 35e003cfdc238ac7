package tournament

// Maximum-weight matching in a general graph: Edmonds' blossom algorithm
// with the primal-dual updates of Galil ("Efficient algorithms for
// finding maximum matching in graphs", ACM Computing Surveys 18(1),
// 1986), O(n³) for n vertices. Written here because no maintained Go
// module offers it (gonum v0.17.0 has none) and the package keeps to the
// standard library; matching_test.go checks it against a brute-force
// twin.
//
// The duals are kept doubled (the slack of an edge is u+v−2w), so that
// integer weights keep every computation in integers: the slack of an
// edge between two S-blossoms is then even, and half of it, the step of
// the duals that makes it tight, is exact.

// A weightedEdge joins vertices u and v with weight w.
type weightedEdge struct {
	u, v int
	w    int64
}

// maxWeightMatching returns a matching of the graph on n vertices of the
// greatest total weight: mate[v] is the vertex matched with v, or -1.
// With maxCardinality it returns one of the greatest weight among those
// with the most edges. Edges may not join a vertex with itself.
func maxWeightMatching(n int, edges []weightedEdge, maxCardinality bool) []int {
	mate := make([]int, n)
	for i := range mate {
		mate[i] = -1
	}
	if n == 0 || len(edges) == 0 {
		return mate
	}
	m := newMatcher(n, edges)
	m.run(maxCardinality)
	for v := range n {
		if m.mate[v] >= 0 {
			mate[v] = m.endpoint[m.mate[v]]
		}
	}
	return mate
}

// Labels of the alternating forest.
const (
	unlabelled = 0
	sOuter     = 1
	tInner     = 2
	// marked is or'ed into an S label while scanBlossom walks the tree.
	marked = 4
)

// A matcher holds the state of one run. Vertices are 0..n-1, blossoms
// n..2n-1. An endpoint p names one end of edge p/2: endpoint[p] is its
// vertex, and p^1 is the other end.
type matcher struct {
	n        int
	edges    []weightedEdge
	endpoint []int
	// neighbours[v] lists the endpoints p whose edge touches v, each
	// naming the far end.
	neighbours [][]int

	// mate[v] is the far endpoint of v's matched edge, or -1.
	mate []int
	// label and labelEnd are kept for top-level blossoms and vertices:
	// labelEnd is the endpoint through which the label was reached (-1
	// for a root).
	label    []int
	labelEnd []int
	// inBlossom[v] is the top-level blossom holding vertex v.
	inBlossom []int
	parent    []int
	// children of a blossom run round its cycle from the base;
	// childEnds[i] joins children i and i+1 (mod len), as endpoints.
	children  [][]int
	childEnds [][]int
	base      []int
	// bestEdge[b] is the edge of least slack from b to another S-blossom
	// (b an S-blossom) or to an S-vertex (b unlabelled or a T vertex), or -1.
	bestEdge []int
	// blossomBest lists, for a non-trivial S-blossom, its least-slack
	// edges to each other S-blossom.
	blossomBest [][]int
	unused      []int
	dual        []int64
	allowed     []bool
	queue       []int
}

func newMatcher(n int, edges []weightedEdge) *matcher {
	m := &matcher{n: n, edges: edges}
	m.endpoint = make([]int, 2*len(edges))
	m.neighbours = make([][]int, n)
	var maxW int64
	for k, e := range edges {
		m.endpoint[2*k], m.endpoint[2*k+1] = e.u, e.v
		m.neighbours[e.u] = append(m.neighbours[e.u], 2*k+1)
		m.neighbours[e.v] = append(m.neighbours[e.v], 2*k)
		maxW = max(maxW, e.w)
	}
	m.mate = fill(make([]int, n), -1)
	m.label = make([]int, 2*n)
	m.labelEnd = fill(make([]int, 2*n), -1)
	m.inBlossom = make([]int, n)
	m.parent = fill(make([]int, 2*n), -1)
	m.children = make([][]int, 2*n)
	m.childEnds = make([][]int, 2*n)
	m.base = fill(make([]int, 2*n), -1)
	for v := range n {
		m.inBlossom[v] = v
		m.base[v] = v
	}
	m.bestEdge = fill(make([]int, 2*n), -1)
	m.blossomBest = make([][]int, 2*n)
	for b := 2*n - 1; b >= n; b-- {
		m.unused = append(m.unused, b)
	}
	m.dual = make([]int64, 2*n)
	for v := range n {
		m.dual[v] = maxW
	}
	m.allowed = make([]bool, len(edges))
	return m
}

func fill(s []int, x int) []int {
	for i := range s {
		s[i] = x
	}
	return s
}

// slack is the doubled slack of edge k (the blossom duals do not enter:
// the edges looked at join different top-level blossoms).
func (m *matcher) slack(k int) int64 {
	e := m.edges[k]
	return m.dual[e.u] + m.dual[e.v] - 2*e.w
}

// leaves calls f for every vertex inside blossom b.
func (m *matcher) leaves(b int, f func(v int)) {
	if b < m.n {
		f(b)
		return
	}
	for _, c := range m.children[b] {
		m.leaves(c, f)
	}
}

// assignLabel labels the top-level blossom of w with t, reached through
// endpoint p; a T-blossom's mate becomes S at once.
func (m *matcher) assignLabel(w, t, p int) {
	b := m.inBlossom[w]
	m.label[w], m.label[b] = t, t
	m.labelEnd[w], m.labelEnd[b] = p, p
	m.bestEdge[w], m.bestEdge[b] = -1, -1
	switch t {
	case sOuter:
		m.leaves(b, func(v int) { m.queue = append(m.queue, v) })
	case tInner:
		base := m.base[b]
		m.assignLabel(m.endpoint[m.mate[base]], sOuter, m.mate[base]^1)
	}
}

// scanBlossom walks up the trees from S-vertices v and w, joined by a
// tight edge: it returns the base of the new blossom where the paths
// meet, or -1 when they reach two different roots (an augmenting path).
func (m *matcher) scanBlossom(v, w int) int {
	var path []int
	base := -1
	for v != -1 || w != -1 {
		b := m.inBlossom[v]
		if m.label[b]&marked != 0 {
			base = m.base[b]
			break
		}
		path = append(path, b)
		m.label[b] = sOuter | marked
		if m.labelEnd[b] == -1 {
			v = -1 // a root
		} else {
			v = m.endpoint[m.labelEnd[b]]
			b = m.inBlossom[v]
			v = m.endpoint[m.labelEnd[b]] // through the T-blossom to the next S
		}
		if w != -1 {
			v, w = w, v
		}
	}
	for _, b := range path {
		m.label[b] = sOuter
	}
	return base
}

// addBlossom makes a new S-blossom of the cycle closed by edge k, whose
// base is base.
func (m *matcher) addBlossom(base, k int) {
	v, w := m.edges[k].u, m.edges[k].v
	bb, bv, bw := m.inBlossom[base], m.inBlossom[v], m.inBlossom[w]
	b := m.unused[len(m.unused)-1]
	m.unused = m.unused[:len(m.unused)-1]
	m.base[b] = base
	m.parent[b] = -1
	m.parent[bb] = b
	// The path from v's side down to the base, reversed, then k, then
	// w's side up from the base.
	var path, ends []int
	for bv != bb {
		m.parent[bv] = b
		path = append(path, bv)
		ends = append(ends, m.labelEnd[bv])
		v = m.endpoint[m.labelEnd[bv]]
		bv = m.inBlossom[v]
	}
	path = append(path, bb)
	reverse(path)
	reverse(ends)
	ends = append(ends, 2*k)
	for bw != bb {
		m.parent[bw] = b
		path = append(path, bw)
		ends = append(ends, m.labelEnd[bw]^1)
		w = m.endpoint[m.labelEnd[bw]]
		bw = m.inBlossom[w]
	}
	m.children[b], m.childEnds[b] = path, ends
	m.label[b] = sOuter
	m.labelEnd[b] = m.labelEnd[bb]
	m.dual[b] = 0
	m.leaves(b, func(v int) {
		if m.label[m.inBlossom[v]] == tInner {
			// A former T-vertex is S now: scan it.
			m.queue = append(m.queue, v)
		}
		m.inBlossom[v] = b
	})
	// The new blossom's least-slack edges to each other S-blossom, from
	// its children's lists (or their vertices' edges).
	bestTo := fill(make([]int, 2*m.n), -1)
	consider := func(k int) {
		j := m.edges[k].v // the end outside b
		if m.inBlossom[j] == b {
			j = m.edges[k].u
		}
		bj := m.inBlossom[j]
		if bj != b && m.label[bj] == sOuter && (bestTo[bj] == -1 || m.slack(k) < m.slack(bestTo[bj])) {
			bestTo[bj] = k
		}
	}
	for _, c := range path {
		if m.blossomBest[c] == nil {
			m.leaves(c, func(v int) {
				for _, p := range m.neighbours[v] {
					consider(p / 2)
				}
			})
		} else {
			for _, k := range m.blossomBest[c] {
				consider(k)
			}
		}
		m.blossomBest[c] = nil
		m.bestEdge[c] = -1
	}
	var best []int
	for _, k := range bestTo {
		if k != -1 {
			best = append(best, k)
		}
	}
	m.blossomBest[b] = best
	m.bestEdge[b] = -1
	for _, k := range best {
		if m.bestEdge[b] == -1 || m.slack(k) < m.slack(m.bestEdge[b]) {
			m.bestEdge[b] = k
		}
	}
}

func reverse(s []int) {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
}

// at indexes s round its cycle: at(s, -1) is its last element.
func at(s []int, i int) int {
	n := len(s)
	return s[((i%n)+n)%n]
}

// expandBlossom undoes blossom b: its children become top-level. At the
// end of a stage, children with zero dual are expanded too; in the middle
// of one, a T-blossom's children are labelled along the even path from
// where the label entered to the base.
func (m *matcher) expandBlossom(b int, endStage bool) {
	for _, s := range m.children[b] {
		m.parent[s] = -1
		switch {
		case s < m.n:
			m.inBlossom[s] = s
		case endStage && m.dual[s] == 0:
			m.expandBlossom(s, endStage)
		default:
			m.leaves(s, func(v int) { m.inBlossom[v] = s })
		}
	}
	if !endStage && m.label[b] == tInner {
		children, ends := m.children[b], m.childEnds[b]
		entry := m.inBlossom[m.endpoint[m.labelEnd[b]^1]]
		j := index(children, entry)
		// Go round the cycle the even way to the base (index 0).
		step, trick := -1, 1
		if j&1 != 0 {
			j -= len(children)
			step, trick = 1, 0
		}
		p := m.labelEnd[b]
		for j != 0 {
			// Relabel the T-child, then step over the S-child.
			m.label[m.endpoint[p^1]] = unlabelled
			m.label[m.endpoint[at(ends, j-trick)^trick^1]] = unlabelled
			m.assignLabel(m.endpoint[p^1], tInner, p)
			m.allowed[at(ends, j-trick)/2] = true
			j += step
			p = at(ends, j-trick) ^ trick
			m.allowed[p/2] = true
			j += step
		}
		// The base child becomes T without passing to its mate, which
		// is already labelled.
		bv := at(children, j)
		m.label[m.endpoint[p^1]], m.label[bv] = tInner, tInner
		m.labelEnd[m.endpoint[p^1]], m.labelEnd[bv] = p, p
		m.bestEdge[bv] = -1
		// The children on the odd path are reachable only if one of
		// their vertices was labelled T from outside.
		j += step
		for at(children, j) != entry {
			bv := at(children, j)
			if m.label[bv] == sOuter {
				j += step
				continue
			}
			reached := -1
			m.leaves(bv, func(v int) {
				if reached == -1 && m.label[v] != unlabelled {
					reached = v
				}
			})
			if reached != -1 {
				m.label[reached] = unlabelled
				m.label[m.endpoint[m.mate[m.base[bv]]]] = unlabelled
				m.assignLabel(reached, tInner, m.labelEnd[reached])
			}
			j += step
		}
	}
	m.label[b], m.labelEnd[b] = -1, -1
	m.children[b], m.childEnds[b] = nil, nil
	m.base[b] = -1
	m.blossomBest[b] = nil
	m.bestEdge[b] = -1
	m.unused = append(m.unused, b)
}

func index(s []int, x int) int {
	for i, y := range s {
		if y == x {
			return i
		}
	}
	return -1
}

// augmentBlossom swaps the matched and unmatched edges inside blossom b
// along the even path from vertex v to the base, and makes v the base.
func (m *matcher) augmentBlossom(b, v int) {
	t := v
	for m.parent[t] != b {
		t = m.parent[t]
	}
	if t >= m.n {
		m.augmentBlossom(t, v)
	}
	children, ends := m.children[b], m.childEnds[b]
	i := index(children, t)
	j := i
	step, trick := -1, 1
	if i&1 != 0 {
		j -= len(children)
		step, trick = 1, 0
	}
	for j != 0 {
		j += step
		t = at(children, j)
		p := at(ends, j-trick) ^ trick
		if t >= m.n {
			m.augmentBlossom(t, m.endpoint[p])
		}
		j += step
		t = at(children, j)
		if t >= m.n {
			m.augmentBlossom(t, m.endpoint[p^1])
		}
		m.mate[m.endpoint[p]] = p ^ 1
		m.mate[m.endpoint[p^1]] = p
	}
	// Rotate so that the new base's child comes first.
	m.children[b] = append(append([]int(nil), children[i:]...), children[:i]...)
	m.childEnds[b] = append(append([]int(nil), ends[i:]...), ends[:i]...)
	m.base[b] = m.base[m.children[b][0]]
}

// augmentMatching flips the augmenting path through edge k, which joins
// two S-vertices of different trees, from each end back to its root.
func (m *matcher) augmentMatching(k int) {
	v, w := m.edges[k].u, m.edges[k].v
	for _, sp := range [2][2]int{{v, 2*k + 1}, {w, 2 * k}} {
		s, p := sp[0], sp[1]
		for {
			bs := m.inBlossom[s]
			if bs >= m.n {
				m.augmentBlossom(bs, s)
			}
			m.mate[s] = p
			if m.labelEnd[bs] == -1 {
				break // reached the root
			}
			t := m.endpoint[m.labelEnd[bs]]
			bt := m.inBlossom[t]
			s = m.endpoint[m.labelEnd[bt]]
			j := m.endpoint[m.labelEnd[bt]^1]
			if bt >= m.n {
				m.augmentBlossom(bt, j)
			}
			m.mate[j] = m.labelEnd[bt]
			p = m.labelEnd[bt] ^ 1
		}
	}
}

// run performs the stages: each augments the matching by one edge, or
// finds that the duals prove it optimal.
func (m *matcher) run(maxCardinality bool) {
	n := m.n
	for range n {
		clear(m.label)
		fill(m.bestEdge, -1)
		for b := n; b < 2*n; b++ {
			m.blossomBest[b] = nil
		}
		clear(m.allowed)
		m.queue = m.queue[:0]
		for v := range n {
			if m.mate[v] == -1 && m.label[m.inBlossom[v]] == unlabelled {
				m.assignLabel(v, sOuter, -1)
			}
		}
		augmented := false
		for {
			for len(m.queue) > 0 && !augmented {
				v := m.queue[len(m.queue)-1]
				m.queue = m.queue[:len(m.queue)-1]
				for _, p := range m.neighbours[v] {
					k := p / 2
					w := m.endpoint[p]
					if m.inBlossom[v] == m.inBlossom[w] {
						continue
					}
					var kslack int64
					if !m.allowed[k] {
						kslack = m.slack(k)
						if kslack <= 0 {
							m.allowed[k] = true
						}
					}
					switch {
					case m.allowed[k]:
						switch {
						case m.label[m.inBlossom[w]] == unlabelled:
							m.assignLabel(w, tInner, p^1)
						case m.label[m.inBlossom[w]] == sOuter:
							if base := m.scanBlossom(v, w); base >= 0 {
								m.addBlossom(base, k)
							} else {
								m.augmentMatching(k)
								augmented = true
							}
						case m.label[w] == unlabelled:
							// w is inside a T-blossom but not yet
							// labelled itself: note how it was reached,
							// for expandBlossom.
							m.label[w] = tInner
							m.labelEnd[w] = p ^ 1
						}
					case m.label[m.inBlossom[w]] == sOuter:
						b := m.inBlossom[v]
						if m.bestEdge[b] == -1 || kslack < m.slack(m.bestEdge[b]) {
							m.bestEdge[b] = k
						}
					case m.label[w] == unlabelled:
						if m.bestEdge[w] == -1 || kslack < m.slack(m.bestEdge[w]) {
							m.bestEdge[w] = k
						}
					}
					if augmented {
						break
					}
				}
			}
			if augmented {
				break
			}

			// No tight edge leads on: change the duals by the
			// greatest delta that keeps them feasible.
			deltaType := -1
			var delta int64
			deltaEdge, deltaBlossom := -1, -1
			if !maxCardinality {
				deltaType = 1
				delta = m.dual[0]
				for v := 1; v < n; v++ {
					delta = min(delta, m.dual[v])
				}
			}
			for v := range n {
				if m.label[m.inBlossom[v]] == unlabelled && m.bestEdge[v] != -1 {
					if d := m.slack(m.bestEdge[v]); deltaType == -1 || d < delta {
						delta, deltaType, deltaEdge = d, 2, m.bestEdge[v]
					}
				}
			}
			for b := range 2 * n {
				if m.parent[b] == -1 && m.label[b] == sOuter && m.bestEdge[b] != -1 {
					if d := m.slack(m.bestEdge[b]) / 2; deltaType == -1 || d < delta {
						delta, deltaType, deltaEdge = d, 3, m.bestEdge[b]
					}
				}
			}
			for b := n; b < 2*n; b++ {
				if m.base[b] >= 0 && m.parent[b] == -1 && m.label[b] == tInner && (deltaType == -1 || m.dual[b] < delta) {
					delta, deltaType, deltaBlossom = m.dual[b], 4, b
				}
			}
			if deltaType == -1 {
				// Only with maxCardinality: no further augmenting path
				// exists; make the duals optimal and stop.
				deltaType = 1
				delta = m.dual[0]
				for v := 1; v < n; v++ {
					delta = min(delta, m.dual[v])
				}
				delta = max(delta, 0)
			}
			for v := range n {
				switch m.label[m.inBlossom[v]] {
				case sOuter:
					m.dual[v] -= delta
				case tInner:
					m.dual[v] += delta
				}
			}
			for b := n; b < 2*n; b++ {
				if m.base[b] >= 0 && m.parent[b] == -1 {
					switch m.label[b] {
					case sOuter:
						m.dual[b] += delta
					case tInner:
						m.dual[b] -= delta
					}
				}
			}
			switch deltaType {
			case 1:
				// Optimum reached.
			case 2:
				m.allowed[deltaEdge] = true
				i := m.edges[deltaEdge].u // the S end
				if m.label[m.inBlossom[i]] == unlabelled {
					i = m.edges[deltaEdge].v
				}
				m.queue = append(m.queue, i)
				continue
			case 3:
				m.allowed[deltaEdge] = true
				m.queue = append(m.queue, m.edges[deltaEdge].u)
				continue
			case 4:
				m.expandBlossom(deltaBlossom, false)
				continue
			}
			break
		}
		if !augmented {
			break
		}
		// Expand the S-blossoms whose dual fell to zero.
		for b := n; b < 2*n; b++ {
			if m.parent[b] == -1 && m.base[b] >= 0 && m.label[b] == sOuter && m.dual[b] == 0 {
				m.expandBlossom(b, true)
			}
		}
	}
}
