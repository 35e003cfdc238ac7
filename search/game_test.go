package search

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/morrisgame/morris/mill"
)

// TestGamesEveryPreset plays fast games of every preset between levels: the
// engine must always answer a legal move and never crash or hang. Every
// level from 1 to 10 plays every preset, each move within a short time (and
// a few thousand nodes), one side on one thread and the other on two; in
// the regional presets and Shah the same side often moves twice in a row.
func TestGamesEveryPreset(t *testing.T) {
	games := 100 // hundreds in all: 100 a preset
	if testing.Short() {
		games = 5 // every level once
	}
	for _, v := range mill.Variants() {
		t.Run(v.ID, func(t *testing.T) {
			t.Parallel()
			rng := rand.New(rand.NewPCG(1, uint64(len(v.ID))))
			r := mill.MustRules(v.ID)
			engines := [2]*Engine{New(Options{HashMB: 4}), New(Options{HashMB: 4, Threads: 2})}
			for gi := 0; gi < games; gi++ {
				g := mill.NewGame(r, mill.WithSeed(uint64(gi)))
				// The first five games: levels 1 and 2, 3 and 4, ...; then
				// any two levels.
				levels := [2]Level{LevelFor(1 + 2*gi), LevelFor(2 + 2*gi)}
				if gi%2 == 1 {
					levels[0], levels[1] = levels[1], levels[0]
				}
				if gi >= 5 {
					levels = [2]Level{LevelFor(1 + rng.IntN(10)), LevelFor(1 + rng.IntN(10))}
				}
				lim := Limits{MoveTime: 5 * time.Millisecond, Nodes: 5000}
				for g.Outcome() == mill.NoOutcome && len(g.Moves()) < 300 {
					side := g.Position().SideToMove()
					res := engines[side].Choose(context.Background(), g.Positions(), levels[side], lim, rng, nil)
					if err := g.Play(res.Move); err != nil {
						t.Fatalf("game %d, level %d: the engine answered %v in %s: %v", gi, levels[side].N, res.Move, g.Position(), err)
					}
				}
			}
		})
	}
}
