package tune

import (
	"context"
	"math"
	"math/rand/v2"
	"sync"

	"github.com/morrisgame/morris/eval"
	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/search"
)

// Result counts games from the first weight set's side.
type Result struct{ Wins, Draws, Losses int }

// Games returns the number of games.
func (r Result) Games() int { return r.Wins + r.Draws + r.Losses }

// Score returns the fraction of points won.
func (r Result) Score() float64 {
	return (float64(r.Wins) + float64(r.Draws)/2) / float64(r.Games())
}

// Elo returns the Elo difference and its 95% margin, from the score and the
// per-game variance of the score.
func (r Result) Elo() (elo, margin float64) {
	n := float64(r.Games())
	s := r.Score()
	elo = eloOf(s)
	v := (float64(r.Wins)*(1-s)*(1-s) + float64(r.Draws)*(0.5-s)*(0.5-s) + float64(r.Losses)*s*s) / n
	se := math.Sqrt(v / n)
	return elo, (eloOf(math.Min(s+1.96*se, 0.999)) - eloOf(math.Max(s-1.96*se, 0.001))) / 2
}

func eloOf(s float64) float64 {
	s = math.Min(math.Max(s, 0.001), 0.999)
	return -400 * math.Log10(1/s-1)
}

// Match plays pairs of games between weights a and b from random openings of
// openingPlies random moves, at the given depth, on workers goroutines.
func Match(ctx context.Context, r *mill.Rules, a, b *eval.Weights, pairs, openingPlies, depth int, seed uint64, workers int) Result {
	var mu sync.Mutex
	var res Result
	each(ctx, pairs, workers, func() func(int) {
		ea := search.New(search.Options{HashMB: 8, Weights: a})
		eb := search.New(search.Options{HashMB: 8, Weights: b})
		return func(i int) {
			rng := rand.New(rand.NewPCG(seed, uint64(i)))
			start := opening(r, rng, openingPlies)
			for swap := 0; swap < 2; swap++ {
				engines := [2]*search.Engine{ea, eb}
				aColor := mill.White
				if swap == 1 {
					engines[0], engines[1] = eb, ea
					aColor = mill.Black
				}
				ea.Clear()
				eb.Clear()
				o := play(ctx, start, engines, depth)
				mu.Lock()
				switch o {
				case mill.Won(aColor):
					res.Wins++
				case mill.Draw, mill.NoOutcome:
					res.Draws++
				default:
					res.Losses++
				}
				mu.Unlock()
			}
		}
	})
	return res
}

// each runs job i for every i in [0, n), handed out in order until ctx is
// done, on workers goroutines. start runs once on each goroutine and
// returns its job, which keeps that goroutine's own state (an engine, a
// solver).
func each(ctx context.Context, n, workers int, start func() func(i int)) {
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			job := start()
			for i := range jobs {
				job(i)
			}
		}()
	}
	for i := 0; i < n && ctx.Err() == nil; i++ {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
}

func opening(r *mill.Rules, rng *rand.Rand, plies int) mill.Position {
	for {
		p := r.Start()
		for i := 0; i < plies; i++ {
			ms := p.Moves(nil)
			if len(ms) == 0 {
				break
			}
			p = p.Play(ms[rng.IntN(len(ms))])
		}
		if p.HasMoves() {
			return p
		}
	}
}

func play(ctx context.Context, start mill.Position, engines [2]*search.Engine, depth int) mill.Outcome {
	g := mill.NewGame(start.Rules(), mill.FromPosition(start))
	for g.Outcome() == mill.NoOutcome && len(g.Moves()) < 400 {
		p := g.Position()
		res := engines[p.SideToMove()].Search(ctx, g.Positions(), search.Limits{Depth: depth}, nil)
		if res.Move.IsZero() || g.Play(res.Move) != nil {
			break
		}
	}
	return g.Outcome()
}
