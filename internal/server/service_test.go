package server

import (
	"cmp"
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/morrisgame/morris/internal/server/auth"
	"github.com/morrisgame/morris/internal/server/store"
	"github.com/morrisgame/morris/internal/server/store/storetest"
	"github.com/morrisgame/morris/mill"
)

// newService opens a service on a new SQLite database in a temporary
// folder, started, and closes both when the test ends.
func newService(t testing.TB, cfg Config) *Service {
	t.Helper()
	return newServiceOn(t, filepath.Join(t.TempDir(), "morris.db"), cfg)
}

// newServiceOn is newService on the database dsn.
func newServiceOn(t testing.TB, dsn string, cfg Config) *Service {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Store = st
	if cfg.Hash == (auth.Params{}) {
		cfg.Hash = auth.Test
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(); st.Close() })
	return s
}

func signUp(t testing.TB, s *Service, name string) User {
	t.Helper()
	u, err := s.SignUp(context.Background(), "test", name, "secret-"+name, "")
	if err != nil {
		t.Fatalf("SignUp(%s): %v", name, err)
	}
	return u
}

// pbmChallenge starts a game as the pbmserv command does, white the
// challenger; black takes challenges of the variant from anyone first, as
// a player must have said for a pbm challenge to start a game.
func pbmChallenge(ctx context.Context, s *Service, white, black string, sp GameSpec) (Game, error) {
	a, err := s.UserByName(ctx, white)
	if err != nil {
		return Game{}, err
	}
	b, err := s.UserByName(ctx, black)
	if err != nil {
		return Game{}, err
	}
	variant := cmp.Or(sp.Variant, "nine-mens-morris")
	if err := s.SetFilter(ctx, b, variant, nil, true); err != nil {
		return Game{}, err
	}
	return s.PbmChallenge(ctx, a, black, sp)
}

func TestMoveSerialisedAndChecked(t *testing.T) {
	storetest.Each(t, testMoveSerialisedAndChecked)
}

func testMoveSerialisedAndChecked(t *testing.T, dsn string) {
	s := newServiceOn(t, dsn, Config{})
	ctx := context.Background()
	ann, bob, cy := signUp(t, s, "ann"), signUp(t, s, "bob"), signUp(t, s, "cy")
	g, err := pbmChallenge(ctx, s, "ann", "bob", GameSpec{})
	if err != nil {
		t.Fatal(err)
	}
	if g.ID != 101 {
		t.Errorf("first board: got %d, want 101", g.ID)
	}
	// The same move sent twice at once, with its ply: played once.
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Add(1)
		go func() { defer wg.Done(); _, errs[i] = s.Move(ctx, ann, g.ID, "d6", 0) }()
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		if err == nil {
			ok++
		} else if KindOf(err) != Conflict {
			t.Errorf("a repeated move: got %v, want a conflict", err)
		}
	}
	if ok != 1 {
		t.Fatalf("the same move sent 8 times at once: played %d times, want 1", ok)
	}
	for _, c := range []struct {
		user User
		move string
		ply  int
		kind Kind
	}{
		{ann, "d5", 1, Forbidden},  // not her turn
		{cy, "d5", 1, Forbidden},   // not his game
		{bob, "d6", 1, BadRequest}, // occupied
		{bob, "z9", 1, BadRequest}, // no such point
		{bob, "d5", 0, Conflict},   // wrong ply
	} {
		if _, err := s.Move(ctx, c.user, g.ID, c.move, c.ply); KindOf(err) != c.kind {
			t.Errorf("%s plays %s at ply %d: got %v (kind %d), want kind %d", c.user.Name, c.move, c.ply, err, KindOf(err), c.kind)
		}
	}
	if _, err := s.Move(ctx, bob, g.ID, "D5", 1); err != nil {
		t.Fatalf("bob D5: %v", err)
	}
	v, err := s.View(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Moves) != 2 || v.Moves[0].Text != "d6" || v.Moves[1].Text != "d5" {
		t.Errorf("stored moves: got %+v", v.Moves)
	}
	if err := s.Resign(ctx, bob, g.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Move(ctx, ann, g.ID, "b4", 2); KindOf(err) != Conflict {
		t.Errorf("a move after the end: got %v, want a conflict", err)
	}
	v, _ = s.View(ctx, g.ID)
	if v.Result != "1-0" || v.Method != "resignation" {
		t.Errorf("after bob resigned: %s by %s", v.Result, v.Method)
	}
}

func TestRatedGameRates(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dsn string) { testRatedGameRates(t, dsn) })
}

func testRatedGameRates(t *testing.T, dsn string) {
	s := newServiceOn(t, dsn, Config{})
	ctx := context.Background()
	ann, bob := signUp(t, s, "ann"), signUp(t, s, "bob")
	wc, err := s.Challenge(ctx, ann, "bob", GameSpec{Rated: true, Color: "white"})
	if err != nil {
		t.Fatal(err)
	}
	wc, err = s.Accept(ctx, bob, wc.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Offer(ctx, ann, wc.Game, Draw); err != nil {
		t.Fatal(err)
	}
	if err := s.Answer(ctx, bob, wc.Game, Draw, true); err != nil {
		t.Fatal(err)
	}
	rs, err := s.Ratings(ctx, "ann")
	if err != nil || len(rs) != 1 || rs[0].Games != 1 || !rs[0].Provisional {
		t.Errorf("ann's ratings after one draw: %+v, %v", rs, err)
	}
}

func TestFlagFalls(t *testing.T) {
	storetest.Each(t, testFlagFalls)
}

func testFlagFalls(t *testing.T, dsn string) {
	s := newServiceOn(t, dsn, Config{})
	ctx := context.Background()
	ann, bob := signUp(t, s, "ann"), signUp(t, s, "bob")
	g, err := s.st.CreateGame(ctx, s.newGame(mill.MustRules("nine-mens-morris"), GameSpec{Color: "white",
		Control: TimeControl{Initial: 300 * time.Millisecond}}, ann.ID, bob.ID))
	if err != nil {
		t.Fatal(err)
	}
	s.started(ctx, g)
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		v, err := s.View(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if v.Status == store.Finished {
			if v.Result != "0-1" || v.Method != "time" {
				t.Errorf("flag fell: got %s by %s, want 0-1 by time", v.Result, v.Method)
			}
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("white's flag did not fall with nobody connected")
}

// TestGuestsPlayUnrated: a guest account asks for unrated games only. A
// rated challenge or seek from a guest, a rated challenge to one, and a
// guest taking a rated challenge or seek are refused, clearly and without
// a trace; the same games unrated are played.
func TestGuestsPlayUnrated(t *testing.T) {
	s := newService(t, Config{})
	ctx := context.Background()
	ann := signUp(t, s, "ann")
	guest, _, _, err := s.Guest(ctx, "test")
	if err != nil {
		t.Fatal(err)
	}
	if !IsGuest(guest) || IsGuest(ann) {
		t.Fatalf("IsGuest: %s %v, %s %v", guest.Name, IsGuest(guest), ann.Name, IsGuest(ann))
	}
	rated := GameSpec{Rated: true}
	annSeek, err := s.Challenge(ctx, ann, "", rated)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		do   func() error
	}{
		{"a rated seek of the guest's", func() error { _, err := s.Challenge(ctx, guest, "", rated); return err }},
		{"a rated challenge from the guest", func() error { _, err := s.Challenge(ctx, guest, "ann", rated); return err }},
		{"a rated challenge to the guest", func() error { _, err := s.Challenge(ctx, ann, guest.Name, rated); return err }},
		{"the guest taking a rated seek", func() error { _, err := s.Accept(ctx, guest, annSeek.ID); return err }},
		{"a rated pbmserv game with the guest", func() error { _, err := s.PbmChallenge(ctx, ann, guest.Name, rated); return err }},
	} {
		err := tc.do()
		if KindOf(err) != Forbidden || !strings.Contains(err.Error(), "guests play unrated games") {
			t.Errorf("%s: got %v, want Forbidden: guests play unrated games", tc.name, err)
		}
	}
	open, err := s.st.OpenChallenges(ctx, 0)
	if err != nil || len(open) != 1 || open[0].ID != annSeek.ID {
		t.Errorf("open challenges after the refusals: %+v, %v; want ann's seek alone", open, err)
	}
	if games, err := s.st.Games(ctx, store.GameQuery{User: guest.ID}); err != nil || len(games) != 0 {
		t.Errorf("the guest's games after the refusals: %d, %v; want none", len(games), err)
	}
	// Unrated, the guest plays.
	c, err := s.Challenge(ctx, ann, guest.Name, GameSpec{})
	if err != nil {
		t.Fatal(err)
	}
	a, err := s.Accept(ctx, guest, c.ID)
	if err != nil || a.Game == 0 || a.Rated {
		t.Errorf("the guest takes an unrated challenge: %+v, %v", a, err)
	}
}
