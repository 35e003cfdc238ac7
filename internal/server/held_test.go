package server

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/morrisgame/morris/internal/server/store"
	"github.com/morrisgame/morris/internal/server/store/storetest"
)

// TestConns: an address holds its quota of connections and no more; a
// release frees one place (a second call of it nothing), other addresses
// count apart, and a negative quota counts nothing.
func TestConns(t *testing.T) {
	c := newConns(3)
	var releases []func()
	for i := range 3 {
		rel, ok := c.Acquire("198.51.100.7")
		if !ok {
			t.Fatalf("connection %d of 3: refused", i+1)
		}
		releases = append(releases, rel)
	}
	if _, ok := c.Acquire("198.51.100.7"); ok {
		t.Fatal("a fourth connection of one address: got it, want refused")
	}
	if _, ok := c.Acquire("203.0.113.9"); !ok {
		t.Fatal("another address: refused")
	}
	releases[0]()
	releases[0]() // twice: frees one place, not two
	if _, ok := c.Acquire("198.51.100.7"); !ok {
		t.Fatal("after a release: refused")
	}
	if _, ok := c.Acquire("198.51.100.7"); ok {
		t.Fatal("a release called twice freed two places")
	}
	for _, rel := range releases[1:] {
		rel()
	}
	if n := len(c.held); n != 2 {
		t.Errorf("addresses kept: got %d, want 2 (those still holding a connection)", n)
	}

	none := newConns(-1)
	for range 1000 {
		if _, ok := none.Acquire("198.51.100.7"); !ok {
			t.Fatal("no quota: refused")
		}
	}

	// Parallel acquisitions never pass the quota.
	par := newConns(10)
	var wg sync.WaitGroup
	var mu sync.Mutex
	got := 0
	for range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, ok := par.Acquire("x"); ok {
				mu.Lock()
				got++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if got != 10 {
		t.Errorf("50 at once against a quota of 10: got %d, want 10", got)
	}
}

// TestEngineGamesQuota: a user plays Quotas.EngineGames games against the
// engine at once and is refused one more, clearly, until one ends; other
// users are not held back by it, and parallel requests do not pass it.
func TestEngineGamesQuota(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dsn string) {
		s := newServiceOn(t, dsn, Config{EngineWorkers: 1})
		ctx := context.Background()
		ann, bob := signUp(t, s, "ann"), signUp(t, s, "bob")
		// Ann plays white, so the engine has nothing to think about.
		var games []int64
		for i := range DefaultQuotas.EngineGames {
			g, err := s.PlayEngine(ctx, ann, 3, GameSpec{Color: "white"})
			if err != nil {
				t.Fatalf("engine game %d of %d: %v", i+1, DefaultQuotas.EngineGames, err)
			}
			games = append(games, g.ID)
		}
		_, err := s.PlayEngine(ctx, ann, 3, GameSpec{Color: "white"})
		if KindOf(err) != Conflict || !strings.Contains(err.Error(), "5 games against the engine already") {
			t.Fatalf("a sixth engine game: got %v (%v), want a Conflict that says why", err, KindOf(err))
		}
		// A game between people is no engine game.
		yes := true
		if _, err := s.SetPbmPrefs(ctx, bob, "nine-mens-morris", &yes, nil); err != nil {
			t.Fatal(err)
		}
		if _, err := s.PbmChallenge(ctx, ann, "bob", GameSpec{}); err != nil {
			t.Fatalf("a game against bob: %v", err)
		}
		if _, err := s.PlayEngine(ctx, bob, 3, GameSpec{Color: "white"}); err != nil {
			t.Fatalf("bob's first engine game: %v", err)
		}
		if err := s.Resign(ctx, ann, games[0]); err != nil {
			t.Fatal(err)
		}
		if _, err := s.PlayEngine(ctx, ann, 3, GameSpec{Color: "white"}); err != nil {
			t.Fatalf("after a resignation: %v", err)
		}

		// Eight at once for a new user: five get a game.
		cy := signUp(t, s, "cy")
		var wg sync.WaitGroup
		errs := make([]error, 8)
		for i := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, errs[i] = s.PlayEngine(ctx, cy, 3, GameSpec{Color: "white"})
			}()
		}
		wg.Wait()
		ok := 0
		for _, err := range errs {
			if err == nil {
				ok++
			} else if KindOf(err) != Conflict {
				t.Errorf("at once: %v", err)
			}
		}
		if ok != DefaultQuotas.EngineGames {
			t.Errorf("eight engine games asked at once: got %d, want %d", ok, DefaultQuotas.EngineGames)
		}
	})
}

// TestOpenChallengesQuota: a user has Quotas.OpenChallenges challenges and
// seeks open at once; one more is refused clearly and stores nothing, a
// seek that pairs at once (it opens nothing) still goes through, and a
// cancel frees a place.
func TestOpenChallengesQuota(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dsn string) {
		s := newServiceOn(t, dsn, Config{Quotas: Quotas{OpenChallenges: 4}})
		ctx := context.Background()
		ann, bob := signUp(t, s, "ann"), signUp(t, s, "bob")
		signUp(t, s, "cy")
		rt := GameSpec{Control: TimeControl{Initial: 5 * time.Minute}}
		var ids []int64
		for _, to := range []string{"bob", "cy", "", ""} {
			c, err := s.Challenge(ctx, ann, to, GameSpec{})
			if err != nil {
				t.Fatalf("challenge to %q: %v", to, err)
			}
			ids = append(ids, c.ID)
		}
		for _, to := range []string{"cy", ""} {
			_, err := s.Challenge(ctx, ann, to, rt)
			if KindOf(err) != Conflict || !strings.Contains(err.Error(), "4 open challenges and seeks") {
				t.Errorf("a fifth (to %q): got %v, want a Conflict that says why", to, err)
			}
		}
		open, err := s.st.OpenChallenges(ctx, ann.ID)
		if err != nil || len(open) != 4 {
			t.Fatalf("ann's open challenges: %d (%v), want 4", len(open), err)
		}
		// Bob's seek pairs with ann's: a game, nothing opened.
		if _, err := s.Challenge(ctx, bob, "", rt); err != nil {
			t.Fatal(err)
		}
		if c, err := s.Challenge(ctx, ann, "", rt); err != nil || c.Game == 0 {
			t.Fatalf("ann's seek against bob's open one: %+v %v, want a game", c, err)
		}
		if err := s.Cancel(ctx, ann, ids[0]); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Challenge(ctx, ann, "bob", GameSpec{}); err != nil {
			t.Errorf("after a cancel: %v", err)
		}
		// pbmserv seek asks for several: those past the quota are refused.
		if _, err := s.Seek(ctx, bob, "nine-mens-morris", 6); KindOf(err) != Conflict {
			t.Errorf("seek of 6 against a quota of 4: got %v, want Conflict", err)
		}
		if open, _ := s.st.OpenChallenges(ctx, bob.ID); len(open) > 4+1 { // his 4 seeks, ann's challenge to him
			t.Errorf("bob's open challenges after the seek: %d", len(open))
		}
	})
}

// TestChallengesExpire: an open challenge or seek that nobody answers is
// cancelled by the sweep, after Quotas.RealTimeExpiry with a real-time
// clock and Quotas.ChallengeExpiry without, and both sides are told.
func TestChallengesExpire(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dsn string) {
		clk := &fakeClock{t: time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)}
		s := newServiceOn(t, dsn, Config{Now: clk.now, SweepEvery: time.Hour})
		ctx := context.Background()
		ann, bob := signUp(t, s, "ann"), signUp(t, s, "bob")
		rt := GameSpec{Control: TimeControl{Initial: 3 * time.Minute, Increment: 2 * time.Second}}
		corr := GameSpec{Control: TimeControl{NagDays: 3, ForfeitDays: 7}}
		rtSeek, err := s.Challenge(ctx, ann, "", rt)
		must(t, err)
		rtChallenge, err := s.Challenge(ctx, ann, "bob", rt)
		must(t, err)
		corrSeek, err := s.Challenge(ctx, ann, "", corr)
		must(t, err)
		untimed, err := s.Challenge(ctx, ann, "bob", GameSpec{})
		must(t, err)
		bobEvents, stop := collect(t, s, bob)
		defer stop()

		status := func(id int64) store.ChallengeStatus {
			t.Helper()
			c, err := s.st.Challenge(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			return c.Status
		}
		for _, step := range []struct {
			at   time.Duration
			open []int64
			gone []int64
		}{
			{19 * time.Minute, []int64{rtSeek.ID, rtChallenge.ID, corrSeek.ID, untimed.ID}, nil},
			{21 * time.Minute, []int64{corrSeek.ID, untimed.ID}, []int64{rtSeek.ID, rtChallenge.ID}},
			{7*24*time.Hour - time.Minute, []int64{corrSeek.ID, untimed.ID}, nil},
			{7*24*time.Hour + time.Minute, nil, []int64{corrSeek.ID, untimed.ID}},
		} {
			clk.t = time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC).Add(step.at)
			must(t, s.Sweep(ctx))
			for _, id := range step.open {
				if st := status(id); st != store.ChallengeOpen {
					t.Errorf("after %v: challenge %d is %s, want open", step.at, id, st)
				}
			}
			for _, id := range step.gone {
				if st := status(id); st != store.ChallengeCancelled {
					t.Errorf("after %v: challenge %d is %s, want cancelled", step.at, id, st)
				}
			}
		}
		// Bob was told of the two challenges to him.
		waitFor(t, "bob told of the two expired challenges", func() bool { return count(bobEvents(), "challengeCanceled") == 2 })
		// A place is free again: the expired no longer count.
		open, err := s.st.OpenChallenges(ctx, ann.ID)
		if err != nil || len(open) != 0 {
			t.Errorf("ann's open challenges after they expired: %d (%v), want 0", len(open), err)
		}
	})
}

// TestAbandonedEngineGame: a game against the engine without any clock
// whose player leaves their turn for Quotas.EngineAbandon is ended by the
// sweep, won by the engine by abandonment; not before, and not a game
// between people or one with correspondence timers.
func TestAbandonedEngineGame(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dsn string) {
		start := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
		clk := &fakeClock{t: start}
		s := newServiceOn(t, dsn, Config{Now: clk.now, SweepEvery: time.Hour, EngineWorkers: 1})
		ctx := context.Background()
		ann := signUp(t, s, "ann")
		bob := signUp(t, s, "bob")
		yes := true
		_, err := s.SetPbmPrefs(ctx, bob, "nine-mens-morris", &yes, nil)
		must(t, err)
		untimed, err := s.PlayEngine(ctx, ann, 1, GameSpec{Color: "white"})
		must(t, err)
		corr, err := s.PlayEngine(ctx, ann, 1, GameSpec{Color: "white", Control: TimeControl{NagDays: 5, ForfeitDays: 10}})
		must(t, err)
		people, err := s.PbmChallenge(ctx, ann, "bob", GameSpec{})
		must(t, err)

		check := func(when string, id int64, want store.Status) {
			t.Helper()
			v, err := s.View(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if v.Status != want {
				t.Errorf("%s: game %d is %s, want %s", when, id, v.Status, want)
			}
		}
		clk.t = start.Add(23 * time.Hour)
		must(t, s.Sweep(ctx))
		check("after 23 h", untimed.ID, store.Active)
		clk.t = start.Add(24*time.Hour + time.Minute)
		must(t, s.Sweep(ctx))
		check("after 24 h", untimed.ID, store.Finished)
		check("a correspondence engine game after 24 h", corr.ID, store.Active)
		check("a game between people after 24 h", people.ID, store.Active)
		v, err := s.View(ctx, untimed.ID)
		must(t, err)
		if v.Result != "0-1" || v.Method != "abandonment" {
			t.Errorf("the abandoned game: %s by %s, want 0-1 by abandonment", v.Result, v.Method)
		}
	})
}
