package server

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/morrisgame/morris/internal/server/store"
	"github.com/morrisgame/morris/mill"
)

// TestEngineBounded starts more games against the engine than it has
// workers: every game gets its reply, never more searches run at once than
// there are workers, and a game between people moves meanwhile.
func TestEngineBounded(t *testing.T) {
	s := newService(t, Config{EngineWorkers: 1, Quotas: Quotas{EngineGames: 6}})
	ctx := context.Background()
	ann, bob := signUp(t, s, "ann"), signUp(t, s, "bob")
	var games []int64
	for range 6 {
		g, err := s.PlayEngine(ctx, ann, 4, GameSpec{Color: "white"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Move(ctx, ann, g.ID, "d6", 0); err != nil {
			t.Fatal(err)
		}
		games = append(games, g.ID)
	}
	h, err := pbmChallenge(ctx, s, "ann", "bob", GameSpec{})
	if err != nil {
		t.Fatal(err)
	}
	// People play while the engine thinks.
	for ply, m := range []string{"a1", "a4", "d1", "b4"} {
		u := ann
		if ply%2 == 1 {
			u = bob
		}
		if _, err := s.Move(ctx, u, h.ID, m, ply); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(30 * time.Second)
	for _, id := range games {
		for {
			v, err := s.View(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if v.Ply == 2 || v.Status == store.Finished {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("game %d: the engine has not replied in 30 s", id)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	if peak := s.engine.peak.Load(); peak != 1 {
		t.Errorf("searches at once: at most %d, want 1 (the workers)", peak)
	}
}

// TestPlayEngineFromPosition: a game against the engine from a position
// set up by hand starts there, the engine moving first when the position
// is its turn, and its move is legal in that position; a position that
// does not parse, that is over, or of other rules than the ones named is
// refused, and so is a set-up position in a challenge between people.
func TestPlayEngineFromPosition(t *testing.T) {
	s := newService(t, Config{EngineWorkers: 1})
	ctx := context.Background()
	ann := signUp(t, s, "ann")
	signUp(t, s, "bob")
	// The moving phase: every piece placed, black to move (the engine).
	const start = "nine-mens-morris WWB1BW2/BWB1W1B1/W1BWB1W1 b 0,0 - 0 18"
	p, err := mill.ParsePosition(start)
	if err != nil {
		t.Fatal(err)
	}
	g, err := s.PlayEngine(ctx, ann, 3, GameSpec{Start: start, Color: "white"})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	var v GameView
	for {
		if v, err = s.View(ctx, g.ID); err != nil {
			t.Fatal(err)
		}
		if v.Ply == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the engine has not moved in 30 s")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if v.Start != start || v.Rules != "nine-mens-morris" {
		t.Errorf("stored start %q, rules %q; want %q", v.Start, v.Rules, start)
	}
	m, err := p.ParseMove(v.Moves[0].Text)
	if err != nil || !slices.Contains(p.Moves(nil), m) {
		t.Errorf("the engine's move %q is not legal in the position set up: %v", v.Moves[0].Text, err)
	}

	for name, sp := range map[string]GameSpec{
		"not a position":    {Start: "nine-mens-morris WWW"},
		"too many pieces":   {Start: "nine-mens-morris WWWWWWWW/WWB5/8 w 0,9 - 0 10"},
		"over":              {Start: "nine-mens-morris WW6/BBB5/8 w 0,0 - 0 30"},
		"other rules named": {Start: start, Variant: "lasker"},
	} {
		if _, err := s.PlayEngine(ctx, ann, 3, sp); KindOf(err) != BadRequest {
			t.Errorf("%s: %v, want a bad request", name, err)
		}
	}
	if _, err := s.Challenge(ctx, ann, "bob", GameSpec{Start: start}); KindOf(err) != BadRequest {
		t.Errorf("a challenge from a set-up position: %v, want a bad request", err)
	}
}
