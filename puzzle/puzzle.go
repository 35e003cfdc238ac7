package puzzle

import (
	"errors"
	"math/rand/v2"

	"github.com/morrisgame/morris/egdb"
	"github.com/morrisgame/morris/mill"
)

// Puzzle is a position and its solution.
type Puzzle struct {
	Position mill.Position
	// Solution is the line: the solver's moves at even indices, the
	// defence at odd ones. It starts with the solver's only winning move,
	// goes on with the best defence and the solver's only winning reply
	// while the solver has exactly one, and ends with a solver's move.
	Solution []mill.Move
	// Plies is the length of the win from Position by the databases (0
	// for a draw).
	Plies int
	// Goal is "win", or "draw": the solution's one move saves the draw.
	Goal string
}

// Texts returns the solution in standard notation.
func (p Puzzle) Texts() []string {
	out := make([]string, 0, len(p.Solution))
	q := p.Position
	for _, m := range p.Solution {
		out = append(out, q.MoveText(m))
		q = q.Play(m)
	}
	return out
}

// ErrNone: no position found within the tries.
var ErrNone = errors.New("puzzle: no puzzle found")

// Options bound the search for puzzles.
type Options struct {
	// MaxPlies is the longest win a puzzle may have (by the databases);
	// MinPlies the shortest (a win in 1 is a mill closed at once).
	MinPlies, MaxPlies int
	// MaxLine bounds the solution's length in plies.
	MaxLine int
	// Sectors are the piece counts to draw positions from (white's
	// pieces, black's), white to move; the databases must hold them and
	// every sector their moves lead to.
	Sectors [][2]int
	// Tries is how many random positions Find draws at most.
	Tries int
}

// Defaults are the Options of `morris puzzles`.
var Defaults = Options{MinPlies: 3, MaxPlies: 15, MaxLine: 9, Sectors: [][2]int{{3, 3}, {4, 3}, {3, 4}, {4, 4}, {5, 3}, {3, 5}}, Tries: 200000}

// Find draws random positions of the moving phase, the side to move with
// a forced win in o.MinPlies to o.MaxPlies plies and exactly one winning
// move, and returns the first one with its line. The databases must be of
// rules r.
func Find(db *egdb.DB, r *mill.Rules, rng *rand.Rand, o Options) (Puzzle, error) {
	n := r.Board().Len()
	for range o.Tries {
		sec := o.Sectors[rng.IntN(len(o.Sectors))]
		w, b := randomSet(rng, n, sec[0], 0), mill.Points(0)
		b = randomSet(rng, n, sec[1], w)
		p, err := r.SetUp(w, b, mill.White, 0, 0)
		if err != nil {
			continue
		}
		if o, _ := p.Status(); o != mill.NoOutcome {
			continue
		}
		v, ok := db.Value(p)
		if !ok || v.Result != egdb.Win || v.Plies < o.MinPlies || v.Plies > o.MaxPlies {
			continue
		}
		pz, ok := Make(db, p, o.MaxLine)
		if ok {
			return pz, nil
		}
	}
	return Puzzle{}, ErrNone
}

// randomSet draws k points of n that are not in taken.
func randomSet(rng *rand.Rand, n, k int, taken mill.Points) mill.Points {
	var s mill.Points
	for s.Len() < k {
		pt := mill.Points(1) << rng.IntN(n)
		if (s|taken)&pt == 0 {
			s |= pt
		}
	}
	return s
}

// Make returns the puzzle of p if its side to move has exactly one winning
// move: the line of only moves and best defence, at most maxLine plies.
func Make(db *egdb.DB, p mill.Position, maxLine int) (Puzzle, bool) {
	v, ok := db.Value(p)
	if !ok || v.Result != egdb.Win {
		return Puzzle{}, false
	}
	win, ok := onlyWin(db, p)
	if !ok {
		return Puzzle{}, false
	}
	pz := Puzzle{Position: p, Plies: v.Plies, Solution: []mill.Move{win}, Goal: "win"}
	q := p.Play(win)
	for len(pz.Solution) < maxLine {
		if o, _ := q.Status(); o != mill.NoOutcome {
			break
		}
		// The defence: the slowest loss.
		d, _, ok := db.BestMove(q)
		if !ok {
			break
		}
		r := q.Play(d)
		if o, _ := r.Status(); o != mill.NoOutcome {
			break
		}
		w, ok := onlyWin(db, r)
		if !ok || len(pz.Solution)+2 > maxLine {
			break // several wins (or none known): the win is clear
		}
		pz.Solution = append(pz.Solution, d, w)
		q = r.Play(w)
	}
	return pz, true
}

// onlyWin returns p's winning move if it has exactly one.
func onlyWin(db *egdb.DB, p mill.Position) (mill.Move, bool) {
	mv, ok := db.MoveValues(p)
	if !ok || len(mv) == 0 || mv[0].Value.Result != egdb.Win {
		return mill.Move{}, false
	}
	if len(mv) > 1 && mv[1].Value.Result == egdb.Win {
		return mill.Move{}, false
	}
	return mv[0].Move, true
}

// MakeDraw returns the puzzle of a drawn position whose side to move loses
// with every move but one: the line is that move.
func MakeDraw(db *egdb.DB, p mill.Position) (Puzzle, bool) {
	v, ok := db.Value(p)
	if !ok || v.Result != egdb.Draw {
		return Puzzle{}, false
	}
	mv, ok := db.MoveValues(p)
	if !ok || len(mv) < 2 || mv[0].Value.Result != egdb.Draw || mv[1].Value.Result != egdb.Loss {
		return Puzzle{}, false
	}
	return Puzzle{Position: p, Solution: []mill.Move{mv[0].Move}, Goal: "draw"}, true
}

// Of returns the puzzles of the positions of a game that lie in the
// databases: each position whose side to move has exactly one winning
// move, or exactly one move that saves the draw, within o's bounds.
func Of(db *egdb.DB, g *mill.Game, o Options) []Puzzle {
	var out []Puzzle
	for _, p := range g.Positions() {
		if st, _ := p.Status(); st != mill.NoOutcome {
			continue
		}
		v, ok := db.Value(p)
		if !ok {
			continue
		}
		switch {
		case v.Result == egdb.Win && v.Plies >= o.MinPlies && v.Plies <= o.MaxPlies:
			if pz, ok := Make(db, p, o.MaxLine); ok {
				out = append(out, pz)
			}
		case v.Result == egdb.Draw:
			if pz, ok := MakeDraw(db, p); ok {
				out = append(out, pz)
			}
		}
	}
	return out
}
