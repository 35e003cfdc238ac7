package tune

import (
	"context"

	"github.com/morrisgame/morris/mill"
)

// A Probe answers for the positions a database holds: the result for the
// side to move (+1, 0, -1), the plies to the end, and whether it knows p.
// egdb.DB.Tablebase gives one.
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
