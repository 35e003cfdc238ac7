package match

import (
	"context"

	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/search"
)

// Balance judges random openings by a search of the engine, for the
// presets that have no databases of the whole game to call an opening
// drawn. An opening is balanced when the score of its last position,
// from white's side, lies within Margin (hundredths of a piece) of the
// score of the start position searched the same way: the random plies
// have left the game as even as its start left it. A search to a fixed
// depth with one thread and a cleared table gives the same score on every
// machine, so a seed draws the same openings everywhere.
//
// Without it, random openings decide most games on boards where a few
// random placements hand one side a fork: after 4 random plies of the
// small twelve men's board, a search of 500 ms put the median opening at
// +1.7 pieces for white against +0.9 at the start, and the game went to
// the side the search favoured in most pairs, whichever engine had it.
type Balance struct {
	Depth  int // the depth of the searches
	Margin int // the most the opening's score may differ from the start's

	e     *search.Engine
	start int // the start's score for white
}

// NewBalance returns the judge of r's openings: it searches the start of
// r once now.
func NewBalance(r *mill.Rules, depth, margin int) *Balance {
	b := &Balance{Depth: depth, Margin: margin, e: search.New(search.Options{Threads: 1})}
	b.start = b.Score(mill.NewGame(r).Position())
	return b
}

// Start is the score of the start position for white.
func (b *Balance) Start() int { return b.start }

// Score is p's score for white by a search to b.Depth plies from a
// cleared table.
func (b *Balance) Score(p mill.Position) int {
	b.e.Clear()
	res := b.e.Search(context.Background(), []mill.Position{p}, search.Limits{Depth: b.Depth}, nil)
	if p.SideToMove() == mill.Black {
		return -res.Score
	}
	return res.Score
}

// Keep reports whether p, the last position of an opening, is balanced.
func (b *Balance) Keep(p mill.Position) bool {
	d := b.Score(p) - b.start
	return -b.Margin <= d && d <= b.Margin
}
