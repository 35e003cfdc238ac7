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
		// Mate distance pruning: no result here beats a shorter one found.
		// The side to move wins at the next ply at the soonest, or here
		// when it has just moved too (a removal that leaves the opponent
		// two pieces, and the same side to move).
		alpha = max(alpha, -(Mate - ply))
		if w.stack[ply-1].pos.SideToMove() == p.SideToMove() {
			beta = min(beta, Mate-ply)
		} else {
			beta = min(beta, Mate-ply-1)
		}
		if alpha >= beta {
			return alpha
		}
		if w.tb != nil && (ply <= placingProbePlies || p.InHand(mill.White)+p.InHand(mill.Black) == 0) {
			if res, plies, ok := w.tb.Probe(*p); ok {
				w.tbHits.Add(1)
				switch {
				case res != 0 && plies < 0:
					// A win or loss whose distance the databases do not
					// hold (a compact file: W/D/L only). Proved, but the
					// way to the end is the search's to find: in the
					// moving phase it searches on while depth remains;
					// at the leaves, and in the placing phase, the score
					// is TBProgress plus the evaluation, so that of the
					// moves that keep the win the engine takes those that
					// make progress (see TBProgress).
					if depth <= 0 || p.InHand(mill.White)+p.InHand(mill.Black) > 0 {
						progress := min(max(w.evaluate(ply), -tbProgressSpan), tbProgressSpan)
						if res > 0 {
							return TBProgress + progress
						}
						return -(TBProgress - progress)
					}
				case res != 0 && w.drawAfter > 0 && p.Quiet()+plies >= w.drawAfter:
					// The databases know nothing of the no-progress
					// draw: this win (or loss) may take longer than the
					// plies left before it, so it is not proved. In the
					// moving phase it is searched on, where a capture on
					// the way makes it exact again, and scored TBWin less
					// its plies at the leaves (see TBWin). A placing
					// position is scored so at once: below it the search
					// reads no placing databases (placingProbePlies), so
					// searching on would trade the databases' value for
					// the evaluation's guess, and a move into a loss of
					// 124 plies looked as good as the one draw.
					if depth <= 0 || p.InHand(mill.White)+p.InHand(mill.Black) > 0 {
						if res > 0 {
							return TBWin - plies
						}
						return -(TBWin - plies)
					}
				case res > 0:
					return Mate - ply - plies
				case res < 0:
					return -(Mate - ply - plies)
				case !w.press:
					return 0
				}
				// At play a drawn position is searched on (see press).
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

	// A side with one or two moves is near a blockade: its replies are
	// searched a ply deeper (the few moves cost little), so that a
	// blockade closing in is seen before the horizon hides it.
	ext := 0
	if len(moves) <= lowMobility && ply < 2*w.rootDepth {
		ext = 1
	}
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
			r := 0
			if depth >= 3 && i >= lmrFrom && m.NumCaptures() == 0 && f.scores[i] < orderKiller {
				r = int(lmr[min(depth, len(lmr)-1)][min(i, len(lmr[0])-1)])
				if pvNode {
					r--
				}
				r = max(0, min(r, depth-2))
			}
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
