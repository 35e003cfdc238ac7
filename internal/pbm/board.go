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
	b.WriteByte('\n')
	b.WriteString(upperFiles(p.Diagram(mill.RankOneTop)))
	b.WriteByte('\n')
	if !h.LastMove.IsZero() {
		fmt.Fprintf(&b, "Last move (#%d): %s\n", p.Ply(), r.Board().MoveText(h.LastMove, mill.Pbm))
	}
	switch outcome {
	case mill.NoOutcome:
		us := p.SideToMove()
		fmt.Fprintf(&b, "Move %d: %s to move", p.Ply()+1, player(us))
		switch pending, ok := p.Pending(); {
		case ok && pending == us:
			fmt.Fprintf(&b, ": remove a %s piece", us.Other())
		case p.InHand(us) > 0:
			b.WriteString(": place a piece")
		}
		b.WriteByte('\n')
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
