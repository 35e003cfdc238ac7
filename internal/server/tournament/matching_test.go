package tournament

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"
)

// bruteMatching is the slow twin of maxWeightMatching: it tries every
// matching of the graph (n ≤ 10 or so) and returns the best weight, and
// the most edges a matching has. With maxCardinality the best weight is
// taken among the matchings of the most edges.
func bruteMatching(n int, edges []weightedEdge, maxCardinality bool) (best int64, most int) {
	adj := make([][]int64, n)
	has := make([][]bool, n)
	for i := range n {
		adj[i] = make([]int64, n)
		has[i] = make([]bool, n)
	}
	for _, e := range edges {
		// Of parallel edges only the heaviest counts.
		if !has[e.u][e.v] || e.w > adj[e.u][e.v] {
			adj[e.u][e.v], adj[e.v][e.u] = e.w, e.w
			has[e.u][e.v], has[e.v][e.u] = true, true
		}
	}
	used := make([]bool, n)
	var walk func(v int, w int64, size int)
	first := true
	walk = func(v int, w int64, size int) {
		for v < n && used[v] {
			v++
		}
		if v == n {
			better := w > best
			if maxCardinality {
				better = size > most || size == most && w > best
			}
			if first || better {
				best, first = w, false
			}
			most = max(most, size)
			return
		}
		used[v] = true
		walk(v+1, w, size) // v stays single
		for u := v + 1; u < n; u++ {
			if !used[u] && has[v][u] {
				used[u] = true
				walk(v+1, w+adj[v][u], size+1)
				used[u] = false
			}
		}
		used[v] = false
	}
	walk(0, 0, 0)
	return best, most
}

// checkMatching checks that mate is a matching of the graph and returns
// its weight and size.
func checkMatching(t interface {
	Helper()
	Fatalf(string, ...any)
}, n int, edges []weightedEdge, mate []int) (int64, int) {
	t.Helper()
	w := make(map[[2]int]int64)
	for _, e := range edges {
		k := [2]int{min(e.u, e.v), max(e.u, e.v)}
		if old, ok := w[k]; !ok || e.w > old {
			w[k] = e.w
		}
	}
	var total int64
	size := 0
	for v, u := range mate {
		if u == -1 {
			continue
		}
		if u < 0 || u >= n || mate[u] != v || u == v {
			t.Fatalf("mate %v is not a matching (vertex %d)", mate, v)
		}
		ew, ok := w[[2]int{min(u, v), max(u, v)}]
		if !ok {
			t.Fatalf("mate %v uses %d-%d, not an edge", mate, v, u)
		}
		if v < u {
			total += ew
			size++
		}
	}
	return total, size
}

func TestMatchingSmall(t *testing.T) {
	tests := []struct {
		n     int
		edges []weightedEdge
		maxC  bool
		want  []int
	}{
		{0, nil, false, []int{}},
		{2, []weightedEdge{{0, 1, 1}}, false, []int{1, 0}},
		{3, []weightedEdge{{0, 1, 10}, {1, 2, 11}}, false, []int{-1, 2, 1}},
		// A heavier single edge beats two light ones, unless the most
		// edges are wanted.
		{4, []weightedEdge{{0, 1, 5}, {1, 2, 11}, {2, 3, 5}}, false, []int{-1, 2, 1, -1}},
		{4, []weightedEdge{{0, 1, 5}, {1, 2, 11}, {2, 3, 5}}, true, []int{1, 0, 3, 2}},
		// A blossom: the triangle 0-1-2 with a stem to 3.
		{4, []weightedEdge{{0, 1, 8}, {0, 2, 9}, {1, 2, 10}, {2, 3, 7}}, false, []int{1, 0, 3, 2}},
		// A blossom that must be expanded again (S-blossom relabelled
		// as T): the graph of the classic test "create nested S-blossom,
		// use for augmentation".
		{6, []weightedEdge{{0, 1, 9}, {0, 2, 9}, {1, 2, 10}, {1, 3, 8}, {2, 4, 8}, {3, 4, 10}, {4, 5, 6}}, false, []int{2, 3, 0, 1, 5, 4}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.n, tt.edges, tt.maxC), func(t *testing.T) {
			got := maxWeightMatching(tt.n, tt.edges, tt.maxC)
			gw, gs := checkMatching(t, tt.n, tt.edges, got)
			bw, bs := bruteMatching(tt.n, tt.edges, tt.maxC)
			if gw != bw || tt.maxC && gs != bs {
				t.Errorf("got %v (weight %d, %d edges), want weight %d (%d edges); a matching %v", got, gw, gs, bw, bs, tt.want)
			}
		})
	}
}

// TestMatchingTwin: on random graphs of up to 10 vertices, the blossom
// algorithm finds a matching as heavy as the best of all matchings, and
// with maxCardinality as heavy as the best of the largest.
func TestMatchingTwin(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 10).Draw(t, "n")
		density := rapid.IntRange(1, 100).Draw(t, "density")
		maxW := rapid.SampledFrom([]int64{1, 3, 10, 1000, 1 << 40}).Draw(t, "maxW")
		maxC := rapid.Bool().Draw(t, "maxCardinality")
		var edges []weightedEdge
		for u := range n {
			for v := u + 1; v < n; v++ {
				if rapid.IntRange(1, 100).Draw(t, "edge") <= density {
					edges = append(edges, weightedEdge{u, v, rapid.Int64Range(0, maxW).Draw(t, "w")})
				}
			}
		}
		mate := maxWeightMatching(n, edges, maxC)
		gw, gs := checkMatching(t, n, edges, mate)
		bw, bs := bruteMatching(n, edges, maxC)
		if maxC && gs != bs {
			t.Fatalf("got %d edges, want %d: mate %v, edges %v", gs, bs, mate, edges)
		}
		if gw != bw {
			t.Fatalf("got weight %d, want %d: mate %v, edges %v", gw, bw, mate, edges)
		}
	})
}

// TestMatchingLarge compares with the brute force where it cannot go: a
// complete graph of 60 vertices whose heavy edges form one known perfect
// matching, hidden among random light ones.
func TestMatchingLarge(t *testing.T) {
	const n = 60
	var edges []weightedEdge
	for u := range n {
		for v := u + 1; v < n; v++ {
			w := int64((u*7919 + v*104729) % 97)
			if v == u+1 && u%2 == 0 {
				w = 1000
			}
			edges = append(edges, weightedEdge{u, v, w})
		}
	}
	mate := maxWeightMatching(n, edges, false)
	for u := 0; u < n; u += 2 {
		if mate[u] != u+1 {
			t.Fatalf("mate[%d] = %d, want %d", u, mate[u], u+1)
		}
	}
}

func BenchmarkMatching(b *testing.B) {
	for _, n := range []int{40, 100, 200} {
		var edges []weightedEdge
		for u := range n {
			for v := u + 1; v < n; v++ {
				edges = append(edges, weightedEdge{u, v, int64((u*7919+v*104729)%1009) + 1})
			}
		}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				maxWeightMatching(n, edges, true)
			}
		})
	}
}
