// Package eval scores Mill positions for the search: a weighted sum of
// features computed per side and per phase (placing, moving, flying).
package eval

import (
	"math/bits"

	"github.com/morrisgame/morris/mill"
)

// Phase is the phase a side is in.
type Phase int

const (
	Placing Phase = iota // pieces in hand
	Moving               // sliding
	Flying               // flying
	NumPhases
)

// PhaseOf returns the phase of c in p.
func PhaseOf(p *mill.Position, c mill.Color) Phase {
	switch {
	case p.InHand(c) > 0:
		return Placing
	case p.Flying(c):
		return Flying
	}
	return Moving
}

// Weights are the evaluation's parameters, one value per phase of the side
// they describe. Units: a hundredth of a piece, roughly.
type Weights struct {
	Piece    [NumPhases]int // per piece, on the board or in hand
	Mill     [NumPhases]int // per closed mill
	Two      [NumPhases]int // per line with two own pieces and an empty point
	Closable [NumPhases]int // per such line whose empty point another own piece can reach in one move
	Double   [NumPhases]int // per piece that stands in a mill and can step out into a closing point of another two (a running mill)
	Mobility [NumPhases]int // per legal step (moving phase)
	Blocked  [NumPhases]int // per piece with no empty neighbour
	Cramp    [NumPhases]int // per square of the steps missing below CrampBelow (a side about to be blocked): negative to penalise
	Tempo    int            // for the side to move

	// Taper mixes, for a side still placing, the placing weights of
	// Mobility, Blocked and Cramp with the moving ones in the proportion
	// of its pieces already placed: the mobility that matters is the one
	// the side will have when placing ends.
	Taper bool
}

// CrampBelow is the mobility under which Cramp counts: (CrampBelow-m)² for a
// side with m steps.
const CrampBelow = 4

// Default are the weights tuned by self-play, with Cramp and Taper kept by
// matches against Sanmill (see docs/eval.md).
var Default = Weights{
	Piece:    [NumPhases]int{100, 100, 100},
	Mill:     [NumPhases]int{12, 14, 10},
	Two:      [NumPhases]int{10, 8, 20},
	Closable: [NumPhases]int{0, 18, 30},
	Double:   [NumPhases]int{0, 40, 0},
	Mobility: [NumPhases]int{2, 6, 0},
	Blocked:  [NumPhases]int{-3, -4, 0},
	Cramp:    [NumPhases]int{0, -40, 0},
	Taper:    true,
	Tempo:    5,
}

// Evaluate returns the score of p for the side to move. It does not look at
// the end of the game: the search handles that.
//
// The rules of the regional presets change little here. A marked piece
// (placing-captures=mark) is out of play: it is material its side has lost
// (Pieces leaves it out), a point nobody can move or place to, and a line
// through it makes no two until placing ends. Removals owed (Owed: at the
// end of placing, or Shah's deferred one) are pieces about to go: each
// counts as the loss of a piece of the side that loses it. Under
// blocked=removes (zhi qi) a side that cannot move takes a piece instead of
// losing, so Cramp, the penalty of a side about to be shut in, does not
// count. A mill that takes from the hand (dooz) shrinks the hand, which is
// material as a piece on the board is.
func (w *Weights) Evaluate(p *mill.Position) int {
	us := p.SideToMove()
	s := w.side(p, us) - w.side(p, us.Other()) + w.Tempo
	return s
}

func (w *Weights) side(p *mill.Position, c mill.Color) int {
	r := p.Rules()
	b := r.Board()
	own, opp := p.Pieces(c), p.Pieces(c.Other())
	marked := p.Marked()
	empty := r.All() &^ (own | opp | marked)
	ph := PhaseOf(p, c)
	score := w.Piece[ph] * (bits.OnesCount32(own) + p.InHand(c))
	// Removals owed take pieces of c: those the opponent owes, or c's own
	// when the removals take the remover's own pieces.
	lost := p.Owed(c.Other())
	if p.RemovesOwn() {
		lost = p.Owed(c)
	}
	score -= w.Piece[ph] * lost

	// Where own pieces can go in one move.
	var reach uint32
	mobility, blocked := 0, 0
	for s := own; s != 0; s &= s - 1 {
		pt := mill.Point(bits.TrailingZeros32(s))
		n := b.Adjacent(pt) & empty
		if n == 0 {
			blocked++
		}
		mobility += bits.OnesCount32(n)
		reach |= n
	}
	if ph == Flying || ph == Placing {
		reach = empty
	}
	mills, twos, closable := 0, 0, 0
	var inMill, closing uint32
	for _, l := range r.MillLines() {
		switch o := own & l; {
		case o == l:
			mills++
			inMill |= l
		case bits.OnesCount32(o) == 2 && l&(opp|marked) == 0:
			twos++
			hole := l &^ o
			closing |= hole
			// Reachable by a piece not on this line.
			if ph != Moving {
				closable++
			} else {
				for s := own &^ l; s != 0; s &= s - 1 {
					if b.Adjacent(mill.Point(bits.TrailingZeros32(s)))&hole != 0 {
						closable++
						break
					}
				}
			}
		}
	}
	double := 0
	if ph == Moving && inMill != 0 && closing != 0 {
		for s := inMill; s != 0; s &= s - 1 {
			if b.Adjacent(mill.Point(bits.TrailingZeros32(s)))&closing&empty != 0 {
				double++
			}
		}
	}
	score += w.Mill[ph]*mills + w.Two[ph]*twos + w.Closable[ph]*closable + w.Double[ph]*double
	cramp := 0
	if mobility < CrampBelow && r.Options().Blocked != mill.BlockedRemoves {
		cramp = (CrampBelow - mobility) * (CrampBelow - mobility)
	}
	if ph == Placing && w.Taper {
		h, n := p.InHand(c), r.Options().Pieces
		mix := func(wt *[NumPhases]int) int { return (wt[Placing]*h + wt[Moving]*(n-h)) / n }
		score += mix(&w.Mobility)*mobility + mix(&w.Blocked)*blocked + mix(&w.Cramp)*cramp
		return score
	}
	score += w.Mobility[ph]*mobility + w.Blocked[ph]*blocked + w.Cramp[ph]*cramp
	return score
}
