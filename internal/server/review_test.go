package server

import (
	"context"
	"testing"
	"time"

	"github.com/morrisgame/morris/search"
)

// TestReview: a finished game's review runs off the request path, reports
// its progress, and ends with every move judged (the blunder found, with
// the better move), the evaluation along the game and a summary a side;
// asking again answers the review done. A review nobody asked for has the
// status none; an active game and an unknown one are refused.
func TestReview(t *testing.T) {
	s := newService(t, Config{ReviewLimits: search.Limits{Depth: 4}, ReviewPollEvery: time.Hour})
	ctx := context.Background()
	ann, bob := signUp(t, s, "ann"), signUp(t, s, "bob")
	g, err := pbmChallenge(ctx, s, "ann", "bob", GameSpec{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.RequestReview(ctx, "", g.ID); KindOf(err) != Conflict {
		t.Errorf("a review of a game going on: %v, want a conflict", err)
	}
	// g1 leaves a7 to white, which closes a1-a4-a7 and takes d6.
	for ply, m := range []string{"a1", "d6", "a4", "g1", "a7xd6"} {
		u := ann
		if ply%2 == 1 {
			u = bob
		}
		if _, err := s.Move(ctx, u, g.ID, m, ply); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Resign(ctx, bob, g.ID); err != nil {
		t.Fatal(err)
	}
	if rv, err := s.Review(ctx, g.ID); err != nil || rv.Status != "none" {
		t.Errorf("a review nobody asked for: %+v, %v, want status none", rv, err)
	}
	if _, err := s.Review(ctx, 99999); KindOf(err) != NotFound {
		t.Errorf("the review of an unknown game: %v, want not found", err)
	}
	rv, err := s.RequestReview(ctx, "", g.ID)
	if err != nil || rv.Total != 5 || (rv.Status != "queued" && rv.Status != "running" && rv.Status != "done") {
		t.Fatalf("asked: %+v, %v", rv, err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for rv.Status != "done" {
		if time.Now().After(deadline) {
			t.Fatalf("the review is %s (%d of %d) after 30 s", rv.Status, rv.Done, rv.Total)
		}
		time.Sleep(20 * time.Millisecond)
		if rv, err = s.Review(ctx, g.ID); err != nil {
			t.Fatal(err)
		}
	}
	if len(rv.Moves) != 5 || len(rv.Evals) != 6 || rv.Depth != 4 {
		t.Fatalf("done: %d moves, %d evaluations, depth %d", len(rv.Moves), len(rv.Evals), rv.Depth)
	}
	if m := rv.Moves[3]; m.Move != "g1" || m.Mark != "blunder" || m.Best != "a7" || m.Side != "black" {
		t.Errorf("g1: %+v, want a blunder of black's with a7 better", m)
	}
	if rv.Evals[4] <= rv.Evals[3] || rv.Evals[4] <= 0 || rv.Evals[5] <= 0 {
		t.Errorf("evaluations %v: g1 should turn the game to white", rv.Evals)
	}
	if sm := rv.Summary["black"]; sm.Moves != 2 || sm.Blunders < 1 {
		t.Errorf("black's summary %+v", sm)
	}
	again, err := s.RequestReview(ctx, "", g.ID)
	if err != nil || again.Status != "done" || len(again.Moves) != 5 {
		t.Errorf("asked again: %s, %d moves, %v", again.Status, len(again.Moves), err)
	}
	if _, err := s.RequestReview(ctx, "", 99999); KindOf(err) != NotFound {
		t.Errorf("an unknown game: %v, want not found", err)
	}
}

// TestRecordReview: moves from elsewhere (an imported record, from a set-up
// position) are reviewed like a game: asked for, done off the request
// path, read by the review's id; moves that do not replay are refused,
// and so are more reviews than may wait.
func TestRecordReview(t *testing.T) {
	s := newService(t, Config{ReviewLimits: search.Limits{Depth: 3}, ReviewPollEvery: time.Hour})
	ctx := context.Background()
	rv, err := s.RequestRecordReview(ctx, "", "nine-mens-morris", "", []string{"a1", "d6", "a4", "g1", "a7xd6"})
	if err != nil || rv.ID == 0 || rv.Game != 0 || rv.Total != 5 {
		t.Fatalf("asked: %+v, %v", rv, err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for rv.Status != "done" {
		if time.Now().After(deadline) {
			t.Fatalf("the review is %s after 30 s", rv.Status)
		}
		time.Sleep(20 * time.Millisecond)
		if rv, err = s.RecordReview(ctx, rv.ID); err != nil {
			t.Fatal(err)
		}
	}
	if len(rv.Moves) != 5 || len(rv.Evals) != 6 || rv.Moves[4].Move != "a7xd6" {
		t.Fatalf("done: %+v", rv)
	}
	// From a position, in pbmserv notation too.
	from, err := s.RequestRecordReview(ctx, "", "", "nine-mens-morris W1W1B1B1/1W1B1B1W/8 w 0,0 - 0 18", []string{"d2-d3"})
	if err != nil || from.Total != 1 {
		t.Fatalf("from a position: %+v, %v", from, err)
	}
	for name, moves := range map[string][]string{"none": nil, "illegal": {"a1", "a1"}} {
		if _, err := s.RequestRecordReview(ctx, "", "nine-mens-morris", "", moves); KindOf(err) != BadRequest {
			t.Errorf("%s: %v, want a bad request", name, err)
		}
	}
	if _, err := s.RecordReview(ctx, 999); KindOf(err) != NotFound {
		t.Errorf("an unknown review: %v", err)
	}
	// A full queue: once the worker is idle, fill the store's queue
	// without waking it; one more is refused.
	for from.Status != "done" {
		if time.Now().After(deadline) {
			t.Fatalf("the second review is %s", from.Status)
		}
		time.Sleep(20 * time.Millisecond)
		if from, err = s.RecordReview(ctx, from.ID); err != nil {
			t.Fatal(err)
		}
	}
	for range MaxRecordReviews {
		if _, err := s.st.RequestRecordReview(ctx, "nine-mens-morris", "", []string{"a1"}, time.Now(), MaxRecordReviews); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.RequestRecordReview(ctx, "", "nine-mens-morris", "", []string{"a1"}); KindOf(err) != Unavailable {
		t.Errorf("more reviews than may wait: %v, want unavailable", err)
	}
}
