package match

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/morrisgame/morris/egdb"
	"github.com/morrisgame/morris/mill"
)

// TestConvert: the won positions of a match's records are won, each once,
// with their counters cleared, and none from the opening; the perfect
// player converts every one of them against the perfect defence, and the
// random player not all, in the order of the positions whatever the
// concurrency.
func TestConvert(t *testing.T) {
	r := mill.MustRules("six-mens-morris")
	db, _, perfect := wholeGame(t, r)
	lv, err := ParseSpec("level:3", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	rnd, _ := ParseSpec("random", Limits{})
	res, err := Run(context.Background(), Config{Rules: r, A: lv, B: rnd, Pairs: 2, Seed: 3,
		Openings: RandomOpenings(r, 2, 2, rand.New(rand.NewPCG(1, 2)))})
	if err != nil {
		t.Fatal(err)
	}
	won, err := WonPositions(writeRecords(t, res.Games...), db)
	if err != nil {
		t.Fatal(err)
	}
	var all []mill.Position
	seen := map[string]bool{}
	for ph, ps := range won {
		for _, p := range ps {
			if v, ok := db.Value(p); !ok || v.Result != egdb.Win || p.Quiet() != 0 || phaseOf(p) != ph || seen[p.String()] {
				t.Fatalf("%s (%s): %v %v, seen %v", p, ph, v, ok, seen[p.String()])
			}
			seen[p.String()] = true
			all = append(all, p)
		}
	}
	if len(all) < 10 {
		t.Fatalf("%d won positions in 4 games of level 3 against random", len(all))
	}
	all = all[:10]
	for _, tc := range []struct {
		name   string
		winner Spec
		conc   int
		all    bool
	}{{"perfect", perfect, 2, true}, {"random", rnd, 1, false}} {
		var order []int
		games, err := Convert(context.Background(), ConvertConfig{Winner: tc.winner, Defence: perfect, Positions: all,
			Concurrency: tc.conc, Seed: 1, Progress: func(g ConvertGame) { order = append(order, g.Index) }})
		if err != nil {
			t.Fatal(err)
		}
		converted := 0
		for i, g := range games {
			if g.Index != i || order[i] != i || g.Start != all[i] {
				t.Fatalf("%s: game %d is of position %d, reported %v", tc.name, i, g.Index, order)
			}
			if g.Converted() {
				converted++
			}
		}
		if len(games) != len(all) || (converted == len(all)) != tc.all {
			t.Errorf("%s: %d of %d games, %d converted", tc.name, len(games), len(all), converted)
		}
	}
}
