package pbm

import (
	"fmt"
	"strings"

	"github.com/morrisgame/morris/mill"
)

// Header is what Board prints around the diagram: what the position alone
// does not know.
type Header struct {
	Board        int    // the board number; 0 prints none
	White, Black string // the players' user ids; "" prints the colour alone
	// LastMove is the move that led to the position; the zero Move when
	// none was played (or it is not known).
	LastMove mill.Move
	// Before is the position LastMove was played in, if known: several
	// captures are then written in an order legal in turn, not in board
	// order (mill.Position.AppendMove).
	Before *mill.Position
	// Outcome and Method are a result decided outside the position:
	// resignation, agreement, time, repetition. With NoOutcome the
	// position's own status is printed.
	Outcome mill.Outcome
	Method  mill.Method
}

// Board prints a position as the pbmserv interface shows it: a title, a
// line per player with the pieces on the board and in hand, the diagram
// with rank 1 at the top (mill.RankOneTop) and the file letters in upper
// case as in pbmserv's moves, the last move in pbmserv's dialect, and whose
// turn it is with the number of the move to play (the N of MOVE#N). Every
// line ends with a line break.
func Board(p mill.Position, h Header) string {
	r := p.Rules()
	if r == nil {
		return "(no position)\n"
	}
	var b strings.Builder
	title := ShortName(r.Variant())
	if h.Board != 0 {
		title += fmt.Sprintf(" board %d", h.Board)
	}
	fmt.Fprintf(&b, "%s: %s\n", title, r)
	player := func(c mill.Color) string {
		name, mark := h.White, "W"
		if c == mill.Black {
			name, mark = h.Black, "B"
		}
		s := capitalize(c.String()) + " (" + mark + ")"
		if name != "" {
			s += " " + name
		}
		return s
	}
	outcome, method := h.Outcome, h.Method
	if outcome == mill.NoOutcome {
		outcome, method = p.Status()
	}
	for _, c := range []mill.Color{mill.White, mill.Black} {
		fmt.Fprintf(&b, "%s: %d on the board, %d in hand", player(c), p.OnBoard(c), p.InHand(c))
		if outcome == mill.NoOutcome && p.Flying(c) {
			b.WriteString(", flying")
		}
		b.WriteByte('\n')
	}
	if marked := p.Marked(); marked != 0 {
		fmt.Fprintf(&b, "Marked (X): %s, out of play until placing ends\n", pointList(r.Board(), marked))
	}
	b.WriteByte('\n')
	b.WriteString(upperFiles(p.Diagram(mill.RankOneTop)))
	b.WriteByte('\n')
	if !h.LastMove.IsZero() {
		var text string
		if h.Before != nil {
			text = string(h.Before.AppendMove(nil, h.LastMove, mill.Pbm))
		} else {
			text = r.Board().MoveText(h.LastMove, mill.Pbm)
		}
		fmt.Fprintf(&b, "Last move (#%d): %s\n", p.Ply(), text)
	}
	switch outcome {
	case mill.NoOutcome:
		us := p.SideToMove()
		fmt.Fprintf(&b, "Move %d: %s to move%s\n", p.Ply()+1, player(us), turnText(p, player))
	case mill.Draw:
		fmt.Fprintf(&b, "Game over: a draw (%s) by %s\n", outcome, method)
	default:
		winner := mill.White
		if outcome == mill.BlackWon {
			winner = mill.Black
		}
		fmt.Fprintf(&b, "Game over: %s wins (%s) by %s\n", player(winner), outcome, method)
	}
	return b.String()
}

// turnText says what the side to move must do, after "to move": place,
// make the removals it owes (how many, whose pieces, and who removes after
// it), or, blocked under blocked=removes, remove a piece and move again.
func turnText(p mill.Position, player func(mill.Color) string) string {
	us := p.SideToMove()
	if n := p.Owed(us); n > 0 {
		victim := us.Other()
		if p.RemovesOwn() {
			victim = us
		}
		s := ": remove " + pieces(n, victim)
		if p.RemovesOwn() {
			s += " of your own"
		}
		if n > 1 {
			s += ", one a move"
		}
		if m := p.Owed(us.Other()); m > 0 {
			victim := us
			if p.RemovesOwn() {
				victim = us.Other()
			}
			s += "; then " + player(us.Other()) + " removes " + pieces(m, victim)
		}
		return s
	}
	if p.InHand(us) > 0 {
		return ": place a piece"
	}
	if blockedRemoval(p) {
		return fmt.Sprintf(": no move is possible: remove a %s piece next to one of yours, then move again", us.Other())
	}
	return ""
}

// pieces writes "a white piece", "2 white pieces".
func pieces(n int, c mill.Color) string {
	if n == 1 {
		return "a " + c.String() + " piece"
	}
	return fmt.Sprintf("%d %s pieces", n, c)
}

// blockedRemoval reports whether the side to move, owing nothing, has only
// removals to play: a side that cannot move under blocked=removes (zhi-qi).
func blockedRemoval(p mill.Position) bool {
	if p.Rules().Options().Blocked != mill.BlockedRemoves {
		return false
	}
	moves := p.Moves(nil)
	for _, m := range moves {
		if m.Kind() != mill.RemoveMove {
			return false
		}
	}
	return len(moves) > 0
}

// pointList names the points of a set in pbmserv's case: "A7, D3".
func pointList(b *mill.Board, set mill.Points) string {
	var names []string
	for pt := range set.All() {
		names = append(names, strings.ToUpper(b.Name(pt)))
	}
	return strings.Join(names, ", ")
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// upperFiles writes the file letters under a diagram (its last line) in
// upper case, the case of pbmserv's coordinates.
func upperFiles(diagram string) string {
	body := strings.TrimSuffix(diagram, "\n")
	i := strings.LastIndexByte(body, '\n')
	return body[:i+1] + strings.ToUpper(body[i+1:]) + "\n"
}
