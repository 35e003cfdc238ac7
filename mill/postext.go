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
//     black one, a digit a run of empty points, a slash after every eighth
//     point;
//  3. the side to move, w or b;
//  4. the pieces in hand, white's and black's, "9,9";
//  5. the capture state, "-" or a comma-separated list of:
//     xw / xb  white / black must remove a piece now (Shah's deferred capture),
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
	if p.pending != 0 {
		dst = append(dst, 'x', "wb"[p.pending-1])
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
	fields := strings.Fields(s)
	offset := func(field int) int {
		// The byte offset of a field, for error messages.
		i := 0
		for f := 0; f <= field && f < len(fields); f++ {
			j := strings.Index(s[i:], fields[f])
			if f == field {
				return i + j
			}
			i += j + len(fields[f])
		}
		return len(s)
	}
	fail := func(field int, format string, args ...any) (Position, error) {
		return Position{}, &SyntaxError{What: "position", Input: s, Offset: offset(field), Msg: fmt.Sprintf(format, args...)}
	}
	if len(fields) != 7 {
		return fail(len(fields), "want 7 fields (rules board side hands state quiet ply), have %d", len(fields))
	}
	r, err := ParseRules(fields[0])
	if err != nil {
		return fail(0, "%v", err)
	}
	p := Position{rules: r}
	b := r.board
	// The board.
	i := 0
	for _, g := range strings.Split(fields[1], "/") {
		start := i
		for j := 0; j < len(g); j++ {
			switch c := g[j]; {
			case c == 'W' || c == 'B':
				if i >= r.n {
					return fail(1, "more than the %d points of %s", r.n, b.ID)
				}
				if c == 'W' {
					p.occ[White] |= 1 << i
				} else {
					p.occ[Black] |= 1 << i
				}
				i++
			case '1' <= c && c <= '8':
				i += int(c - '0')
			default:
				return fail(1, "%q is not W, B or a digit 1-8", c)
			}
		}
		if i-start != 8 && i != r.n {
			return fail(1, "a group of %d points: want 8 between slashes", i-start)
		}
	}
	if i != r.n {
		return fail(1, "%d points: %s has %d", i, b.ID, r.n)
	}
	switch fields[2] {
	case "w":
	case "b":
		p.side = Black
	default:
		return fail(2, "side to move %q: want w or b", fields[2])
	}
	hw, hb, ok := strings.Cut(fields[3], ",")
	if !ok {
		return fail(3, "pieces in hand %q: want white's and black's, like 9,9", fields[3])
	}
	for c, h := range []string{hw, hb} {
		n, err := strconv.Atoi(h)
		if err != nil || n < 0 || n > r.opts.Pieces {
			return fail(3, "%s has %q in hand: want 0..%d", Color(c), h, r.opts.Pieces)
		}
		if n+popcount(p.occ[c]) > r.opts.Pieces {
			return fail(3, "%s has %d on the board and %d in hand: more than %d pieces", Color(c), popcount(p.occ[c]), n, r.opts.Pieces)
		}
		p.hand[c] = uint8(n)
	}
	o := &r.opts
	if fields[4] != "-" {
		seen := map[string]bool{}
		for _, tok := range strings.Split(fields[4], ",") {
			key := tok
			if k, _, ok := strings.Cut(tok, "="); ok {
				key = k
			}
			if seen[key] {
				return fail(4, "%q given twice", key)
			}
			seen[key] = true
			switch {
			case tok == "xw" || tok == "xb":
				if o.PlacingCaptures != CaptureDeferred {
					return fail(4, "%s: a pending removal needs placing-captures=deferred", tok)
				}
				c := Color(strings.IndexByte("wb", tok[1]))
				if c != p.side {
					return fail(4, "%s: the side that must remove is the side to move", tok)
				}
				if p.hand[White]|p.hand[Black] != 0 {
					return fail(4, "%s: the removal comes when placing is over", tok)
				}
				p.pending = 1 + uint8(c)
			case tok == "mw" || tok == "mb":
				if o.PlacingCaptures != CaptureDeferred {
					return fail(4, "%s: the first mill is recorded only with placing-captures=deferred", tok)
				}
				if p.hand[White]|p.hand[Black] == 0 {
					return fail(4, "%s: the first mill is recorded only while placing", tok)
				}
				p.firstMill = 1 + uint8(strings.IndexByte("wb", tok[1]))
			case tok == "pass":
				if o.Blocked != BlockedPasses {
					return fail(4, "pass: the rules have no passing (blocked=%s)", blockedNames.get(o.Blocked))
				}
				p.passed = true
			case strings.HasPrefix(tok, "bw=") || strings.HasPrefix(tok, "bb="):
				c := Color(strings.IndexByte("wb", tok[1]))
				if !o.ReformBan {
					return fail(4, "%s: the rules have no re-forming ban", tok)
				}
				from, to, ok := strings.Cut(tok[3:], "-")
				pf, ok1 := b.PointByName(from)
				pt, ok2 := b.PointByName(to)
				if !ok || !ok1 || !ok2 || pf == pt {
					return fail(4, "%s: want b%c=POINT-POINT", tok, tok[1])
				}
				if p.occ[c]&(1<<pf) == 0 || (p.occ[0]|p.occ[1])&(1<<pt) != 0 {
					return fail(4, "%s: the %s piece must stand on %s and %s must be empty", tok, c, b.Name(pf), b.Name(pt))
				}
				p.banFrom[c], p.banTo[c] = uint8(pf)+1, uint8(pt)+1
			case strings.HasPrefix(tok, "uw=") || strings.HasPrefix(tok, "ub="):
				c := Color(strings.IndexByte("wb", tok[1]))
				if !o.OneTimeMills {
					return fail(4, "%s: the rules have no one-time mills", tok)
				}
				u, err := strconv.ParseUint(tok[3:], 16, 32)
				if err != nil || u == 0 || u >= 1<<len(r.lines) || strconv.FormatUint(u, 16) != tok[3:] {
					return fail(4, "%s: want a set of mill lines below %d in lower-case hexadecimal", tok, len(r.lines))
				}
				p.used[c] = uint32(u)
			default:
				return fail(4, "unknown capture state %q", tok)
			}
		}
		if p.pending != 0 && p.firstMill != 0 {
			return fail(4, "a pending removal and a first mill cannot stand together")
		}
	}
	for k, f := range fields[5:] {
		n, err := strconv.Atoi(f)
		if err != nil || n < 0 || n > 65535 || strconv.Itoa(n) != f {
			return fail(5+k, "%q: want a count 0..65535", f)
		}
		if k == 0 {
			p.quiet = uint16(n)
		} else {
			p.ply = uint16(n)
		}
	}
	for c := range p.occ {
		for s := p.occ[c]; s != 0; s &= s - 1 {
			p.pieceKey ^= zobPiece[c][lowest(s)]
		}
	}
	return p, nil
}
