package search

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/morrisgame/morris/mill"
)

// Level is a playing strength. Low levels look only a ply or two ahead and
// judge with a wide random error, so they miss mills and walk into them the
// way beginners do; high levels search deep and judge exactly. Levels 1 to 9
// vary their choice among moves that they find about equal, so games differ;
// level 10 plays the move of its full search, since a choice made by a
// shallower look at the alternatives gives away what the deep search found.
type Level struct {
	N        int
	Depth    int           // the deepest iteration; 0 for no limit
	MoveTime time.Duration // thinking time per move when no clock is given
	Noise    int           // each root move's score is off by up to this much
	Margin   int           // moves within this of the best are taken at random (variety)
	Opening  int           // the margin applies in the first plies of the game only, if not 0
}

// Levels are the levels 1 (a beginner) to 10 (full strength).
var Levels = [...]Level{
	{N: 1, Depth: 1, Noise: 400},
	{N: 2, Depth: 1, Noise: 150},
	{N: 3, Depth: 2, Noise: 150},
	{N: 4, Depth: 2, Noise: 60},
	{N: 5, Depth: 3, Noise: 40},
	{N: 6, Depth: 4, Noise: 25},
	{N: 7, Depth: 5, Noise: 12, Margin: 5},
	{N: 8, Depth: 7, Noise: 6, Margin: 5},
	{N: 9, Depth: 9, MoveTime: 500 * time.Millisecond, Margin: 5, Opening: 10},
	{N: 10, MoveTime: 2 * time.Second},
}

// BookLevel is the lowest level that plays from the opening book: the
// levels below it are beginners, who know no openings.
const BookLevel = 5

// TablebaseLevel is the lowest level that plays with the endgame
// databases: from it up the engine plays every position they hold
// perfectly. The levels below it err on purpose, and the databases would
// make them perfect wherever they reach (a root move's value read exactly
// is a proved result, which no noise blurs): level 1 would never lose a
// moving phase, nor with the placing phase's databases a game.
const TablebaseLevel = 8

// LevelFor returns level n, clamped to 1..10.
func LevelFor(n int) Level {
	n = max(1, min(n, len(Levels)))
	return Levels[n-1]
}

// Choose picks the move to play at level lv: the search's best at full
// strength, else a choice among the root moves scored by a shallower search
// and blurred by the level's noise. rng drives every random choice.
func (e *Engine) Choose(ctx context.Context, history []mill.Position, lv Level, lim Limits, rng *rand.Rand, report func(Info)) Result {
	root := history[len(history)-1]
	// The book answers at once: level 10 with a best move (one of several
	// when symmetric moves score the same), the levels below with one of
	// the moves within their margin. Not when a depth or a number of nodes
	// is asked for: that is a request for a search. When the databases
	// hold the position (those of the placing phase: the built-in opening
	// file, or the whole game's), the book chooses among the moves that
	// keep its value only: it knows how to play, they know what is lost.
	e.noTablebase = lv.N < TablebaseLevel
	defer func() { e.noTablebase = false }()
	var keep func(mill.Move) bool
	if e.opts.Tablebase != nil && !e.noTablebase {
		keep = keepsValue(e.opts.Tablebase, root)
	}
	if e.opts.Book != nil && lv.N >= BookLevel && !lim.Infinite && lim.Depth == 0 && lim.Nodes == 0 {
		if be, ok := e.opts.Book.ChooseFrom(root, lv.Margin, rng, keep); ok {
			if report != nil {
				report(Info{Depth: be.Depth, Score: be.Score, PV: []mill.Move{be.Move}})
			}
			return Result{Move: be.Move, Score: be.Score, Depth: be.Depth, PV: []mill.Move{be.Move}}
		}
	}
	if lim == (Limits{}) {
		lim.MoveTime = lv.MoveTime
	}
	if lv.Depth > 0 && (lim.Depth == 0 || lim.Depth > lv.Depth) {
		lim.Depth = lv.Depth
	}
	// Pressing in drawn positions is for play: a depth or a number of
	// nodes asks for a search, which must agree with the analysis.
	e.press = lim.Depth == 0 && lim.Nodes == 0 && !lim.Infinite
	defer func() { e.press = false }()
	res := e.Search(ctx, history, lim, report)
	margin := lv.Margin
	if lv.Opening > 0 && root.Ply() >= lv.Opening {
		margin = 0
	}
	if res.Move.IsZero() || (lv.Noise == 0 && margin == 0) || IsMate(res.Score) {
		return res
	}
	// Score every root move with a search one ply shallower than the one
	// that was done (the table makes this cheap), then blur and pick.
	d := max(res.Depth-1, 0)
	if lv.Noise == 0 {
		d = min(d, 5) // variety only: a shallow look at the alternatives is enough
	}
	if ctx.Err() != nil && lv.Noise == 0 {
		return res // out of time: no variety
	}
	w := e.workers[0]
	e.stop.Store(false)
	moves := root.Moves(nil)
	best, bestScore := res.Move, res.Score
	var near []mill.Move
	type scored struct {
		m mill.Move
		s int
	}
	all := make([]scored, 0, len(moves))
	for _, m := range moves {
		w.setPos(0, root)
		w.stack[0].key = root.Key()
		w.setPos(1, root.Play(m))
		lo, hi, sign := window(-Infinity, Infinity, w.stack[1].pos.SideToMove() == root.SideToMove())
		s := sign * w.search(1, d, lo, hi)
		all = append(all, scored{m, s})
	}
	top := -Infinity
	for _, sc := range all {
		s := sc.s
		if lv.Noise > 0 && !IsMate(s) {
			s += rng.IntN(2*lv.Noise+1) - lv.Noise
		}
		if s > top {
			top, best, bestScore = s, sc.m, sc.s
		}
	}
	if margin > 0 {
		for _, sc := range all {
			if sc.s >= bestScore-margin && !IsMate(sc.s) {
				near = append(near, sc.m)
			}
		}
		if len(near) > 0 {
			best = near[rng.IntN(len(near))]
			for _, sc := range all {
				if sc.m == best {
					bestScore = sc.s
				}
			}
		}
	}
	if best != res.Move {
		res.Move, res.Score, res.PV = best, bestScore, []mill.Move{best}
	}
	return res
}
