package server

import (
	"context"
	"testing"
	"time"

	"github.com/morrisgame/morris/mill"
)

// TestExplorer: finished games go into the explorer as they end, and a
// position's answer counts the games that moved on from it, by move and
// result; a game still going, and its moves, count nothing; the book's
// values come with the moves it knows.
func TestExplorer(t *testing.T) {
	s := newService(t, Config{ExploreEvery: time.Hour})
	ctx := context.Background()
	ann, bob := signUp(t, s, "ann"), signUp(t, s, "bob")
	play := func(moves []string, end func(id int64)) {
		t.Helper()
		g, err := pbmChallenge(ctx, s, "ann", "bob", GameSpec{})
		if err != nil {
			t.Fatal(err)
		}
		for ply, m := range moves {
			u := ann
			if ply%2 == 1 {
				u = bob
			}
			if _, err := s.Move(ctx, u, g.ID, m, ply); err != nil {
				t.Fatal(err)
			}
		}
		if end != nil {
			end(g.ID)
		}
	}
	resign := func(u User) func(int64) {
		return func(id int64) {
			if err := s.Resign(ctx, u, id); err != nil {
				t.Fatal(err)
			}
		}
	}
	play([]string{"d6", "d5", "a4"}, resign(bob)) // 1-0
	play([]string{"d6", "d5", "b4"}, resign(ann)) // 0-1
	play([]string{"d6", "f4"}, resign(ann))       // 0-1
	play([]string{"a1", "d5"}, resign(bob))       // 1-0
	play([]string{"d6", "d5", "a4", "g7"}, nil)   // going on: not counted

	r := mill.MustRules("nine-mens-morris")
	start := mill.NewGame(r).Position()
	after := func(moves ...string) mill.Position {
		g := mill.NewGame(r)
		for _, m := range moves {
			if err := g.PlayText(m); err != nil {
				t.Fatal(err)
			}
		}
		return g.Position()
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		ex, err := s.Explore(ctx, start)
		if err != nil {
			t.Fatal(err)
		}
		if ex.Games == 4 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the start has %d games after 10 s, want 4", ex.Games)
		}
		time.Sleep(10 * time.Millisecond)
	}
	type row struct{ games, white, draws, black int }
	for _, tc := range []struct {
		pos  mill.Position
		want map[string]row
	}{
		{start, map[string]row{"d6": {3, 1, 0, 2}, "a1": {1, 1, 0, 0}}},
		{after("d6"), map[string]row{"d5": {2, 1, 0, 1}, "f4": {1, 0, 0, 1}}},
		{after("d6", "d5"), map[string]row{"a4": {1, 1, 0, 0}, "b4": {1, 0, 0, 1}}},
		{after("d6", "d5", "a4"), map[string]row{}},
	} {
		ex, err := s.Explore(ctx, tc.pos)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]row{}
		for _, m := range ex.Moves {
			if m.Games > 0 {
				got[m.Move] = row{m.Games, m.White, m.Draws, m.Black}
			}
		}
		if len(got) != len(tc.want) {
			t.Errorf("%s: %v, want %v", tc.pos, got, tc.want)
		}
		for k, v := range tc.want {
			if got[k] != v {
				t.Errorf("%s: %s %v, want %v", tc.pos, k, got[k], v)
			}
		}
	}
	// The book knows the first moves of nine men's morris.
	ex, _ := s.Explore(ctx, start)
	books := 0
	for _, m := range ex.Moves {
		if m.Book != nil {
			books++
		}
	}
	if books == 0 {
		t.Error("no move of the start has the book's value")
	}
}
