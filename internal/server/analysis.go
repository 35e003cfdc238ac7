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
	Score     int      // centi-pieces for the side to move, or a mate score (search.Mate less the plies to the end)
	ScoreText string   // as the engine protocol prints it: "cp 125", "mate 7" (the mover wins with its 7th move), "mate -4"
	Depth     int      // the last depth searched in full
	Nodes     uint64   // nodes searched
	PV        []string // the principal variation, standard notation
	// TBHits counts the positions of the search found in the endgame
	// databases: 0 without them, or under rules they do not cover.
	TBHits uint64
	// Tablebase is the databases' value of the position ("win in 13",
	// "draw", "loss in 8": plies to the end with perfect play), when they
	// hold it; "" otherwise.
	Tablebase string
	// TablebaseMoves are, with Tablebase, every legal move with the value
	// it keeps for the mover, best first; Keeps marks those that keep the
	// position's value (the fastest wins, the draws of a drawn position,
	// the slowest losses).
	TablebaseMoves []TablebaseMove
}

// TablebaseMove is a move and its value by the endgame databases.
type TablebaseMove struct {
	Move  string // standard notation
	Value string // for the side that makes it: "win in 12", "draw", "loss in 3"
	Keeps bool   // the move keeps the position's value
}

// MaxAnalysis bounds the thinking time of one analysis.
const MaxAnalysis = 3 * time.Second

// analyst is the engine of the analysis board: one search at a time, so
// that analyses queue instead of taking the processors from games.
type analyst struct {
	mu sync.Mutex
	e  *engine
}

// Analyze searches history's last position (the positions of the game
// before it count for repetitions) for at most d, up to depth (0: no
// limit but the time). Analyses run one at a time, at full strength, as
// `morris engine` analyses (go depth N movetime MS, or go infinite): the
// same engine, the table kept from one analysis to the next under the same
// rules (the table does not tell rule sets apart: it is cleared when they
// change), and the endgame databases for the rules they cover.
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
		s.analysis.e = s.newEngine()
	}
	e := s.analysis.e
	tb := e.prepare("analysis "+root.Rules().String(), root.Rules(), s.cfg.Tablebase)
	actx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	var hits uint64
	res := e.Search(actx, history, search.Limits{Depth: depth, MoveTime: d}, func(in search.Info) { hits = in.TBHits })
	s.metrics.tablebaseHits(hits)
	if err := ctx.Err(); err != nil {
		return Analysis{}, err
	}
	a := Analysis{Score: res.Score, ScoreText: search.ScoreTextAlong(root, res.PV, res.Score), Depth: res.Depth, Nodes: res.Nodes, TBHits: hits}
	if tb {
		if v, ok := s.cfg.Tablebase.Probe(root); ok {
			a.Tablebase = v.String()
			if mv, ok := s.cfg.Tablebase.MoveValues(root); ok {
				for _, m := range mv {
					a.TablebaseMoves = append(a.TablebaseMoves, TablebaseMove{Move: root.MoveText(m.Move), Value: m.Value.String(), Keeps: m.Value == mv[0].Value})
				}
			}
		}
	}
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
