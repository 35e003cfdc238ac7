package tune

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/morrisgame/morris/egdb"
	"github.com/morrisgame/morris/egdb/egdbtest"
	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/mill/milltest"
)

// TestExactPlacing solves three men's morris on the nine men's board
// (nine-mens-morris,pieces=3) whole, placing phase included, and checks
// ExactPlacing, which reads only the moving phase's positions, against
// the databases' own values of placing positions of random games.
func TestExactPlacing(t *testing.T) {
	if testing.Short() {
		t.Skip("solves a whole game (seconds)")
	}
	r := mill.MustRules("nine-mens-morris", "pieces=3")
	db, _ := egdbtest.Build(t, r, egdb.StartKey(r))
	tb := db.Probe
	// moving knows the moving phase only, as the databases do before
	// morris solve -game.
	moving := func(p mill.Position) (int, int, bool) {
		if p.InHand(mill.White) != 0 || p.InHand(mill.Black) != 0 {
			return 0, 0, false
		}
		return tb(p)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	counts := map[int]int{}
	var ps []mill.Position
	for i := 0; i < 300; i++ {
		p := milltest.PlayoutUntil(r.Start(), rng, rng.IntN(6), func(p mill.Position) bool { return p.InHand(p.SideToMove()) == 0 })
		if o, _ := p.Status(); o != mill.NoOutcome || p.InHand(p.SideToMove()) == 0 {
			continue
		}
		want, ok := db.Value(p)
		if !ok {
			t.Fatalf("%s: not in the databases", p)
		}
		got, ok := ExactPlacing(p, moving, 1<<20)
		if !ok {
			t.Fatalf("%s: gave up", p)
		}
		if got != int(want.Result) {
			t.Fatalf("%s: ExactPlacing %d, the databases %s", p, got, want)
		}
		// Databases that hold the placing phase answer at once.
		if v, ok := ExactPlacing(p, tb, 0); !ok || v != got {
			t.Fatalf("%s: with the placing phase's databases %d (solved: %v), want %d at once", p, v, ok, got)
		}
		counts[got]++
		ps = append(ps, p)
	}
	// One solver for every position, its memory carried over: first with
	// a budget so small that most searches give up (what they proved
	// stays), then with enough.
	x := NewExactSolver(moving, 60)
	gaveUp := 0
	for _, p := range ps {
		if _, ok := x.Solve(p); !ok {
			gaveUp++
		}
	}
	if gaveUp == 0 {
		t.Error("no search gave up within 60 positions")
	}
	x.maxNodes = 1 << 20
	for _, p := range ps {
		want, _ := db.Value(p)
		if got, ok := x.Solve(p); !ok || got != int(want.Result) {
			t.Fatalf("%s: the solver carried over says %d (%v), the databases %s", p, got, ok, want)
		}
	}
	// The same on two goroutines, as samples.
	samples := LabelExactPlacing(ps, moving, 1<<20, 2)
	if len(samples) != len(ps) {
		t.Fatalf("%d samples of %d positions", len(samples), len(ps))
	}
	for i, s := range samples {
		want, _ := db.Value(ps[i])
		if s.Pos != ps[i] || s.Score != int(want.Result)*exactPlacingScore {
			t.Fatalf("sample %d: %s %d, the databases %s", i, s.Pos, s.Score, want)
		}
	}
	t.Logf("wins %d, draws %d, losses %d", counts[1], counts[0], counts[-1])
	if counts[1] == 0 || counts[0] == 0 || counts[-1] == 0 {
		t.Errorf("not every value met: %v", counts)
	}
	if _, ok := ExactPlacing(r.Start(), moving, 10); ok {
		t.Error("the start solved within 10 positions")
	}

	t.Run("FindLosingMove", func(t *testing.T) {
		// White plays at random, black by the databases, until black
		// wins; the move that lost is white's, and it is not among the
		// moves that kept the value.
		value := ExactValue(moving, NewExactSolver(moving, 1<<20))
		for seed := uint64(1); seed < 50; seed++ {
			rng := rand.New(rand.NewPCG(seed, 3))
			g := mill.NewGame(r)
			for g.Outcome() == mill.NoOutcome && len(g.Moves()) < 200 {
				p := g.Position()
				m, ok := milltest.Move(p, rng)
				if p.SideToMove() == mill.Black {
					m, _, ok = db.BestMove(p)
				}
				if !ok || g.Play(m) != nil {
					t.Fatalf("%s: no move", p)
				}
			}
			if g.Outcome() != mill.BlackWon {
				continue
			}
			l := FindLosingMove(g, mill.White, 0, value)
			if !l.Found {
				t.Fatalf("seed %d: white lost, no losing move found: %v", seed, l.Values)
			}
			pos := g.Positions()
			if pos[l.Ply].SideToMove() != mill.White || l.Was < 0 || len(l.Keep) == 0 || slices.Contains(l.Keep, l.Move) || pos[l.Ply].MoveText(g.Moves()[l.Ply]) != l.Move {
				t.Fatalf("seed %d: %+v", seed, l)
			}
			return
		}
		t.Fatal("no game where white lost a position it held")
	})

	t.Run("Calibrate", func(t *testing.T) {
		var rows strings.Builder
		games := 0
		c, err := Calibrate(context.Background(), r, tb, CalibrateOptions{Games: 2, Nodes: 2000, Seed: 1}, &rows, func(int, int, int, int) { games++ })
		if err != nil {
			t.Fatal(err)
		}
		moves, lost := 0, 0
		for k, n := range c.Moves {
			moves += n
			lost += c.Lost[k]
		}
		if games != 2 || moves == 0 || lost > moves || strings.Count(rows.String(), "\n") != moves {
			t.Errorf("%d games logged, %d moves counted (%d lost), %d rows", games, moves, lost, strings.Count(rows.String(), "\n"))
		}
		var table strings.Builder
		if err := c.WriteTable(&table); err != nil || strings.Count(table.String(), "\n") != 12 {
			t.Errorf("the table: %v\n%s", err, table.String())
		}
	})
}
