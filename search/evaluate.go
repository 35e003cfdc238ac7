package search

import (
	"github.com/morrisgame/morris/eval"
	"github.com/morrisgame/morris/mill"
)

// setPos puts p on the stack at ply: the position a search or quiescence
// of that ply works on.
func (w *worker) setPos(ply int, p mill.Position) {
	w.stack[ply].pos = p
	w.accOK[0][ply], w.accOK[1][ply] = false, false
}

// evaluate returns the evaluation of the position at ply. The nets' sums
// are kept by ply (netOutput), so that a net costs the pieces that moved,
// not the pieces on the board.
func (w *worker) evaluate(ply int) int {
	p := &w.stack[ply].pos
	var s int
	if w.scratchNets {
		s = w.weights.Evaluate(p)
	} else {
		s = w.weights.Linear(p)
		if k, n := w.weights.NetFor(p); n != nil {
			s += w.netOutput(k, n, ply)
		}
	}
	if w.noise != nil {
		s += w.noise(s)
	}
	return s
}

// netOutput returns the output of net k (as Weights.NetFor numbers
// them), n, for the position at ply, bringing its sums there up to
// date: from the nearest ply above whose sums are kept, move by move, or
// from the pieces of the root.
func (w *worker) netOutput(k int, n *eval.Net, ply int) int {
	acc, ok := &w.acc[k], &w.accOK[k]
	from := ply
	for from > 0 && !ok[from] {
		from--
	}
	if !ok[from] {
		n.Init(&acc[from], &w.stack[from].pos)
		ok[from] = true
	}
	for i := from + 1; i <= ply; i++ {
		n.Update(&acc[i], &acc[i-1], &w.stack[i-1].pos, &w.stack[i].pos)
		ok[i] = true
	}
	return n.Output(&acc[ply], &w.stack[ply].pos)
}
