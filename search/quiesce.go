package search

import "github.com/morrisgame/morris/mill"

const maxQPly = 8 // plies of quiescence below the horizon

// closingMoves appends to dst the moves of p that close a mill of the side
// to move and returns it: under mill-wins they win the game, so the
// quiescence search looks at them as it looks at captures elsewhere.
func closingMoves(p *mill.Position, dst []mill.Move) []mill.Move {
	us := p.SideToMove()
	ms := p.Moves(dst)
	n := 0
	for _, m := range ms {
		if np := p.Play(m); np.InMills(us) != 0 {
			ms[n] = m
			n++
		}
	}
	return ms[:n]
}

// handTakes filters moves, the legal moves of p, down to those that take
// something: the captures, and the placements that close a mill of the side
// to move, which under placing-captures=hand take from the opponent's hand
// and name no capture.
func handTakes(p *mill.Position, moves []mill.Move) []mill.Move {
	holes, _ := twos(p, p.SideToMove())
	n := 0
	for _, m := range moves {
		if m.NumCaptures() > 0 || (m.Kind() == mill.PlaceMove && holes.Has(m.To())) {
			moves[n] = m
			n++
		}
	}
	return moves[:n]
}

// takes filters moves down to the captures, in place.
func takes(moves []mill.Move) []mill.Move {
	n := 0
	for _, m := range moves {
		if m.NumCaptures() > 0 {
			moves[n] = m
			n++
		}
	}
	return moves[:n]
}

// quiesce searches captures only (the moves that win, under mill-wins), standing pat on the evaluation, so that
// the horizon does not fall in the middle of an exchange of pieces. A side
// that must remove (a removal owed, or a blocked side's under
// blocked=removes) cannot stand pat: every removal is searched. Under
// placing-captures=hand the placements whose mill takes from the
// opponent's hand count as captures.
func (w *worker) quiesce(ply, alpha, beta, qply int) int {
	f := &w.stack[ply]
	p := &f.pos
	w.pvLen[ply] = 0
	if w.stopped() {
		return 0
	}
	if ply > w.selDepth {
		w.selDepth = ply
	}
	us := p.SideToMove()
	_, forced := p.Pending()
	var moves []mill.Move
	if !forced && w.blockedRemoves {
		// Only the whole list says whether the side is blocked and removes.
		moves = p.Moves(f.moves[:0])
		if len(moves) == 0 {
			return terminal(p, ply)
		}
		forced = moves[0].Kind() == mill.RemoveMove
	}
	stand := 0
	switch {
	case forced:
		if moves == nil {
			moves = p.Moves(f.moves[:0])
		}
		if len(moves) == 0 {
			return terminal(p, ply)
		}
	default:
		if moves == nil && !p.HasMoves() {
			return terminal(p, ply)
		}
		stand = w.evaluate(ply)
		if stand >= beta || qply >= maxQPly {
			return stand
		}
		alpha = max(alpha, stand)
		switch {
		case w.millWins:
			moves = closingMoves(p, f.moves[:0])
		case w.handTakes && p.InHand(us) > 0 && p.InHand(us.Other()) > 0:
			if moves == nil {
				moves = p.Moves(f.moves[:0])
			}
			moves = handTakes(p, moves)
		case moves != nil:
			moves = takes(moves)
		default:
			moves = p.Captures(f.moves[:0])
		}
	}
	f.moves = moves[:0]
	best := stand
	if forced {
		best = -Infinity
	}
	// Taken best first, as the search orders its moves (the pieces that
	// threaten a mill first): where any piece may be taken and mills close
	// while placing (twelve-man-morris), a mill offers a dozen captures at
	// every ply of an exchange, and in the order generated a quiescence
	// search of the placing phase ran to millions of nodes.
	if len(moves) > 1 {
		w.scoreInto(f, ply, moves, mill.Move{})
	}
	for i := range moves {
		pickBest(moves, f.scores, i) // nothing to pick among one move
		m := moves[i]
		w.setPos(ply+1, p.Play(m))
		lo, hi, sign := window(alpha, beta, w.stack[ply+1].pos.SideToMove() == us)
		score := sign * w.quiesce(ply+1, lo, hi, qply+1)
		if w.e.stop.Load() {
			return 0
		}
		if score > best {
			best = score
			if score > alpha {
				alpha = score
				if score >= beta {
					break
				}
			}
		}
	}
	return best
}

// Quiesce returns the score of p for the side to move by the quiescence
// search alone: the evaluation once the captures (and removals owed) have
// been played out. Tuning fits the evaluation's weights against deeper
// searches with it (internal/engine/tune). It uses the first thread's stack and
// must not run during a Search.
func (e *Engine) Quiesce(p mill.Position) int {
	w := e.workers[0]
	e.stop.Store(false)
	w.maxNodes = 0
	w.weights = e.weights(p.Rules())
	w.noise = nil
	o := p.Rules().Options()
	w.millWins = o.MillWins
	w.handTakes = o.PlacingCaptures == mill.CaptureFromHand
	w.blockedRemoves = o.Blocked == mill.BlockedRemoves
	w.setPos(0, p)
	return w.quiesce(0, -Infinity, Infinity, 0)
}
