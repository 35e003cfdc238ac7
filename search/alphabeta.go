package search

import "github.com/morrisgame/morris/mill"

// window returns the window in which to search a child of a node searched
// in (alpha, beta), and the sign that turns the child's score into the
// node's. Negamax negates both; but where the same side moves again (a
// removal owed when placing ends, a blocked side's removal, the second
// player moving first after placing last: same), the child's score is
// already the node's, and so is its window. It is inlined: the alternating
// case pays a predictable branch.
func window(alpha, beta int, same bool) (lo, hi, sign int) {
	if same {
		return alpha, beta, 1
	}
	return -beta, -alpha, -1
}

// search is a principal variation search of the position at ply.
func (w *worker) search(ply, depth, alpha, beta int) int {
	if ply == 0 {
		w.rootDepth = depth
	}
	f := &w.stack[ply]
	p := &f.pos
	f.key = p.Key()
	w.pvLen[ply] = 0
	if w.stopped() && ply > 0 {
		return 0
	}
	if ply > w.selDepth {
		w.selDepth = ply
	}
	if ply > 0 {
		if w.repeated(ply) {
			return 0
		}
		alpha, beta = mateDistance(ply, alpha, beta, w.stack[ply-1].pos.SideToMove() == p.SideToMove())
		if alpha >= beta {
			return alpha
		}
		if w.tb != nil {
			if score, ok := w.probe(ply, depth, p); ok {
				return score
			}
		}
	}
	if ply >= MaxPly {
		return w.evaluate(ply)
	}
	if depth <= 0 {
		return w.quiesce(ply, alpha, beta, 0)
	}
	pvNode := beta-alpha > 1
	ttMove, ttScore, ttDepth, ttBound, hit := w.e.tt.probe(f.key)
	if hit && ply > 0 && !pvNode && ttDepth >= depth {
		s := fromTT(ttScore, ply)
		switch {
		case ttBound == boundExact,
			ttBound == boundLower && s >= beta,
			ttBound == boundUpper && s <= alpha:
			return s
		}
	}
	moves := p.Moves(f.moves[:0])
	f.moves = moves[:0]
	if len(moves) == 0 {
		return terminal(p, ply)
	}
	w.scoreInto(f, ply, moves, ttMove)

	ext := w.extension(ply, len(moves))
	origAlpha := alpha
	best := -Infinity
	var bestMove mill.Move
	us := p.SideToMove()
	for i := range moves {
		pickBest(moves, f.scores, i)
		m := moves[i]
		w.setPos(ply+1, p.Play(m))
		same := w.stack[ply+1].pos.SideToMove() == us
		var score int
		if i == 0 {
			lo, hi, sign := window(alpha, beta, same)
			score = sign * w.search(ply+1, depth-1+ext, lo, hi)
		} else {
			r := reduction(depth, i, m, f.scores[i], pvNode)
			lo, hi, sign := window(alpha, alpha+1, same)
			score = sign * w.search(ply+1, depth-1+ext-r, lo, hi)
			if score > alpha && (r > 0 || score < beta) {
				lo, hi, sign = window(alpha, beta, same)
				score = sign * w.search(ply+1, depth-1+ext, lo, hi)
			}
		}
		if w.e.stop.Load() {
			if ply > 0 {
				return 0
			}
			// At the root: keep what is searched, but not this move,
			// whose search was cut off and whose score means nothing.
			break
		}
		if score > best {
			best, bestMove = score, m
			if score > alpha {
				alpha = score
				w.pv[ply][0] = m
				copy(w.pv[ply][1:], w.pv[ply+1][:w.pvLen[ply+1]])
				w.pvLen[ply] = w.pvLen[ply+1] + 1
				if ply == 0 {
					w.rootMove = m
				}
				if score >= beta {
					w.rememberCut(ply, us, m, depth)
					break
				}
			}
		}
	}
	bound := boundExact
	switch {
	case best >= beta:
		bound = boundLower
	case best <= origAlpha:
		bound = boundUpper
	}
	if !w.e.stop.Load() {
		w.e.tt.store(f.key, bestMove, toTT(best, ply), depth, bound)
	}
	return best
}

// repeated reports whether the position at ply has occurred before, in the
// search path or in the game: a draw under the repetition rule (we score the
// first repetition as a draw, as a player who can repeat once can repeat again).
func (w *worker) repeated(ply int) bool {
	p := &w.stack[ply].pos
	if p.Rules().Options().Repetition == 0 {
		return false
	}
	key := w.stack[ply].key
	quiet := p.Quiet()
	for i := ply - 2; i >= 0 && ply-i <= quiet; i -= 2 {
		if w.stack[i].key == key {
			return true
		}
	}
	// The game before the root: game[0] is the position just before it.
	for i := range w.game {
		back := ply + 1 + i
		if back > quiet {
			break
		}
		if back%2 == 0 && w.game[i] == key {
			return true
		}
	}
	return false
}

func terminal(p *mill.Position, ply int) int {
	o, _ := p.Status()
	switch o {
	case mill.Draw, mill.NoOutcome:
		return 0
	case mill.Won(p.SideToMove()):
		return Mate - ply
	}
	return -(Mate - ply)
}

func toTT(score, ply int) int {
	switch {
	case score > MateBound:
		return score + ply
	case score < -MateBound:
		return score - ply
	}
	return score
}

func fromTT(score, ply int) int {
	switch {
	case score > MateBound:
		return score - ply
	case score < -MateBound:
		return score + ply
	}
	return score
}
