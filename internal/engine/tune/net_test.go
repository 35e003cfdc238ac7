package tune

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/morrisgame/morris/eval"
	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/mill/milltest"
)

// TestTrainNetLearns trains small nets, of the moving and of the placing
// phase, on a rule the weighted sum does not know (a position is good for
// the side to move exactly when it holds the point a1) and checks that
// each learns it, in fixed point as the engine computes it, and that it
// survives Write and ReadNet.
func TestTrainNetLearns(t *testing.T) {
	r := mill.MustRules("nine-mens-morris")
	for _, hands := range []int{0, 9} {
		ps := slidingPositions(r, 300, 1)
		if hands > 0 {
			ps = placingPositions(r, 300, 1)
		}
		if len(ps) < 200 {
			t.Fatalf("only %d positions", len(ps))
		}
		base := eval.Weights{} // scores 0: the net must carry it all
		a1, _ := r.Board().PointByName("a1")
		var samples []Sample
		for _, p := range ps {
			score := -400
			if p.Pieces(p.SideToMove())&(1<<a1) != 0 {
				score = 400
			}
			samples = append(samples, Sample{p, score})
		}
		var last float64
		n := TrainNet(samples, &base, NetOptions{Hands: hands, Hidden: 8, Epochs: 200, Batch: 16, Rate: 0.01, K: 150, Seed: 1}, func(_ int, loss float64) { last = loss })
		if last > 0.01 {
			t.Errorf("hands %d: training loss %.4f after the last epoch (0.19 for a net that says 0)", hands, last)
		}
		var buf strings.Builder
		if err := n.Write(&buf); err != nil {
			t.Fatal(err)
		}
		n2, err := eval.ReadNet(strings.NewReader(buf.String()))
		if err != nil {
			t.Fatal(err)
		}
		if n2.Hands != hands {
			t.Fatalf("a net of hands %d read back with %d", hands, n2.Hands)
		}
		wrong := 0
		for _, s := range samples {
			p := s.Pos
			if v := n2.Eval(&p); (v > 0) != (s.Score > 0) {
				wrong++
			}
		}
		if wrong > len(samples)/20 {
			t.Errorf("hands %d: %d of %d positions on the wrong side of 0", hands, wrong, len(samples))
		}
	}
}

// placingPositions returns up to n distinct positions of random games
// under r in which a side still places, after 1 to 17 random plies.
func placingPositions(r *mill.Rules, n int, seed uint64) []mill.Position {
	shape := &eval.Net{Hands: r.Options().Pieces}
	return milltest.RandomPositions(r, rand.New(rand.NewPCG(seed, 2)), n, 1, 17, func(p mill.Position) bool { return shape.Applies(&p) })
}

// slidingPositions returns up to n distinct positions of random games
// under r in which both sides slide, after 18 to 40 random plies.
func slidingPositions(r *mill.Rules, n int, seed uint64) []mill.Position {
	return milltest.RandomPositions(r, rand.New(rand.NewPCG(seed, 2)), n, 18, 40, func(p mill.Position) bool { return (&eval.Net{}).Applies(&p) })
}

// TestNetQuantized checks that the fixed-point net computes what the float
// net it came from computes, to within rounding.
func TestNetQuantized(t *testing.T) {
	r := mill.MustRules("nine-mens-morris")
	ps := slidingPositions(r, 200, 5)
	f := &floatNet{in: 48, hidden: 16, w1: make([]float64, 16*48), b1: make([]float64, 16), w2: make([]float64, 16), b2: []float64{0.37}}
	for i := range f.w1 {
		f.w1[i] = math.Sin(float64(i)) * 0.8
	}
	for j := range f.b1 {
		f.b1[j] = math.Cos(float64(j)) * 0.3
		f.w2[j] = math.Sin(float64(3*j+1)) * 0.5
	}
	n := f.quantize(24, 0)
	if err := n.Validate(); err != nil {
		t.Fatal(err)
	}
	h := make([]float64, 16)
	for _, p := range ps {
		want := f.forward(netInputs(&eval.Net{Points: 24}, &p), h)
		if got := n.Eval(&p); math.Abs(float64(got)-want) > 2 {
			t.Errorf("%v: fixed point %d, float %.2f", p, got, want)
		}
	}
}
