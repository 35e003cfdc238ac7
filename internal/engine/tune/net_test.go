package tune

import (
	"flag"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/morrisgame/morris/eval"
	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/mill/milltest"
)

var (
	fitNet     = flag.String("fit-net", "", "train a net over nine men's morris's weights (eval.For) on these sample files, comma-separated (every fifth sample held out)")
	netOut     = flag.String("net-out", "", "with -fit-net: write the net here")
	netHidden  = flag.Int("net-hidden", 32, "with -fit-net: hidden units")
	netEpochs  = flag.Int("net-epochs", 30, "with -fit-net: epochs")
	netRate    = flag.Float64("net-rate", 0.002, "with -fit-net: Adam's learning rate")
	netDecay   = flag.Float64("net-decay", 1e-5, "with -fit-net: L2 decay of the weights a step")
	netNoSym   = flag.Bool("net-nosym", false, "with -fit-net: do not train on the board's symmetric images")
	netBaseDef = flag.Bool("net-base-default", false, "with -fit-net: the net adds to eval.Default instead of nine men's morris's weights")
	netHands   = flag.Int("net-hands", 0, "with -fit-net: 0 trains a net of the moving phase (eval.Weights.Net), 9 one of the placing phase (PlacingNet)")
)

// TestFitNet trains a net (eval.Net) to add to the weighted sum of nine
// men's morris in the moving phase, on a sample file (TestExactSamples
// writes one scored by the databases), and reports the loss of the held
// out fifth with and without it, as Loss computes it (through the
// quiescence search, the net in fixed point as the engine plays it):
//
//	go test ./internal/engine/tune -run TestFitNet -fit-net exact.tsv -net-out nine.net -v -timeout 0
func TestFitNet(t *testing.T) {
	if *fitNet == "" {
		t.Skip("training runs only with -fit-net FILE")
	}
	var all []Sample
	for _, file := range strings.Split(*fitNet, ",") {
		all = append(all, readSamples(t, file)...)
	}
	_, train, hold := split(all)
	base := nineWeights()
	if *netBaseDef {
		base = eval.Default()
	}
	const k = 150
	shape := &eval.Net{Hands: *netHands}
	applies := func(s []Sample) []Sample {
		var out []Sample
		for _, x := range s {
			if shape.Applies(&x.Pos) {
				out = append(out, x)
			}
		}
		return out
	}
	train, hold = applies(train), applies(hold)
	t.Logf("%d samples to train on, %d held out; held out loss without a net %.5f (train %.5f)", len(train), len(hold), Loss(hold, &base, k), Loss(train, &base, k))
	start := time.Now()
	n := TrainNet(train, &base, NetOptions{Hands: *netHands, Hidden: *netHidden, Epochs: *netEpochs, Batch: 256, Rate: *netRate, Decay: *netDecay, K: k, Symmetries: !*netNoSym, Seed: 1},
		func(epoch int, loss float64) {
			t.Logf("epoch %d: %.5f (%v)", epoch+1, loss, time.Since(start).Round(time.Second))
		})
	w := base
	if *netHands > 0 {
		w.PlacingNet = n
	} else {
		w.Net = n
	}
	t.Logf("with the net: held out %.5f, train %.5f", Loss(hold, &w, k), Loss(train, &w, k))
	if *netOut != "" {
		f, err := os.Create(*netOut)
		if err != nil {
			t.Fatal(err)
		}
		if err := n.Write(f); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

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
			if p.Pieces(p.SideToMove()).Has(a1) {
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

var (
	netSamplesOut = flag.String("net-samples", "", "write samples for TestFitNet here: positions where both sides slide from -fit-games games (plies 18 to 47, seed -fit-seed), each scored by a search of -fit-movetime")
	fitSeed       = flag.Uint64("fit-seed", 11, "with -net-samples: the seed of the games")
)

// TestNetSamples makes a sample file for TestFitNet: the positions where
// both sides slide (plies 18 to 47) of -fit-games games between levels 7
// and 8 from random openings, each scored by a search of -fit-movetime on
// two threads. Positions that the file testdata/moving-samples.tsv has
// already are left out, so the two files can be joined.
//
//	go test ./internal/engine/tune -run TestNetSamples -net-samples more.tsv -fit-games 400 -fit-seed 11 -v -timeout 0
func TestNetSamples(t *testing.T) {
	if *netSamplesOut == "" {
		t.Skip("runs only with -net-samples FILE")
	}
	have := map[uint64]bool{}
	for _, s := range readSamples(t, "testdata/moving-samples.tsv") {
		have[s.Pos.Key()] = true
	}
	r := mill.MustRules("nine-mens-morris")
	start := time.Now()
	ps := Positions(t.Context(), r, *fitGames, 4, 48, func(p mill.Position) bool {
		return (&eval.Net{}).Applies(&p) && !have[p.Key()]
	}, *fitSeed)
	t.Logf("%d positions from %d games in %v", len(ps), *fitGames, time.Since(start).Round(time.Second))
	start = time.Now()
	samples := Label(t.Context(), ps, nil, *fitTime, 2)
	t.Logf("scored at %v each in %v", *fitTime, time.Since(start).Round(time.Second))
	writeSamples(t, *netSamplesOut, samples)
}
