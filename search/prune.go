package search

import (
	"math"

	"github.com/morrisgame/morris/mill"
)

// Late move reductions: a quiet move searched after the first lmrFrom moves
// of a node (its hash move, captures and killers first) is searched
// lmr[depth][i] plies shallower, one less at a principal-variation node,
// and again at full depth when it beats alpha. The reduction grows with the
// logarithms of the depth and of the move's index (ln d · ln i / 2),
// measured against the earlier fixed 1-or-2 ply reduction in
// docs/search.md.
const lmrFrom = 3

// lowMobility is the most moves a node may have for its replies to be
// searched a ply deeper.
const lowMobility = 2

var lmr = func() (t [64][64]int8) {
	for d := 1; d < 64; d++ {
		for i := 1; i < 64; i++ {
			t[d][i] = int8(0.5 + math.Log(float64(d))*math.Log(float64(i))/2)
		}
	}
	return t
}()

// reduction returns how many plies shallower than its siblings the i-th
// move m of a node at depth is searched first, by its ordering score
// order (killers and better are not reduced), one less at a principal
// variation node, and always leaving at least one ply.
func reduction(depth, i int, m mill.Move, order int32, pvNode bool) int {
	r := 0
	if depth >= 3 && i >= lmrFrom && m.NumCaptures() == 0 && order < orderKiller {
		r = int(lmr[min(depth, len(lmr)-1)][min(i, len(lmr[0])-1)])
		if pvNode {
			r--
		}
		r = max(0, min(r, depth-2))
	}
	return r
}

// extension returns the plies by which the replies of a node at ply with
// n moves are searched deeper: a side with one or two moves is near a
// blockade, and its replies are searched a ply deeper (the few moves cost
// little), so that a blockade closing in is seen before the horizon hides
// it. Extensions stop at twice the depth of the iteration.
func (w *worker) extension(ply, n int) int {
	if n <= lowMobility && ply < 2*w.rootDepth {
		return 1
	}
	return 0
}

// mateDistance narrows the window (alpha, beta) of a node at ply: no
// result there beats a shorter one found. The side to move wins at the
// next ply at the soonest, or at this one when it has just moved too
// (same: a removal that leaves the opponent two pieces, and the same side
// to move).
func mateDistance(ply, alpha, beta int, same bool) (int, int) {
	alpha = max(alpha, -(Mate - ply))
	if same {
		beta = min(beta, Mate-ply)
	} else {
		beta = min(beta, Mate-ply-1)
	}
	return alpha, beta
}
