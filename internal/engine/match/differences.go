package match

import (
	"fmt"
	"slices"
	"strings"

	"github.com/morrisgame/morris/mill"
)

// A Disputer knows where another program's rules part from ours. Asked
// about move m in game g's current position (m legal by our rules), it
// says why the two programs would score m differently, or "" if they
// agree. From that move on the two programs no longer play the same game,
// so a match ends the game there as a disputed draw (Game.Dispute) rather
// than play on with an opponent that answers another position.
type Disputer func(g *mill.Game, m mill.Move) string

// Programs whose rule differences Differences knows.
var differencePrograms = []string{"sanmill"}

// Differences returns the Disputer of the named program's known rule
// differences ("sanmill"): for each preset the program plays, the cases
// where its code scores a move otherwise than our rules do.
//
// Sanmill (the sparring engine of docs/strength.md):
//   - one-time mills (russian-mill): Sanmill keeps, for each side, the
//     points of every mill that captured, and a closed line captures only
//     if one of its points is new to that set; our rules (docs/rules.md)
//     let a line capture the first time it is itself a mill. So a line
//     never formed before whose points all stood in earlier mills of the
//     mover captures for us and not for Sanmill (Sanmill's set never holds
//     less than ours: the other way round cannot happen);
//   - a full board (full-board=draw, morabaraba): Sanmill's default gives
//     the first player the loss where ours draws.
//
// Its no-progress count (a capture on the 100th ply) shows as a claimed
// draw, not here: Sanmill then answers no move.
func Differences(program string) (Disputer, error) {
	switch program {
	case "sanmill":
		return sanmillDiffers, nil
	}
	return nil, fmt.Errorf("no known rule differences of %q (known: %s)", program, strings.Join(differencePrograms, ", "))
}

// FirstDispute replays game g's moves from its start and returns the first
// one that d disputes: its ply (from 1) and why, or 0 and "" if none is.
// It re-scores the records of a match played before the dispute was known
// as the match would score it now: the game ends at that move as a draw.
func FirstDispute(d Disputer, g *mill.Game) (int, string) {
	h := mill.NewGame(g.Rules(), mill.FromPosition(g.Start()))
	for i, m := range g.Moves() {
		if why := d(h, m); why != "" {
			return g.Start().Ply() + i + 1, why
		}
		if err := h.Play(m); err != nil {
			return 0, ""
		}
	}
	return 0, ""
}

// sanmillDiffers is Sanmill's Disputer.
func sanmillDiffers(g *mill.Game, m mill.Move) string {
	r := g.Rules()
	o := r.Options()
	p := g.Position()
	if o.OneTimeMills {
		if l, ok := pointsOnlyMill(g, m); ok {
			return fmt.Sprintf("%s closes %s, a line that was never a mill but whose points all stood in earlier mills of %s: a capture by our rules, none by Sanmill's",
				p.MoveText(m), lineText(r, l), p.SideToMove())
		}
	}
	if o.FullBoard == mill.FullBoardDraw {
		if after := p.Play(m); after.Pieces(mill.White)|after.Pieces(mill.Black) == r.All() {
			if oc, how := after.Status(); oc == mill.Draw && how == mill.FullBoard {
				return fmt.Sprintf("%s fills the board: a draw by our rules, the first player's loss by Sanmill's", p.MoveText(m))
			}
		}
	}
	return ""
}

// pointsOnlyMill reports a line that m, played in g's current position,
// closes for the first time while every point of it already stood in a
// mill of the mover that captured: the case where one-time mills counted
// by lines (ours) and by points (Sanmill's) part. It replays g from its
// start, keeping both readings; they agree up to the current position,
// or an earlier move would have been reported.
func pointsOnlyMill(g *mill.Game, m mill.Move) (mill.Points, bool) {
	r := g.Rules()
	lines := r.MillLines()
	var formed [2]uint64      // our reading: the lines each side has closed
	var points [2]mill.Points // Sanmill's: the points of the mills that captured
	p := g.Start()
	// closed returns the lines closed by move mv in p, with its mover.
	closed := func(p mill.Position, mv mill.Move) (c mill.Color, ls uint64) {
		c = p.SideToMove()
		if mv.Kind() != mill.PlaceMove && mv.Kind() != mill.SlideMove {
			return c, 0
		}
		to := mv.To()
		own := p.Play(mv).Pieces(c)
		if !own.Has(to) {
			return c, 0 // not the mover's piece after all (it cannot happen)
		}
		for i, l := range lines {
			if l.Has(to) && l&own == l {
				ls |= 1 << i
			}
		}
		return c, ls
	}
	note := func(c mill.Color, ls uint64) {
		for i, l := range lines {
			if ls&(1<<i) != 0 && formed[c]&(1<<i) == 0 {
				points[c] |= l
			}
		}
		formed[c] |= ls
	}
	for _, mv := range g.Moves() {
		c, ls := closed(p, mv)
		note(c, ls)
		p = p.Play(mv)
	}
	// Sanmill captures when one closed line has a point outside its set
	// (its set grows only by the lines that capture, so the order in which
	// it looks at two lines closed at once does not matter); we capture
	// when one closed line was never a mill. A line closed before lies in
	// the set, so the readings part exactly when the move closes a line
	// for the first time and every such line lies in the set.
	c, ls := closed(p, m)
	var first mill.Points
	for i, l := range lines {
		if ls&(1<<i) == 0 || formed[c]&(1<<i) != 0 {
			continue
		}
		if l&points[c] != l {
			return 0, false
		}
		if first == 0 {
			first = l
		}
	}
	return first, first != 0
}

// lineText names a mill line by its points: "c3-c4-c5" (in the order of
// their names, which on our boards is the order along the line).
func lineText(r *mill.Rules, l mill.Points) string {
	var names []string
	for pt := range l.All() {
		names = append(names, r.Board().Name(pt))
	}
	slices.Sort(names)
	return strings.Join(names, "-")
}
