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
	// -1 lost, with the plies to the end of the game under best play (-1
	// for a win or loss whose distance the databases do not hold: an
	// egdb.Compact's); ok is false when p is not in the databases.
	Probe(p mill.Position) (result, plies int, ok bool)
}

// TablebaseFunc adapts a function to Tablebase: a probe that counts,
// filters or changes the databases' answers (tests do).
type TablebaseFunc func(p mill.Position) (result, plies int, ok bool)

// Probe calls f.
func (f TablebaseFunc) Probe(p mill.Position) (result, plies int, ok bool) { return f(p) }

// keepsValue returns, for a root the databases hold, whether a move of it
// keeps the root's value (a draw kept a draw, a win a win), as the
// databases say of the position it leads to; nil when they do not hold
// the root. A move to a position they do not hold is not known to keep it.
func keepsValue(tb Tablebase, root mill.Position) func(mill.Move) bool {
	want, _, ok := tb.Probe(root)
	if !ok {
		return nil
	}
	return func(m mill.Move) bool {
		q := root.Play(m)
		switch o, _ := q.Status(); o {
		case mill.NoOutcome:
		case mill.Won(root.SideToMove()):
			return true
		case mill.Draw:
			return want <= 0
		default:
			return want < 0
		}
		res, _, ok := tb.Probe(q)
		if !ok {
			return false
		}
		if q.SideToMove() != root.SideToMove() {
			res = -res
		}
		return res >= want
	}
}
