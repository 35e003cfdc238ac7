package mill

import "math/bits"

// capturable returns the pieces of opp that a capture may take.
func (r *Rules) capturable(opp uint32) uint32 {
	switch r.opts.Protection {
	case ProtectNone:
		return opp
	case ProtectAlways:
		return opp &^ r.inMills(opp)
	}
	if t := opp &^ r.inMills(opp); t != 0 {
		return t
	}
	return opp
}

// ended reports the ends that need no move generation: material, a mill
// that wins, no progress, a full board that draws.
func (p *Position) ended() bool {
	r := p.rules
	min := r.opts.MinPieces
	if popcount(p.occ[White])+int(p.hand[White]) < min || popcount(p.occ[Black])+int(p.hand[Black]) < min {
		return true
	}
	if r.opts.MillWins && (r.inMills(p.occ[White]) != 0 || r.inMills(p.occ[Black]) != 0) {
		return true
	}
	if r.opts.DrawAfter > 0 && int(p.quiet) >= r.opts.DrawAfter {
		return true
	}
	return p.fullBoardEnds()
}

// fullBoardEnds reports whether the board is full with no removal owed,
// under a full-board rule that ends the game there (draw, first-loses).
func (p *Position) fullBoardEnds() bool {
	fb := p.rules.opts.FullBoard
	return (fb == FullBoardDraw || fb == FullBoardFirstLoses) && p.owe == [2]uint8{} && p.occupied() == p.rules.all
}

// firstPlacer returns the side that placed first, as the side to move on a
// board filled by placing tells it: the side to move, or under
// second-moves-first the other side.
func (p *Position) firstPlacer() Color {
	if p.rules.opts.SecondMovesFirst {
		return p.side ^ 1
	}
	return p.side
}

// banned reports whether the slide from-to by c is forbidden by the
// re-forming ban: the piece that broke a mill may not re-form it at once.
func (p *Position) banned(c Color, from, to Point) bool {
	if p.banFrom[c] != uint8(from)+1 || p.banTo[c] != uint8(to)+1 {
		return false
	}
	return p.rules.millsAt(p.occ[c]&^(1<<from)|1<<to, to) != 0
}

// opening reports whether p is the start of a game: an empty board and
// every piece in hand. The centre ban applies to its placements.
func (p *Position) opening() bool {
	n := uint8(p.rules.opts.Pieces)
	return p.occ[White]|p.occ[Black] == 0 && p.hand[White] == n && p.hand[Black] == n
}

// placeable returns the points where the side to move may place: the empty
// ones, but for the centre at the start of a game under the centre ban.
func (p *Position) placeable(empty uint32) uint32 {
	if r := p.rules; r.opts.CentreBan && p.opening() {
		return empty &^ (1 << r.board.Centre)
	}
	return empty
}

// canMove reports whether c would have a legal move if it were c's turn
// (a blocked side's removal under blocked=removes aside).
func (p *Position) canMove(c Color) bool {
	if p.owe[c] > 0 {
		return true // a removal, or a pass when nothing can be taken
	}
	return p.mobile(c)
}

// mobile reports whether c could place or move a piece, removals aside.
func (p *Position) mobile(c Color) bool {
	own := p.occ[c]
	empty := p.rules.all &^ p.occupied()
	if empty == 0 {
		return false
	}
	if p.hand[c] > 0 || (own != 0 && p.Flying(c)) {
		return true
	}
	for f := own; f != 0; f &= f - 1 {
		from := Point(bits.TrailingZeros32(f))
		t := p.rules.adj[from] & empty
		for ; t != 0; t &= t - 1 {
			if !p.banned(c, from, Point(bits.TrailingZeros32(t))) {
				return true
			}
		}
	}
	return false
}

// Moves appends the legal moves to dst and returns it. It returns no moves
// when the game is over (but for repetition, which only Game knows). With
// room in dst it does not allocate.
func (p Position) Moves(dst []Move) []Move {
	g := generator{p: p, r: p.rules, dst: dst}
	g.run()
	return g.dst
}

// NumMoves returns len(p.Moves(nil)) without building the moves.
func (p Position) NumMoves() int {
	g := generator{p: p, r: p.rules, count: true}
	g.run()
	return g.n
}

// Captures appends to dst the legal moves that take at least one piece
// and returns it: the moves of Moves with NumCaptures() > 0. When a
// removal is pending, or a blocked side must remove (blocked=removes), it
// appends every legal move (the removals, or the pass that loses them). It
// is the generator of a quiescence search: it looks only at the points
// where a mill can close. A placement whose mill takes only from the
// opponent's hand (placing-captures=hand) names no capture and is not
// among them.
func (p Position) Captures(dst []Move) []Move {
	g := generator{p: p, r: p.rules, dst: dst, capturesOnly: true}
	g.run()
	return g.dst
}

// HasMoves reports whether the side to move has a legal move (a pass counts).
func (p Position) HasMoves() bool {
	return !p.ended() && (p.canMove(p.side) || p.passes() || p.blockedRemoval())
}

// blockedRemoval reports whether the side to move cannot move and, under
// blocked=removes, has an opposing piece to remove instead.
func (p *Position) blockedRemoval() bool {
	return p.rules.opts.Blocked == BlockedRemoves && p.owe[p.side] == 0 && !p.mobile(p.side) && p.removalTargets() != 0
}

// removalTargets returns the pieces the side to move may remove by a
// removal move: its own under ownRemoval; while it cannot move under
// blocked=removes, the opposing pieces next to one of its own, in mills or
// not (a removal that makes room); else those a capture may take.
func (p *Position) removalTargets() uint32 {
	r, us := p.rules, p.side
	if p.ownRemoval {
		return p.occ[us]
	}
	if r.opts.Blocked == BlockedRemoves && !p.mobile(us) {
		var near uint32
		for f := p.occ[us]; f != 0; f &= f - 1 {
			near |= r.adj[bits.TrailingZeros32(f)]
		}
		return p.occ[us^1] & near
	}
	return r.capturable(p.occ[us^1])
}

// passes reports whether the side to move, having no move, must pass.
func (p *Position) passes() bool {
	return p.rules.opts.Blocked == BlockedPasses && p.canMove(p.side^1)
}

type generator struct {
	p     Position
	r     *Rules
	dst   []Move
	count bool
	n     int

	// capturesOnly emits only the moves that take pieces; closers is then
	// the superset of the destinations that can close a mill.
	capturesOnly bool
	closers      uint32

	own, opp   uint32 // the pieces before the move
	used       uint32 // one-time mills already used by the mover
	fromHand   int    // placing-captures=hand: the pieces a placement's mill takes from the opponent's hand first
	targets    uint32
	hasTargets bool
}

func (g *generator) emit(m Move) {
	if g.count {
		g.n++
		return
	}
	g.dst = append(g.dst, m)
}

func (g *generator) capturable() uint32 {
	if !g.hasTargets {
		g.targets = g.r.capturable(g.opp)
		g.hasTargets = true
	}
	return g.targets
}

func (g *generator) run() {
	p, r := &g.p, g.r
	if p.ended() {
		return
	}
	us := p.side
	g.own, g.opp = p.occ[us], p.occ[us^1]
	if r.opts.OneTimeMills {
		g.used = p.used[us]
	}
	empty := r.all &^ p.occupied()
	if p.owe[us] > 0 || (r.opts.Blocked == BlockedRemoves && !p.mobile(us)) {
		g.removals()
		return
	}
	captures := !(r.opts.TrapRule && p.passed) && !r.opts.MillWins
	start := g.n + len(g.dst)
	if g.capturesOnly {
		if !captures {
			return
		}
		// A move can close a mill only on an empty point whose line holds
		// two own pieces already (a slide's own piece leaving can only
		// spoil that), or anywhere when flying or placing with moves.
		for i, l := range r.lines {
			if g.used&(1<<i) != 0 {
				continue
			}
			if m := uint32(l) &^ g.own; m&empty == m && m&(m-1) == 0 && m != 0 {
				g.closers |= m
			}
		}
		if g.closers == 0 {
			return
		}
		empty = g.closers
	}
	if p.hand[us] > 0 {
		placeCaptures := captures && g.placingTakes()
		places := p.placeable(empty)
		if g.capturesOnly && !placeCaptures {
			// nothing is taken while placing
		} else if g.count && placeCaptures && !r.opts.CapturePerMill {
			g.countPlacements(places)
		} else {
			for e := places; e != 0; e &= e - 1 {
				to := Point(bits.TrailingZeros32(e))
				g.add(Place(to), g.own|1<<to, placeCaptures)
			}
		}
		if !r.opts.MoveWhilePlacing {
			goto done
		}
	}
	if p.hand[us] == 0 && p.Flying(us) {
		for f := g.own; f != 0; f &= f - 1 {
			from := Point(bits.TrailingZeros32(f))
			for e := empty; e != 0; e &= e - 1 {
				to := Point(bits.TrailingZeros32(e))
				if p.banned(us, from, to) {
					continue
				}
				g.add(Slide(from, to), g.own&^(1<<from)|1<<to, captures)
			}
		}
	} else {
		for f := g.own; f != 0; f &= f - 1 {
			from := Point(bits.TrailingZeros32(f))
			for e := r.adj[from] & empty; e != 0; e &= e - 1 {
				to := Point(bits.TrailingZeros32(e))
				if p.banned(us, from, to) {
					continue
				}
				g.add(Slide(from, to), g.own&^(1<<from)|1<<to, captures)
			}
		}
	}
done:
	if g.n+len(g.dst) == start && !g.capturesOnly && p.passes() {
		g.emit(Pass)
	}
}

// removals emits the moves of a side that owes removals or, under
// blocked=removes, cannot move: one removal per target, or a pass that
// loses the owed removals when nothing may be taken.
func (g *generator) removals() {
	p := &g.p
	t := p.removalTargets()
	if t == 0 && p.owe[p.side] > 0 {
		g.emit(Pass)
	}
	for ; t != 0; t &= t - 1 {
		g.emit(Remove(Point(bits.TrailingZeros32(t))))
	}
}

// placingTakes reports whether a mill closed by a placement can take
// pieces from the board: at once, as marks, or from the board when the
// opponent's hand holds fewer pieces than the mill takes.
func (g *generator) placingTakes() bool {
	switch g.r.opts.PlacingCaptures {
	case CaptureImmediate, CaptureMark:
		return true
	case CaptureFromHand:
		g.fromHand = int(g.p.hand[g.p.side^1])
		return g.r.opts.CapturePerMill || g.fromHand == 0
	}
	return false
}

// countPlacements counts the placements when each closes at most one capture:
// every empty point, plus one move per extra target for each closing point.
func (g *generator) countPlacements(empty uint32) {
	g.n += popcount(empty)
	var closers uint32
	for i, l := range g.r.lines {
		if g.used&(1<<i) != 0 {
			continue
		}
		m := uint32(l) &^ g.own
		if m&empty == m && m != 0 && m&(m-1) == 0 {
			closers |= m
		}
	}
	if closers != 0 {
		if t := popcount(g.capturable()); t > 0 {
			g.n += popcount(closers) * (t - 1)
		}
	}
}

// add emits m, once per way of taking pieces if it closes a mill that captures.
func (g *generator) add(m Move, ownAfter uint32, captures bool) {
	if !captures {
		if !g.capturesOnly {
			g.emit(m)
		}
		return
	}
	lines := g.r.millsAt(ownAfter, m.to) &^ g.used
	if lines == 0 {
		if !g.capturesOnly {
			g.emit(m)
		}
		return
	}
	t := g.capturable()
	if t == 0 {
		if !g.capturesOnly {
			g.emit(m) // every target is protected: the capture is lost
		}
		return
	}
	k := 1
	if g.r.opts.CapturePerMill {
		k = popcount(lines)
	}
	if m.kind == PlaceMove {
		k -= min(k, g.fromHand)
	}
	if k == 0 {
		if !g.capturesOnly {
			g.emit(m) // the mill takes only from the opponent's hand
		}
		return
	}
	if k == 1 {
		if g.count {
			g.n += popcount(t)
			return
		}
		for ; t != 0; t &= t - 1 {
			g.dst = append(g.dst, m.WithCapture(Point(bits.TrailingZeros32(t))))
		}
		return
	}
	// Several captures: each is chosen from what may be taken after the
	// ones before it. Different orders that take the same set are one move.
	var seen multiCaptures
	g.multi(m, &seen, g.opp, 0, k)
}

// multiCaptures holds the sets of captures a move has been emitted with;
// C(12,4) = 495 sets at most.
type multiCaptures struct {
	sets [495]uint32
	n    int
}

func (g *generator) multi(m Move, seen *multiCaptures, opp, taken uint32, k int) {
	t := g.r.capturable(opp)
	if k > 0 && t != 0 {
		for ; t != 0; t &= t - 1 {
			c := uint32(1) << bits.TrailingZeros32(t)
			g.multi(m, seen, opp&^c, taken|c, k-1)
		}
		return
	}
	for _, s := range seen.sets[:seen.n] {
		if s == taken {
			return
		}
	}
	if seen.n < len(seen.sets) {
		seen.sets[seen.n] = taken
		seen.n++
	}
	for s := taken; s != 0; s &= s - 1 {
		m = m.WithCapture(Point(bits.TrailingZeros32(s)))
	}
	g.emit(m)
}
