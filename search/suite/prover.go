package suite

import (
	"slices"

	"github.com/morrisgame/morris/mill"
)

// Prover is the referee of the regression suite (generate.go): an
// exact minimax to a fixed depth that shares nothing with the engine but the
// rules (mill's Moves, Play and Status). Full width, alpha-beta and nothing
// else: no table, no reductions, no quiescence, no evaluation but the count
// of pieces (board and hand) at the horizon. The game ends as the rules say,
// and threefold repetition along the line (the root counted) is a draw. Its
// value of a position at depth d is therefore a fact about the game tree d
// plies deep, not an opinion: "white forces the end of the game within 7
// plies", "black cannot keep its material for 6 plies".
type Prover struct {
	bufs  [][]mill.Move
	path  []uint64 // keys of the positions from the root to the parent of the node
	nodes uint64
	limit uint64 // give up after this many nodes (0: never)
	out   bool   // the limit was reached: the last answer means nothing
}

// Win is the value of a game won at once, for the side to move: a win in
// n plies is Win-n.
const Win = 1 << 20

const (
	proofBound = Win - 1000 // beyond it, a forced end of the game
	proofInf   = Win + 1
)

// NewProver returns a prover that gives up after limit nodes a question
// (0: never).
func NewProver(limit uint64) *Prover {
	pr := &Prover{limit: limit}
	for range 64 {
		pr.bufs = append(pr.bufs, make([]mill.Move, 0, 256))
	}
	return pr
}

// reset starts a new budget of nodes.
func (pr *Prover) reset() { pr.nodes, pr.out = 0, false }

// IsWin and IsLoss tell forced ends of the game from material.
func IsWin(v int) bool  { return v > proofBound }
func IsLoss(v int) bool { return v < -proofBound }

// material is the count of pieces, board and hand, of the side to move
// less the opponent's.
func material(p *mill.Position) int {
	us, them := p.SideToMove(), p.SideToMove().Other()
	return p.OnBoard(us) + p.InHand(us) - p.OnBoard(them) - p.InHand(them)
}

// value is the minimax value of p searched depth plies deep, ply plies from
// the root, for its side to move, inside the window (alpha, beta); fail-soft.
func (pr *Prover) value(p mill.Position, ply, depth, alpha, beta int) int {
	pr.nodes++
	if pr.limit > 0 && pr.nodes > pr.limit {
		pr.out = true
	}
	if pr.out {
		return 0
	}
	switch o, _ := p.Status(); o {
	case mill.NoOutcome:
	case mill.Draw:
		return 0
	case mill.Won(p.SideToMove()):
		return Win - ply
	default:
		return -(Win - ply)
	}
	key := p.Key()
	if p.Rules().Options().Repetition > 0 {
		seen := 1
		for i := len(pr.path) - 1; i >= 0 && len(pr.path)-i <= p.Quiet(); i-- {
			if pr.path[i] == key {
				seen++
			}
		}
		if seen >= p.Rules().Options().Repetition {
			return 0
		}
	}
	if depth == 0 {
		return material(&p)
	}
	if ply >= len(pr.bufs) {
		pr.bufs = append(pr.bufs, make([]mill.Move, 0, 256))
	}
	moves := p.Moves(pr.bufs[ply][:0])
	pr.bufs[ply] = moves
	// Captures first: alpha-beta is exact in any order, this is for speed.
	n := 0
	for i, m := range moves {
		if m.NumCaptures() > 0 {
			moves[i], moves[n] = moves[n], moves[i]
			n++
		}
	}
	pr.path = append(pr.path, key)
	best := -proofInf
	for _, m := range moves {
		v := pr.child(p, m, ply+1, depth-1, max(alpha, best), beta)
		if v > best {
			best = v
			if best >= beta {
				break
			}
		}
	}
	pr.path = pr.path[:len(pr.path)-1]
	return best
}

// moveValue is the value of a root move: the value for the side to move
// at the root of playing m and then searching depth-1 plies.
func (pr *Prover) moveValue(p mill.Position, m mill.Move, depth, alpha, beta int) int {
	pr.path = append(pr.path[:0], p.Key())
	v := pr.child(p, m, 1, depth-1, alpha, beta)
	pr.path = pr.path[:0]
	return v
}

// child is the value, for the side to move in p, of playing m and searching
// the position it leads to at ply, depth plies deep: negated when the turn
// passes, and as it is when the same side moves again (a removal owed when
// placing ends, a blocked side's removal, the second player moving first).
func (pr *Prover) child(p mill.Position, m mill.Move, ply, depth, alpha, beta int) int {
	c := p.Play(m)
	if c.SideToMove() == p.SideToMove() {
		return pr.value(c, ply, depth, alpha, beta)
	}
	return -pr.value(c, ply, depth, -beta, -alpha)
}

// Best returns the value of p at depth, and the moves that reach it (every
// other move is proved worse), or ok false if the node limit was reached.
// The moves of first are searched first: if they are the best (the best of
// the last depth, say), every other move is only proved worse, which is
// cheaper than finding its value.
func (pr *Prover) Best(p mill.Position, depth int, first []mill.Move) (v int, best []mill.Move, ok bool) {
	moves := p.Moves(nil)
	n := 0
	for i, m := range moves {
		if slices.Contains(first, m) {
			moves[i], moves[n] = moves[n], moves[i]
			n++
		}
	}
	v = -proofInf
	for _, m := range moves {
		// With the window (v-1, ∞) a value of v or more is exact, and a
		// smaller one (fail-soft) is below v.
		switch s := pr.moveValue(p, m, depth, v-1, proofInf); {
		case s > v:
			v, best = s, append(best[:0], m)
		case s == v:
			best = append(best, m)
		}
	}
	return v, best, !pr.out
}

// reach returns the moves whose value at depth is at least bound.
func (pr *Prover) reach(p mill.Position, depth, bound int) (moves []mill.Move, ok bool) {
	for _, m := range p.Moves(nil) {
		if pr.moveValue(p, m, depth, bound-1, bound) >= bound {
			moves = append(moves, m)
		}
	}
	return moves, !pr.out
}
