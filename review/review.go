// Package review goes through the moves of a game with the engine: for each
// move, the engine's best move and its score in the position before it, the
// score of the move played, what the move played lost, and a mark for the
// moves that lost much of their side's winning chances (an inaccuracy, a
// mistake, a blunder). It is the
// game review of the server (POST /api/game/ID/review) and of
// `morris analyze -record`.
//
// Scores are the engine's, in hundredths of a piece for the side that
// moves (search.Score); with endgame databases in the engine's options
// (search.Options.Tablebase) the positions they hold are scored exactly.
// The move played is scored by a search one ply shallower after it, so
// that both scores look equally far ahead: under a time or node limit the
// best move's search decides the depth (the deepest iteration it finished)
// and the move played is searched to one ply less, whatever its own time
// would have reached. A score's horizon matters in Mill: the evaluation
// gives the side to move a tempo (nearly a piece while placing), so scores
// of horizons of different parity differ by more than a mistake.
package review

import (
	"context"
	"math"

	"github.com/morrisgame/morris/eval"
	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/search"
)

// Chances returns a score's winning chances for its side, from -1 (lost)
// to 1 (won): ±1 for a forced end, tanh(score/scale) otherwise, where scale
// is the score at which a side's chances are tanh(1), about 0.76 (the
// evaluation's eval.Weights.ChanceScale: one and a half pieces for the
// default weights). A move is marked by what it lost of them, not by what it lost
// of the score: a hundred lost at +800 changes nothing, at 0 it gives the
// game away.
func Chances(score, scale int) float64 {
	switch {
	case score > search.MateBound:
		return 1
	case score < -search.MateBound:
		return -1
	}
	return math.Tanh(float64(score) / float64(scale))
}

// What a move lost of its side's winning chances (Chances, from -1 to 1),
// past which it is marked. The scale and the thresholds were measured
// against the truth (docs/api.md, "How the marks were calibrated").
const (
	InaccuracyDrop = 0.15
	MistakeDrop    = 0.30
	BlunderDrop    = 0.50
)

// Mark says how bad a move was.
type Mark int

const (
	Good       Mark = iota // lost little or nothing
	Inaccuracy             // lost more than InaccuracyDrop of its winning chances: "?!"
	Mistake                // lost more than MistakeDrop: "?"
	Blunder                // lost more than BlunderDrop: "??"
)

// String returns the mark as records write it: "", "?!", "?" or "??".
func (m Mark) String() string { return [...]string{"", "?!", "?", "??"}[m] }

// Name returns the mark's name: "", "inaccuracy", "mistake", "blunder".
func (m Mark) Name() string { return [...]string{"", "inaccuracy", "mistake", "blunder"}[m] }

// Move is the review of one move.
type Move struct {
	Ply    int        // the move's ply in the game (0 for the first move)
	Side   mill.Color // who played it
	Played mill.Move
	Best   mill.Move // the engine's move in the position before it
	// BestScore and PlayedScore are the scores of the best move and of
	// the move played, for the side that moves; BestLine and PlayedLine
	// their lines (for search.ScoreTextAlong).
	BestScore, PlayedScore int
	BestLine, PlayedLine   []mill.Move
	// Depth is the depth of the search that gave BestScore; PlayedScore
	// comes from a search of PlayedDepth = Depth-1 plies after the move,
	// so both look as far ahead. PlayedDepth is 0 where the move played
	// was the best move (its score is BestScore), ended the game, or
	// followed a search of one ply (then it is scored as that search
	// scores its leaves, by the quiescence search). Depth is less than the best
	// move's search reached when the move played's search, stopped by the
	// review's limits, did not reach Depth-1: both are then compared at
	// the depth it reached. (PlayedDepth is less than Depth-1 also where
	// that search found a forced end, which stops a search early.)
	Depth, PlayedDepth int
	// Loss is BestScore - PlayedScore (at least 0), or -1 where a forced
	// end of the game makes the difference meaningless (both win, both
	// lose, or the mark says what happened).
	Loss int
	// Drop is what the move lost of its side's winning chances
	// (Chances(BestScore, Scale) - Chances(PlayedScore, Scale), at least
	// 0): the mark's measure. Scale is the evaluation's ChanceScale in the
	// phase of the side that moved.
	Drop  float64
	Scale int
	Mark  Mark
	Note  string // on a marked move where a forced end changed: "throws away a forced win", "walks into a forced loss"
	// Before is the position the move was played in.
	Before mill.Position
}

// White returns a score of the side that moved as white's.
func (m Move) White(score int) int {
	if m.Side == mill.White {
		return score
	}
	return -score
}

// Summary counts a side's moves, their average loss (of the moves whose
// loss counts) and the marks.
type Summary struct {
	Moves, AverageLoss, Inaccuracies, Mistakes, Blunders int
}

// Summarize returns each side's summary, white's first.
func Summarize(moves []Move) [2]Summary {
	var out [2]Summary
	var loss, counted [2]int
	for _, m := range moves {
		s := &out[m.Side]
		s.Moves++
		if m.Loss >= 0 {
			loss[m.Side] += m.Loss
			counted[m.Side]++
		}
		switch m.Mark {
		case Inaccuracy:
			s.Inaccuracies++
		case Mistake:
			s.Mistakes++
		case Blunder:
			s.Blunders++
		}
	}
	for c := range out {
		if counted[c] > 0 {
			out[c].AverageLoss = loss[c] / counted[c]
		}
	}
	return out
}

// Game reviews every move of g with e at lim: the position before each
// move is searched at lim, and the move played, unless it was the engine's
// choice or ended the game, is searched after it to one ply less than that
// search's depth (with lim's time or nodes, doubled, as a bound). progress,
// if not nil, is told after each move how many of the total are done. The
// engine's table is cleared first, so a review does not depend on what e
// searched before. On ctx's end it returns what it reviewed and ctx's
// error.
func Game(ctx context.Context, e *search.Engine, g *mill.Game, lim search.Limits, progress func(done, total int)) ([]Move, error) {
	e.Clear()
	moves := g.Moves()
	out := make([]Move, 0, len(moves))
	replay := mill.NewGame(g.Rules(), mill.FromPosition(g.Start()))
	var iters []search.Info // the best move's search, by depth from 1
	keep := func(in search.Info) {
		if in.Depth == len(iters)+1 {
			iters = append(iters, in)
		}
	}
	for i, m := range moves {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		before := replay.Position()
		mover := before.SideToMove()
		iters = iters[:0]
		res := e.Search(ctx, replay.Positions(), lim, keep)
		if err := replay.Play(m); err != nil {
			return out, err
		}
		rm := Move{Ply: i, Side: mover, Played: m, Best: res.Move, BestScore: res.Score, PlayedScore: res.Score,
			BestLine: res.PV, PlayedLine: res.PV, Before: before, Depth: res.Depth}
		switch o := replay.Outcome(); {
		case o == mill.Draw:
			rm.PlayedScore, rm.PlayedLine = 0, []mill.Move{m}
		case o == mill.Won(mover):
			rm.PlayedScore, rm.PlayedLine = search.Mate-1, []mill.Move{m}
		case o != mill.NoOutcome:
			rm.PlayedScore, rm.PlayedLine = -(search.Mate - 1), []mill.Move{m}
		case m != res.Move:
			if err := played(ctx, e, replay, lim, iters, &rm); err != nil {
				return out, err
			}
		}
		rm.Scale = chanceScale(g.Rules(), &before, mover)
		rm.Loss, rm.Mark, rm.Note = Judge(rm.BestScore, rm.PlayedScore, rm.Scale)
		rm.Drop = max(drop(rm.BestScore, rm.PlayedScore, rm.Scale), 0)
		out = append(out, rm)
		if progress != nil {
			progress(i+1, len(moves))
		}
	}
	return out, nil
}

// played scores the move rm.Played, just played in g, by a search to one
// ply less than the best move's (rm.Depth), bounded by lim's time and
// nodes, doubled. If that bound stops it short, rm's best score and line
// become those of the best move's search one ply deeper than it reached
// (iters, by depth), so the two are still compared at one horizon.
func played(ctx context.Context, e *search.Engine, g *mill.Game, lim search.Limits, iters []search.Info, rm *Move) error {
	after := g.Position()
	same := after.SideToMove() == rm.Side
	if rm.Depth <= 1 {
		// The best move's search saw one ply: the move played is scored
		// as the search scores the leaves of that ply.
		rm.PlayedScore, rm.PlayedLine = ParentScore(e.Quiesce(after), same), []mill.Move{rm.Played}
		return nil
	}
	child := lim
	child.Depth, child.Nodes, child.MoveTime, child.Infinite = rm.Depth-1, 2*lim.Nodes, 2*lim.MoveTime, false
	cr := e.Search(ctx, g.Positions(), child, nil)
	if err := ctx.Err(); err != nil {
		return err
	}
	rm.PlayedScore = ParentScore(cr.Score, same)
	rm.PlayedLine = append([]mill.Move{rm.Played}, cr.PV...)
	rm.PlayedDepth = cr.Depth
	// A search that found a forced end stops early by itself: its score
	// is not a horizon's.
	if d := cr.Depth + 1; d < rm.Depth && d <= len(iters) && !search.IsMate(cr.Score) {
		in := iters[d-1]
		rm.Depth, rm.BestScore, rm.BestLine = d, in.Score, in.PV
		if len(in.PV) > 0 {
			rm.Best = in.PV[0]
		}
	}
	return nil
}

// ParentScore turns the score of a position, for its side to move, into
// the score of the move that led to it, for the side that played it:
// negated, unless the same side moves again (a removal owed, a blocked
// side's removal), and a forced end one ply further away.
func ParentScore(s int, same bool) int {
	if !same {
		s = -s
	}
	switch {
	case s > search.MateBound:
		return s - 1
	case s < -search.MateBound:
		return s + 1
	}
	return s
}

// Judge returns what the move played lost against the best move, both
// scored for the side that moves, in hundredths of a piece (-1 where a forced
// end makes a difference meaningless); its mark, by what it lost of its
// winning chances (Chances at scale); and, for a marked move where a forced
// end was given away or walked into, which.
func Judge(best, played, scale int) (loss int, mark Mark, note string) {
	switch drop := drop(best, played, scale); {
	case drop > BlunderDrop:
		mark = Blunder
	case drop > MistakeDrop:
		mark = Mistake
	case drop > InaccuracyDrop:
		mark = Inaccuracy
	}
	bestWin, bestLoss := best > search.MateBound, best < -search.MateBound
	playedWin, playedLoss := played > search.MateBound, played < -search.MateBound
	switch {
	case mark != Good && bestWin && !playedWin:
		note = "throws away a forced win"
	case mark != Good && !bestLoss && playedLoss:
		note = "walks into a forced loss"
	}
	if search.IsMate(best) || search.IsMate(played) {
		return -1, mark, note
	}
	return max(best-played, 0), mark, note // a deeper look can find the move better than the first
}

// drop returns what played lost against best of the side's winning
// chances at scale (negative where played scored better).
func drop(best, played, scale int) float64 {
	return Chances(best, scale) - Chances(played, scale)
}

// chanceScale returns the ChanceScale of the evaluation of rules r for
// side c in p.
func chanceScale(r *mill.Rules, p *mill.Position, c mill.Color) int {
	w := eval.For(r)
	return w.Chances(eval.PhaseOf(p, c))
}
