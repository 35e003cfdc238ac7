package search

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/morrisgame/morris/mill"
)

// TestGamesEveryPreset plays fast games of every preset between levels: the
// engine must always answer a legal move and never crash or hang.
func TestGamesEveryPreset(t *testing.T) {
	games := 100 // hundreds in all: 100 a preset
	if testing.Short() {
		games = 2
	}
	for _, v := range mill.Variants() {
		t.Run(v.ID, func(t *testing.T) {
			t.Parallel()
			rng := rand.New(rand.NewPCG(1, uint64(len(v.ID))))
			r := mill.MustRules(v.ID)
			engines := [2]*Engine{New(Options{HashMB: 4}), New(Options{HashMB: 4, Threads: 2})}
			for gi := 0; gi < games; gi++ {
				g := mill.NewGame(r, mill.WithSeed(uint64(gi)))
				levels := [2]Level{LevelFor(1 + rng.IntN(6)), LevelFor(1 + rng.IntN(6))}
				for g.Outcome() == mill.NoOutcome && len(g.Moves()) < 300 {
					side := g.Position().SideToMove()
					res := engines[side].Choose(context.Background(), g.Positions(), levels[side], Limits{Depth: levels[side].Depth, Nodes: 5000}, rng, nil)
					if err := g.Play(res.Move); err != nil {
						t.Fatalf("game %d: the engine answered %v in %s: %v", gi, res.Move, g.Position(), err)
					}
				}
			}
		})
	}
}
