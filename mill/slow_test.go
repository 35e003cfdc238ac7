package mill

import (
	"fmt"
	"strings"
)

// This file is the slow, obviously correct twin of the rules: a reference
// written from RULES.md and the Options docs, not from the fast code. It uses
// a plain array for the board, lists of neighbours and of mill lines derived
// with plain loops from the public board data, and no bit tricks beyond
// what the conversions to and from Position need. The differential tests
// (random_test.go) check the fast code against it on random games.
//
// Where RULES.md leaves the state representation open (the re-forming ban as
// "the piece now on X left Y", the Shah counters), the twin keeps the same
// representation as Position so that whole positions can be compared.

const slowEmpty int8 = -1

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
	board     [MaxPoints]int8 // -1 empty, 0 white, 1 black
	hand      [2]int
	side      int
	pending   int // the side that must remove a piece now (Shah), or -1
	firstMill int // the side that formed the first mill while placing (Shah), or -1
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
	}
	s.hand = [2]int{int(p.hand[0]), int(p.hand[1])}
	s.side = int(p.side)
	s.pending = int(p.pending) - 1
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
		if c := s.board[pt]; c != slowEmpty {
			p.occ[c] |= 1 << pt
			p.pieceKey ^= zobPiece[c][pt]
		}
	}
	p.hand = [2]uint8{uint8(s.hand[0]), uint8(s.hand[1])}
	p.side = Color(s.side)
	p.pending = uint8(s.pending + 1)
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
		if c := s.board[pt]; c != slowEmpty {
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
	return c >= 0 && len(sr.millsThrough(board, c, pt)) > 0
}

// capturable lists the pieces of victim that a capture may take (RULES.md §2).
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

// withCaptures returns base, once per set of pieces it may take. after is
// the board after the piece of c has arrived on to.
func (sr *slowRules) withCaptures(s *slowState, c int, base Move, after [MaxPoints]int8, to int, captures bool) []Move {
	if !captures {
		return []Move{base}
	}
	var closed int
	for _, l := range sr.millsThrough(&after, c, to) {
		if sr.opts.OneTimeMills && s.used[c][l] {
			continue // this line has captured for c before
		}
		closed++
	}
	if closed == 0 {
		return []Move{base}
	}
	want := 1
	if sr.opts.CapturePerMill {
		want = closed
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
// of the game and passing.
func (sr *slowRules) turns(s *slowState, c int) []Move {
	var out []Move
	if s.pending == c {
		targets := sr.capturable(&s.board, 1-c)
		if len(targets) == 0 {
			return []Move{Pass} // the removal is lost
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
		for _, to := range empties {
			if sr.opts.CentreBan && first && to == sr.centre {
				continue
			}
			after := s.board
			after[to] = int8(c)
			out = append(out, sr.withCaptures(s, c, Place(Point(to)), after, to, captures && sr.opts.PlacingCaptures == CaptureImmediate)...)
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
			out = append(out, sr.withCaptures(s, c, Slide(Point(from), Point(to)), after, to, captures)...)
		}
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
	if sr.opts.FullBoard == FullBoardDraw && s.pending < 0 && len(sr.empties(&s.board)) == 0 {
		return Draw, FullBoard, nil
	}
	if ms := sr.turns(s, us); len(ms) > 0 {
		return NoOutcome, NoMethod, ms
	}
	if len(sr.turns(s, them)) == 0 {
		if sr.opts.Gridlock == GridlockDraw {
			return Draw, Gridlock, nil
		}
		return Won(Color(them)), Gridlock, nil
	}
	switch sr.opts.Blocked {
	case BlockedLoses:
		return Won(Color(them)), Blocked, nil
	case BlockedDraw:
		return Draw, Blocked, nil
	}
	return NoOutcome, NoMethod, []Move{Pass} // the blocked side passes
}

// play returns the state after m, which must be legal.
func (sr *slowRules) play(s slowState, m Move) slowState {
	o := &sr.opts
	n := s
	us, them := s.side, 1-s.side
	to := int(m.To())
	lostRemoval := m.Kind() == PassMove && s.pending == us
	switch m.Kind() {
	case PlaceMove:
		n.board[to] = int8(us)
		n.hand[us]--
	case SlideMove:
		n.board[m.From()] = slowEmpty
		n.board[to] = int8(us)
	case RemoveMove:
		n.pending = -1
	case PassMove:
		if lostRemoval {
			n.pending = -1 // nothing may be taken: the removal is lost
		}
	}
	for i := 0; i < m.NumCaptures(); i++ {
		n.board[m.Capture(i)] = slowEmpty
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
	n.passed = m.Kind() == PassMove && !lostRemoval
	n.ply++
	n.side = them
	if o.PlacingCaptures == CaptureDeferred && m.Kind() == PlaceMove && n.hand[0] == 0 && n.hand[1] == 0 {
		// Placing is over: the first to have formed a mill removes a
		// piece; with no mill, the player who placed second, who has
		// just placed the last piece.
		remover := us
		if n.firstMill >= 0 {
			remover = n.firstMill
		}
		n.firstMill = -1
		n.pending = remover
		n.side = remover
	}
	return n
}

// text prints the twin's state for failure messages.
func (sr *slowRules) text(s slowState) string {
	var b strings.Builder
	for pt := 0; pt < sr.n; pt++ {
		b.WriteByte(".WB"[s.board[pt]+1])
		if pt%8 == 7 && pt != sr.n-1 {
			b.WriteByte('/')
		}
	}
	fmt.Fprintf(&b, " side=%d hand=%v pending=%d firstMill=%d passed=%v ban=%v-%v quiet=%d ply=%d used=",
		s.side, s.hand, s.pending, s.firstMill, s.passed, s.banFrom, s.banTo, s.quiet, s.ply)
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
