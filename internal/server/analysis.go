package server

import (
	"context"

	"sync"
	"time"

	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/search"
)

// Analysis is the engine's view of a position.
type Analysis struct {
	Best      string   // the best move, standard notation; "" when the game is over
	Score     int      // centi-pieces for the side to move, or a mate score
	ScoreText string   // "+1.25", "#7" (wins in 7 plies), "-#4"
	Depth     int      // the last depth searched in full
	Nodes     uint64   // nodes searched
	PV        []string // the principal variation, standard notation
}

// MaxAnalysis bounds the thinking time of one analysis.
const MaxAnalysis = 3 * time.Second

// analyst is the engine of the analysis board: one search at a time, so
// that analyses queue instead of taking the processors from games.
type analyst struct {
	mu sync.Mutex
	e  *search.Engine
}

// Analyze searches history's last position (the positions of the game
// before it count for repetitions) for at most d, up to depth (0: no
// limit but the time). Analyses run one at a time.
func (s *Service) Analyze(ctx context.Context, history []mill.Position, depth int, d time.Duration) (Analysis, error) {
	if len(history) == 0 {
		return Analysis{}, errorf(BadRequest, "no position to analyse")
	}
	if d <= 0 || d > MaxAnalysis {
		d = MaxAnalysis
	}
	if depth < 0 || depth > 30 {
		return Analysis{}, errorf(BadRequest, "a depth is 1 to 30")
	}
	root := history[len(history)-1]
	if o, _ := root.Status(); o != mill.NoOutcome {
		return Analysis{ScoreText: o.String()}, nil
	}
	s.analysis.mu.Lock()
	defer s.analysis.mu.Unlock()
	if s.analysis.e == nil {
		s.analysis.e = search.New(search.Options{HashMB: 32})
	}
	actx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	res := s.analysis.e.Search(actx, history, search.Limits{Depth: depth, MoveTime: d}, nil)
	if err := ctx.Err(); err != nil {
		return Analysis{}, err
	}
	a := Analysis{Score: res.Score, ScoreText: search.ScoreText(res.Score), Depth: res.Depth, Nodes: res.Nodes}
	if !res.Move.IsZero() {
		a.Best = root.MoveText(res.Move)
	}
	p := root
	for _, m := range res.PV {
		if !p.Legal(m) {
			break
		}
		a.PV = append(a.PV, p.MoveText(m))
		p = p.Play(m)
	}
	return a, nil
}
