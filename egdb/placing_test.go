package egdb

import (
	"context"
	"testing"

	"github.com/morrisgame/morris/egdb/internal/retro"
	"github.com/morrisgame/morris/mill"
)

// TestPlacingAgainstBrute solves a whole game, three men's morris on the
// nine men's board (nine-mens-morris,pieces=3): the placing phase from the
// start, sector by sector, down to the moving phase's 3v3. A plain
// memoised minimax over mill's own Moves, Play and Status (no index, no
// symmetry), reading the moving phase from the databases, must give every
// position of the placing phase reachable from the start the value and
// distance that the databases hold.
func TestPlacingAgainstBrute(t *testing.T) {
	if testing.Short() {
		t.Skip("solves a whole game")
	}
	r := mill.MustRules("nine-mens-morris", "pieces=3")
	db, dir, placing, checked, v := placingAgainstBrute(t, r)
	defer db.Close()
	t.Logf("%d placing sectors; %d positions of the placing phase checked; the start: %s", placing, checked, fromRetro(v))
	if placing < 6 || checked < 100000 {
		t.Errorf("only %d placing sectors and %d positions", placing, checked)
	}

	// Opened for nine men's morris (nine pieces), the same files answer
	// for the moving phase, which plays alike, and not for placing.
	nine := mill.MustRules("nine-mens-morris")
	other, err := Open(dir, ForRules(nine))
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	q, _ := nine.SetUp(0b111, 0b111000, mill.White, 0, 0)
	if _, ok := other.Value(q); !ok {
		t.Errorf("%s: the 3v3 sector does not answer for nine men's morris", q)
	}
	three, _ := r.SetUp(0b11, 0b11000, mill.White, 1, 1)
	nineToo, _ := nine.SetUp(0b11, 0b11000, mill.White, 1, 1)
	if _, ok := db.Value(three); !ok {
		t.Errorf("%s: no answer", three)
	}
	if v, ok := other.Value(nineToo); ok {
		t.Errorf("%s: a placing position of nine men's morris answered %v by the databases of three men", nineToo, v)
	}
}

// placingAgainstBrute builds the whole game of r from the start and checks
// every position of the placing phase reachable from the start against a
// plain memoised minimax over mill's own Moves, Play and Status (no index,
// no symmetry) that reads the moving phase from the databases. It returns
// the databases and their directory, the number of placing sectors, of
// positions checked, and the value of the start.
func placingAgainstBrute(t *testing.T, r *mill.Rules) (*DB, string, int, int, retro.Value) {
	t.Helper()
	dir := t.TempDir()
	res, err := Builder{Rules: r, Dir: dir, Keys: []Key{StartKey(r)}, Verify: true}.Build(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	placing := 0
	for _, s := range res {
		if !s.Key.Moving() {
			placing++
		}
	}
	db, err := Open(dir, ForRules(r))
	if err != nil {
		t.Fatal(err)
	}
	memo := map[uint64]retro.Value{}
	var solve func(p mill.Position) retro.Value
	solve = func(p mill.Position) retro.Value {
		if o, _ := p.Status(); o != mill.NoOutcome {
			if o == mill.Draw {
				return retro.Draw
			}
			return retro.LossIn(0) // the side to move has lost
		}
		us := p.SideToMove()
		if p.InHand(us) == 0 && p.InHand(us.Other()) == 0 {
			v, ok := db.probe(p)
			if !ok {
				t.Fatalf("%s: not in the databases", p)
			}
			return v
		}
		k := p.Key()
		if v, ok := memo[k]; ok {
			return v
		}
		var best retro.Value
		for i, m := range p.Moves(nil) {
			if v := solve(p.Play(m)).Parent(); i == 0 || v.Better(best) {
				best = v
			}
		}
		memo[k] = best
		v, ok := db.probe(p)
		if !ok || v != best {
			t.Fatalf("%s: the databases say %v (%v), the minimax %v", p, fromRetro(v), ok, fromRetro(best))
		}
		return best
	}
	v := solve(mill.NewGame(r).Position())
	return db, dir, placing, len(memo), v
}
