package search

import (
	"github.com/morrisgame/morris/mill"
)

// Move ordering scores: the table's move, then captures, then moves that
// block a mill the opponent could close, killers, and the history score.
const (
	orderTT      = 1 << 30
	orderCapture = 1 << 28
	orderBlock   = 1 << 27
	orderKiller  = 1 << 26
)

// twos returns, for c, the empty points where c would close a mill and the
// pieces of c on those lines.
func twos(p *mill.Position, c mill.Color) (holes, pieces mill.Points) {
	own, opp := p.Pieces(c), p.Pieces(c.Other())
	for _, l := range p.Rules().MillLines() {
		if o := own & l; o.Len() == 2 && l&opp == 0 {
			holes |= l &^ o
			pieces |= o
		}
	}
	return holes, pieces
}

func histIndex(m mill.Move) (int, int) {
	from, to := int(m.From()), int(m.To())
	if m.From() == mill.NoPoint {
		from = 32
	}
	if m.To() == mill.NoPoint {
		to = 32
	}
	return from, to
}

// score gives each move its ordering score in scores (the table's move,
// captures, blocks, killers, history). The moves are not sorted: pickBest
// takes them best first as the search needs them, so that a node cut off by
// its first move pays for no sort.
func (w *worker) score(ply int, p *mill.Position, moves []mill.Move, ttMove mill.Move, scores []int32) {
	side := p.SideToMove()
	blocks, threatening := twos(p, side.Other())
	// Under mill-wins a move into a hole of one's own two may close a
	// mill and win: it goes first, as a capture would; and so does a
	// placement there whose mill takes from the opponent's hand
	// (placing-captures=hand), a capture that names no piece.
	var wins mill.Points
	if w.millWins || (w.handTakes && p.InHand(side) > 0 && p.InHand(side.Other()) > 0) {
		wins, _ = twos(p, side)
	}
	// The quiescence search orders its captures here too, at plies up to
	// maxQPly past MaxPly, where no killers are kept.
	k := &w.killers[min(ply, MaxPly)]
	for i, m := range moves {
		var s int32
		switch {
		case m == ttMove:
			s = orderTT
		case m.NumCaptures() > 0:
			s = orderCapture + int32(m.NumCaptures())<<10
			// Prefer taking pieces that threaten to close a mill.
			if m.Captures()&threatening != 0 {
				s += 512
			}
		case wins.Has(m.To()):
			s = orderCapture
		case blocks.Has(m.To()):
			s = orderBlock
		case m == k[0]:
			s = orderKiller + 1
		case m == k[1]:
			s = orderKiller
		default:
			f, t := histIndex(m)
			s = w.history[side][f][t]
		}
		scores[i] = s
	}
}

// scoreInto gives the moves of the node f at ply their ordering scores
// (score) in f.scores, which grows to hold them.
func (w *worker) scoreInto(f *frame, ply int, moves []mill.Move, ttMove mill.Move) {
	if cap(f.scores) < len(moves) {
		f.scores = make([]int32, len(moves)*2)
	}
	w.score(ply, &f.pos, moves, ttMove, f.scores)
}

// pickBest moves the best of moves[i:] to i, the first of the best on a tie,
// shifting the moves between up by one: taken from 0 to the end, the moves
// come in the order of a stable sort by score.
func pickBest(moves []mill.Move, scores []int32, i int) {
	b := i
	for j := i + 1; j < len(moves); j++ {
		if scores[j] > scores[b] {
			b = j
		}
	}
	if b == i {
		return
	}
	m, s := moves[b], scores[b]
	copy(moves[i+1:b+1], moves[i:b])
	copy(scores[i+1:b+1], scores[i:b])
	moves[i], scores[i] = m, s
}

func (w *worker) rememberCut(ply int, side mill.Color, m mill.Move, depth int) {
	if m.NumCaptures() > 0 {
		return
	}
	k := &w.killers[ply]
	if k[0] != m {
		k[1], k[0] = k[0], m
	}
	f, t := histIndex(m)
	h := &w.history[side][f][t]
	*h += int32(depth * depth)
	if *h > orderKiller/2 {
		for c := range w.history {
			for i := range w.history[c] {
				for j := range w.history[c][i] {
					w.history[c][i][j] /= 2
				}
			}
		}
	}
}
