package search

import "github.com/morrisgame/morris/mill"

// placingProbePlies is the deepest ply at which the search reads the
// databases of the placing phase. With the moving phase's they are larger
// than the memory of the machines we play on (37 GB and 18 GB for nine
// men's morris), so a probe there is mostly a read from the disk: 289 µs
// a probe of a sector not in the page cache against 0.66 µs of one in it
// (3,000 random probes of 9v6 here), the time of about 700 nodes. The
// root's children read exactly are what keeps the root's value: each
// move's value is known, and the search ranks the moves of equal value
// with its own evaluation, reading the moving phase's databases (which the
// page cache holds once warm) where placing ends, as without the placing
// phase's.
const placingProbePlies = 1

// Tablebase is what the search needs of endgame databases. The databases
// of package egdb satisfy it as they are: pass an *egdb.DB (egdb.Open).
type Tablebase interface {
	// Probe returns the value of p for the side to move: +1 won, 0 drawn,
	// -1 lost, with the plies to the end of the game under best play; ok is
	// false when p is not in the databases.
	Probe(p mill.Position) (result, plies int, ok bool)
}

// TablebaseFunc adapts a function to Tablebase: a probe that counts,
// filters or changes the databases' answers (tests do).
type TablebaseFunc func(p mill.Position) (result, plies int, ok bool)

// Probe calls f.
func (f TablebaseFunc) Probe(p mill.Position) (result, plies int, ok bool) { return f(p) }

// probe reads the databases at the node p at ply, searched to depth, and
// returns its score and true when that settles the node: at every ply in
// the moving phase, and up to placingProbePlies in the placing phase.
func (w *worker) probe(ply, depth int, p *mill.Position) (int, bool) {
	placing := p.InHand(mill.White)+p.InHand(mill.Black) > 0
	if ply > placingProbePlies && placing {
		return 0, false
	}
	res, plies, ok := w.tb.Probe(*p)
	if !ok {
		return 0, false
	}
	w.tbHits.Add(1)
	switch {
	case res != 0 && w.drawAfter > 0 && p.Quiet()+plies >= w.drawAfter:
		// The databases know nothing of the no-progress draw: this win
		// (or loss) may take longer than the plies left before it, so it
		// is not proved. In the moving phase it is searched on, where a
		// capture on the way makes it exact again, and scored TBWin less
		// its plies at the leaves (see TBWin). A placing position is
		// scored so at once: below it the search reads no placing
		// databases (placingProbePlies), so searching on would trade the
		// databases' value for the evaluation's guess, and a move into a
		// loss of 124 plies looked as good as the one draw.
		if depth <= 0 || placing {
			if res > 0 {
				return TBWin - plies, true
			}
			return -(TBWin - plies), true
		}
	case res > 0:
		return Mate - ply - plies, true
	case res < 0:
		return -(Mate - ply - plies), true
	case !w.press:
		return 0, true
	}
	// At play a drawn position is searched on (see press), and so is an
	// unproved win or loss of the moving phase.
	return 0, false
}
