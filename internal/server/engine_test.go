package server

import (
	"context"
	"testing"
	"time"

	"github.com/morrisgame/morris/internal/store"
)

// TestEngineBounded starts more games against the engine than it has
// workers: every game gets its reply, never more searches run at once than
// there are workers, and a game between people moves meanwhile.
func TestEngineBounded(t *testing.T) {
	s := newService(t, Config{EngineWorkers: 1})
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
	h, err := s.PbmChallenge(ctx, "ann", "bob", GameSpec{})
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
