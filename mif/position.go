package mif

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/morrisgame/morris/mill"
)

// ParsePosition reads an MFEN record as a position under r. MFEN carries no
// rules (the draft calls it context-bound): the caller names them, as our
// own position text names its preset.
func ParsePosition(s string, r *mill.Rules) (mill.Position, error) {
	m, err := ParseMFEN(s)
	if err != nil {
		return mill.Position{}, err
	}
	return m.Position(r)
}

// unsupported returns an error that unwraps to ErrUnsupported.
func unsupported(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrUnsupported, fmt.Sprintf(format, args...))
}

// check24 refuses the boards MFEN does not describe.
func check24(r *mill.Rules) error {
	if id := r.Board().ID; id != "standard24" && id != "diagonal24" {
		return unsupported("MFEN describes the 24-point boards only; %s is played on %s", r, id)
	}
	return nil
}

// Position checks the record against r and returns it as our position. It
// refuses, saying why, what our positions do not hold: a finished game
// (marked as such, or over under r though the record has it in play), a
// removal owed after a mill (our moves take their captures with them) or
// at the end of placing other than a full board's, state that r does not
// declare or lacks.
func (m MFEN) Position(r *mill.Rules) (mill.Position, error) {
	if err := check24(r); err != nil {
		return mill.Position{}, err
	}
	opts := r.Options()
	switch {
	case m.Outcome != "-" || m.Side == '-' || m.Phase == 'o' || m.Action == 'o':
		return mill.Position{}, unsupported("the game is over (outcome %s): a morris position is a game in play", m.Outcome)
	case (m.Obligations != "-") != (m.Action == 'r'):
		return mill.Position{}, fmt.Errorf("%w: action %c and obligations %s: action r exactly when a removal is owed", ErrSyntax, m.Action, m.Obligations)
	case m.Action != 'r' && m.Phase != m.Action:
		return mill.Position{}, fmt.Errorf("%w: phase %c and action %c: with nothing owed they are the same", ErrSyntax, m.Phase, m.Action)
	}
	var state []string
	if m.Obligations != "-" {
		owed, err := parseObligations(m, r)
		if err != nil {
			return mill.Position{}, err
		}
		state = append(state, owed)
	}
	side := mill.White
	if m.Side == 'b' {
		side = mill.Black
	}
	if want := phaseOf(m.Hands[side]); m.Phase != want {
		return mill.Position{}, fmt.Errorf("%w: phase %c, but the side to move has %d in hand (want %c)", ErrSyntax, m.Phase, m.Hands[side], want)
	}
	b := r.Board()
	cells := make([]byte, b.Len())
	for i, c := range m.Board {
		pt, ok := b.PointByName(pointNames[i])
		if !ok {
			return mill.Position{}, unsupported("no point %s on %s", pointNames[i], b.ID)
		}
		switch c {
		case 'W', 'B':
			cells[pt] = c
		case 'w', 'b':
			if opts.PlacingCaptures != mill.CaptureMark {
				return mill.Position{}, unsupported("a marked piece on %s: the rules %s mark no pieces (placing-captures=mark does)", pointNames[i], r)
			}
			cells[pt] = 'X'
		}
	}
	lm, hasLM := m.extension("lm")
	ul, hasUL := m.extension("ul")
	for _, e := range m.Extensions {
		switch {
		case e.Key == "lm" && !opts.ReformBan:
			return mill.Position{}, unsupported("lm (the last mill broken): the rules %s have no re-forming ban", r)
		case e.Key == "ul" && !opts.OneTimeMills:
			return mill.Position{}, unsupported("ul (mill lines used): the rules %s have no one-time mills", r)
		case e.Key == "pc":
			return mill.Position{}, unsupported("pc (placement counts): no rule of morris keeps them")
		case isPrivateID(e.Key):
			return mill.Position{}, unsupported("private extension %s: unknown semantic state is refused, not ignored", e.Key)
		}
	}
	if opts.ReformBan {
		if !hasLM {
			return mill.Position{}, fmt.Errorf("%w: the rules %s need lm (the last mill broken), which is missing", ErrSyntax, r)
		}
		for c, v := range strings.Split(lm, ";") {
			from, to, _ := strings.Cut(v, ",")
			if from == "-" && to == "-" {
				continue
			}
			if from == "-" || to == "-" {
				return mill.Position{}, fmt.Errorf("%w: lm %q: give both points of a side or neither", ErrSyntax, lm)
			}
			// lm names the point left and the point reached; our text names
			// the point the piece stands on first.
			state = append(state, fmt.Sprintf("b%c=%s-%s", "wb"[c], to, from))
		}
	}
	if opts.OneTimeMills {
		if !hasUL {
			return mill.Position{}, fmt.Errorf("%w: the rules %s need ul (the mill lines used), which is missing", ErrSyntax, r)
		}
		ours, err := linesToOurs(r)
		if err != nil {
			return mill.Position{}, err
		}
		for c, v := range strings.Split(ul, ",") {
			set, _ := strconv.ParseUint(v, 16, 32)
			var u uint64
			for id := 0; id < 20; id++ {
				if set&(1<<id) == 0 {
					continue
				}
				k, ok := ours[id]
				if !ok {
					return mill.Position{}, unsupported("ul: line %d (%s) is no mill under %s", id, strings.Join(lineIDs[id][:], ","), r)
				}
				u |= 1 << k
			}
			if set>>20 != 0 {
				return mill.Position{}, fmt.Errorf("%w: ul %q: lines above 19", ErrSyntax, ul)
			}
			if u != 0 {
				state = append(state, fmt.Sprintf("u%c=%x", "wb"[c], u))
			}
		}
	}
	if m.NoProgress > 65535 || m.Ply > 65535 {
		return mill.Position{}, unsupported("counters above 65535")
	}
	text := ourText(r, cells, m.Side, m.Hands, state, m.NoProgress, m.Ply)
	p, err := mill.ParsePosition(text)
	if err != nil {
		return mill.Position{}, fmt.Errorf("%w: %v", ErrUnsupported, err)
	}
	if m.Obligations != "-" {
		if err := checkTargets(m, p); err != nil {
			return mill.Position{}, err
		}
	}
	if o, how := p.Status(); o != mill.NoOutcome {
		// The record says the game goes on; under r it has ended. Taking it
		// would give a position that writes back as a finished game.
		return mill.Position{}, unsupported("the record has the game in play, but under %s it is over (%s, %s)", r, o, how)
	}
	return p, nil
}

func phaseOf(hand int) byte {
	if hand > 0 {
		return 'p'
	}
	return 'm'
}

// ourText writes our position text (mill/postext.go) from its parts.
func ourText(r *mill.Rules, cells []byte, side byte, hands [2]int, state []string, quiet, ply int) string {
	var b strings.Builder
	b.WriteString(r.String() + " ")
	run := 0
	for i, c := range cells {
		if c == 0 {
			run++
		} else {
			if run > 0 {
				b.WriteByte(byte('0' + run))
				run = 0
			}
			b.WriteByte(c)
		}
		if i%8 == 7 || i == len(cells)-1 {
			if run > 0 {
				b.WriteByte(byte('0' + run))
				run = 0
			}
			if i != len(cells)-1 {
				b.WriteByte('/')
			}
		}
	}
	st := "-"
	if len(state) > 0 {
		st = strings.Join(state, ",")
	}
	fmt.Fprintf(&b, " %c %d,%d %s %d %d", side, hands[0], hands[1], st, quiet, ply)
	return b.String()
}

// linesToOurs maps the draft's line numbers to the indices of r's mill
// lines (Rules.MillLines), for the lines that are mills under r.
func linesToOurs(r *mill.Rules) (map[int]int, error) {
	b := r.Board()
	out := map[int]int{}
	for k, l := range r.MillLines() {
		found := false
		for id, names := range lineIDs {
			var set mill.Points
			for _, n := range names {
				pt, _ := b.PointByName(n)
				set |= 1 << pt
			}
			if set == l {
				out[id] = k
				found = true
			}
		}
		if !found {
			return nil, unsupported("a mill line of %s has no number in the draft", r)
		}
	}
	return out, nil
}

// FormatPosition returns p as an MFEN record.
func FormatPosition(p mill.Position) (string, error) {
	m, err := FromPosition(p)
	if err != nil {
		return "", err
	}
	return m.String(), nil
}

// FromPosition returns p as an MFEN record. It refuses the positions MFEN
// cannot hold: boards other than the 24-point ones, the capture states of
// Shah (a first mill, a pass), removals owed at the end of placing other
// than a full board's, and marked pieces whose owners cannot be told apart
// (we do not keep them). A finished position is written with its outcome.
func FromPosition(p mill.Position) (MFEN, error) {
	r := p.Rules()
	if r == nil {
		return MFEN{}, fmt.Errorf("%w: the zero Position", ErrUnsupported)
	}
	if err := check24(r); err != nil {
		return MFEN{}, err
	}
	opts := r.Options()
	fields := strings.Fields(p.String())
	if st := fields[4]; st != "-" {
		for _, tok := range strings.Split(st, ",") {
			switch {
			case strings.HasPrefix(tok, "bw="), strings.HasPrefix(tok, "bb="), strings.HasPrefix(tok, "uw="), strings.HasPrefix(tok, "ub="):
			case tok == "pass":
				return MFEN{}, unsupported("the last move was a pass (blocked=passes): MFEN has no field for it")
			case tok == "mw" || tok == "mb":
				return MFEN{}, unsupported("the first mill of Shah's deferred capture (%s): MFEN has no field for it", tok)
			case (strings.HasPrefix(tok, "xw") || strings.HasPrefix(tok, "xb")) && fullBoardOwed(p):
			default:
				return MFEN{}, unsupported("removals owed (%s): not converted to MFEN obligations yet", st)
			}
		}
	}
	m := MFEN{Obligations: "-", Outcome: "-", NoProgress: p.Quiet(), Ply: p.Ply()}
	if opts.DrawAfter == 0 {
		// The draft keeps no counter for a limit that is off; ours counts on.
		m.NoProgress = 0
	}
	b := r.Board()
	marked := p.Marked()
	var markOwner byte
	if marked != 0 {
		// Nothing leaves the board while pieces are marked, so each side's
		// marked pieces are what it has neither on the board nor in hand.
		nw := opts.Pieces - p.OnBoard(mill.White) - p.InHand(mill.White)
		nb := opts.Pieces - p.OnBoard(mill.Black) - p.InHand(mill.Black)
		switch {
		case nb == 0 && nw == marked.Len():
			markOwner = 'w'
		case nw == 0 && nb == marked.Len():
			markOwner = 'b'
		default:
			return MFEN{}, unsupported("marked pieces of both sides (%d of white's, %d of black's): MFEN names each one's owner, which morris does not keep", nw, nb)
		}
	}
	for i, name := range pointNames {
		pt, _ := b.PointByName(name)
		c, ok := p.At(pt)
		switch {
		case ok && c == mill.White:
			m.Board[i] = 'W'
		case ok:
			m.Board[i] = 'B'
		case marked.Has(pt):
			m.Board[i] = markOwner
		default:
			m.Board[i] = '.'
		}
	}
	m.Hands = [2]int{p.InHand(mill.White), p.InHand(mill.Black)}
	side := p.SideToMove()
	m.Side = "wb"[side]
	m.Phase = phaseOf(m.Hands[side])
	m.Action = m.Phase
	if fullBoardOwed(p) {
		obl, err := formatObligations(p)
		if err != nil {
			return MFEN{}, err
		}
		m.Obligations, m.Action = obl, 'r'
	}
	if o, how := p.Status(); o != mill.NoOutcome {
		reason, ok := map[mill.Method]string{
			mill.Material: "fewer-than-minimum", mill.Blocked: "no-legal-move", mill.Gridlock: "no-legal-move",
			mill.FullBoard: "board-full", mill.NoProgress: "no-progress", mill.Repetition: "repetition",
		}[how]
		if !ok {
			return MFEN{}, unsupported("a game ended by %s", how)
		}
		m.Side, m.Phase, m.Action, m.Obligations = '-', 'o', 'o', "-"
		m.Outcome = map[mill.Outcome]string{mill.WhiteWon: "w", mill.BlackWon: "b", mill.Draw: "d"}[o] + ":" + reason
	}
	if opts.ReformBan {
		lm := [2]string{"-,-", "-,-"}
		for _, tok := range strings.Split(fields[4], ",") {
			if strings.HasPrefix(tok, "bw=") || strings.HasPrefix(tok, "bb=") {
				at, left, _ := strings.Cut(tok[3:], "-")
				lm[strings.IndexByte("wb", tok[1])] = left + "," + at
			}
		}
		m.Extensions = append(m.Extensions, Extension{"lm", lm[0] + ";" + lm[1]})
	}
	if opts.OneTimeMills {
		ours, err := linesToOurs(r)
		if err != nil {
			return MFEN{}, err
		}
		var ul [2]uint64
		for _, tok := range strings.Split(fields[4], ",") {
			if strings.HasPrefix(tok, "uw=") || strings.HasPrefix(tok, "ub=") {
				u, _ := strconv.ParseUint(tok[3:], 16, 32)
				for id, k := range ours {
					if u&(1<<k) != 0 {
						ul[strings.IndexByte("wb", tok[1])] |= 1 << id
					}
				}
			}
		}
		m.Extensions = append(m.Extensions, Extension{"ul", fmt.Sprintf("%04x,%04x", ul[0], ul[1])})
	}
	return m, nil
}
