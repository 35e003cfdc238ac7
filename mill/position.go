package mill

import "fmt"

// Color is a side: White or Black.
type Color uint8

const (
	White Color = 0
	Black Color = 1
)

// Other returns the opponent of c.
func (c Color) Other() Color { return c ^ 1 }

func (c Color) String() string {
	if c == White {
		return "white"
	}
	return "black"
}

// Position is the whole state of a game between two turns: the board, the
// side to move, the pieces in hand, the capture state, the counters, and the
// rules it is played under. It is a small comparable value: play a move to
// get the next one. The zero Position has no rules and is not usable.
//
// Repetition needs the game's history and is judged by Game, not Position.
type Position struct {
	rules      *Rules
	pieceKey   uint64    // Zobrist key of the pieces on the board, kept incrementally
	occ        [2]uint32 // the points of each side's pieces in play (marked pieces are not)
	used       [2]uint32 // one-time mills: the mill lines each side has formed
	marked     uint32    // mark rule: the points of marked pieces, out of play until placing ends
	hand       [2]uint8  // pieces still to place
	owe        [2]uint8  // removals each side must make before anything else (Shah, the end of placing)
	side       Color     // the side to move
	firstMill  uint8     // deferred capture: 1+color of the side that formed the first mill while placing, or 0
	ownRemoval bool      // the removals owed take the remover's own pieces (counted mills, none on the board)
	passed     bool      // the last move was a pass (the mover's opponent is trapped)
	banFrom    [2]uint8  // re-forming ban: 1+point where the piece now stands, or 0
	banTo      [2]uint8  // 1+point it left, breaking a mill
	quiet      uint16    // plies without progress (a placement or a capture)
	ply        uint16    // plies played since the start of the game

	// Padding to 64 bytes: a copy of a Position is then four whole 16-byte
	// moves. At 56 bytes the compiler copies with two overlapping moves,
	// and reading back a copy just written stalls on them (store
	// forwarding fails): Play took 28 ns instead of 15 (BenchmarkPlay).
	_ [12]byte
}

// Start returns the starting position: an empty board, every piece in hand,
// the first player to move (White when the first player is drawn by lot; see
// NewGame for the draw).
func (r *Rules) Start() Position {
	p := Position{rules: r}
	p.hand[White] = uint8(r.opts.Pieces)
	p.hand[Black] = uint8(r.opts.Pieces)
	if r.opts.FirstPlayer == FirstBlack {
		p.side = Black
	}
	return p
}

// StartWith returns the starting position with first to move.
func (r *Rules) StartWith(first Color) Position {
	p := r.Start()
	p.side = first
	return p
}

// Rules returns the rules the position is played under.
func (p Position) Rules() *Rules { return p.rules }

// SideToMove returns the side whose turn it is.
func (p Position) SideToMove() Color { return p.side }

// Pieces returns the points occupied by c.
func (p Position) Pieces(c Color) Points { return Points(p.occ[c]) }

// At returns the colour of the piece on pt, and whether there is one.
func (p Position) At(pt Point) (Color, bool) {
	switch {
	case p.occ[White]&(1<<pt) != 0:
		return White, true
	case p.occ[Black]&(1<<pt) != 0:
		return Black, true
	}
	return 0, false
}

// InHand returns how many pieces c has still to place.
func (p Position) InHand(c Color) int { return int(p.hand[c]) }

// OnBoard returns how many pieces c has on the board.
func (p Position) OnBoard(c Color) int { return popcount(p.occ[c]) }

// Pending returns the side that must remove a piece before anything else
// (the deferred capture of Shah, the removals at the end of placing), if
// any: always the side to move. A blocked side's removal (blocked=removes)
// is not pending: it follows from the board.
func (p Position) Pending() (Color, bool) {
	if p.owe[p.side] == 0 {
		return 0, false
	}
	return p.side, true
}

// Owed returns how many removals c still owes in the stage of removals at
// the end of placing (or Shah's deferred one).
func (p Position) Owed(c Color) int { return int(p.owe[c]) }

// RemovesOwn reports whether the removals owed take the remover's own
// pieces (counted mills with no mill on the board: placing-captures=counted).
func (p Position) RemovesOwn() bool { return p.ownRemoval }

// Marked returns the points of the marked pieces (placing-captures=mark):
// pieces taken by mills while placing, out of play (no mills, no moves, no
// placing there) until placing ends and they leave the board. Their colour
// does not matter to the rules and is not kept; At reports their points
// empty.
func (p Position) Marked() Points { return Points(p.marked) }

// Ply returns the number of plies played since the start of the game.
func (p Position) Ply() int { return int(p.ply) }

// Quiet returns the number of plies since the last placement or capture.
func (p Position) Quiet() int { return int(p.quiet) }

// Placing reports whether the side to move still has pieces in hand.
func (p Position) Placing() bool { return p.hand[p.side] > 0 }

// Flying reports whether c may fly: the rules allow it, c has no pieces in
// hand and at most the flying threshold on the board.
func (p Position) Flying(c Color) bool {
	at := p.rules.opts.FlyAt
	return at > 0 && p.hand[c] == 0 && popcount(p.occ[c]) <= at
}

// InMills returns the points of c that stand in a mill.
func (p Position) InMills(c Color) Points { return Points(p.rules.inMills(p.occ[c])) }

// Key returns a 64-bit hash of everything that makes the position what it is
// for repetition and for search tables: board, side to move, pieces in hand
// and the capture state; not the counters.
func (p Position) Key() uint64 { return p.pieceKey ^ p.stateKey() }

func (p *Position) stateKey() uint64 {
	k := zobHand[White][p.hand[White]] ^ zobHand[Black][p.hand[Black]]
	if p.side == Black {
		k ^= zobSide
	}
	// Shah's single removal keeps the key it has always had (stored keys
	// and search tests depend on it); the other shapes of owed removals
	// take bits of their own.
	var pending, owed uint64
	switch {
	case p.owe == [2]uint8{} && !p.ownRemoval:
	case p.owe[p.side] == 1 && p.owe[p.side^1] == 0 && !p.ownRemoval:
		pending = 1 + uint64(p.side)
	default:
		owed = uint64(p.owe[0]) | uint64(p.owe[1])<<4 | boolBit(p.ownRemoval)<<8
	}
	if pending|owed != 0 || p.firstMill|p.banFrom[0]|p.banFrom[1] != 0 || p.passed || p.used[0]|p.used[1] != 0 {
		k ^= mix(pending | uint64(p.firstMill)<<8 | uint64(p.banFrom[0])<<16 | uint64(p.banTo[0])<<24 |
			uint64(p.banFrom[1])<<32 | uint64(p.banTo[1])<<40 | boolBit(p.passed)<<48 | owed<<49)
		k ^= mix(uint64(p.used[0]) | uint64(p.used[1])<<32 ^ 0x5bd1e995)
	}
	if p.marked != 0 {
		k ^= mix(uint64(p.marked) ^ 0x6d61726b65640000)
	}
	return k
}

func boolBit(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// sameState reports whether p and q are the same position for repetition:
// everything but the counters.
func (p *Position) sameState(q *Position) bool {
	a, b := *p, *q
	a.quiet, a.ply, b.quiet, b.ply = 0, 0, 0, 0
	return a == b
}

// Play returns the position after m. It does not check that m is legal:
// use Check, Legal or Moves for moves that come from outside.
func (p Position) Play(m Move) Position {
	r := p.rules
	o := &r.opts
	np := p
	us := p.side
	them := us ^ 1
	next := them
	victim := them
	switch m.kind {
	case PlaceMove:
		np.occ[us] |= 1 << m.to
		np.hand[us]--
		np.pieceKey ^= zobPiece[us][m.to]
		np.quiet = 0
		if o.PlacingCaptures == CaptureFromHand {
			np.hand[them] -= uint8(p.handTake(np.occ[us], m.to))
		}
	case SlideMove:
		np.occ[us] ^= 1<<m.from | 1<<m.to
		np.pieceKey ^= zobPiece[us][m.from] ^ zobPiece[us][m.to]
		np.quiet++
	case RemoveMove:
		if p.owe[us] == 0 {
			next = us // a blocked side removes, then moves
		} else if np.owe[us]--; np.owe[us] > 0 {
			next = us
		}
		if p.ownRemoval {
			victim = us
		}
	case PassMove:
		np.quiet++
		// A pass with removals owed: nothing could be taken, and the
		// removals are lost. This pass is not a trapped side's, so it
		// does not set passed.
		np.owe[us] = 0
	}
	marks := m.kind == PlaceMove && o.PlacingCaptures == CaptureMark
	for i := 0; i < int(m.ncap); i++ {
		c := m.caps[i]
		np.occ[victim] &^= 1 << c
		np.pieceKey ^= zobPiece[victim][c]
		np.quiet = 0
		if marks {
			np.marked |= 1 << c
		}
	}
	if np.owe == [2]uint8{} {
		np.ownRemoval = false
	}
	if m.kind == PlaceMove || m.kind == SlideMove {
		if o.OneTimeMills || (o.PlacingCaptures == CaptureDeferred && m.kind == PlaceMove && np.firstMill == 0) {
			lines := r.millsAt(np.occ[us], m.to)
			if o.OneTimeMills {
				np.used[us] |= lines
			}
			if lines != 0 && o.PlacingCaptures == CaptureDeferred && m.kind == PlaceMove && np.firstMill == 0 {
				np.firstMill = 1 + uint8(us)
			}
		}
	}
	if o.ReformBan {
		np.banFrom[us], np.banTo[us] = 0, 0
		if m.kind == SlideMove && r.millsAt(p.occ[us], m.from) != 0 {
			np.banFrom[us], np.banTo[us] = uint8(m.to)+1, uint8(m.from)+1
		}
		// The opponent's ban lapses when its piece is taken or its way back
		// is filled: keep the state canonical for repetition and text.
		if f := np.banFrom[them]; f != 0 {
			if np.occ[them]&(1<<(f-1)) == 0 || np.occupied()&(1<<(np.banTo[them]-1)) != 0 {
				np.banFrom[them], np.banTo[them] = 0, 0
			}
		}
	}
	np.passed = m.kind == PassMove && p.owe[us] == 0
	np.ply++
	np.side = next
	if m.kind == PlaceMove && np.hand[White] == 0 && np.hand[Black] == 0 {
		np.endPlacing(us)
	}
	return np
}

// handTake returns how many pieces a placement on to, after which the
// mover has own, takes from the opponent's hand (placing-captures=hand):
// one per capture the mill makes, as many as the hand holds; the rest
// come from the board as captures of the move.
func (p *Position) handTake(own uint32, to Point) int {
	r := p.rules
	if r.opts.MillWins || (r.opts.TrapRule && p.passed) {
		return 0
	}
	lines := r.millsAt(own, to)
	if r.opts.OneTimeMills {
		lines &^= p.used[p.side]
	}
	if lines == 0 {
		return 0
	}
	k := 1
	if r.opts.CapturePerMill {
		k = popcount(lines)
	}
	return min(k, int(p.hand[p.side^1]))
}

// endPlacing settles the end of placing after the last placement, made by
// last: the marked pieces leave, the side to move is chosen, and the
// removals that placing leaves owing are set.
func (np *Position) endPlacing(last Color) {
	r := np.rules
	o := &r.opts
	np.marked = 0
	next := last ^ 1
	if o.SecondMovesFirst {
		next = last
	}
	switch o.PlacingCaptures {
	case CaptureDeferred:
		// The first to form a mill removes a piece; if nobody did, the
		// side that placed last (the second player) does.
		remover := last
		if np.firstMill != 0 {
			remover = Color(np.firstMill - 1)
		}
		np.firstMill = 0
		np.owe[remover] = 1
		np.side = remover
		return
	case CaptureCounted, CaptureCountedEach:
		w, b := r.millCount(np.occ[White]), r.millCount(np.occ[Black])
		rw, rb, own := w, b, false
		if o.PlacingCaptures == CaptureCounted {
			rw, rb, own = countedRemovals(w, b)
		}
		np.owe, np.ownRemoval = [2]uint8{uint8(rw), uint8(rb)}, own
	}
	if np.owe == [2]uint8{} && o.FullBoard == FullBoardRemovals && np.occupied() == r.all {
		np.owe = [2]uint8{1, 1}
	}
	if np.owe[next] == 0 && np.owe[next^1] > 0 {
		next ^= 1
	}
	np.side = next
}

// countedRemovals returns the removals white and black owe when placing
// ends with w and b mills on the board (placing-captures=counted, El
// Filja): the smaller count each, and one more for the side with more
// mills; a side without mills still removes one, and the other two then;
// with no mills at all each side removes one of its own pieces.
func countedRemovals(w, b int) (rw, rb int, own bool) {
	switch {
	case w == 0 && b == 0:
		return 1, 1, true
	case b == 0:
		return 2, 1, false
	case w == 0:
		return 1, 2, false
	case w > b:
		return b + 1, b, false
	case b > w:
		return w, w + 1, false
	}
	return w, b, false
}

// occupied returns the points that hold a piece, marked pieces included.
func (p *Position) occupied() uint32 { return p.occ[White] | p.occ[Black] | p.marked }

// SetUp returns a position with the given pieces, side to move and pieces
// in hand, and no capture state; the counters are zero. It is the fast way
// in for tools that enumerate positions (endgame databases).
func (r *Rules) SetUp(white, black Points, side Color, handWhite, handBlack int) (Position, error) {
	switch {
	case white&black != 0 || uint32(white|black)&^r.all != 0:
		return Position{}, fmt.Errorf("%w: pieces overlap or lie off the board", ErrPosition)
	case side > Black:
		return Position{}, fmt.Errorf("%w: no such side", ErrPosition)
	case handWhite < 0 || handBlack < 0 || white.Len()+handWhite > r.opts.Pieces || black.Len()+handBlack > r.opts.Pieces:
		return Position{}, fmt.Errorf("%w: more than %d pieces a side", ErrPosition, r.opts.Pieces)
	}
	p := Position{rules: r, occ: [2]uint32{uint32(white), uint32(black)}, side: side, hand: [2]uint8{uint8(handWhite), uint8(handBlack)}}
	for c := range p.occ {
		for s := p.occ[c]; s != 0; s &= s - 1 {
			p.pieceKey ^= zobPiece[c][lowest(s)]
		}
	}
	return p, nil
}
