package tune

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/morrisgame/morris/eval"
	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/search"
)

// A Sample is a position and the score a deeper search gave it, for the
// side to move.
type Sample struct {
	Pos   mill.Position
	Score int
}

// Positions plays games from random openings of openingPlies moves, the
// rest chosen by levels 7 and 8 (which vary their moves), for at most
// maxPlies plies each, and returns the distinct positions that keep
// accepts, game by game in the order met. The games are played on two
// goroutines; each has its own random source (from seed and its number),
// so the result does not depend on which goroutine played it.
func Positions(ctx context.Context, r *mill.Rules, games, openingPlies, maxPlies int, keep func(mill.Position) bool, seed uint64) []mill.Position {
	found := make([][]mill.Position, games)
	each(ctx, games, 2, func() func(int) {
		e := search.New(search.Options{HashMB: 16})
		return func(g int) {
			rng := rand.New(rand.NewPCG(seed, uint64(g)))
			e.Clear()
			p := opening(r, rng, openingPlies)
			hist := []mill.Position{p}
			for ply := openingPlies; ply < maxPlies && ctx.Err() == nil; ply++ {
				lv := search.LevelFor(7 + rng.IntN(2))
				m := e.Choose(ctx, hist, lv, search.Limits{Depth: lv.Depth}, rng, nil).Move
				if m.IsZero() {
					break
				}
				p = p.Play(m)
				hist = append(hist, p)
				if o, _ := p.Status(); o != mill.NoOutcome {
					break
				}
				if keep(p) {
					found[g] = append(found[g], p)
				}
			}
		}
	})
	seen := map[uint64]bool{}
	var ps []mill.Position
	for _, f := range found {
		for _, p := range f {
			if !seen[p.Key()] {
				seen[p.Key()] = true
				ps = append(ps, p)
			}
		}
	}
	return ps
}

// Label searches each position for movetime with the weights w (nil:
// eval.For the position's rules), on workers threads, and returns the samples in the order of ps.
func Label(ctx context.Context, ps []mill.Position, w *eval.Weights, movetime time.Duration, workers int) []Sample {
	out := make([]Sample, len(ps))
	each(ctx, len(ps), workers, func() func(int) {
		e := search.New(search.Options{HashMB: 64, Weights: w})
		return func(i int) {
			e.Clear()
			res := e.Search(ctx, []mill.Position{ps[i]}, search.Limits{MoveTime: movetime}, nil)
			out[i] = Sample{ps[i], res.Score}
		}
	})
	return out
}

// LabelExact scores the positions that probe knows (a result of +1, 0 or
// -1 for the side to move, as search.Tablebase and egdb.DB.Probe give
// it) by their exact value: a win fitClamp less the plies to it (a faster
// win scores higher), a draw 0, a loss the negative. Positions probe does
// not know are left out. A fit to such samples learns from a teacher that
// sees to the end of the game, not to the horizon of a search.
func LabelExact(ps []mill.Position, probe Probe) []Sample {
	var out []Sample
	for _, p := range ps {
		res, plies, ok := probe(p)
		if !ok {
			continue
		}
		out = append(out, Sample{p, res * (fitClamp - min(plies, fitClamp/2))})
	}
	return out
}

// WriteSamples writes one sample a line: the position text, a tab, the score.
func WriteSamples(w io.Writer, s []Sample) error {
	bw := bufio.NewWriter(w)
	for _, x := range s {
		fmt.Fprintf(bw, "%s\t%d\n", x.Pos.String(), x.Score)
	}
	return bw.Flush()
}

// ReadSamples reads what WriteSamples wrote.
func ReadSamples(r io.Reader) ([]Sample, error) {
	var out []Sample
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		text, score, ok := strings.Cut(sc.Text(), "\t")
		if !ok {
			return nil, fmt.Errorf("line %d: want a position, a tab and a score", n)
		}
		p, err := mill.ParsePosition(text)
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", n, err)
		}
		s, err := strconv.Atoi(score)
		if err != nil {
			return nil, fmt.Errorf("line %d: score: %v", n, err)
		}
		out = append(out, Sample{p, s})
	}
	return out, sc.Err()
}

// A Param is a weight Fit may change.
type Param struct {
	Name string
	At   func(*eval.Weights) *int
}

// fitClamp bounds the scores compared: a forced end counts as 15 pieces.
const fitClamp = 1500

// Loss is the mean squared difference between the quiescence score of each
// sample's position under w and the sample's score, both squashed by a
// logistic curve of scale k (centipawns): differences in a won or lost
// position matter less than near equality.
func Loss(samples []Sample, w *eval.Weights, k float64) float64 {
	e := search.New(search.Options{HashMB: 1, Weights: w})
	var l float64
	for _, s := range samples {
		d := squash(e.Quiesce(s.Pos), k) - squash(s.Score, k)
		l += d * d
	}
	return l / float64(len(samples))
}

// squash maps a score to (0, 1) by a logistic curve of scale k, the score
// first clamped to ±fitClamp (so a forced end counts fitClamp).
func squash(x int, k float64) float64 {
	x = max(-fitClamp, min(fitClamp, x))
	return 1 / (1 + math.Exp(-float64(x)/k))
}

// Fit moves the params of w, one at a time by steps of 4 and then 1, while
// the loss on train falls (coordinate descent), for at most passes passes,
// and reports each pass to log. It returns the loss on train.
func Fit(train []Sample, w *eval.Weights, params []Param, k float64, passes int, log func(pass int, loss float64)) float64 {
	best := Loss(train, w, k)
	for pass := 0; pass < passes; pass++ {
		improved := false
		for _, prm := range params {
			v := prm.At(w)
			for _, step := range []int{4, -4, 1, -1} {
				*v += step
				l := Loss(train, w, k)
				if l >= best-1e-7 {
					*v -= step
					continue
				}
				best, improved = l, true
				for {
					*v += step
					if l := Loss(train, w, k); l < best-1e-7 {
						best = l
						continue
					}
					*v -= step
					break
				}
				break
			}
		}
		if log != nil {
			log(pass, best)
		}
		if !improved {
			break
		}
	}
	return best
}
