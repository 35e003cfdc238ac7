package match

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/morrisgame/morris/egdb"
	"github.com/morrisgame/morris/egdb/egdbtest"
	"github.com/morrisgame/morris/mill"
)

// wholeGame builds the databases of the whole game of r (a few seconds for
// the small games of these tests) and returns the perfect player's spec.
func wholeGame(t *testing.T, r *mill.Rules) (*egdb.DB, string, Spec) {
	t.Helper()
	db, dir := egdbtest.Build(t, r, egdb.StartKey(r))
	spec, err := ParseSpec("perfect:"+dir+",name=perfect", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if err := spec.Check(r); err != nil {
		t.Fatalf("the whole game refused: %v", err)
	}
	return db, dir, spec
}

// checkKeepsValue checks every move the perfect player (white when
// perfectWhite) made in g against the databases: the move is worth exactly
// the value of the position it was made in, unless the no-progress counter
// could draw the win on the way (then the databases' value is not the
// game's, and the player may take another line).
func checkKeepsValue(t *testing.T, db *egdb.DB, g *mill.Game, perfectWhite bool) (checked int) {
	t.Helper()
	ps, ms := g.Positions(), g.Moves()
	limit := g.Rules().Options().DrawAfter
	for i, m := range ms {
		p := ps[i]
		if (p.SideToMove() == mill.White) != perfectWhite {
			continue
		}
		v, ok := db.Value(p)
		if !ok {
			t.Fatalf("ply %d: %s not in the databases", i+1, p)
		}
		if limit > 0 && v.Result == egdb.Win && p.Quiet()+v.Plies >= limit {
			continue
		}
		var got egdb.Value
		q := ps[i+1]
		if q.OnBoard(q.SideToMove())+q.InHand(q.SideToMove()) < 3 {
			got = egdb.Value{Result: egdb.Win, Plies: 1}
		} else if c, ok := db.Value(q); ok {
			got = c.Parent()
		} else if st, _ := q.Status(); st == mill.NoOutcome {
			t.Fatalf("ply %d: %s not in the databases", i+2, q)
		} else {
			continue // blocked: the game is over by the rules
		}
		if got != v {
			t.Errorf("ply %d: %v in a position worth %s: the move is worth %s", i+1, m, v, got)
		}
		checked++
	}
	return checked
}

// TestPerfectWinsFastest: three men a side on the nine men's board is a win
// in 23 plies for the first player. The perfect player as white wins it in
// exactly 23 plies against itself (the slowest loss), and in at most 23
// against level 1 (whose mistakes shorten it); every move of it, as white
// and as black, keeps the databases' value.
func TestPerfectWinsFastest(t *testing.T) {
	r := mill.MustRules("nine-mens-morris", "pieces=3")
	db, _, perfect := wholeGame(t, r)
	if v, _ := db.Value(mill.NewGame(r).Position()); v != (egdb.Value{Result: egdb.Win, Plies: 23}) {
		t.Fatalf("the start: got %s, want win in 23", v)
	}
	level1, err := ParseSpec("level:1", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), Config{Rules: r, A: perfect, B: level1, Pairs: 3,
		Openings: []Opening{{}, {Moves: nil}, {Seed: 9}}, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, gm := range res.Games {
		if gm.Fault != "" {
			t.Fatalf("game %d: %s", gm.Index, gm.Fault)
		}
		if gm.AWhite {
			plies := len(gm.Game.Moves())
			if gm.Game.Outcome() != mill.Won(mill.White) || plies > 23 {
				t.Errorf("game %d, perfect white: got %s in %d plies, want a white win in 23 or fewer", gm.Index, gm.Game.Outcome(), plies)
			}
		}
		checked += checkKeepsValue(t, db, gm.Game, gm.AWhite)
	}
	if checked < 20 {
		t.Errorf("got %d moves checked, want 20 or more", checked)
	}

	res, err = Run(context.Background(), Config{Rules: r, A: perfect, B: perfect, Pairs: 1, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	for _, gm := range res.Games {
		if plies := len(gm.Game.Moves()); gm.Game.Outcome() != mill.Won(mill.White) || plies != 23 {
			t.Errorf("perfect against perfect: got %s in %d plies (fault %q), want a white win in exactly 23", gm.Game.Outcome(), plies, gm.Fault)
		}
		checkKeepsValue(t, db, gm.Game, true)
		checkKeepsValue(t, db, gm.Game, false)
	}
}

// TestPerfectDraws: four men a side is a draw; perfect against perfect
// keeps it (every move worth a draw) until the rules' draw ends the game,
// from the start and from random openings that the databases call drawn.
func TestPerfectDraws(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the whole game of four men a side (about 10 s)")
	}
	r := mill.MustRules("nine-mens-morris", "pieces=4")
	db, _, perfect := wholeGame(t, r)
	if v, _ := db.Value(mill.NewGame(r).Position()); v.Result != egdb.Draw {
		t.Fatalf("the start: got %s, want a draw", v)
	}
	openings := []Opening{{}}
	rnd, _, err := RandomOpeningsWhere(r, 2, 4, rand.New(rand.NewPCG(3, 4)), func(p mill.Position) bool {
		v, ok := db.Value(p)
		return ok && v.Result == egdb.Draw
	})
	if err != nil {
		t.Fatal(err)
	}
	openings = append(openings, rnd...)
	res, err := Run(context.Background(), Config{Rules: r, A: perfect, B: perfect, Pairs: 3, Openings: openings, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, gm := range res.Games {
		if gm.Fault != "" || gm.Game.Outcome() != mill.Draw || gm.Adjudicated {
			t.Errorf("game %d: got %s (fault %q, adjudicated %v), want a draw by the rules", gm.Index, gm.Game.Outcome(), gm.Fault, gm.Adjudicated)
		}
		checkKeepsValue(t, db, gm.Game, true)
		checkKeepsValue(t, db, gm.Game, false)
	}
}

// TestPerfectRefuses: databases that do not hold the whole game of the
// match's rules are refused before a game is played, with what is missing.
func TestPerfectRefuses(t *testing.T) {
	three := mill.MustRules("nine-mens-morris", "pieces=3")
	_, dir, _ := wholeGame(t, three)
	_, partial := egdbtest.Build(t, three) // 3v3 only
	for _, tc := range []struct {
		rules *mill.Rules
		dir   string
		want  string
	}{
		{mill.MustRules("nine-mens-morris", "pieces=3", "flying=never"), dir, "the databases are of"},
		{mill.MustRules("nine-mens-morris", "pieces=4"), dir, "the databases lack"},
		{three, partial, "the databases lack"},
		{mill.MustRules("nine-mens-morris"), dir, "the databases lack"},
	} {
		spec, err := ParseSpec("perfect:"+tc.dir, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		err = spec.Check(tc.rules)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "morris solve") {
			t.Errorf("%s with %s: got %v, want %q and how to build them", tc.rules, tc.dir, err, tc.want)
		}
		if _, err := Run(context.Background(), Config{Rules: tc.rules, A: spec, B: spec, Pairs: 1}); err == nil {
			t.Errorf("%s with %s: Run played", tc.rules, tc.dir)
		}
	}
	for _, text := range []string{"perfect:", "perfect:" + dir + ",depth=3"} {
		if _, err := ParseSpec(text, Limits{}); err == nil {
			t.Errorf("%q: got no error", text)
		}
	}
}

// TestPerfectFromCompact: the perfect player reads a compact file with its
// distances as it reads the sector files: from the same openings and
// seeds it plays the same games, move for move, against level 1 and
// against itself (four men a side, a draw, so that its drawing choices
// among equal moves are compared too). Without the distances the file is
// refused, with how to write them; the errors of a record are judged the
// same from the file, distances or not.
func TestPerfectFromCompact(t *testing.T) {
	for _, pieces := range []string{"pieces=3", "pieces=4"} {
		r := mill.MustRules("nine-mens-morris", pieces)
		db, gameDir, fromDir := wholeGame(t, r)
		dir := t.TempDir()
		file := dir + "/game.wdl"
		if err := egdb.WriteCompact(db, file, nil); err != nil {
			t.Fatal(err)
		}
		bare := dir + "/bare.wdl" // the same file, no distances beside it
		if err := egdb.WriteCompact(db, bare, nil); err != nil {
			t.Fatal(err)
		}
		if err := egdb.WriteDistances(db, egdb.DistancesPath(file), nil); err != nil {
			t.Fatal(err)
		}
		fromFile, err := ParseSpec("perfect:"+file+",name=perfect", Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if err := fromFile.Check(r); err != nil {
			t.Fatalf("%s: the compact file refused: %v", pieces, err)
		}
		level1, err := ParseSpec("level:1", Limits{})
		if err != nil {
			t.Fatal(err)
		}
		openings := []Opening{{}, {Seed: 9}, {Seed: 10}}
		var records [2]strings.Builder
		for i, perfect := range []Spec{fromDir, fromFile} {
			for _, b := range []Spec{level1, perfect} {
				res, err := Run(context.Background(), Config{Rules: r, A: perfect, B: b, Pairs: len(openings), Openings: openings, Seed: 5})
				if err != nil {
					t.Fatal(err)
				}
				for _, gm := range res.Games {
					if gm.Fault != "" {
						t.Fatalf("%s, game %d: %s", pieces, gm.Index, gm.Fault)
					}
					fmt.Fprintf(&records[i], "%v %v\n", gm.Game.Outcome(), gm.Game.Moves())
				}
			}
		}
		if records[0].String() != records[1].String() {
			t.Errorf("%s: from the sector files\n%s\nfrom the compact file\n%s", pieces, records[0].String(), records[1].String())
		}

		spec, err := ParseSpec("perfect:"+bare, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if err := spec.Check(r); err == nil || !strings.Contains(err.Error(), "-distances") {
			t.Errorf("%s: a compact file without distances: got %v, want it refused with how to write them", pieces, err)
		}
		res, err := Run(context.Background(), Config{Rules: r, A: level1, B: fromDir, Pairs: 2, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		text := writeRecords(t, res.Games...).String()
		var tallies []ErrorTally
		for _, path := range []string{gameDir, file, bare} {
			truth, err := OpenTruth(path, false)
			if err != nil {
				t.Fatal(err)
			}
			tally, err := Errors(strings.NewReader(text), truth)
			if err != nil {
				t.Fatal(err)
			}
			tallies = append(tallies, tally)
		}
		// Without distances the errors are the same, their lines without
		// the plies.
		if !reflect.DeepEqual(tallies[0], tallies[1]) || !reflect.DeepEqual(tallies[0].Players, tallies[2].Players) || len(tallies[0].List) != len(tallies[2].List) {
			t.Errorf("%s: the errors judged from the sector files, the compact file and the file without distances differ:\n%+v\n%+v\n%+v", pieces, tallies[0], tallies[1], tallies[2])
		}
	}
}
