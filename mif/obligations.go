package mif

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/morrisgame/morris/mill"
)

// The removals owed that MFEN and our positions both hold: a board filled
// by placing under full-board=removals (the draft's white-then-black-remove
// or black-then-white-remove), each side removing one opposing piece, the
// side to move first, then the first remover moves. Other obligations (a
// removal after a mill, which our moves take with them; the counted mills
// of el filja, whose order we have not matched to the draft's) are
// refused.

// fullBoardOwed reports whether p owes the removals of a full board.
func fullBoardOwed(p mill.Position) bool {
	o := p.Rules().Options()
	return o.FullBoard == mill.FullBoardRemovals && !countedAtEnd(o) && p.Owed(mill.White)+p.Owed(mill.Black) > 0
}

// countedAtEnd reports the rules whose placing ends in removals of their
// own (Shah's, counted mills), which a full board's cannot be told from.
func countedAtEnd(o mill.Options) bool {
	switch o.PlacingCaptures {
	case mill.CaptureDeferred, mill.CaptureCounted, mill.CaptureCountedEach:
		return true
	}
	return false
}

// removalTargets returns the draft's target set of the removals p's side
// to move may make: bit i is the point of index i in the draft's order.
func removalTargets(p mill.Position) (uint32, error) {
	b := p.Rules().Board()
	var set uint32
	for _, m := range p.Moves(nil) {
		if m.Kind() != mill.RemoveMove || m.NumCaptures() != 1 {
			continue
		}
		name := b.Name(m.Capture(0))
		set |= 1 << pointIndex(name)
	}
	if set == 0 {
		return 0, unsupported("a removal owed with nothing to remove")
	}
	return set, nil
}

// formatObligations writes the full board's removals owed in p.
func formatObligations(p mill.Position) (string, error) {
	us := p.SideToMove()
	them := us.Other()
	targets, err := removalTargets(p)
	if err != nil {
		return "", err
	}
	c := func(c mill.Color) string { return string("wb"[c]) }
	head := fmt.Sprintf("%s:board-full:b:%s:1:%06x:", c(us), c(them), targets)
	if p.Owed(them) > 0 {
		// Both still to remove: us, then them, then us to move.
		return head + "q;" + c(them) + ":board-full:b:" + c(us) + ":1:~:" + c(us), nil
	}
	// The second removal: then the first remover moves.
	return head + c(them), nil
}

// parseObligations reads the obligations of a full board's removals into
// the capture state of our position text, "xw,xb" or "xb", for side.
func parseObligations(m MFEN, r *mill.Rules) (string, error) {
	o := r.Options()
	if o.FullBoard != mill.FullBoardRemovals || countedAtEnd(o) {
		return "", unsupported("a removal is owed (%s): morris holds only the removals of a full board (full-board=removals), and between whole turns otherwise, a move taking its captures with it", m.Obligations)
	}
	if strings.Contains(m.Obligations, "|") {
		return "", unsupported("alternative obligations (%s): a full board's removals have none", m.Obligations)
	}
	recs := strings.Split(m.Obligations, ";")
	type rec struct{ actor, owner, targets, after string }
	var rs []rec
	for _, s := range recs {
		f := strings.Split(s, ":")
		if f[1] != "board-full" || f[2] != "b" || f[4] != "1" || f[0] == f[3] {
			return "", unsupported("obligation %s: morris holds only a full board's removals, one opposing piece each", s)
		}
		rs = append(rs, rec{f[0], f[3], f[5], f[6]})
	}
	first := string(m.Side)
	switch {
	case rs[0].actor != first:
		return "", fmt.Errorf("%w: side-obligation-actor-mismatch: side %c, obligation of %s", ErrSyntax, m.Side, rs[0].actor)
	case len(rs) == 2 && (rs[0].after != "q" || rs[1].actor != rs[0].owner || rs[1].targets != "~" || rs[1].after != first):
		return "", unsupported("obligations %s: not a full board's removals as morris makes them (%s, then the other, then %s moves)", m.Obligations, first, first)
	case len(rs) == 1 && rs[0].after != rs[0].owner:
		return "", unsupported("obligations %s: after the second removal of a full board the first remover moves", m.Obligations)
	case len(rs) > 2:
		return "", unsupported("obligations %s: a full board's removals are two at most", m.Obligations)
	case rs[0].targets == "-" || rs[0].targets == "~":
		return "", fmt.Errorf("%w: obligation-target-mismatch: the first obligation names its targets", ErrSyntax)
	}
	if len(rs) == 2 {
		return "xw,xb", nil
	}
	return "x" + first, nil
}

// checkTargets compares the targets the record names with ours.
func checkTargets(m MFEN, p mill.Position) error {
	head := strings.Split(strings.Split(m.Obligations, ";")[0], ":")
	want, _ := strconv.ParseUint(head[5], 16, 32)
	got, err := removalTargets(p)
	if err != nil {
		return err
	}
	if uint64(got) != want {
		return fmt.Errorf("%w: obligation-target-mismatch: the record names %s, the rules give %06x", ErrSyntax, head[5], got)
	}
	return nil
}
