package tune

import (
	"context"
	"fmt"

	"github.com/morrisgame/morris/mill"
)

// A Probe answers for the positions a database holds: the result for the
// side to move (+1, 0, -1), the plies to the end, and whether it knows p.
// egdb.DB.Probe is one (a method value).
type Probe func(p mill.Position) (result, plies int, ok bool)

// ExactPlacing returns the value of p (+1 a win for the side to move, 0 a
// draw, -1 a loss) by a full-width search of the placing phase that asks
// probe at every position: where placing has ended (both hands empty and
// no removal owed) it must know the value, and while placing it may (the
// databases of morris solve -game), which ends the search there. Ends of
// the game met on the way count as they are. It gives up (ok false) when
// a position where placing has ended is unknown to probe, or after
// maxNodes positions.
//
// The search takes a child that wins at once (no other move can do
// better: values are only -1, 0 and +1) and remembers every value it
// proves, so positions reached by several orders of placement cost once.
// A mill closed while placing decides most positions, so moves that
// capture are tried first.
func ExactPlacing(p mill.Position, probe Probe, maxNodes int) (value int, ok bool) {
	return NewExactSolver(probe, maxNodes).Solve(p)
}

// An ExactSolver is ExactPlacing with a memory that lasts from one
// position to the next: positions of the same game share most of their
// futures. It is for one goroutine.
type ExactSolver struct {
	probe    Probe
	maxNodes int
	nodes    int
	failed   bool
	memo     map[uint64]int8
}

// exactMemo bounds an ExactSolver's memory: past it, the values proved so
// far are forgotten before the next position.
const exactMemo = 1 << 22

// NewExactSolver returns a solver that gives up on a position after
// maxNodes positions of its search.
func NewExactSolver(probe Probe, maxNodes int) *ExactSolver {
	return &ExactSolver{probe: probe, maxNodes: maxNodes, memo: map[uint64]int8{}}
}

// Solve returns what ExactPlacing returns for p. Values proved for earlier
// positions are reused; a search that gave up keeps only the values it
// finished proving, which are exact.
func (x *ExactSolver) Solve(p mill.Position) (value int, ok bool) {
	if len(x.memo) > exactMemo {
		clear(x.memo)
	}
	x.nodes, x.failed = 0, false
	v := x.solve(p)
	return v, !x.failed
}

func (x *ExactSolver) solve(p mill.Position) int {
	if x.failed {
		return 0
	}
	if o, _ := p.Status(); o != mill.NoOutcome {
		switch o {
		case mill.Draw:
			return 0
		case mill.Won(p.SideToMove()):
			return 1
		}
		return -1
	}
	// Values proved before first: only placing positions are kept, and
	// asking the databases again costs more.
	k := p.Key()
	if v, ok := x.memo[k]; ok {
		return int(v)
	}
	// The databases may hold placing positions too (morris solve -game):
	// those are answered at once. Past the end of placing they must.
	if r, _, ok := x.probe(p); ok {
		return r
	}
	if _, owed := p.Pending(); !owed && p.InHand(mill.White) == 0 && p.InHand(mill.Black) == 0 {
		x.failed = true
		return 0
	}
	if x.nodes++; x.nodes > x.maxNodes {
		x.failed = true
		return 0
	}
	ms := p.Moves(nil)
	// Captures first, keeping the generator's order otherwise.
	caps := 0
	for i, m := range ms {
		if m.NumCaptures() > 0 {
			ms[caps], ms[i] = ms[i], ms[caps]
			caps++
		}
	}
	best := -2
	for _, m := range ms {
		c := p.Play(m)
		v := x.solve(c)
		if c.SideToMove() != p.SideToMove() {
			v = -v
		}
		if x.failed {
			break
		}
		if v > best {
			best = v
			if v == 1 {
				break
			}
		}
	}
	if x.failed {
		return 0
	}
	if best == -2 { // no move: Status would have said so
		best = -1
	}
	x.memo[k] = int8(best)
	return best
}

// exactPlacingScore is the score of a sample that ExactPlacing proves won
// (lost: the negative): the distance is not known, so every proved win
// counts alike, at two thirds of the clamp.
const exactPlacingScore = fitClamp * 2 / 3

// LabelExactPlacing scores the placing positions of ps that ExactPlacing
// solves within maxNodes each, on workers goroutines (probe must allow
// that; the databases' does): a win exactPlacingScore, a draw 0, a loss
// the negative. The others are left out. The samples keep the order of ps.
func LabelExactPlacing(ps []mill.Position, probe Probe, maxNodes, workers int) []Sample {
	type result struct {
		v  int
		ok bool
	}
	res := make([]result, len(ps))
	// Each goroutine takes a run of consecutive positions, which come
	// from the same games, so that its solver's memory serves them.
	per := max(1, (len(ps)+workers-1)/workers)
	each(context.Background(), (len(ps)+per-1)/per, workers, func() func(int) {
		x := NewExactSolver(probe, maxNodes)
		return func(run int) {
			for i := run * per; i < min((run+1)*per, len(ps)); i++ {
				v, ok := x.Solve(ps[i])
				res[i] = result{v, ok}
			}
		}
	})
	var out []Sample
	for i, r := range res {
		if r.ok {
			out = append(out, Sample{ps[i], r.v * exactPlacingScore})
		}
	}
	return out
}

// AfterPlacingPositions are the positions the databases of the moving
// phase score (LabelExact): after placing (both hands empty, no removal
// owed), the first 14 plies of it, of games under r (Positions, seed 7).
func AfterPlacingPositions(ctx context.Context, r *mill.Rules, games int) []mill.Position {
	return Positions(ctx, r, games, 4, placingPlies(r)+14, func(p mill.Position) bool {
		_, owed := p.Pending()
		return !owed && p.InHand(mill.White) == 0 && p.InHand(mill.Black) == 0
	}, 7)
}

// ExactPlacingPositions are the positions LabelExactPlacing scores: those
// of the placing phase from ply minPly on where the side to move places,
// no removal owed, of games under r (Positions, seed 13).
func ExactPlacingPositions(ctx context.Context, r *mill.Rules, games, minPly int) []mill.Position {
	return Positions(ctx, r, games, 4, placingPlies(r), func(p mill.Position) bool {
		_, owed := p.Pending()
		return p.Ply() >= minPly && !owed && p.InHand(p.SideToMove()) > 0
	}, 13)
}

// ExactValue returns the value of positions (+1 a win for the side to
// move, 0 a draw, -1 a loss): probe's, and while placing the solver's when
// probe does not know it; false when neither can tell.
func ExactValue(probe Probe, solver *ExactSolver) func(mill.Position) (int, bool) {
	return func(p mill.Position) (int, bool) {
		if v, _, ok := probe(p); ok {
			return v, true
		}
		if p.InHand(mill.White) == 0 && p.InHand(mill.Black) == 0 {
			return 0, false
		}
		return solver.Solve(p)
	}
}

// A LosingMove is where a side lost a game it lost: the first move of its
// that turned a position not lost into a lost one.
type LosingMove struct {
	Found bool
	Ply   int      // the ply of the losing move
	Move  string   // the move
	Was   int      // the value before it, for the side: +1 a win, 0 a draw
	Keep  []string // the moves that would have kept that value
	// Values are the values for the side of the positions looked at, up to
	// the losing move ("12:draw"; "?" where value cannot tell).
	Values []string
}

// FindLosingMove finds where us lost g, by value (ExactValue) of the
// positions from ply from on.
func FindLosingMove(g *mill.Game, us mill.Color, from int, value func(mill.Position) (int, bool)) LosingMove {
	sign := map[bool]int{true: 1, false: -1}
	word := map[int]string{1: "win", 0: "draw", -1: "loss"}
	pos, moves := g.Positions(), g.Moves()
	var l LosingMove
	prev := 2 // not known
	for i := from; i < len(pos) && i < len(moves); i++ {
		p := pos[i]
		v, ok := value(p)
		if !ok {
			l.Values = append(l.Values, "?")
			prev = 2
			continue
		}
		v *= sign[p.SideToMove() == us]
		l.Values = append(l.Values, fmt.Sprintf("%d:%s", i, word[v]))
		if v == -1 && prev != 2 && prev > -1 && pos[i-1].SideToMove() == us {
			q := pos[i-1]
			l.Found, l.Ply, l.Move, l.Was = true, i-1, q.MoveText(moves[i-1]), prev
			for _, m := range q.Moves(nil) {
				c := q.Play(m)
				if v, ok := value(c); ok && v*sign[c.SideToMove() == us] == prev {
					l.Keep = append(l.Keep, q.MoveText(m))
				}
			}
			return l
		}
		prev = v
	}
	return l
}
