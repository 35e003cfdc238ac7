package mif

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/morrisgame/morris/mill"
)

// Sanmill's FEN: the position text that Sanmill, the open Mill app, writes
// in the FEN tag of a record that starts from a set-up position. Not MIF,
// but the same state in other words, so it is read through an MFEN record:
//
//	********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1
//
// The fields: the board as three rings of 8 points (the inner ring first,
// each from its top middle point clockwise: d5 e5 e4 e3 d3 c3 c4 c5), O a
// white piece, @ a black one, * an empty point, X a marked one; the side
// to move; the phase (r ready, p placing, m moving, o over); the action
// (p place, s select, r remove); the pieces on the board and in hand of
// white and of black; the removals owed by white and by black; the last
// mill's from and to squares of white and of black (Sanmill's square
// numbers, 0 for none); the mills formed, as a bit mask; the moves
// without a capture; the move number, from 1. Sanmill may add fields for
// its other ways to capture (custodian, intervention, leap), which
// morris does not have.

// sanmillRings are the points in the order of Sanmill's FEN board.
var sanmillRings = [24]string{
	"d5", "e5", "e4", "e3", "d3", "c3", "c4", "c5",
	"d6", "f6", "f4", "f2", "d2", "b2", "b4", "b6",
	"d7", "g7", "g4", "g1", "d1", "a1", "a4", "a7",
}

// sanmillToDraft[i] is the index in the draft's order (pointNames) of the
// i-th point of Sanmill's board.
var sanmillToDraft = func() (to [24]int) {
	for i, n := range sanmillRings {
		for k, d := range pointNames {
			if d == n {
				to[i] = k
			}
		}
	}
	return to
}()

// IsSanmillFEN reports whether s looks like Sanmill's FEN: a board of
// three rings of O, @, * and X.
func IsSanmillFEN(s string) bool {
	f := strings.Fields(s)
	if len(f) == 0 || len(f[0]) != 26 || strings.Count(f[0], "/") != 2 {
		return false
	}
	return strings.Trim(f[0], "O@*X/") == ""
}

// ParseSanmillFEN reads Sanmill's FEN as a position under r (the FEN does
// not name its rules; Sanmill's record does, in its Variant tag). It
// refuses, saying why, what MFEN's Position refuses (a removal owed, a
// finished game) and what morris has no state for: the mills formed
// under one-time mills, Sanmill's other captures.
func ParseSanmillFEN(s string, r *mill.Rules) (mill.Position, error) {
	bad := func(format string, args ...any) (mill.Position, error) {
		return mill.Position{}, fmt.Errorf("%w: Sanmill's FEN %q: %s", ErrSyntax, s, fmt.Sprintf(format, args...))
	}
	if len(s) > 1024 {
		return bad("longer than 1024 bytes")
	}
	f := strings.Fields(s)
	if len(f) < 17 {
		return bad("want at least 17 fields (board, side, phase, action, 6 counts, 4 last-mill squares, mills, no-progress, move number), have %d", len(f))
	}
	if err := check24(r); err != nil {
		return mill.Position{}, err
	}
	rings := strings.Split(f[0], "/")
	if len(rings) != 3 || len(rings[0]) != 8 || len(rings[1]) != 8 || len(rings[2]) != 8 {
		return bad("the board: want three rings of 8 points separated by /")
	}
	var m MFEN
	for i := range m.Board {
		m.Board[i] = '.'
	}
	var on [2]int
	for i, c := range strings.Join(rings, "") {
		k := sanmillToDraft[i]
		switch c {
		case 'O':
			m.Board[k] = 'W'
			on[0]++
		case '@':
			m.Board[k] = 'B'
			on[1]++
		case 'X':
			// A marked point: morris keeps no owner for it (MFEN's w and b
			// read the same).
			m.Board[k] = 'w'
		case '*':
		default:
			return bad("the board: %q is not O, @, * or X", c)
		}
	}
	switch f[1] {
	case "w":
		m.Side = 'w'
	case "b":
		m.Side = 'b'
	default:
		return bad("side %q: want w or b", f[1])
	}
	switch f[2] {
	case "r", "p", "m":
	case "o":
		return mill.Position{}, unsupported("the game is over (phase o): a morris position is a game in play")
	default:
		return bad("phase %q: want r, p, m or o", f[2])
	}
	n := make([]int, 13)
	for i := range n {
		v, err := strconv.Atoi(f[4+i])
		if err != nil || v < 0 || v > maxInt {
			return bad("field %d %q: want a count of 0 or more", 5+i, f[4+i])
		}
		n[i] = v
	}
	switch {
	case f[3] == "r" || n[4] > 0 || n[5] > 0:
		return mill.Position{}, unsupported("a removal owed (action %s, %d and %d to remove): morris's moves take their captures with them", f[3], n[4], n[5])
	case f[3] != "p" && f[3] != "s":
		return bad("action %q: want p, s or r", f[3])
	case n[0] != on[0] || n[2] != on[1]:
		return bad("%d white and %d black on the board, but the board has %d and %d", n[0], n[2], on[0], on[1])
	}
	m.Hands = [2]int{n[1], n[3]}
	side := 0
	if m.Side == 'b' {
		side = 1
	}
	m.Phase = phaseOf(m.Hands[side])
	m.Action = m.Phase
	m.Obligations = "-"
	m.Outcome = "-"
	opts := r.Options()
	if opts.ReformBan {
		// Sanmill keeps the squares of the last mill's move; whether they
		// are the draft's "last mill broken" is not documented, so only
		// their absence is read.
		if n[6]|n[7]|n[8]|n[9] != 0 {
			return mill.Position{}, unsupported("the last mills' squares %d %d %d %d: under the re-forming ban of %s, Sanmill's are not read", n[6], n[7], n[8], n[9], r)
		}
		m.Extensions = append(m.Extensions, Extension{Key: "lm", Value: "-,-;-,-"})
	}
	if opts.OneTimeMills {
		return mill.Position{}, unsupported("one-time mills (%s): Sanmill's mask of the mills formed is not read", r)
	}
	m.NoProgress = n[11]
	if n[12] < 1 {
		n[12] = 1 // Sanmill reads a move number of 0 as 1
	}
	m.Ply = 2*(n[12]-1) + side
	for _, x := range f[17:] {
		if _, data, ok := strings.Cut(x, ":"); !ok || strings.Trim(data, "0|-,;") != "" {
			return mill.Position{}, unsupported("field %q: Sanmill's custodian, intervention and leap captures are not played by morris", x)
		}
	}
	return m.Position(r)
}

// CarriesNoRules reports whether s is a position text that names no rules,
// to be read under rules given beside it: MFEN or Sanmill's FEN.
func CarriesNoRules(s string) bool { return IsMFEN(s) || IsSanmillFEN(s) }

// ParseUnder reads a position text that carries no rules (MFEN or
// Sanmill's FEN) under r.
func ParseUnder(s string, r *mill.Rules) (mill.Position, error) {
	s = strings.TrimSpace(s)
	if IsSanmillFEN(s) {
		return ParseSanmillFEN(s, r)
	}
	return ParsePosition(s, r)
}

// FormatSanmillFEN writes p as Sanmill's FEN, for a record of Sanmill's
// from a set-up position. It refuses what Sanmill's FEN would say
// differently or not at all: a board other than the two of 24 points,
// a removal owed, the state of a re-forming ban or of one-time mills.
func FormatSanmillFEN(p mill.Position) (string, error) {
	r := p.Rules()
	if err := check24(r); err != nil {
		return "", err
	}
	opts := r.Options()
	if _, owed := p.Pending(); owed {
		return "", unsupported("a removal owed: Sanmill's FEN of it is not written")
	}
	if opts.ReformBan || opts.OneTimeMills {
		return "", unsupported("the rules %s keep state (a re-forming ban, one-time mills) that is not written in Sanmill's FEN", r)
	}
	var b strings.Builder
	var on [2]int
	for i, n := range sanmillRings {
		if i > 0 && i%8 == 0 {
			b.WriteByte('/')
		}
		pt, _ := r.Board().PointByName(n)
		c, ok := p.At(pt)
		switch {
		case ok && c == mill.White:
			b.WriteByte('O')
			on[0]++
		case ok:
			b.WriteByte('@')
			on[1]++
		case p.Marked().Has(pt):
			b.WriteByte('X')
		default:
			b.WriteByte('*')
		}
	}
	us := p.SideToMove()
	side, phase, action := "w", "m", "s"
	if us == mill.Black {
		side = "b"
	}
	if p.InHand(us) > 0 {
		phase, action = "p", "p"
	}
	move := 1 + (p.Ply()-int(us))/2
	if move < 1 {
		move = 1
	}
	fmt.Fprintf(&b, " %s %s %s %d %d %d %d 0 0 0 0 0 0 0 %d %d", side, phase, action,
		on[0], p.InHand(mill.White), on[1], p.InHand(mill.Black), p.Quiet(), move)
	return b.String(), nil
}
