package search

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/morrisgame/morris/eval"
	"github.com/morrisgame/morris/mill"
)

// testNet returns a net of random weights for the 24 points of nine men's
// morris: of the moving phase (hands 0) or of the placing phase.
func testNet(hands int, seed uint64) *eval.Net {
	rng := rand.New(rand.NewPCG(seed, 5))
	n := &eval.Net{Points: 24, Hands: hands, Hidden: 16, B1: make([]int32, 16), W2: make([]int32, 16), B2: 3}
	n.W1 = make([]int32, n.Hidden*n.Inputs())
	for i := range n.W1 {
		n.W1[i] = int32(rng.IntN(2*eval.NetScale+1) - eval.NetScale)
	}
	for j := range n.B1 {
		n.B1[j] = int32(rng.IntN(eval.NetScale+1) - eval.NetScale/2)
		n.W2[j] = int32(rng.IntN(60*eval.NetScale+1) - 30*eval.NetScale)
	}
	return n
}

// TestNetsKeptByPly searches positions of nine men's morris with weights
// that carry both kinds of net, once with the nets' sums kept ply by ply
// (as the search plays) and once summed afresh at every position: the
// same evaluations give the same tree, node for node, on one thread and
// on two.
func TestNetsKeptByPly(t *testing.T) {
	w := eval.For(mill.MustRules("nine-mens-morris"))
	w.Net, w.PlacingNet = testNet(0, 1), testNet(9, 2)
	for _, text := range []string{
		"nine-mens-morris 8/8/8 w 9,9 - 0 0",
		"nine-mens-morris W1B5/1W2B3/8 w 7,7 - 0 4",
		"nine-mens-morris 1BWW2B1/2W3W1/BBBB2BB w 0,0 - 0 40",
		"nine-mens-morris BBB1WBBB/WBW4W/W2B2WW w 0,0 - 2 20",
	} {
		p := mill.MustParsePosition(text)
		var res [2]Result
		for k, scratch := range []bool{false, true} {
			e := New(Options{HashMB: 16, Weights: &w})
			for _, wk := range e.workers {
				wk.scratchNets = scratch
			}
			res[k] = e.Search(context.Background(), []mill.Position{p}, Limits{Depth: 7}, nil)
		}
		if res[0].Nodes != res[1].Nodes || res[0].Score != res[1].Score || res[0].Move != res[1].Move {
			t.Errorf("%s: kept by ply %d nodes, score %d; afresh %d nodes, score %d", text, res[0].Nodes, res[0].Score, res[1].Nodes, res[1].Score)
		}
		plain := New(Options{HashMB: 16}).Search(context.Background(), []mill.Position{p}, Limits{Depth: 7}, nil)
		if plain.Nodes == res[0].Nodes {
			t.Errorf("%s: the nets changed nothing (%d nodes either way)", text, plain.Nodes)
		}
	}
}

// BenchmarkSearchNets measures the search of the nine men's morris
// positions of benchPositions to depth 8 with no net, with two nets of 64
// hidden units summed afresh at every position, and with them kept by ply.
func BenchmarkSearchNets(b *testing.B) {
	var ps []mill.Position
	for _, text := range benchPositions[:3] {
		ps = append(ps, mill.MustParsePosition(text))
	}
	big := func(hands int, seed uint64) *eval.Net {
		n := testNet(hands, seed)
		m := &eval.Net{Points: 24, Hands: hands, Hidden: 64, B1: make([]int32, 64), W2: make([]int32, 64), B2: n.B2}
		m.W1 = make([]int32, 64*m.Inputs())
		for i := range m.W1 {
			m.W1[i] = n.W1[i%len(n.W1)]
		}
		for j := range m.B1 {
			m.B1[j], m.W2[j] = n.B1[j%16], n.W2[j%16]/4
		}
		return m
	}
	withNets := eval.For(mill.MustRules("nine-mens-morris"))
	withNets.Net, withNets.PlacingNet = big(0, 1), big(9, 2)
	for _, c := range []struct {
		name    string
		w       *eval.Weights
		scratch bool
	}{{"none", nil, false}, {"afresh", &withNets, true}, {"kept", &withNets, false}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			e := New(Options{HashMB: 4, Weights: c.w})
			for _, wk := range e.workers {
				wk.scratchNets = c.scratch
			}
			benchNodes(b, e, ps)
		})
	}
}
