package mill

import (
	"fmt"
	"strings"
)

// This file is the slow, obviously correct twin of the rules: a reference
// written from docs/rules.md and the Options docs, not from the fast code. It uses
// a plain array for the board, lists of neighbours and of mill lines derived
// with plain loops from the public board data, and no bit tricks beyond
// what the conversions to and from Position need. The differential tests
// (random_test.go) check the fast code against it on random games.
//
// Where docs/rules.md leaves the state representation open (the re-forming ban as
// "the piece now on X left Y", the Shah counters), the twin keeps the same
// representation as Position so that whole positions can be compared.

const (
	slowEmpty  int8 = -1
	slowMarked int8 = 2 // a marked piece (placing-captures=mark): of neither side, not empty
)

// slowRules is a rule set as plain lists: the options, the neighbours of
// each point and the mill lines.
type slowRules struct {
	rules     *Rules // only to build Positions and name points
	opts      Options
	n         int
	neighbour [][]int  // neighbour[p]: the points joined to p by a drawn line
	lines     [][3]int // the lines that form mills under these rules, in board order
	linesAt   [][]int  // linesAt[p]: the indices of the mill lines through p
	centre    int      // the board's centre point, or -1
}

func newSlowRules(r *Rules) *slowRules {
	opts := r.Options()
	b, ok := BoardByID(opts.Board)
	if !ok {
		panic("unknown board " + opts.Board)
	}
	sr := &slowRules{rules: r, opts: opts, n: len(b.Points), centre: -1}
	if b.Centre != NoPoint {
		sr.centre = int(b.Centre)
	}
	sr.neighbour = make([][]int, sr.n)
	for _, e := range b.Edges {
		a, c := int(e[0]), int(e[1])
		sr.neighbour[a] = append(sr.neighbour[a], c)
		sr.neighbour[c] = append(sr.neighbour[c], a)
	}
	for _, l := range b.Lines {
		if l.Diagonal && !opts.DiagonalMills {
			continue // a movement line only
		}
		sr.lines = append(sr.lines, [3]int{int(l.Points[0]), int(l.Points[1]), int(l.Points[2])})
	}
	sr.linesAt = make([][]int, sr.n)
	for i, l := range sr.lines {
		for _, pt := range l {
			sr.linesAt[pt] = append(sr.linesAt[pt], i)
		}
	}
	return sr
}

// slowState is a position of the twin. Colours are 0 (white) and 1
// (black); -1 means none.
type slowState struct {
	board     [MaxPoints]int8 // -1 empty, 0 white, 1 black, 2 marked
	hand      [2]int
	side      int
	owe       [2]int // removals each side must make before anything else (Shah, the end of placing)
	own       bool   // the owed removals take the remover's own pieces
	firstMill int    // the side that formed the first mill while placing (Shah), or -1
	passed    bool
	banFrom   [2]int // re-forming ban: where the piece that broke a mill stands, or -1
	banTo     [2]int // and the point it left
	used      [2][MaxPoints]bool
	quiet     int
	ply       int
}

// slowFromPosition converts a Position to the twin's state.
func (sr *slowRules) fromPosition(p Position) slowState {
	var s slowState
	for i := range s.board {
		s.board[i] = slowEmpty
	}
	for pt := 0; pt < sr.n; pt++ {
		for c := 0; c < 2; c++ {
			if p.occ[c]&(1<<pt) != 0 {
				s.board[pt] = int8(c)
			}
		}
		if p.marked&(1<<pt) != 0 {
			s.board[pt] = slowMarked
		}
	}
	s.hand = [2]int{int(p.hand[0]), int(p.hand[1])}
	s.side = int(p.side)
	s.owe = [2]int{int(p.owe[0]), int(p.owe[1])}
	s.own = p.ownRemoval
	s.firstMill = int(p.firstMill) - 1
	s.passed = p.passed
	for c := 0; c < 2; c++ {
		s.banFrom[c] = int(p.banFrom[c]) - 1
		s.banTo[c] = int(p.banTo[c]) - 1
		for l := range sr.lines {
			s.used[c][l] = p.used[c]&(1<<l) != 0
		}
	}
	s.quiet, s.ply = int(p.quiet), int(p.ply)
	return s
}

// position converts the twin's state to a Position, its piece key computed
// from the whole board.
func (sr *slowRules) position(s slowState) Position {
	p := Position{rules: sr.rules}
	for pt := 0; pt < sr.n; pt++ {
		switch c := s.board[pt]; c {
		case slowEmpty:
		case slowMarked:
			p.marked |= 1 << pt
		default:
			p.occ[c] |= 1 << pt
			p.pieceKey ^= zobPiece[c][pt]
		}
	}
	p.hand = [2]uint8{uint8(s.hand[0]), uint8(s.hand[1])}
	p.side = Color(s.side)
	p.owe = [2]uint8{uint8(s.owe[0]), uint8(s.owe[1])}
	p.ownRemoval = s.own
	p.firstMill = uint8(s.firstMill + 1)
	p.passed = s.passed
	for c := 0; c < 2; c++ {
		p.banFrom[c] = uint8(s.banFrom[c] + 1)
		p.banTo[c] = uint8(s.banTo[c] + 1)
		for l := range sr.lines {
			if s.used[c][l] {
				p.used[c] |= 1 << l
			}
		}
	}
	p.quiet, p.ply = uint16(s.quiet), uint16(s.ply)
	return p
}

// key is the Zobrist key from scratch: the pieces from the whole board, the
// rest by stateKey's convention.
func (sr *slowRules) key(s slowState) uint64 {
	var k uint64
	for pt := 0; pt < sr.n; pt++ {
		if c := s.board[pt]; c == 0 || c == 1 {
			k ^= zobPiece[c][pt]
		}
	}
	p := sr.position(s)
	return k ^ p.stateKey()
}

func (sr *slowRules) onBoard(s *slowState, c int) int {
	n := 0
	for pt := 0; pt < sr.n; pt++ {
		if int(s.board[pt]) == c {
			n++
		}
	}
	return n
}

func (sr *slowRules) empties(board *[MaxPoints]int8) []int {
	var out []int
	for pt := 0; pt < sr.n; pt++ {
		if board[pt] == slowEmpty {
			out = append(out, pt)
		}
	}
	return out
}

// millsThrough returns the mill lines through pt that c fills on board.
func (sr *slowRules) millsThrough(board *[MaxPoints]int8, c int, pt int) []int {
	var out []int
	for _, i := range sr.linesAt[pt] {
		l := sr.lines[i]
		if int(board[l[0]]) == c && int(board[l[1]]) == c && int(board[l[2]]) == c {
			out = append(out, i)
		}
	}
	return out
}

func (sr *slowRules) inMill(board *[MaxPoints]int8, pt int) bool {
	c := int(board[pt])
	return (c == 0 || c == 1) && len(sr.millsThrough(board, c, pt)) > 0
}

// capturable lists the pieces of victim that a capture may take (docs/rules.md, "The game in brief" and the capture options).
func (sr *slowRules) capturable(board *[MaxPoints]int8, victim int) []int {
	var all, loose []int
	for pt := 0; pt < sr.n; pt++ {
		if int(board[pt]) != victim {
			continue
		}
		all = append(all, pt)
		if !sr.inMill(board, pt) {
			loose = append(loose, pt)
		}
	}
	switch sr.opts.Protection {
	case ProtectNone:
		return all
	case ProtectAlways:
		return loose
	default: // unless all in mills
		if len(loose) > 0 {
			return loose
		}
		return all
	}
}

// flying: the rules allow it, c has nothing in hand and at most FlyAt on the board.
func (sr *slowRules) flying(s *slowState, c int) bool {
	return sr.opts.FlyAt > 0 && s.hand[c] == 0 && sr.onBoard(s, c) <= sr.opts.FlyAt
}

// banned: the piece that broke a mill by leaving banTo may not go straight
// back and re-form it on its owner's next turn.
func (sr *slowRules) banned(s *slowState, c, from, to int) bool {
	if !sr.opts.ReformBan || s.banFrom[c] != from || s.banTo[c] != to {
		return false
	}
	after := s.board
	after[from], after[to] = slowEmpty, int8(c)
	return len(sr.millsThrough(&after, c, to)) > 0
}

// closedTakes returns how many pieces the arrival of c's piece on to
// takes (after is the board after it): one, or one per mill closed, or
// none if it closes no mill that may take.
func (sr *slowRules) closedTakes(s *slowState, c int, after *[MaxPoints]int8, to int) int {
	var closed int
	for _, l := range sr.millsThrough(after, c, to) {
		if sr.opts.OneTimeMills && s.used[c][l] {
			continue // this line has captured for c before
		}
		closed++
	}
	if closed > 1 && !sr.opts.CapturePerMill {
		return 1
	}
	return closed
}

// withCaptures returns base, once per set of pieces it may take. after is
// the board after the piece of c has arrived on to; the first fromHand
// pieces a mill takes come from the opponent's hand (placing-captures=hand)
// and are not part of the move.
func (sr *slowRules) withCaptures(s *slowState, c int, base Move, after [MaxPoints]int8, to int, captures bool, fromHand int) []Move {
	if !captures {
		return []Move{base}
	}
	want := sr.closedTakes(s, c, &after, to)
	want -= min(want, fromHand)
	if want == 0 {
		return []Move{base}
	}
	// Each capture is chosen among what may be taken after the ones
	// before; a move is the set of pieces it takes, whatever the order.
	seen := map[[MaxPoints]bool]bool{}
	var out []Move
	var choose func(board [MaxPoints]int8, taken [MaxPoints]bool, left int)
	choose = func(board [MaxPoints]int8, taken [MaxPoints]bool, left int) {
		targets := sr.capturable(&board, 1-c)
		if left > 0 && len(targets) > 0 {
			for _, t := range targets {
				b2, t2 := board, taken
				b2[t], t2[t] = slowEmpty, true
				choose(b2, t2, left-1)
			}
			return
		}
		if seen[taken] {
			return
		}
		seen[taken] = true
		m := base
		for pt := 0; pt < sr.n; pt++ {
			if taken[pt] {
				m = m.WithCapture(Point(pt))
			}
		}
		out = append(out, m)
	}
	choose(after, [MaxPoints]bool{}, want)
	return out
}

// turns lists the moves c could make if it were c's turn, ignoring the end
// of the game, passing and a blocked side's removals.
func (sr *slowRules) turns(s *slowState, c int) []Move {
	var out []Move
	if s.owe[c] > 0 {
		targets := sr.removalTargets(s, c)
		if len(targets) == 0 {
			return []Move{Pass} // the removals are lost
		}
		for _, t := range targets {
			out = append(out, Remove(Point(t)))
		}
		return out
	}
	// Under mill-wins a mill ends the game and takes nothing.
	captures := !(sr.opts.TrapRule && s.passed && c == s.side) && !sr.opts.MillWins
	empties := sr.empties(&s.board)
	// The centre ban: the very first placement of the game, on an empty
	// board with every piece still in hand, may not go to the centre.
	first := len(empties) == sr.n && s.hand[0] == sr.opts.Pieces && s.hand[1] == sr.opts.Pieces
	if s.hand[c] > 0 {
		placeCaptures, fromHand := captures, 0
		switch sr.opts.PlacingCaptures {
		case CaptureImmediate, CaptureMark:
		case CaptureFromHand:
			fromHand = s.hand[1-c]
		default:
			placeCaptures = false
		}
		for _, to := range empties {
			if sr.opts.CentreBan && first && to == sr.centre {
				continue
			}
			after := s.board
			after[to] = int8(c)
			out = append(out, sr.withCaptures(s, c, Place(Point(to)), after, to, placeCaptures, fromHand)...)
		}
		if !sr.opts.MoveWhilePlacing {
			return out
		}
	}
	fly := sr.flying(s, c)
	for from := 0; from < sr.n; from++ {
		if int(s.board[from]) != c {
			continue
		}
		dests := sr.neighbour[from]
		if fly {
			dests = empties
		}
		for _, to := range dests {
			if s.board[to] != slowEmpty || sr.banned(s, c, from, to) {
				continue
			}
			after := s.board
			after[from], after[to] = slowEmpty, int8(c)
			out = append(out, sr.withCaptures(s, c, Slide(Point(from), Point(to)), after, to, captures, 0)...)
		}
	}
	return out
}

// removalTargets lists what c removes by a removal move: its own pieces
// when the owed removals are of one's own; while c cannot move under
// blocked=removes, the opposing pieces next to one of c's, protected or
// not; else what a capture may take.
func (sr *slowRules) removalTargets(s *slowState, c int) []int {
	if s.own {
		var out []int
		for pt := 0; pt < sr.n; pt++ {
			if int(s.board[pt]) == c {
				out = append(out, pt)
			}
		}
		return out
	}
	if sr.opts.Blocked == BlockedRemoves && !sr.mobile(s, c) {
		var out []int
		for pt := 0; pt < sr.n; pt++ {
			if int(s.board[pt]) != 1-c {
				continue
			}
			for _, q := range sr.neighbour[pt] {
				if int(s.board[q]) == c {
					out = append(out, pt)
					break
				}
			}
		}
		return out
	}
	return sr.capturable(&s.board, 1-c)
}

// mobile reports whether c could place or move a piece, removals aside.
func (sr *slowRules) mobile(s *slowState, c int) bool {
	rest := *s
	rest.owe = [2]int{}
	return len(sr.turns(&rest, c)) > 0
}

// blockedRemovals lists the removals of a side that cannot move under
// blocked=removes: it takes a piece to make room, then moves.
func (sr *slowRules) blockedRemovals(s *slowState, c int) []Move {
	if sr.opts.Blocked != BlockedRemoves || s.owe[c] > 0 || sr.mobile(s, c) {
		return nil
	}
	var out []Move
	for _, t := range sr.removalTargets(s, c) {
		out = append(out, Remove(Point(t)))
	}
	return out
}

// status judges the position in the order of the rules: material, no
// progress, a full board that draws, then whether the side to move can move.
func (sr *slowRules) status(s *slowState) (Outcome, Method) {
	o, how, _ := sr.judge(s)
	return o, how
}

// moves lists the legal moves: none when the game is over, a pass for a
// blocked side that the game does not end for.
func (sr *slowRules) moves(s *slowState) []Move {
	_, _, ms := sr.judge(s)
	return ms
}

// judge returns the status and the legal moves.
func (sr *slowRules) judge(s *slowState) (Outcome, Method, []Move) {
	us, them := s.side, 1-s.side
	if sr.onBoard(s, us)+s.hand[us] < sr.opts.MinPieces {
		return Won(Color(them)), Material, nil
	}
	if sr.onBoard(s, them)+s.hand[them] < sr.opts.MinPieces {
		return Won(Color(us)), Material, nil
	}
	if sr.opts.MillWins {
		// A mill wins: the side that just moved made it; a mill of the
		// side to move can only come from a set-up position.
		for _, c := range []int{them, us} {
			for _, l := range sr.lines {
				if int(s.board[l[0]]) == c && int(s.board[l[1]]) == c && int(s.board[l[2]]) == c {
					return Won(Color(c)), MillFormed, nil
				}
			}
		}
	}
	if sr.opts.DrawAfter > 0 && s.quiet >= sr.opts.DrawAfter {
		return Draw, NoProgress, nil
	}
	if len(sr.empties(&s.board)) == 0 && s.owe == [2]int{} {
		switch sr.opts.FullBoard {
		case FullBoardDraw:
			return Draw, FullBoard, nil
		case FullBoardFirstLoses:
			// The first player placed first; after placing the side to
			// move is the first player, or the second under
			// second-moves-first.
			first := us
			if sr.opts.SecondMovesFirst {
				first = them
			}
			return Won(Color(1 - first)), FullBoard, nil
		}
	}
	if ms := sr.turns(s, us); len(ms) > 0 {
		return NoOutcome, NoMethod, ms
	}
	if ms := sr.blockedRemovals(s, us); len(ms) > 0 {
		return NoOutcome, NoMethod, ms
	}
	if len(sr.turns(s, them)) == 0 {
		if sr.opts.Gridlock == GridlockDraw {
			return Draw, Gridlock, nil
		}
		return Won(Color(them)), Gridlock, nil
	}
	switch sr.opts.Blocked {
	case BlockedPasses:
		return NoOutcome, NoMethod, []Move{Pass} // the blocked side passes
	case BlockedDraw:
		return Draw, Blocked, nil
	}
	return Won(Color(them)), Blocked, nil
}

// play returns the state after m, which must be legal.
func (sr *slowRules) play(s slowState, m Move) slowState {
	o := &sr.opts
	n := s
	us, them := s.side, 1-s.side
	to := int(m.To())
	owing := s.owe[us] > 0
	next := them
	victim := int8(them)
	switch m.Kind() {
	case PlaceMove:
		n.board[to] = int8(us)
		n.hand[us]--
		if o.PlacingCaptures == CaptureFromHand && !o.MillWins && !(o.TrapRule && s.passed) {
			// The mill takes from the opponent's hand first.
			n.hand[them] -= min(sr.closedTakes(&s, us, &n.board, to), s.hand[them])
		}
	case SlideMove:
		n.board[m.From()] = slowEmpty
		n.board[to] = int8(us)
	case RemoveMove:
		switch {
		case !owing:
			next = us // a blocked side removes to make room, then moves
		case n.owe[us] > 1:
			n.owe[us]--
			next = us
		default:
			n.owe[us] = 0
		}
		if s.own {
			victim = int8(us)
		}
	case PassMove:
		n.owe[us] = 0 // nothing may be taken: the removals are lost
	}
	for i := 0; i < m.NumCaptures(); i++ {
		c := m.Capture(i)
		if int(n.board[c]) != int(victim) {
			panic("the slow twin: a capture of no piece of the victim")
		}
		n.board[c] = slowEmpty
		if m.Kind() == PlaceMove && o.PlacingCaptures == CaptureMark {
			n.board[c] = slowMarked // out of play until placing ends
		}
	}
	if n.owe == [2]int{} {
		n.own = false
	}
	// Placements and captures are progress.
	if m.Kind() == PlaceMove || m.NumCaptures() > 0 {
		n.quiet = 0
	} else {
		n.quiet++
	}
	if m.Kind() == PlaceMove || m.Kind() == SlideMove {
		formed := sr.millsThrough(&n.board, us, to)
		if o.OneTimeMills {
			for _, l := range formed {
				n.used[us][l] = true
			}
		}
		if o.PlacingCaptures == CaptureDeferred && m.Kind() == PlaceMove && n.firstMill < 0 && len(formed) > 0 {
			n.firstMill = us
		}
	}
	if o.ReformBan {
		// The ban lasts for its owner's next turn only.
		n.banFrom[us], n.banTo[us] = -1, -1
		if m.Kind() == SlideMove && sr.inMill(&s.board, int(m.From())) {
			n.banFrom[us], n.banTo[us] = to, int(m.From())
		}
		// The opponent's ban can no longer apply once its piece is gone
		// or its way back is filled: the state forgets it, so that the
		// same situation has one key and one text.
		if f := n.banFrom[them]; f >= 0 && (int(n.board[f]) != them || n.board[n.banTo[them]] != slowEmpty) {
			n.banFrom[them], n.banTo[them] = -1, -1
		}
	}
	// A pass by a blocked side marks its opponent's next move (the trap
	// rule); a lost removal is not a trapped side passing.
	n.passed = m.Kind() == PassMove && !owing
	n.ply++
	n.side = next
	if m.Kind() == PlaceMove && n.hand[0] == 0 && n.hand[1] == 0 {
		sr.placingEnds(&n, us)
	}
	return n
}

// placingEnds applies the end of placing, after the last piece was placed
// by last.
func (sr *slowRules) placingEnds(n *slowState, last int) {
	o := &sr.opts
	for pt := 0; pt < sr.n; pt++ {
		if n.board[pt] == slowMarked {
			n.board[pt] = slowEmpty // the marked pieces leave together
		}
	}
	if o.PlacingCaptures == CaptureDeferred {
		// The first to have formed a mill removes a piece; with no
		// mill, the player who placed second, who has just placed the
		// last piece.
		remover := last
		if n.firstMill >= 0 {
			remover = n.firstMill
		}
		n.firstMill = -1
		n.owe[remover] = 1
		n.side = remover
		return
	}
	first := 1 - last // the side that moves first
	if o.SecondMovesFirst {
		first = last
	}
	if o.PlacingCaptures == CaptureCounted || o.PlacingCaptures == CaptureCountedEach {
		var mills [2]int
		for _, l := range sr.lines {
			for c := 0; c < 2; c++ {
				if int(n.board[l[0]]) == c && int(n.board[l[1]]) == c && int(n.board[l[2]]) == c {
					mills[c]++
				}
			}
		}
		n.owe = mills
		if o.PlacingCaptures == CaptureCounted {
			n.owe, n.own = slowCounted(mills)
		}
	}
	if n.owe == [2]int{} && o.FullBoard == FullBoardRemovals && len(sr.empties(&n.board)) == 0 {
		n.owe = [2]int{1, 1}
	}
	if n.owe[first] == 0 && n.owe[1-first] > 0 {
		first = 1 - first // only the other side owes: it removes, then moves
	}
	n.side = first
}

// slowCounted returns the removals each side owes when placing ends with
// mills[c] mills of each side on the board (El Filja, placing-captures=
// counted), and whether they are of one's own pieces.
func slowCounted(mills [2]int) (owe [2]int, own bool) {
	lo, hi := min(mills[0], mills[1]), max(mills[0], mills[1])
	switch {
	case hi == 0: // no mills: each removes one of its own
		return [2]int{1, 1}, true
	case lo == hi: // as many each: that many each
		return mills, false
	case lo == 0: // mills on one side only: two for it, one for the other
		lo, hi = 1, 2
	default: // the side with more removes one more than the other
		hi = lo + 1
	}
	if mills[0] > mills[1] {
		return [2]int{hi, lo}, false
	}
	return [2]int{lo, hi}, false
}

// text prints the twin's state for failure messages.
func (sr *slowRules) text(s slowState) string {
	var b strings.Builder
	for pt := 0; pt < sr.n; pt++ {
		b.WriteByte(".WBX"[s.board[pt]+1])
		if pt%8 == 7 && pt != sr.n-1 {
			b.WriteByte('/')
		}
	}
	fmt.Fprintf(&b, " side=%d hand=%v owe=%v own=%v firstMill=%d passed=%v ban=%v-%v quiet=%d ply=%d used=",
		s.side, s.hand, s.owe, s.own, s.firstMill, s.passed, s.banFrom, s.banTo, s.quiet, s.ply)
	for c := 0; c < 2; c++ {
		b.WriteByte('[')
		for l := range sr.lines {
			if s.used[c][l] {
				fmt.Fprintf(&b, " %d", l)
			}
		}
		b.WriteByte(']')
	}
	return b.String()
}

// perft counts the move sequences of exactly depth turns from s, as Perft
// does, with the twin's own moves and play.
func (sr *slowRules) perft(s slowState, depth int) uint64 {
	ms := sr.moves(&s)
	if depth == 1 {
		return uint64(len(ms))
	}
	var n uint64
	for _, m := range ms {
		n += sr.perft(sr.play(s, m), depth-1)
	}
	return n
}
