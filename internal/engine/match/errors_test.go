package match

import (
	"bytes"
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/morrisgame/morris/egdb/egdbtest"
	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/record"
)

// writeRecords writes the records of games to a buffer as morris match
// -records does.
func writeRecords(t *testing.T, games ...*Game) *bytes.Buffer {
	t.Helper()
	var buf bytes.Buffer
	w := record.NewWriter(&buf)
	for _, g := range games {
		if err := w.Write(g.Record("errors test")); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return &buf
}

// TestErrorsMatch: in a match of the perfect player against level 1 and
// the random player, the perfect player makes no error and every move of
// both is judged; the random player errs (three men a side is won for the
// first player, so a random white throws the win away or a random black
// has nothing to lose, but over six games it errs at least once).
func TestErrorsMatch(t *testing.T) {
	r := mill.MustRules("nine-mens-morris", "pieces=3")
	db, _, perfect := wholeGame(t, r)
	// Openings of random moves, which are no player's: a perfect player's
	// count must not take them for its own.
	openings, _, err := RandomOpeningsWhere(r, 2, 2, rand.New(rand.NewPCG(1, 2)), func(mill.Position) bool { return true })
	if err != nil {
		t.Fatal(err)
	}
	openings = append(openings, Opening{Seed: 9})
	var games []*Game
	for _, b := range []string{"level:1", "random"} {
		spec, err := ParseSpec(b, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		res, err := Run(context.Background(), Config{Rules: r, A: perfect, B: spec, Pairs: 3,
			Openings: openings, Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		games = append(games, res.Games...)
	}
	moves, opening := 0, 0
	for _, g := range games {
		moves += len(g.Game.Moves()) - g.OpeningPlies
		opening += g.OpeningPlies
	}
	if opening == 0 {
		t.Fatal("no opening moves")
	}
	tally, err := Errors(writeRecords(t, games...), db)
	if err != nil {
		t.Fatal(err)
	}
	if tally.Games != len(games) || tally.Opening != opening {
		t.Errorf("got %d games and %d opening moves, want %d and %d", tally.Games, tally.Opening, len(games), opening)
	}
	byName := map[string]PlayerErrors{}
	for _, p := range tally.Players {
		byName[p.Name] = p
	}
	if len(byName) != 3 {
		t.Fatalf("got players %v, want perfect, level:1 and random", tally.Players)
	}
	if got := byName["perfect"].Total(); got.Errors != 0 || got.Moves == 0 {
		t.Errorf("perfect: got %+v, want moves and no errors", got)
	}
	if got := byName["random"].Total(); got.Errors == 0 {
		t.Errorf("random: got %+v, want errors", got)
	}
	total := tally.Total().Total()
	if total.Moves != moves || total.Uncovered != 0 {
		t.Errorf("got %d moves judged and %d uncovered, want %d and 0", total.Moves, total.Uncovered, moves)
	}
	if len(tally.List) != total.Errors {
		t.Errorf("got %d errors listed, %d counted", len(tally.List), total.Errors)
	}
	for _, e := range tally.List {
		if e.Player == "perfect" || e.Played.Result >= e.Best.Result {
			t.Errorf("listed: %s", e)
		}
	}
}

// TestErrorsOne: a game played perfectly but for one move that throws the
// win (or the draw) away, made in a given phase, counts exactly that error,
// for that player and in that phase; a position the databases do not hold
// is counted apart.
func TestErrorsOne(t *testing.T) {
	r := mill.MustRules("nine-mens-morris", "pieces=3")
	db, _, _ := wholeGame(t, r)
	judge := NewPerfect("", db)
	for _, phase := range []Phase{Placing, Flying} {
		g := mill.NewGame(r)
		erred := false
		var want MoveError
		for g.Outcome() == mill.NoOutcome && len(g.Moves()) < 200 {
			vals, err := judge.MoveValues(g)
			if err != nil {
				t.Fatal(err)
			}
			m := vals[0].Move
			if p := g.Position(); !erred && phaseOf(p) == phase {
				for _, v := range vals {
					if v.Value.Result < vals[0].Value.Result {
						m, erred = v.Move, true
						want = MoveError{Game: 1, Ply: len(g.Moves()) + 1, Phase: phase, Move: p.MoveText(m), Best: vals[0].Value, Played: v.Value}
						want.Player = "white"
						if p.SideToMove() == mill.Black {
							want.Player = "black"
						}
						break
					}
				}
			}
			if err := g.Play(m); err != nil {
				t.Fatal(err)
			}
		}
		if !erred {
			t.Fatalf("%s: no move to err with", phase)
		}
		tally, err := Errors(writeRecords(t, &Game{Game: g, Names: [2]string{"white", "black"}}), db)
		if err != nil {
			t.Fatal(err)
		}
		if len(tally.List) != 1 || tally.List[0] != want {
			t.Errorf("%s: got errors %v, want %v", phase, tally.List, want)
		}
		for _, p := range tally.Players {
			for _, ph := range Phases {
				wantN := 0
				if p.Name == want.Player && ph == phase {
					wantN = 1
				}
				if got := p.Phases[ph]; got.Errors != wantN || got.Uncovered != 0 {
					t.Errorf("%s error: %s in %s: got %+v, want %d errors", phase, p.Name, ph, got, wantN)
				}
			}
		}
		t.Logf("%s: %s", phase, want)
	}

	// Databases of the endgame only: the placing moves are not judged but
	// counted apart, save the last, whose positions after it are all of 3v3.
	partial, _ := egdbtest.Build(t, r) // 3v3 only
	g := mill.NewGame(r)
	for _, s := range strings.Fields("a1 d1 g1 a4 g4 a7") {
		if err := g.PlayText(s); err != nil {
			t.Fatal(err)
		}
	}
	tally, err := Errors(writeRecords(t, &Game{Game: g, Names: [2]string{"white", "black"}}), partial)
	if err != nil {
		t.Fatal(err)
	}
	if got := tally.Total().Phases[Placing]; got.Uncovered != 5 || got.Moves != 1 {
		t.Errorf("partial databases, placing: got %+v, want 5 uncovered and 1 judged", got)
	}

	// Databases of other rules are refused.
	other := mill.MustRules("nine-mens-morris", "pieces=3", "flying=never")
	og := &Game{Game: mill.NewGame(other), Names: [2]string{"a", "b"}}
	if _, err := Errors(writeRecords(t, og), db); err == nil || !strings.Contains(err.Error(), "the databases are of") {
		t.Errorf("other rules: got %v, want the databases refused", err)
	}
}
