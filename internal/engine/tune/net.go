package tune

import (
	"context"
	"math"
	"math/rand/v2"

	"github.com/morrisgame/morris/eval"
	"github.com/morrisgame/morris/mill"
)

// NetOptions are the choices of TrainNet.
type NetOptions struct {
	Hands      int     // 0: a net of the moving phase; else of the placing phase, hands of up to Hands pieces (eval.Net)
	Hidden     int     // hidden units
	Epochs     int     // passes over the samples
	Batch      int     // samples a step
	Rate       float64 // Adam's learning rate
	Decay      float64 // L2 weight decay a step, on the weights (not the biases)
	K          float64 // the logistic scale of the loss, as Loss's
	Symmetries bool    // train on every image of each position under the board's symmetries
	Seed       uint64
}

// netScale is the training's unit of output: the float net's output times
// netScale is in the evaluation's units, so that its weights stay near 1.
const netScale = 100

// A netSample is a sample as the training sees it: the inputs that are on,
// the weighted sum's score, and the target, squashed.
type netSample struct {
	active []uint8
	base   float64
	target float64
}

// netSamples turns samples into training rows: those that a net of the
// shape of net applies to, scored by base (whose nets are ignored), with
// every symmetric image of the board when sym is set.
func netSamples(samples []Sample, net *eval.Net, base *eval.Weights, k float64, sym bool) []netSample {
	w := *base
	w.Net, w.PlacingNet = nil, nil
	var out []netSample
	for _, s := range samples {
		p := s.Pos
		if !net.Applies(&p) {
			continue
		}
		b := float64(w.Evaluate(&p))
		t := squash(s.Score, k)
		images := 1
		if sym {
			images = len(p.Rules().Board().Symmetries)
		}
		for i := 0; i < images; i++ {
			q := p.Transform(i)
			out = append(out, netSample{netInputs(net, &q), b, t})
		}
	}
	return out
}

// netInputs lists the inputs of p that are on for a net of the shape of
// net, as eval.Net.Active gives them.
func netInputs(net *eval.Net, p *mill.Position) []uint8 {
	var buf [2*32 + 2]int
	a := net.Active(p, buf[:0])
	out := make([]uint8, len(a))
	for i, x := range a {
		out[i] = uint8(x)
	}
	return out
}

// floatNet is the net as trained: float weights, netScale to the
// evaluation's unit at the output.
type floatNet struct {
	in, hidden int
	w1, b1, w2 []float64 // w1: in rows of hidden, as eval.Net's
	b2         []float64 // one value
}

func (f *floatNet) params() [][]float64 {
	return [][]float64{f.w1, f.b1, f.w2, f.b2}
}

// forward returns the net's output (in the evaluation's units) and fills h.
func (f *floatNet) forward(active []uint8, h []float64) float64 {
	copy(h, f.b1)
	for _, i := range active {
		for j, w := range f.w1[int(i)*f.hidden : (int(i)+1)*f.hidden] {
			h[j] += w
		}
	}
	out := f.b2[0]
	for j, a := range h {
		if a < 0 {
			h[j] = 0
			continue
		}
		out += a * f.w2[j]
	}
	return out * netScale
}

// quantize returns f as an eval.Net.
func (f *floatNet) quantize(points, hands int) *eval.Net {
	q := func(x float64) int32 { return int32(math.Round(x)) }
	n := &eval.Net{Points: points, Hands: hands, Hidden: f.hidden, W1: make([]int32, len(f.w1)), B1: make([]int32, f.hidden), W2: make([]int32, f.hidden)}
	for i, v := range f.w1 {
		n.W1[i] = q(v * eval.NetScale)
	}
	for j := range f.b1 {
		n.B1[j] = q(f.b1[j] * eval.NetScale)
		n.W2[j] = q(f.w2[j] * netScale * eval.NetScale)
	}
	n.B2 = q(f.b2[0] * netScale)
	return n
}

// TrainNet trains a net to add to base's score of the samples' positions
// (those the net applies to: both sides sliding, or for o.Hands > 0 a side
// placing) so that the sum comes
// closest to the samples' scores, both squashed as Loss squashes them, by
// Adam over shuffled batches. log, when not nil, is told the training
// loss of each epoch (of the float net on the rows it trained on). The
// result is the net in fixed point; a weights' set with it is base with
// Net (PlacingNet for o.Hands > 0) set. It returns nil when no sample is
// one the net applies to.
func TrainNet(samples []Sample, base *eval.Weights, o NetOptions, log func(epoch int, loss float64)) *eval.Net {
	if len(samples) == 0 {
		return nil
	}
	points := samples[0].Pos.Rules().Board().Len()
	shape := &eval.Net{Points: points, Hands: o.Hands}
	rows := netSamples(samples, shape, base, o.K, o.Symmetries)
	if len(rows) == 0 {
		return nil
	}
	rng := rand.New(rand.NewPCG(o.Seed, 7))
	f := &floatNet{in: shape.Inputs(), hidden: o.Hidden}
	f.w1 = make([]float64, o.Hidden*f.in)
	f.b1 = make([]float64, o.Hidden)
	f.w2 = make([]float64, o.Hidden)
	f.b2 = make([]float64, 1)
	std := math.Sqrt(2.0 / 16) // about 16 pieces on the board
	for i := range f.w1 {
		f.w1[i] = rng.NormFloat64() * std
	}
	for j := range f.b1 {
		f.b1[j] = 0.1
	}
	params := f.params()
	grads := make([][]float64, len(params))
	m := make([][]float64, len(params))
	v := make([][]float64, len(params))
	for i, p := range params {
		grads[i] = make([]float64, len(p))
		m[i] = make([]float64, len(p))
		v[i] = make([]float64, len(p))
	}
	const beta1, beta2, eps = 0.9, 0.999, 1e-8
	h := make([]float64, o.Hidden)
	order := rng.Perm(len(rows))
	step := 0
	for epoch := 0; epoch < o.Epochs; epoch++ {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		var total float64
		for at := 0; at < len(order); at += o.Batch {
			batch := order[at:min(at+o.Batch, len(order))]
			for _, g := range grads {
				clear(g)
			}
			gw1, gb1, gw2 := grads[0], grads[1], grads[2]
			for _, r := range batch {
				s := &rows[r]
				out := f.forward(s.active, h)
				y := 1 / (1 + math.Exp(-(s.base+out)/o.K))
				d := y - s.target
				total += d * d
				// d loss / d out, in the float net's units.
				g := 2 * d * y * (1 - y) / o.K * netScale / float64(len(batch))
				grads[3][0] += g
				for j := 0; j < o.Hidden; j++ {
					if h[j] == 0 {
						continue
					}
					gw2[j] += g * h[j]
					gh := g * f.w2[j]
					gb1[j] += gh
					for _, i := range s.active {
						gw1[int(i)*f.hidden+j] += gh
					}
				}
			}
			step++
			c1 := 1 - math.Pow(beta1, float64(step))
			c2 := 1 - math.Pow(beta2, float64(step))
			for k, p := range params {
				decay := o.Decay
				if k == 1 || k == 3 {
					decay = 0
				}
				for i := range p {
					g := grads[k][i] + decay*p[i]
					m[k][i] = beta1*m[k][i] + (1-beta1)*g
					v[k][i] = beta2*v[k][i] + (1-beta2)*g*g
					p[i] -= o.Rate * (m[k][i] / c1) / (math.Sqrt(v[k][i]/c2) + eps)
				}
			}
		}
		if log != nil {
			log(epoch, total/float64(len(rows)))
		}
	}
	return f.quantize(points, o.Hands)
}

// NetPositions are the positions of a net's samples (Label scores them):
// where both sides slide, plies 18 to 47, of games under r (Positions from
// seed), leaving out those of skip (the positions of samples one has
// already, so that the files can be joined).
func NetPositions(ctx context.Context, r *mill.Rules, games int, seed uint64, skip []Sample) []mill.Position {
	have := map[uint64]bool{}
	for _, s := range skip {
		have[s.Pos.Key()] = true
	}
	moving := &eval.Net{}
	return Positions(ctx, r, games, 4, 48, func(p mill.Position) bool {
		return moving.Applies(&p) && !have[p.Key()]
	}, seed)
}

// Applying returns the samples that a net of the shape of net applies to.
func Applying(samples []Sample, net *eval.Net) []Sample {
	var out []Sample
	for _, s := range samples {
		if net.Applies(&s.Pos) {
			out = append(out, s)
		}
	}
	return out
}
