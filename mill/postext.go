package mill

import (
	"fmt"
	"strconv"
	"strings"
)

// Position text is one line of seven fields separated by spaces:
//
//	nine-mens-morris W2B4/8/8 w 8,8 - 0 2
//
//  1. the rules: the preset and its overrides, as Rules.String prints them;
//  2. the board: the points in board order (ring by ring from the outside,
//     each ring counter-clockwise from its bottom-left corner, then the
//     centre if the board has one, see ringBoard), W a white piece, B a
//     black one, X a marked piece (placing-captures=mark, while placing),
//     a digit a run of empty points, a slash after every eighth point;
//  3. the side to move, w or b;
//  4. the pieces in hand, white's and black's, "9,9";
//  5. the capture state, "-" or a comma-separated list of:
//     xw / xb  white / black must remove a piece now (Shah's deferred
//              capture, the removals at the end of placing); xw3: three,
//     own      the removals owed take the remover's own pieces,
//     mw / mb  white / black formed the first mill while placing (Shah),
//     pass     the last move was a pass,
//     bw=e4-e5 / bb=...  the re-forming ban: that side's piece on e4 broke a
//              mill by leaving e5 and may not re-form it by going back,
//     uw=HEX / ub=HEX  one-time mills: the mill lines the side has formed,
//              a hexadecimal set of line indices (Rules.MillLines order);
//  6. plies without progress (a placement or capture);
//  7. plies played since the start.

// String returns the position text.
func (p Position) String() string { return string(p.AppendText(nil)) }

// MarshalText implements encoding.TextMarshaler.
func (p Position) MarshalText() ([]byte, error) {
	if p.rules == nil {
		return nil, fmt.Errorf("%w: the zero Position", ErrPosition)
	}
	return p.AppendText(nil), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (p *Position) UnmarshalText(text []byte) error {
	q, err := ParsePosition(string(text))
	if err != nil {
		return err
	}
	*p = q
	return nil
}

// AppendText appends the position text to dst.
func (p Position) AppendText(dst []byte) []byte {
	r := p.rules
	if r == nil {
		return append(dst, "(no position)"...)
	}
	dst = append(dst, r.name...)
	dst = append(dst, ' ')
	run := 0
	for i := 0; i < r.n; i++ {
		c := byte(0)
		switch {
		case p.occ[White]&(1<<i) != 0:
			c = 'W'
		case p.occ[Black]&(1<<i) != 0:
			c = 'B'
		case p.marked&(1<<i) != 0:
			c = 'X'
		}
		if c == 0 {
			run++
		} else {
			if run > 0 {
				dst = append(dst, byte('0'+run))
				run = 0
			}
			dst = append(dst, c)
		}
		if i%8 == 7 || i == r.n-1 {
			if run > 0 {
				dst = append(dst, byte('0'+run))
				run = 0
			}
			if i != r.n-1 {
				dst = append(dst, '/')
			}
		}
	}
	dst = append(dst, ' ', "wb"[p.side], ' ')
	dst = strconv.AppendInt(dst, int64(p.hand[White]), 10)
	dst = append(dst, ',')
	dst = strconv.AppendInt(dst, int64(p.hand[Black]), 10)
	dst = append(dst, ' ')
	n := len(dst)
	sep := func() {
		if len(dst) > n {
			dst = append(dst, ',')
		}
	}
	for c := White; c <= Black; c++ {
		if p.owe[c] != 0 {
			sep()
			dst = append(dst, 'x', "wb"[c])
			if p.owe[c] > 1 {
				dst = strconv.AppendInt(dst, int64(p.owe[c]), 10)
			}
		}
	}
	if p.ownRemoval {
		sep()
		dst = append(dst, "own"...)
	}
	if p.firstMill != 0 {
		sep()
		dst = append(dst, 'm', "wb"[p.firstMill-1])
	}
	if p.passed {
		sep()
		dst = append(dst, "pass"...)
	}
	for c := White; c <= Black; c++ {
		if p.banFrom[c] != 0 {
			sep()
			dst = append(dst, 'b', "wb"[c], '=')
			dst = append(dst, r.board.Name(Point(p.banFrom[c]-1))...)
			dst = append(dst, '-')
			dst = append(dst, r.board.Name(Point(p.banTo[c]-1))...)
		}
	}
	for c := White; c <= Black; c++ {
		if p.used[c] != 0 {
			sep()
			dst = append(dst, 'u', "wb"[c], '=')
			dst = strconv.AppendUint(dst, uint64(p.used[c]), 16)
		}
	}
	if len(dst) == n {
		dst = append(dst, '-')
	}
	dst = append(dst, ' ')
	dst = strconv.AppendInt(dst, int64(p.quiet), 10)
	dst = append(dst, ' ')
	dst = strconv.AppendInt(dst, int64(p.ply), 10)
	return dst
}

// MustParsePosition is ParsePosition for texts known to be good; it panics on error.
func MustParsePosition(s string) Position {
	p, err := ParsePosition(s)
	if err != nil {
		panic(err)
	}
	return p
}

// ParsePosition parses a position text (see Position.String). Besides the
// syntax it checks that the position can stand under its rules: piece counts,
// the capture state, the counters.
func ParsePosition(s string) (Position, error) {
	pp := posParser{s: s, fields: strings.Fields(s)}
	if len(pp.fields) != 7 {
		return Position{}, pp.fail(len(pp.fields), "want 7 fields (rules board side hands state quiet ply), have %d", len(pp.fields))
	}
	r, err := ParseRules(pp.fields[0])
	if err != nil {
		return Position{}, pp.fail(0, "%v", err)
	}
	pp.p = Position{rules: r}
	for _, step := range []func() error{pp.board, pp.side, pp.hands, pp.state, pp.counters} {
		if err := step(); err != nil {
			return Position{}, err
		}
	}
	p := pp.p
	for c := range p.occ {
		for s := p.occ[c]; s != 0; s &= s - 1 {
			p.pieceKey ^= zobPiece[c][lowest(s)]
		}
	}
	return p, nil
}

// posParser reads the fields of a position text into p, one field a method.
type posParser struct {
	s      string
	fields []string
	p      Position
}

// fail returns the error of field, with its byte offset in the input.
func (pp *posParser) fail(field int, format string, args ...any) error {
	return &SyntaxError{What: "position", Input: pp.s, Offset: pp.offset(field), Msg: fmt.Sprintf(format, args...)}
}

// offset returns the byte offset of a field, for error messages.
func (pp *posParser) offset(field int) int {
	i := 0
	for f := 0; f <= field && f < len(pp.fields); f++ {
		j := strings.Index(pp.s[i:], pp.fields[f])
		if f == field {
			return i + j
		}
		i += j + len(pp.fields[f])
	}
	return len(pp.s)
}

// board reads field 2: the points in board order in groups of eight.
func (pp *posParser) board() error {
	p := &pp.p
	r := p.rules
	marks := r.opts.PlacingCaptures == CaptureMark
	i := 0
	for _, g := range strings.Split(pp.fields[1], "/") {
		start := i
		for j := 0; j < len(g); j++ {
			c := g[j]
			switch {
			case c == 'W' || c == 'B' || c == 'X' && marks:
				if i >= r.n {
					return pp.fail(1, "more than the %d points of %s", r.n, r.board.ID)
				}
				switch c {
				case 'W':
					p.occ[White] |= 1 << i
				case 'B':
					p.occ[Black] |= 1 << i
				default:
					p.marked |= 1 << i
				}
				i++
			case '1' <= c && c <= '8':
				i += int(c - '0')
			case marks:
				return pp.fail(1, "%q is not W, B, X or a digit 1-8", c)
			default:
				return pp.fail(1, "%q is not W, B or a digit 1-8", c)
			}
		}
		if i-start != 8 && i != r.n {
			return pp.fail(1, "a group of %d points: want 8 between slashes", i-start)
		}
	}
	if i != r.n {
		return pp.fail(1, "%d points: %s has %d", i, r.board.ID, r.n)
	}
	return nil
}

// side reads field 3, the side to move.
func (pp *posParser) side() error {
	switch pp.fields[2] {
	case "w":
	case "b":
		pp.p.side = Black
	default:
		return pp.fail(2, "side to move %q: want w or b", pp.fields[2])
	}
	return nil
}

// hands reads field 4, the pieces in hand, and checks the counts of pieces.
func (pp *posParser) hands() error {
	p := &pp.p
	pieces := p.rules.opts.Pieces
	hw, hb, ok := strings.Cut(pp.fields[3], ",")
	if !ok {
		return pp.fail(3, "pieces in hand %q: want white's and black's, like 9,9", pp.fields[3])
	}
	for c, h := range []string{hw, hb} {
		n, err := strconv.Atoi(h)
		if err != nil || n < 0 || n > pieces {
			return pp.fail(3, "%s has %q in hand: want 0..%d", Color(c), h, pieces)
		}
		if n+popcount(p.occ[c]) > pieces {
			return pp.fail(3, "%s has %d on the board and %d in hand: more than %d pieces", Color(c), popcount(p.occ[c]), n, pieces)
		}
		p.hand[c] = uint8(n)
	}
	if p.marked != 0 {
		if p.hand[White]|p.hand[Black] == 0 {
			return pp.fail(1, "X: marked pieces leave the board when placing ends, and both hands are empty")
		}
		if n := popcount(p.occupied()) + int(p.hand[White]) + int(p.hand[Black]); n > 2*pieces {
			return pp.fail(3, "%d pieces on the board (marked ones included) and in hand: more than %d", n, 2*pieces)
		}
	}
	return nil
}

// state reads field 5, the capture state.
func (pp *posParser) state() error {
	if pp.fields[4] == "-" {
		return nil
	}
	seen := map[string]bool{}
	for _, tok := range strings.Split(pp.fields[4], ",") {
		key := tok
		if k, _, ok := strings.Cut(tok, "="); ok {
			key = k
		} else if len(tok) > 2 && tok[0] == 'x' {
			key = tok[:2]
		}
		if seen[key] {
			return pp.fail(4, "%q given twice", key)
		}
		seen[key] = true
		if err := pp.entry(tok); err != nil {
			return err
		}
	}
	return pp.checkOwed()
}

// entry reads one entry of the capture state.
func (pp *posParser) entry(tok string) error {
	p := &pp.p
	r, b := p.rules, p.rules.board
	o := &r.opts
	switch {
	case strings.HasPrefix(tok, "xw") || strings.HasPrefix(tok, "xb"):
		if !o.PlacingCaptures.removalStage() && o.FullBoard != FullBoardRemovals {
			return pp.fail(4, "%s: removals are owed only with placing-captures=deferred, counted or counted-each, or full-board=removals", tok)
		}
		if p.hand[White]|p.hand[Black] != 0 {
			return pp.fail(4, "%s: the removal comes when placing is over", tok)
		}
		n := 1
		if len(tok) > 2 {
			var err error
			n, err = strconv.Atoi(tok[2:])
			if err != nil || n < 2 || n > o.Pieces || strconv.Itoa(n) != tok[2:] {
				return pp.fail(4, "%s: want %s for one removal, or %s2..%s%d", tok, tok[:2], tok[:2], tok[:2], o.Pieces)
			}
		}
		p.owe[strings.IndexByte("wb", tok[1])] = uint8(n)
	case tok == "own":
		if o.PlacingCaptures != CaptureCounted {
			return pp.fail(4, "own: removals of one's own pieces come only with placing-captures=counted")
		}
		p.ownRemoval = true
	case tok == "mw" || tok == "mb":
		if o.PlacingCaptures != CaptureDeferred {
			return pp.fail(4, "%s: the first mill is recorded only with placing-captures=deferred", tok)
		}
		if p.hand[White]|p.hand[Black] == 0 {
			return pp.fail(4, "%s: the first mill is recorded only while placing", tok)
		}
		p.firstMill = 1 + uint8(strings.IndexByte("wb", tok[1]))
	case tok == "pass":
		if o.Blocked != BlockedPasses {
			return pp.fail(4, "pass: the rules have no passing (blocked=%s)", blockedNames.get(o.Blocked))
		}
		p.passed = true
	case strings.HasPrefix(tok, "bw=") || strings.HasPrefix(tok, "bb="):
		c := Color(strings.IndexByte("wb", tok[1]))
		if !o.ReformBan {
			return pp.fail(4, "%s: the rules have no re-forming ban", tok)
		}
		from, to, ok := strings.Cut(tok[3:], "-")
		pf, ok1 := b.PointByName(from)
		pt, ok2 := b.PointByName(to)
		if !ok || !ok1 || !ok2 || pf == pt {
			return pp.fail(4, "%s: want b%c=POINT-POINT", tok, tok[1])
		}
		if p.occ[c]&(1<<pf) == 0 || p.occupied()&(1<<pt) != 0 {
			return pp.fail(4, "%s: the %s piece must stand on %s and %s must be empty", tok, c, b.Name(pf), b.Name(pt))
		}
		p.banFrom[c], p.banTo[c] = uint8(pf)+1, uint8(pt)+1
	case strings.HasPrefix(tok, "uw=") || strings.HasPrefix(tok, "ub="):
		c := Color(strings.IndexByte("wb", tok[1]))
		if !o.OneTimeMills {
			return pp.fail(4, "%s: the rules have no one-time mills", tok)
		}
		u, err := strconv.ParseUint(tok[3:], 16, 32)
		if err != nil || u == 0 || u >= 1<<len(r.lines) || strconv.FormatUint(u, 16) != tok[3:] {
			return pp.fail(4, "%s: want a set of mill lines below %d in lower-case hexadecimal", tok, len(r.lines))
		}
		p.used[c] = uint32(u)
	default:
		return pp.fail(4, "unknown capture state %q", tok)
	}
	return nil
}

// checkOwed checks the owed removals against the rules and each other: the
// side to move removes first; Shah's removal is one piece by one side, and
// a full board's one piece a side; removals of one's own pieces are one a
// side.
func (pp *posParser) checkOwed() error {
	p := &pp.p
	o := &p.rules.opts
	owes := p.owe != [2]uint8{}
	switch {
	case owes && p.owe[p.side] == 0:
		return pp.fail(4, "the side that must remove is the side to move")
	case owes && p.firstMill != 0:
		return pp.fail(4, "a pending removal and a first mill cannot stand together")
	case p.ownRemoval && !owes:
		return pp.fail(4, "own: no removal is owed")
	case o.PlacingCaptures == CaptureDeferred && owes && p.owe[p.side^1] != 0:
		return pp.fail(4, "the deferred removal is one side's only")
	case (p.ownRemoval || o.PlacingCaptures != CaptureCounted && o.PlacingCaptures != CaptureCountedEach) && (p.owe[White] > 1 || p.owe[Black] > 1):
		return pp.fail(4, "one removal a side at most under these rules")
	}
	return nil
}

// counters reads fields 6 and 7, the plies without progress and the ply.
func (pp *posParser) counters() error {
	for k, f := range pp.fields[5:] {
		n, err := strconv.Atoi(f)
		if err != nil || n < 0 || n > 65535 || strconv.Itoa(n) != f {
			return pp.fail(5+k, "%q: want a count 0..65535", f)
		}
		if k == 0 {
			pp.p.quiet = uint16(n)
		} else {
			pp.p.ply = uint16(n)
		}
	}
	return nil
}
