package server

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/morrisgame/morris/internal/server/store"
	"github.com/morrisgame/morris/internal/server/store/storetest"
	"github.com/morrisgame/morris/internal/server/wire"
)

// fakeClock is a time the test moves by hand.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// collect gathers a user's account events.
func collect(t *testing.T, s *Service, u User) (func() []wire.Event, context.CancelFunc) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var mu sync.Mutex
	var evs []wire.Event
	ready := make(chan struct{})
	go s.WatchAccount(ctx, u, func(line []byte) error {
		if line == nil {
			return nil
		}
		var e wire.Event
		_ = json.Unmarshal(line, &e)
		mu.Lock()
		evs = append(evs, e)
		mu.Unlock()
		select {
		case <-ready:
		default:
			close(ready)
		}
		return nil
	})
	<-ready // the gameStart of the game the test made
	return func() []wire.Event {
		mu.Lock()
		defer mu.Unlock()
		return append([]wire.Event(nil), evs...)
	}, cancel
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited 5 s for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func count(evs []wire.Event, kind string) int {
	n := 0
	for _, e := range evs {
		if e.Type == kind {
			n++
		}
	}
	return n
}

// TestCorrespondence steps the clock through a correspondence game: one
// reminder after the nag days, a vacation that moves both deadlines, the
// forfeit after the forfeit days; a move in time resets the turn.
func TestCorrespondence(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dsn string) {
		day := 24 * time.Hour
		clk := &fakeClock{t: time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)}
		s := newServiceOn(t, dsn, Config{Now: clk.now, SweepEvery: time.Hour})
		ctx := context.Background()
		ann, bob := signUp(t, s, "ann"), signUp(t, s, "bob")
		g, err := pbmChallenge(ctx, s, "ann", "bob", GameSpec{Control: TimeControl{NagDays: 7, ForfeitDays: 21}})
		if err != nil {
			t.Fatal(err)
		}
		annEvents, stop := collect(t, s, ann)
		defer stop()

		clk.add(6 * day)
		must(t, s.Sweep(ctx))
		if n := count(annEvents(), "reminder"); n != 0 {
			t.Fatalf("after 6 days: %d reminders, want 0", n)
		}
		clk.add(1*day + time.Minute)
		must(t, s.Sweep(ctx))
		must(t, s.Sweep(ctx)) // a second sweep sends no second reminder
		waitFor(t, "the reminder", func() bool { return count(annEvents(), "reminder") == 1 })
		time.Sleep(50 * time.Millisecond)
		if n := count(annEvents(), "reminder"); n != 1 {
			t.Fatalf("after 7 days and two sweeps: %d reminders, want 1", n)
		}
		// Ann moves on day 7: bob's turn starts; he goes on vacation for 10
		// days on day 8, so he forfeits 31 days into his turn, not 21.
		if _, err := s.Move(ctx, ann, g.ID, "d6", 0); err != nil {
			t.Fatal(err)
		}
		clk.add(1 * day)
		if _, _, err := s.Vacation(ctx, bob, 10); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			days int
			want store.Status
		}{{19, store.Active}, {21, store.Active}, {30, store.Active}, {31, store.Finished}} {
			clk.t = time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC).Add(time.Duration(7+c.days)*day + 2*time.Minute)
			must(t, s.Sweep(ctx))
			v, err := s.View(ctx, g.ID)
			if err != nil {
				t.Fatal(err)
			}
			if v.Status != c.want {
				t.Fatalf("%d days into bob's turn with 10 days of vacation: %s, want %s", c.days, v.Status, c.want)
			}
			if c.want == store.Finished && (v.Result != "1-0" || v.Method != "time") {
				t.Errorf("the forfeit: %s by %s, want 1-0 by time", v.Result, v.Method)
			}
		}
	})
}

// TestClaimVictory: in a game without a clock the waiting side may claim
// once the opponent has been silent for ClaimAfter, not before.
func TestClaimVictory(t *testing.T) {
	clk := &fakeClock{t: time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)}
	s := newService(t, Config{Now: clk.now, ClaimAfter: time.Minute})
	ctx := context.Background()
	ann, bob := signUp(t, s, "ann"), signUp(t, s, "bob")
	g, err := pbmChallenge(ctx, s, "ann", "bob", GameSpec{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.ClaimVictory(ctx, ann, g.ID); KindOf(err) != Forbidden {
		t.Errorf("claiming on one's own turn: %v", err)
	}
	if _, err := s.Move(ctx, ann, g.ID, "d6", 0); err != nil {
		t.Fatal(err)
	}
	clk.add(30 * time.Second)
	if err := s.ClaimVictory(ctx, ann, g.ID); KindOf(err) != Forbidden {
		t.Errorf("claiming after 30 s: %v", err)
	}
	clk.add(31 * time.Second)
	if err := s.ClaimVictory(ctx, ann, g.ID); err != nil {
		t.Fatalf("claiming after 61 s: %v", err)
	}
	v, _ := s.View(ctx, g.ID)
	if v.Result != "1-0" || v.Method != "abandonment" {
		t.Errorf("after the claim: %s by %s", v.Result, v.Method)
	}
	_ = bob
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestAccountStreamCatchesUp: a listener that falls behind and loses
// events is sent the account's state again (its games going on).
func TestAccountStreamCatchesUp(t *testing.T) {
	s := newService(t, Config{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ann := signUp(t, s, "ann")
	signUp(t, s, "bob")
	g, err := pbmChallenge(ctx, s, "ann", "bob", GameSpec{})
	if err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	var mu sync.Mutex
	starts := 0
	go s.WatchAccount(ctx, ann, func(line []byte) error {
		var e wire.Event
		if line != nil && json.Unmarshal(line, &e) == nil && e.Type == "gameStart" && e.Game.ID == g.ID {
			mu.Lock()
			starts++
			n := starts
			mu.Unlock()
			if n == 1 {
				<-release // the listener stalls after the first line
			}
		}
		return nil
	})
	waitFor(t, "the first gameStart", func() bool { mu.Lock(); defer mu.Unlock(); return starts == 1 })
	for range subBuffer + 10 { // more news than the buffer holds
		s.hub.publishUser(ann.ID, Event{Data: []byte(`{"type":"gameMove"}`)})
	}
	close(release)
	waitFor(t, "the state sent again", func() bool { mu.Lock(); defer mu.Unlock(); return starts == 2 })
}
