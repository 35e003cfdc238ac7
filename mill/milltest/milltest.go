// Package milltest is random play for tests, under any rules: a random
// move, a playout from a position, a game of random moves, and positions of
// random games. Every choice is drawn from the caller's generator, in the
// order of mill's move generation, so a seed names a game: the same seed
// gives the same game as long as the rules and the generator do.
//
// The tests of mill itself cannot import it (it imports mill); they have
// their own differential player (random_test.go).
package milltest

import (
	"math/rand/v2"

	"github.com/morrisgame/morris/mill"
)

// Move returns a legal move of p drawn by rng, and false when p has none
// (the game is over).
func Move(p mill.Position, rng *rand.Rand) (mill.Move, bool) {
	ms := p.Moves(nil)
	if len(ms) == 0 {
		return mill.Move{}, false
	}
	return ms[rng.IntN(len(ms))], true
}

// Playout plays up to plies random moves from p and returns the position
// reached: fewer where the game ends (no move left; a position knows no
// history, so repetitions do not end it).
func Playout(p mill.Position, rng *rand.Rand, plies int) mill.Position {
	return PlayoutUntil(p, rng, plies, nil)
}

// PlayoutUntil is Playout stopping also at the first position that stop
// accepts (p itself included); a nil stop never stops.
func PlayoutUntil(p mill.Position, rng *rand.Rand, plies int, stop func(mill.Position) bool) mill.Position {
	for range plies {
		if stop != nil && stop(p) {
			break
		}
		m, ok := Move(p, rng)
		if !ok {
			break
		}
		p = p.Play(m)
	}
	return p
}

// Line returns the positions of a random playout from p, p first: up to
// plies moves, fewer where the game ends.
func Line(p mill.Position, rng *rand.Rand, plies int) []mill.Position {
	line := []mill.Position{p}
	for range plies {
		m, ok := Move(p, rng)
		if !ok {
			break
		}
		p = p.Play(m)
		line = append(line, p)
	}
	return line
}

// RandomGame plays a game of r from the start: up to plies random moves,
// fewer where it ends (a game's draw rules, repetition included, count).
func RandomGame(r *mill.Rules, rng *rand.Rand, plies int) *mill.Game {
	return PlayOn(mill.NewGame(r), rng, plies)
}

// PlayOn plays up to plies random moves in g (fewer where it ends) and
// returns it: a game set up by the caller (from a position, a first player
// drawn by lot) played on.
func PlayOn(g *mill.Game, rng *rand.Rand, plies int) *mill.Game {
	for range plies {
		ms := g.LegalMoves()
		if len(ms) == 0 {
			break
		}
		if err := g.Play(ms[rng.IntN(len(ms))]); err != nil {
			panic("milltest: a legal move refused: " + err.Error()) // a bug of mill's
		}
	}
	return g
}

// RandomPositions returns up to n distinct positions (by Key) of r, each
// reached by a playout from the start of a number of plies drawn from
// [minPly, maxPly], that are not over and that keep accepts (nil: any). It
// gives up after 50n+1000 playouts; callers check how many they got.
func RandomPositions(r *mill.Rules, rng *rand.Rand, n, minPly, maxPly int, keep func(mill.Position) bool) []mill.Position {
	seen := map[uint64]bool{}
	var out []mill.Position
	for tries := 0; len(out) < n && tries < 50*n+1000; tries++ {
		p := Playout(r.Start(), rng, minPly+rng.IntN(maxPly-minPly+1))
		if !p.HasMoves() || seen[p.Key()] || (keep != nil && !keep(p)) {
			continue
		}
		seen[p.Key()] = true
		out = append(out, p)
	}
	return out
}
