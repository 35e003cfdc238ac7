package milltest

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/morrisgame/morris/mill"
)

func rng(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 1)) }

// TestSameSeedSameGame: a seed names a game, under every preset; games
// end as the rules say, and a playout ends at the same place as the line.
func TestSameSeedSameGame(t *testing.T) {
	for _, v := range mill.Variants() {
		r := mill.MustRules(v.ID)
		a, b := RandomGame(r, rng(3), 500), RandomGame(r, rng(3), 500)
		if !slices.Equal(a.Moves(), b.Moves()) {
			t.Fatalf("%s: seed 3 gave two games", v.ID)
		}
		if a.Outcome() == mill.NoOutcome && len(a.Moves()) < 500 {
			t.Errorf("%s: the game stopped after %d plies without an outcome", v.ID, len(a.Moves()))
		}
		line := Line(r.Start(), rng(4), 60)
		if end := Playout(r.Start(), rng(4), 60); end != line[len(line)-1] {
			t.Errorf("%s: the playout ends at %s, the line at %s", v.ID, end, line[len(line)-1])
		}
		if len(line) < 61 && line[len(line)-1].HasMoves() {
			t.Errorf("%s: the line stops after %d plies with moves left", v.ID, len(line)-1)
		}
	}
}

func TestPlayoutUntil(t *testing.T) {
	r := mill.MustRules("nine-mens-morris")
	placed := func(p mill.Position) bool { return p.InHand(mill.White)+p.InHand(mill.Black) == 0 }
	p := PlayoutUntil(r.Start(), rng(1), 100, placed)
	if !placed(p) && p.HasMoves() {
		t.Errorf("stopped at %s: placing goes on", p)
	}
	if start := r.Start(); PlayoutUntil(start, rng(1), 100, func(mill.Position) bool { return true }) != start {
		t.Error("a stop that accepts the start moved")
	}
}

func TestRandomPositions(t *testing.T) {
	r := mill.MustRules("nine-mens-morris")
	moving := func(p mill.Position) bool { return p.InHand(p.SideToMove()) == 0 }
	ps := RandomPositions(r, rng(2), 50, 18, 30, moving)
	if len(ps) != 50 {
		t.Fatalf("%d positions, want 50", len(ps))
	}
	seen := map[uint64]bool{}
	for _, p := range ps {
		if !moving(p) || !p.HasMoves() || p.Ply() < 18 || p.Ply() > 30 || seen[p.Key()] {
			t.Errorf("%s: not a new moving position of plies 18 to 30 with moves", p)
		}
		seen[p.Key()] = true
	}
	if none := RandomPositions(r, rng(2), 5, 0, 4, func(mill.Position) bool { return false }); len(none) != 0 {
		t.Errorf("%d positions that keep refuses", len(none))
	}
}
