package mill

import (
	"math/bits"
	"strings"
)

// Dialect selects a move notation.
type Dialect uint8

const (
	// Standard is the notation of docs/rules.md ("Move notation"): "d6", "d6-d5", "a4-a7xd2",
	// "d3xg1", "d3xg1xf4", "xd2" (a removal only), "pass".
	Standard Dialect = iota
	// Pbm is the dialect of the pbmserv play-by-mail server: upper case, a comma before each
	// capture: "D2", "D2-F2", "D3,G1", "A7-D7,B2", "X,D2", "PASS".
	Pbm
)

// MoveText returns m in the given dialect on board b.
func (b *Board) MoveText(m Move, d Dialect) string {
	return string(b.AppendMove(nil, m, d))
}

// AppendMove appends the text of m to dst.
func (b *Board) AppendMove(dst []byte, m Move, d Dialect) []byte {
	name := func(dst []byte, p Point) []byte {
		n := b.Name(p)
		if d == Pbm {
			return append(dst, strings.ToUpper(n)...)
		}
		return append(dst, n...)
	}
	switch m.kind {
	case NoMove:
		return append(dst, "(none)"...)
	case PassMove:
		if d == Pbm {
			return append(dst, "PASS"...)
		}
		return append(dst, "pass"...)
	case RemoveMove:
		if d == Pbm {
			dst = append(dst, 'X')
		}
	case PlaceMove:
		dst = name(dst, m.to)
	case SlideMove:
		dst = name(dst, m.from)
		dst = append(dst, '-')
		dst = name(dst, m.to)
	}
	for i := 0; i < int(m.ncap); i++ {
		if d == Pbm {
			dst = append(dst, ',')
		} else {
			dst = append(dst, 'x')
		}
		dst = name(dst, m.caps[i])
	}
	return dst
}

// ParseMove parses a move in either dialect, in any case: the standard
// "a4-a7xd2" and pbmserv's "A4-A7,D2" give the same Move. It checks the
// syntax and the point names, not legality (see Position.Check).
func (b *Board) ParseMove(s string) (Move, error) {
	m, _, err := b.parseMove(s)
	return m, err
}

// Rewrite returns the move s, in either dialect and any case, written again
// in dialect d with its captures in the order s gives them (ParseMove and
// MoveText would put them in board order). It checks what ParseMove checks.
func (b *Board) Rewrite(s string, d Dialect) (string, error) {
	m, order, err := b.parseMove(s)
	if err != nil {
		return "", err
	}
	m.caps = order
	return string(b.AppendMove(nil, m, d)), nil
}

// parseMove is ParseMove that also returns the captures in the order they
// were written.
func (b *Board) parseMove(s string) (m Move, order [MaxCaptures]Point, err error) {
	fail := func(off int, msg string) (Move, [MaxCaptures]Point, error) {
		return Move{}, order, &SyntaxError{What: "move", Input: s, Offset: off, Msg: msg}
	}
	if strings.EqualFold(s, "pass") {
		return Pass, order, nil
	}
	i := 0
	point := func() (Point, bool) {
		j := i
		if j < len(s) && isLetter(s[j]) {
			j++
		} else {
			return 0, false
		}
		for j < len(s) && '0' <= s[j] && s[j] <= '9' && j-i < 3 {
			j++
		}
		p, ok := b.PointByName(s[i:j])
		if !ok {
			return 0, false
		}
		i = j
		return p, true
	}
	isCapture := func(c byte) bool { return c == 'x' || c == 'X' || c == ',' }
	switch {
	case s == "":
		return fail(0, "empty move")
	case isCapture(s[0]):
		// A removal only: "xd2", "X,D2", ",D2".
		i++
		if i < len(s) && s[i] == ',' && s[0] != ',' {
			i++
		}
		p, ok := point()
		if !ok {
			return fail(i, "want the point of the piece to remove")
		}
		m = Remove(p)
		if i != len(s) {
			return fail(i, "a removal takes one piece")
		}
		return m, m.caps, nil
	}
	to, ok := point()
	if !ok {
		return fail(0, "want a point of board "+b.ID+" (like "+b.Points[0].Name+") or pass")
	}
	m = Place(to)
	if i < len(s) && s[i] == '-' {
		i++
		dest, ok := point()
		if !ok {
			return fail(i, "want the point the piece moves to")
		}
		if dest == to {
			return fail(i, "a piece cannot move to the point it stands on")
		}
		m = Slide(to, dest)
	}
	for i < len(s) {
		if !isCapture(s[i]) {
			return fail(i, "want x or a comma before a capture")
		}
		i++
		p, ok := point()
		if !ok {
			return fail(i, "want the point of the piece to take")
		}
		if m.Captures()&(1<<p) != 0 {
			return fail(i, "the same piece is taken twice")
		}
		if m.NumCaptures() == MaxCaptures {
			return fail(i, "too many captures")
		}
		order[m.ncap] = p
		m = m.WithCapture(p)
	}
	return m, order, nil
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// MoveText returns m in the standard notation, as AppendMove writes it.
func (p Position) MoveText(m Move) string { return string(p.AppendMove(nil, m, Standard)) }

// AppendMove appends the text of m, a move of p, in dialect d. A move that
// takes several pieces (captures=per-mill) names them in an order in which
// each may be taken once the ones before it are gone, so that a reader that
// applies them one at a time finds each legal: "d1xf6xa7" when a7 stands in
// a mill that protects it until f6, the one piece outside a mill, is taken.
// Of those orders it writes the first in board order. Board.AppendMove, which
// has no position, writes the captures in board order; ParseMove reads them
// in any order.
func (p Position) AppendMove(dst []byte, m Move, d Dialect) []byte {
	if m.ncap > 1 {
		var order [MaxCaptures]Point
		if p.rules.orderCaptures(p.occ[p.side^1], uint32(m.Captures()), order[:m.ncap]) {
			copy(m.caps[:], order[:m.ncap])
		}
	}
	return p.rules.board.AppendMove(dst, m, d)
}

// orderCaptures fills out with the pieces of left, the captures of one move,
// in an order in which each is capturable from opp once the ones before it
// are gone, and reports whether there is such an order. It tries the
// capturable pieces in board order, depth first: at most 4! orders.
func (r *Rules) orderCaptures(opp, left uint32, out []Point) bool {
	if left == 0 {
		return true
	}
	for t := left & r.capturable(opp); t != 0; t &= t - 1 {
		c := Point(bits.TrailingZeros32(t))
		out[0] = c
		if r.orderCaptures(opp&^(1<<c), left&^(1<<c), out[1:]) {
			return true
		}
	}
	return false
}

// ParseMove parses a move in either dialect and checks that it is legal here.
func (p Position) ParseMove(s string) (Move, error) {
	m, err := p.rules.board.ParseMove(s)
	if err != nil {
		return Move{}, err
	}
	if err := p.check(m, s); err != nil {
		return Move{}, err
	}
	return m, nil
}

// Legal reports whether m is a legal move in p.
func (p Position) Legal(m Move) bool {
	var buf [256]Move
	for _, l := range p.Moves(buf[:0]) {
		if l == m {
			return true
		}
	}
	return false
}

// LineTexts returns the standard texts of the moves of line played in turn
// from p, as far as they are legal: a principal variation is legal as far
// as it goes, and this guards its text.
func (p Position) LineTexts(line []Move) []string {
	out := make([]string, 0, len(line)) // never nil: a JSON list, not null
	for _, m := range line {
		if !p.Legal(m) {
			break
		}
		out = append(out, p.MoveText(m))
		p = p.Play(m)
	}
	return out
}

// Check returns nil if m is legal in p, or an error that says why not,
// wrapping ErrIllegalMove (or ErrGameOver when the game is over).
func (p Position) Check(m Move) error {
	return p.check(m, p.MoveText(m))
}

func (p *Position) check(m Move, text string) error {
	if p.Legal(m) {
		return nil
	}
	if o, how := p.Status(); o != NoOutcome {
		return &GameOverError{Outcome: o, Method: how}
	}
	return &MoveError{Move: text, Reason: p.whyIllegal(m)}
}

// GameOverError is the error of a move played after the end of the game.
type GameOverError struct {
	Outcome Outcome
	Method  Method
}

func (e *GameOverError) Error() string {
	return "the game is over: " + e.Outcome.String() + " by " + e.Method.String()
}

func (e *GameOverError) Unwrap() error { return ErrGameOver }

// whyIllegal explains why an illegal move is illegal, in a player's words.
func (p *Position) whyIllegal(m Move) string {
	r := p.rules
	for _, pt := range []Point{m.from, m.to} {
		if pt != NoPoint && int(pt) >= r.n {
			return "no such point"
		}
	}
	if why, ok := p.whyNotRemoval(m); ok {
		return why
	}
	if why := p.whyNotMove(m); why != "" {
		return why
	}
	return p.whyWrongCaptures(m)
}

// whyNotRemoval explains a move that is wrong because a removal is due
// (owed, or a blocked side's under blocked=removes) or because it is a
// removal; ok is false for the other moves.
func (p *Position) whyNotRemoval(m Move) (why string, ok bool) {
	r, b := p.rules, p.rules.board
	us, them := p.side, p.side^1
	blocked := r.opts.Blocked == BlockedRemoves && p.owe[us] == 0 && !p.mobile(us)
	due := p.owe[us] > 0 || blocked
	targets := p.removalTargets()
	example := "x" + b.Name(lowest(targets))
	switch {
	case !due && m.kind != RemoveMove:
		return "", false
	case !due:
		return "no capture is pending: a piece is taken only by the move that closes a mill", true
	case m.kind == PassMove && targets != 0:
		return us.String() + " must remove a " + p.removedColor().String() + " piece first, and can", true
	case m.kind != RemoveMove && blocked:
		return us.String() + " cannot move: it removes a " + them.String() + " piece next to one of its own first, like " + example, true
	case m.kind != RemoveMove && p.ownRemoval:
		return us.String() + " must first remove one of its own pieces (no mill stood when placing ended), like " + example, true
	case m.kind != RemoveMove && r.opts.PlacingCaptures == CaptureDeferred:
		return us.String() + " must first remove a " + them.String() + " piece (the capture deferred to the end of placing), like " + example, true
	case m.kind != RemoveMove:
		return us.String() + " must first remove a " + them.String() + " piece (owed when placing ended), like " + example, true
	}
	c := m.caps[0]
	victim := p.removedColor()
	switch {
	case p.occ[victim]&(1<<c) == 0:
		return "there is no " + victim.String() + " piece on " + b.Name(c) + " to remove", true
	case blocked:
		return b.Name(c) + " is not next to a " + us.String() + " piece: a blocked side removes to make room, like " + example, true
	}
	return b.Name(c) + " stands in a mill and may not be taken now", true
}

// removedColor returns the colour of the pieces the side to move removes.
func (p *Position) removedColor() Color {
	if p.ownRemoval {
		return p.side
	}
	return p.side ^ 1
}

// whyNotMove explains a placement, slide or pass that cannot be made,
// captures aside; "" if the move itself could be made.
func (p *Position) whyNotMove(m Move) string {
	r, b := p.rules, p.rules.board
	us := p.side
	own, opp := p.occ[us], p.occ[us^1]
	switch m.kind {
	case PassMove:
		return us.String() + " can move, so cannot pass"
	case PlaceMove:
		if p.hand[us] == 0 {
			return us.String() + " has no pieces in hand: move a piece (from-to)"
		}
		if p.marked&(1<<m.to) != 0 {
			return b.Name(m.to) + " holds a marked piece: nobody may place there until placing ends"
		}
		if (own|opp)&(1<<m.to) != 0 {
			return b.Name(m.to) + " is occupied"
		}
		if p.placeable(1<<m.to) == 0 {
			return "the first placement of the game may not take the centre, " + b.Name(m.to)
		}
	case SlideMove:
		if own&(1<<m.from) == 0 {
			return "no " + us.String() + " piece on " + b.Name(m.from)
		}
		if p.hand[us] > 0 && !r.opts.MoveWhilePlacing {
			return us.String() + " still has pieces in hand: place one"
		}
		if p.occupied()&(1<<m.to) != 0 {
			return b.Name(m.to) + " is occupied"
		}
		if r.adj[m.from]&(1<<m.to) == 0 && !(p.hand[us] == 0 && p.Flying(us)) {
			if r.opts.FlyAt == 0 {
				return b.Name(m.from) + " and " + b.Name(m.to) + " are not neighbours on a line (no flying in these rules)"
			}
			return b.Name(m.from) + " and " + b.Name(m.to) + " are not neighbours on a line (" + us.String() + " may fly only with " + itoa(r.opts.FlyAt) + " pieces or fewer and none in hand)"
		}
		if p.banned(us, m.from, m.to) {
			return "the piece that broke a mill by leaving " + b.Name(m.to) + " may not re-form it on the next turn"
		}
	}
	return ""
}

// whyWrongCaptures explains a placement or slide that could be made but
// names the wrong captures.
func (p *Position) whyWrongCaptures(m Move) string {
	r, b := p.rules, p.rules.board
	us, them := p.side, p.side^1
	own, opp := p.occ[us], p.occ[them]
	captures := !(r.opts.TrapRule && p.passed) && !r.opts.MillWins
	fromHand := 0
	if m.kind == PlaceMove {
		switch r.opts.PlacingCaptures {
		case CaptureImmediate, CaptureMark:
		case CaptureFromHand:
			fromHand = int(p.hand[them])
		default:
			captures = false
		}
	}
	after := own | 1<<m.to
	if m.kind == SlideMove {
		after &^= 1 << m.from
	}
	lines := r.millsAt(after, m.to)
	if r.opts.OneTimeMills {
		lines &^= p.used[us]
	}
	want, closing := 0, 0
	if lines != 0 && captures {
		closing = 1
		if r.opts.CapturePerMill {
			closing = popcount(lines)
		}
		if r.capturable(opp) != 0 {
			want = closing - min(closing, fromHand)
		}
	}
	for i := 0; i < int(m.ncap); i++ {
		c := m.caps[i]
		if p.marked&(1<<c) != 0 {
			return b.Name(c) + " is marked already: a marked piece is not taken twice"
		}
		if opp&(1<<c) == 0 {
			return "there is no " + them.String() + " piece on " + b.Name(c) + " to take"
		}
	}
	switch {
	case want == 0 && m.ncap > 0:
		switch {
		case lines == 0:
			return "the move closes no mill, so it takes nothing"
		case r.opts.MillWins:
			return "a mill wins the game under these rules and takes nothing"
		case !captures && r.opts.TrapRule && p.passed:
			return "the mill takes nothing while " + them.String() + " is trapped"
		case !captures:
			return "mills closed while placing take nothing at once under these rules"
		case closing > 0 && fromHand > 0:
			return "the mill takes a piece from " + them.String() + "'s hand, so the move names no capture"
		default:
			return "every " + them.String() + " piece is protected in a mill, so the capture is lost"
		}
	case want > 0 && m.ncap == 0:
		return "the move closes a mill: name the piece to take, like " + b.MoveText(m.WithCapture(lowest(r.capturable(opp))), Standard)
	}
	if m.ncap > 0 {
		safe := r.inMills(opp) & uint32(m.Captures())
		if safe != 0 {
			return b.Name(lowest(safe)) + " stands in a mill and may not be taken now"
		}
		if int(m.ncap) != want {
			return "the move takes " + itoa(want) + " piece(s) (one per mill closed" + handNote(fromHand) + "), not " + itoa(int(m.ncap))
		}
	}
	return "not legal here"
}

// handNote says that part of a mill's take comes from the opponent's hand.
func handNote(fromHand int) string {
	if fromHand == 0 {
		return ""
	}
	return ", less those taken from the hand"
}

func lowest(s uint32) Point {
	if s == 0 {
		return NoPoint
	}
	return Point(bits.TrailingZeros32(s))
}

func itoa(n int) string {
	if n < 0 {
		return "-" + itoa(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
