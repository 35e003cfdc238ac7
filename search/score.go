package search

import (
	"strconv"

	"github.com/morrisgame/morris/mill"
)

// Scores are in hundredths of a piece for the side to move. A won game is
// Mate minus the plies to its end; a lost one the negation.
const (
	Mate      = 30000
	MateBound = Mate - 1000 // a score beyond this is a forced end of the game
	Infinity  = Mate + 1

	// TBWin is the score of a position the endgame databases call won in
	// more plies than the no-progress rule leaves (a quiet counter q and a
	// win in n plies with q+n at least the rule's limit): less the plies,
	// it outweighs every evaluation and yields to every proved result, so
	// the engine heads for the win and takes a capture that proves it
	// whenever its search sees one. A loss of that kind is the negation.
	TBWin = MateBound - 2000

	// TBProgress is the score of a position the databases call won
	// without saying in how many plies (a compact file), plus the
	// position's evaluation within ±tbProgressSpan: above every
	// evaluation, below TBWin's wins, and higher where the evaluation
	// says the win is nearer (material taken, the loser's moves cut), the
	// only measure of progress such a file leaves. A loss of that kind is
	// the negation, less the evaluation.
	TBProgress     = TBWin - 3*tbProgressSpan
	tbProgressSpan = 900
)

// Proved returns +1 when s proves the position won for the side it
// scores, -1 when it proves it lost, and 0 otherwise: a forced end the
// search saw (IsMate), or a value of the endgame databases (TBWin, less
// the plies, and TBProgress, plus or minus its evaluation). Such a score
// is no count of pieces: "+242.57 pieces" is what a reader would see of
// TBProgress written as one.
func Proved(s int) int {
	switch {
	case s >= TBProgress-tbProgressSpan:
		return 1
	case s <= -(TBProgress - tbProgressSpan):
		return -1
	}
	return 0
}

// IsMate reports whether s is a forced win or loss.
func IsMate(s int) bool { return s > MateBound || s < -MateBound }

// MatePlies returns the number of plies to the end of a forced game.
func MatePlies(s int) int {
	if s > 0 {
		return Mate - s
	}
	return Mate + s
}

// ScoreText returns s as the protocol prints it: "cp 35", or "mate 3" /
// "mate -2" counting the mover's own moves to the end, as UCI does, on the
// assumption that the sides alternate. Where a side may move twice running
// (a removal owed, a mark or a blocked side's removal in the regional rule
// sets) use ScoreTextAlong, which counts along the line.
func ScoreText(s int) string {
	if !IsMate(s) {
		return "cp " + strconv.Itoa(s)
	}
	plies := MatePlies(s)
	if s > 0 {
		return "mate " + strconv.Itoa((plies+1)/2)
	}
	return "mate -" + strconv.Itoa(plies/2)
}

// ScoreTextAlong is ScoreText for the score s of position p with pv its
// principal variation: "mate N" counts the moves p's side to move makes
// along pv to the end of the game, so that it stays right where a side
// moves twice running. Past the end of pv (a line cut short by the
// transposition table) the sides are taken to alternate. Without a mate,
// or a pv that does not start legally, it is ScoreText(s).
func ScoreTextAlong(p mill.Position, pv []mill.Move, s int) string {
	if !IsMate(s) {
		return ScoreText(s)
	}
	plies := MatePlies(s)
	me := p.SideToMove()
	mine, i := 0, 0
	for ; i < len(pv) && i < plies; i++ {
		if !p.Legal(pv[i]) {
			break
		}
		if p.SideToMove() == me {
			mine++
		}
		p = p.Play(pv[i])
	}
	if i == 0 {
		return ScoreText(s)
	}
	// The plies past the line alternate from the side to move at its end.
	if rest := plies - i; rest > 0 {
		if p.SideToMove() == me {
			mine += (rest + 1) / 2
		} else {
			mine += rest / 2
		}
	}
	if s > 0 {
		return "mate " + strconv.Itoa(mine)
	}
	return "mate -" + strconv.Itoa(mine)
}
