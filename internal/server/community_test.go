package server

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/morrisgame/morris/internal/server/store"
	"github.com/morrisgame/morris/internal/server/store/storetest"
	"github.com/morrisgame/morris/internal/server/wire"
)

// events watches an account's stream from now on, without waiting for a
// first line (a player without games has none): the stream listens once
// the hub counts one more account listener.
func events(t *testing.T, s *Service, u User) (func() []wire.Event, context.CancelFunc) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var mu sync.Mutex
	var evs []wire.Event
	_, before := s.hub.counts()
	go s.WatchAccount(ctx, u, func(line []byte) error {
		if line == nil {
			return nil
		}
		var e wire.Event
		_ = json.Unmarshal(line, &e)
		mu.Lock()
		evs = append(evs, e)
		mu.Unlock()
		return nil
	})
	waitFor(t, "the account stream listening", func() bool { _, n := s.hub.counts(); return n > before })
	time.Sleep(20 * time.Millisecond) // its follows loaded
	t.Cleanup(cancel)
	return func() []wire.Event {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(evs)
	}, cancel
}

func followedOf(evs []wire.Event) []string {
	var out []string
	for _, e := range evs {
		if e.Type == "followedGameStart" || e.Type == "followedGameFinish" {
			out = append(out, fmt.Sprintf("%s %d", e.Type, e.Game.ID))
		}
	}
	return out
}

// TestFollowPlayers: a player follows others and stops; every refusal
// (themselves, the engine, a guest following, an unknown name, twice,
// across a block either way, past the rate) says why and changes nothing;
// the lists and counts, the followers in pages.
func TestFollowPlayers(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dsn string) {
		s := newServiceOn(t, dsn, Config{Rates: Rates{Follow: 1e-9, FollowBurst: 4, Signup: 1e6, SignupBurst: 1e6}})
		ctx := context.Background()
		ann, bob, cy, dee := signUp(t, s, "ann"), signUp(t, s, "bob"), signUp(t, s, "cy"), signUp(t, s, "dee")
		guest, _, _, err := s.Guest(ctx, "addr")
		if err != nil {
			t.Fatal(err)
		}
		f, err := s.FollowPlayer(ctx, ann, "BOB")
		if err != nil {
			t.Fatal(err)
		}
		if f.User.Name != "bob" || f.SinceMs == 0 {
			t.Errorf("ann follows bob: %+v", f)
		}
		if _, err := s.Block(ctx, dee, "ann"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Block(ctx, ann, "cy"); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			what string
			user User
			name string
			kind Kind
		}{
			{"herself", ann, "ann", BadRequest},
			{"the engine", ann, EngineName, BadRequest},
			{"a guest following", guest, "bob", Forbidden},
			{"a name that cannot be", ann, "1x", BadRequest},
			{"nobody", ann, "nobody", NotFound},
			{"bob twice", ann, "bob", Conflict},
			{"dee, who blocks her", ann, "dee", Forbidden},
			{"cy, whom she blocks", ann, "cy", Forbidden},
		} {
			_, err := s.FollowPlayer(ctx, c.user, c.name)
			wantKind(t, "following "+c.what, err, c.kind)
		}
		if _, err := s.FollowPlayer(ctx, ann, "dee"); err == nil || err.Error() != "dee does not take you as a follower" {
			t.Errorf("following one who blocks you: %v", err)
		}
		if _, err := s.FollowPlayer(ctx, ann, "cy"); err == nil || err.Error() != "you block cy: unblock them first to follow them" {
			t.Errorf("following one you block: %v", err)
		}
		fl, err := s.Following(ctx, ann)
		if err != nil || len(fl.Following) != 1 || fl.Following[0].User.Name != "bob" {
			t.Errorf("ann's follows after the refusals: %+v, %v", fl, err)
		}
		for _, u := range []User{bob, cy, dee} {
			if _, err := s.FollowPlayer(ctx, u, "ann"); err != nil && u != cy && u != dee {
				t.Errorf("%s follows ann: %v", u.Name, err)
			}
		}
		if _, err := s.FollowPlayer(ctx, cy, "bob"); err != nil {
			t.Fatal(err)
		}
		page, err := s.Followers(ctx, bob, 0, 1)
		if err != nil || len(page.Followers) != 1 || page.Followers[0].User.Name != "ann" || !page.More {
			t.Errorf("bob's followers, page 1: %+v, %v", page, err)
		}
		page, err = s.Followers(ctx, bob, page.Followers[0].User.ID, 1)
		if err != nil || len(page.Followers) != 1 || page.Followers[0].User.Name != "cy" || page.More {
			t.Errorf("bob's followers, page 2: %+v, %v", page, err)
		}
		_, err = s.Followers(ctx, bob, 0, MaxFollowersPage+1)
		wantKind(t, "a page too long", err, BadRequest)
		c, err := s.FollowCountsOf(ctx, bob, &ann)
		if err != nil || c != (FollowCounts{Following: 1, Followers: 2, Followed: true}) {
			t.Errorf("bob's counts as ann sees them: %+v, %v", c, err)
		}
		if c, _ := s.FollowCountsOf(ctx, bob, nil); c.Followed {
			t.Errorf("bob's counts without a viewer: %+v", c)
		}
		wantKind(t, "unfollowing one not followed", s.UnfollowPlayer(ctx, ann, "dee"), NotFound)
		if err := s.UnfollowPlayer(ctx, ann, "bob"); err != nil {
			t.Fatal(err)
		}
		// The rate: ann made 1 follow of her burst of 4 (bob, cy and dee
		// each one); 3 more, then a refusal with the wait.
		for _, n := range []string{"bob"} {
			if _, err := s.FollowPlayer(ctx, ann, n); err != nil {
				t.Fatal(err)
			}
		}
		eve, fay, gus := signUp(t, s, "eve"), signUp(t, s, "fay"), signUp(t, s, "gus")
		_ = gus
		for _, u := range []User{eve, fay} {
			if _, err := s.FollowPlayer(ctx, ann, u.Name); err != nil {
				t.Fatal(err)
			}
		}
		_, err = s.FollowPlayer(ctx, ann, "gus")
		wantKind(t, "a follow past the rate", err, TooMany)
		if fl, _ := s.Following(ctx, ann); len(fl.Following) != 3 {
			t.Errorf("ann's follows after the refusal: %+v", fl)
		}
	})
}

// TestFollowedGames: the account stream of a player tells them when a game
// of a player they follow starts and ends, once for a game of two they
// follow, never for their own, nor for one with a player who blocks them
// or whom they block; a follow or a block made after the stream opened
// counts at once; the list of games going on agrees.
func TestFollowedGames(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dsn string) {
		s := newServiceOn(t, dsn, Config{})
		ctx := context.Background()
		ann, bob, cy, dee := signUp(t, s, "ann"), signUp(t, s, "bob"), signUp(t, s, "cy"), signUp(t, s, "dee")
		for _, n := range []string{"bob", "cy"} {
			if _, err := s.FollowPlayer(ctx, ann, n); err != nil {
				t.Fatal(err)
			}
		}
		evs, _ := events(t, s, ann)
		g1, err := pbmChallenge(ctx, s, "bob", "cy", GameSpec{}) // both followed: once
		if err != nil {
			t.Fatal(err)
		}
		g2, err := pbmChallenge(ctx, s, "ann", "bob", GameSpec{}) // her own
		if err != nil {
			t.Fatal(err)
		}
		eng, err := s.PlayEngine(ctx, cy, 1, GameSpec{Color: "white"})
		if err != nil {
			t.Fatal(err)
		}
		waitFor(t, "the followed games' starts", func() bool { return len(followedOf(evs())) >= 2 })
		list, err := s.FollowedGames(ctx, ann)
		if err != nil {
			t.Fatal(err)
		}
		var ids []int64
		for _, g := range list.Games {
			ids = append(ids, g.ID)
		}
		if want := []int64{eng.ID, g1.ID}; !slices.Equal(ids, want) {
			t.Errorf("ann's followed games: got %v, want %v (her own %d left out)", ids, want, g2.ID)
		}
		// Dee blocks ann, then starts a game with bob: ann is not told.
		if _, err := s.Block(ctx, dee, "ann"); err != nil {
			t.Fatal(err)
		}
		g3, err := pbmChallenge(ctx, s, "dee", "bob", GameSpec{})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Resign(ctx, bob, g1.ID); err != nil {
			t.Fatal(err)
		}
		waitFor(t, "the end of bob and cy's game", func() bool { return len(followedOf(evs())) >= 3 })
		time.Sleep(50 * time.Millisecond)
		want := []string{fmt.Sprintf("followedGameStart %d", g1.ID), fmt.Sprintf("followedGameStart %d", eng.ID), fmt.Sprintf("followedGameFinish %d", g1.ID)}
		if got := followedOf(evs()); !slices.Equal(got, want) {
			t.Errorf("ann's followed events: got %v, want %v (not %d with dee, who blocks her)", got, want, g3.ID)
		}
		if list, _ := s.FollowedGames(ctx, ann); len(list.Games) != 1 || list.Games[0].ID != eng.ID {
			t.Errorf("ann's followed games after the end and dee's block: %+v, want cy's against the engine", list.Games)
		}
		// Ann follows dee's... no: dee blocks her. Ann follows eve now,
		// on a stream opened before: eve's game comes.
		eve := signUp(t, s, "eve")
		if _, err := s.FollowPlayer(ctx, ann, "eve"); err != nil {
			t.Fatal(err)
		}
		time.Sleep(50 * time.Millisecond) // the stream reloads its follows
		g4, err := pbmChallenge(ctx, s, "eve", "dee", GameSpec{})
		if err != nil {
			t.Fatal(err)
		}
		_ = eve
		g5, err := pbmChallenge(ctx, s, "eve", "cy", GameSpec{})
		if err != nil {
			t.Fatal(err)
		}
		waitFor(t, "eve's game with cy", func() bool { return len(followedOf(evs())) >= 4 })
		time.Sleep(50 * time.Millisecond)
		if got := followedOf(evs()); len(got) != 4 || got[3] != fmt.Sprintf("followedGameStart %d", g5.ID) {
			t.Errorf("after following eve: got %v, want the start of %d (not %d, with dee)", got, g5.ID, g4.ID)
		}
		// Ann blocks cy: the follow ends, and cy's games go quiet.
		if _, err := s.Block(ctx, ann, "cy"); err != nil {
			t.Fatal(err)
		}
		time.Sleep(50 * time.Millisecond)
		if err := s.Resign(ctx, cy, g5.ID); err != nil {
			t.Fatal(err)
		}
		time.Sleep(100 * time.Millisecond)
		if got := followedOf(evs()); len(got) != 4 {
			t.Errorf("after blocking cy: got %v, want nothing of cy's game with eve", got)
		}
	})
}

// TestFollowedAcrossProcesses: two processes on one PostgreSQL: ann's
// stream is on the second; a follow made through the first and a game
// started through the first reach it.
func TestFollowedAcrossProcesses(t *testing.T) {
	dsn := storetest.DSN(t, "postgres") // skips without MORRIS_TEST_POSTGRES
	a := newServiceOn(t, dsn, Config{})
	b := newServiceOn(t, dsn, Config{})
	ctx := context.Background()
	ann := signUp(t, a, "ann")
	signUp(t, a, "bob")
	signUp(t, a, "cy")
	time.Sleep(300 * time.Millisecond) // the listeners in place, as the relay's test
	evs, _ := events(t, b, ann)
	if _, err := a.FollowPlayer(ctx, ann, "bob"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond) // the reload through the relay
	g, err := pbmChallenge(ctx, a, "bob", "cy", GameSpec{})
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the start on the other process", func() bool { return len(followedOf(evs())) == 1 })
	if got := followedOf(evs()); got[0] != fmt.Sprintf("followedGameStart %d", g.ID) {
		t.Errorf("the other process's stream: %v", got)
	}
}

// testClock is a time the tests move.
type testClock struct{ ns atomic.Int64 }

func newClock() *testClock { c := &testClock{}; c.ns.Store(time.Now().UnixNano()); return c }

func (c *testClock) now() time.Time      { return time.Unix(0, c.ns.Load()) }
func (c *testClock) add(d time.Duration) { c.ns.Add(int64(d)) }
func onlineNames(o wire.Online) []string { return names(o.Players) }

func names(ps []wire.Player) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Name)
	}
	return out
}

// TestPresence: a player is online after a call with a token or while a
// stream of theirs is open, and no longer OnlineWindow after; guests are
// counted apart, the engine and closed accounts never listed; a viewer
// does not see those they block; pages by name; a player's page says
// online or when last seen.
func TestPresence(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dsn string) {
		c := newClock()
		s := newServiceOn(t, dsn, Config{Now: c.now, PresenceEvery: 20 * time.Millisecond, OnlineWindow: time.Minute})
		ctx := context.Background()
		var users []User
		for _, n := range []string{"ann", "bob", "cy", "dee"} {
			users = append(users, signUp(t, s, n))
		}
		ann, bob, cy, dee := users[0], users[1], users[2], users[3]
		mo := signUp(t, s, "mo")
		makeModerator(t, s, "mo")
		online := func(viewer *User, after string, limit int) wire.Online {
			t.Helper()
			c.add(onlineCacheTTL) // past the copy's life
			o, err := s.Online(ctx, viewer, after, limit)
			if err != nil {
				t.Fatal(err)
			}
			return o
		}
		// SignUp is no sign-in; nobody is online yet.
		if o := online(nil, "", 0); o.Count != 0 || len(o.Players) != 0 {
			t.Errorf("before any sign-in: %+v", o)
		}
		annTok := token(t, s, "ann", "secret-ann")
		token(t, s, "cy", "secret-cy")
		token(t, s, "dee", "secret-dee")
		_, gtok, _, err := s.Guest(ctx, "addr")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Authenticate(ctx, "addr", gtok); err != nil {
			t.Fatal(err)
		}
		bobTok := token(t, s, "bob", "secret-bob")
		_, end := s.Session(ctx, bob, bobTok) // bob's stream, open
		defer end()
		waitFor(t, "four players and a guest online", func() bool { o := online(nil, "", 0); return o.Count == 4 && o.Guests == 1 })
		if got := onlineNames(online(nil, "", 0)); !slices.Equal(got, []string{"ann", "bob", "cy", "dee"}) {
			t.Errorf("online: %v", got)
		}
		if o := online(nil, "bob", 1); !slices.Equal(onlineNames(o), []string{"cy"}) || !o.More {
			t.Errorf("a page of 1 after bob: %+v", o)
		}
		if _, err := s.Block(ctx, ann, "cy"); err != nil {
			t.Fatal(err)
		}
		if o := online(&ann, "", 0); !slices.Equal(onlineNames(o), []string{"ann", "bob", "dee"}) || o.Count != 4 {
			t.Errorf("online as ann, who blocks cy: %+v", o)
		}
		_, err = s.Online(ctx, nil, "", MaxOnlinePage+1)
		wantKind(t, "a page too long", err, BadRequest)
		_, err = s.Online(ctx, nil, "no such name!", 0)
		wantKind(t, "after a bad name", err, BadRequest)
		p, err := s.PresenceOf(ctx, ann)
		if err != nil || !p.Online || p.Seen.IsZero() {
			t.Errorf("ann's presence: %+v, %v", p, err)
		}
		// A moderator closes dee's account: not listed.
		if _, err := s.CloseAccount(ctx, mo, "dee", ModNote{Note: "test"}); err != nil {
			t.Fatal(err)
		}
		if got := onlineNames(online(nil, "", 0)); slices.Contains(got, "dee") {
			t.Errorf("a closed account online: %v", got)
		}
		if p, _ := s.PresenceOf(ctx, dee); p.Online || !p.Seen.IsZero() {
			t.Errorf("a closed account's presence: %+v", p)
		}
		// Two minutes later: only bob, whose stream is open; ann was
		// last seen two minutes ago. A call of hers brings her back.
		seenAnn := p.Seen
		c.add(2 * time.Minute)
		waitFor(t, "only bob online after the window", func() bool { return slices.Equal(onlineNames(online(nil, "", 0)), []string{"bob"}) })
		p, _ = s.PresenceOf(ctx, ann)
		if p.Online || !p.Seen.Equal(seenAnn) {
			t.Errorf("ann's presence two minutes later: %+v, want offline, seen at %v", p, seenAnn)
		}
		if p, _ := s.PresenceOf(ctx, bob); !p.Online {
			t.Errorf("bob's presence with his stream open: %+v", p)
		}
		if _, err := s.Authenticate(ctx, "addr", annTok); err != nil {
			t.Fatal(err)
		}
		// Waited for on a clock that stands still: the writer drops the
		// copy when it writes a player newly online, and a clock moved on
		// by every try (as online does) would leave ann's writing more
		// than a minute behind under load, and the check below wrong.
		waitFor(t, "ann back", func() bool {
			o, err := s.Online(ctx, nil, "", 0)
			return err == nil && slices.Contains(onlineNames(o), "ann")
		})
		// A call within the minute after a writing is written a minute
		// after it at the latest: the store's time is never more than a
		// minute behind.
		back, _ := s.st.LastSeen(ctx, ann.ID)
		c.add(30 * time.Second)
		if _, err := s.Authenticate(ctx, "addr", annTok); err != nil {
			t.Fatal(err)
		}
		later := truncMs(c.now())
		time.Sleep(60 * time.Millisecond) // writings that write nothing
		if at, _ := s.st.LastSeen(ctx, ann.ID); !at.Equal(back) {
			t.Errorf("ann's call 30 s after a writing was written at once: %v, want still %v", at, back)
		}
		c.add(31 * time.Second)
		waitFor(t, "ann's later call written", func() bool { at, _ := s.st.LastSeen(ctx, ann.ID); return at.Equal(later) })
		if p, _ := s.PresenceOf(ctx, cy); p.Online || p.Seen.IsZero() {
			t.Errorf("cy's presence: %+v", p)
		}
		if p, _ := s.PresenceOf(ctx, User{ID: s.engineID}); p.Online || !p.Seen.IsZero() {
			t.Errorf("the engine's presence: %+v", p)
		}
	})
}

// TestPresenceAcrossProcesses: a player seen by one process is online on
// another sharing the PostgreSQL database.
func TestPresenceAcrossProcesses(t *testing.T) {
	dsn := storetest.DSN(t, "postgres") // skips without MORRIS_TEST_POSTGRES
	a := newServiceOn(t, dsn, Config{PresenceEvery: 20 * time.Millisecond})
	b := newServiceOn(t, dsn, Config{PresenceEvery: 20 * time.Millisecond})
	ctx := context.Background()
	signUp(t, a, "ann")
	token(t, a, "ann", "secret-ann")
	waitFor(t, "ann online on the other process", func() bool {
		o, err := b.Online(ctx, nil, "", 0)
		return err == nil && slices.Equal(onlineNames(o), []string{"ann"})
	})
}

// TestLeaderboardService: the players with enough games and a rating not
// provisional, ranked, in pages; a copy served for LeaderboardEvery.
func TestLeaderboardService(t *testing.T) {
	c := newClock()
	s := newService(t, Config{Now: c.now, LeaderboardEvery: time.Minute})
	ctx := context.Background()
	set := func(u User, r, rd float64, games int) {
		if err := s.st.SetRating(ctx, store.Rating{User: u.ID, Variant: "lasker", R: r, RD: rd, Sigma: 0.06, Games: games}); err != nil {
			t.Fatal(err)
		}
	}
	var us []User
	for i := range 5 {
		us = append(us, signUp(t, s, fmt.Sprintf("p%d", i)))
	}
	set(us[0], 1500, 100, 10)
	set(us[1], 1700.4, 60, 40)
	set(us[2], 1900, 111, 40) // provisional
	set(us[3], 1600, 50, 9)   // too few games
	set(us[4], 1650, 80, 12)
	lb, err := s.Leaderboard(ctx, "lasker", 0, 2)
	if err != nil {
		t.Fatal(err)
	}
	if lb.Total != 3 || !lb.More || len(lb.Entries) != 2 || lb.Entries[0] != (wire.LeaderboardEntry{Rank: 1, User: player(us[1].ID, "p1"), Rating: 1700, Deviation: 60, Games: 40}) ||
		lb.Entries[1].Rank != 2 || lb.Entries[1].User.Name != "p4" || lb.MinGames != LeaderboardMinGames || lb.MaxDeviation != 110 {
		t.Errorf("the first page: %+v", lb)
	}
	lb, _ = s.Leaderboard(ctx, "lasker", 2, 2)
	if len(lb.Entries) != 1 || lb.Entries[0].Rank != 3 || lb.Entries[0].User.Name != "p0" || lb.More {
		t.Errorf("the second page: %+v", lb)
	}
	set(us[3], 1600, 50, 10) // enough games now; not seen for a minute
	if lb, _ := s.Leaderboard(ctx, "lasker", 0, 0); lb.Total != 3 {
		t.Errorf("the copy changed within its minute: %+v", lb)
	}
	c.add(time.Minute)
	if lb, _ := s.Leaderboard(ctx, "lasker", 0, 0); lb.Total != 4 || lb.Entries[2].User.Name != "p3" {
		t.Errorf("the leaderboard a minute later: %+v", lb)
	}
	for _, q := range []struct {
		variant       string
		offset, limit int
	}{{"chess", 0, 0}, {"lasker", -1, 0}, {"lasker", LeaderboardSize, 0}, {"lasker", 0, MaxLeaderboardPage + 1}, {"lasker", 0, -1}} {
		_, err := s.Leaderboard(ctx, q.variant, q.offset, q.limit)
		wantKind(t, fmt.Sprintf("leaderboard %+v", q), err, BadRequest)
	}
}

// TestStatsService: a player's results by preset and colour, and their
// rating history, which is what each game's end wrote, equal to the
// replay of the rated games (what fills in the games rated before the
// history); an annulment replaces the history with the ratings.
func TestStatsService(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dsn string) {
		s := newServiceOn(t, dsn, Config{})
		ctx := context.Background()
		users := map[string]User{}
		for _, n := range []string{"ann", "bob", "cy"} {
			users[n] = signUp(t, s, n)
		}
		mo := signUp(t, s, "mo")
		makeModerator(t, s, "mo")
		type game struct {
			white, black, loser, variant string
			rated                        bool
		}
		for _, g := range []game{
			{"ann", "bob", "bob", "", true},
			{"bob", "ann", "bob", "", true},
			{"ann", "cy", "ann", "", true},
			{"cy", "ann", "cy", "lasker", false},
			{"bob", "cy", "cy", "", true},
		} {
			pg, err := pbmChallenge(ctx, s, g.white, g.black, GameSpec{Rated: g.rated, Variant: g.variant})
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Resign(ctx, users[g.loser], pg.ID); err != nil {
				t.Fatal(err)
			}
			time.Sleep(2 * time.Millisecond)
		}
		// A draw by agreement.
		pg, err := pbmChallenge(ctx, s, "cy", "ann", GameSpec{Rated: true})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Offer(ctx, users["cy"], pg.ID, Draw); err != nil {
			t.Fatal(err)
		}
		if err := s.Answer(ctx, users["ann"], pg.ID, Draw, true); err != nil {
			t.Fatal(err)
		}
		st, err := s.PlayerStats(ctx, "ANN")
		if err != nil {
			t.Fatal(err)
		}
		want := wire.PlayerStats{User: player(users["ann"].ID, "ann"), Total: wire.SideResults{Wins: 3, Draws: 1, Losses: 1},
			Results: []wire.PresetResults{
				{Variant: "lasker", Black: wire.SideResults{Wins: 1}},
				{Variant: "nine-mens-morris", White: wire.SideResults{Wins: 1, Losses: 1}, Black: wire.SideResults{Wins: 1, Draws: 1}},
			}}
		if !statsEqual(st, want) {
			t.Errorf("ann's stats: got %+v, want %+v", st, want)
		}
		if _, err := s.PlayerStats(ctx, "nobody"); KindOf(err) != NotFound {
			t.Errorf("the stats of nobody: %v", err)
		}
		h, err := s.RatingHistory(ctx, "ann", "nine-mens-morris")
		if err != nil {
			t.Fatal(err)
		}
		r, _ := s.st.Rating(ctx, users["ann"].ID, "nine-mens-morris")
		if len(h.Points) != 4 || h.More || h.Points[3].Rating != r.R || h.Points[3].Game != pg.ID {
			t.Errorf("ann's history: %+v; her rating %v", h, r.R)
		}
		for i := 1; i < len(h.Points); i++ {
			if h.Points[i].AtMs < h.Points[i-1].AtMs {
				t.Errorf("the history is not in order: %+v", h.Points)
			}
		}
		// The replay of the rated games gives the points the ends wrote.
		checkReplay := func(when string) {
			t.Helper()
			games, _, err := s.st.RatedGames(ctx, "nine-mens-morris")
			if err != nil {
				t.Fatal(err)
			}
			_, points, err := replayRatings("nine-mens-morris", games)
			if err != nil {
				t.Fatal(err)
			}
			for _, name := range []string{"ann", "bob", "cy"} {
				h, err := s.RatingHistory(ctx, name, "nine-mens-morris")
				if err != nil {
					t.Fatal(err)
				}
				var replayed []wire.RatingPoint
				for _, p := range points {
					if p.User == users[name].ID {
						replayed = append(replayed, wire.RatingPoint{Game: p.Game, AtMs: p.At.UnixMilli(), Rating: p.R, Deviation: p.RD})
					}
				}
				if len(replayed) != len(h.Points) {
					t.Fatalf("%s: %s's history has %d points, the replay %d", when, name, len(h.Points), len(replayed))
				}
				for i := range replayed {
					a, b := replayed[i], h.Points[i]
					if a.Game != b.Game || a.AtMs != b.AtMs || math.Abs(a.Rating-b.Rating) > 1e-6 || math.Abs(a.Deviation-b.Deviation) > 1e-6 {
						t.Errorf("%s: %s's point %d: stored %+v, replayed %+v", when, name, i, b, a)
					}
				}
			}
		}
		checkReplay("before the annulment")
		if _, err := s.Annul(ctx, mo, "bob", ModNote{Note: "test"}); err != nil {
			t.Fatal(err)
		}
		checkReplay("after bob's games were annulled")
		if h, _ := s.RatingHistory(ctx, "bob", "nine-mens-morris"); len(h.Points) != 0 {
			t.Errorf("bob's history after the annulment: %+v", h)
		}
		if st2, _ := s.PlayerStats(ctx, "ann"); !statsEqual(st2, want) {
			t.Errorf("ann's results after the annulment (the games happened): %+v", st2)
		}
		for _, c := range []struct{ name, variant string }{{"ann", ""}, {"ann", "chess"}, {"nobody", "lasker"}} {
			_, err := s.RatingHistory(ctx, c.name, c.variant)
			if KindOf(err) != BadRequest && KindOf(err) != NotFound {
				t.Errorf("the history of %q in %q: %v", c.name, c.variant, err)
			}
		}
	})
}

func statsEqual(a, b wire.PlayerStats) bool {
	return a.User == b.User && a.Total == b.Total && slices.Equal(a.Results, b.Results)
}

// TestArchiveService: the archive's search as a client gives it: names,
// colours, results, dates and keys checked, each refusal saying why; a
// search found and paged through its keys.
func TestArchiveService(t *testing.T) {
	s := newService(t, Config{})
	ctx := context.Background()
	users := map[string]User{}
	for _, n := range []string{"ann", "bob", "cy"} {
		users[n] = signUp(t, s, n)
	}
	// White, black, and who resigns: ann beats bob; bob beats ann
	// (lasker); cy beats ann; cy beats bob (lasker).
	var ids []int64
	for i, g := range [][3]string{{"ann", "bob", "bob"}, {"bob", "ann", "ann"}, {"ann", "cy", "ann"}, {"cy", "bob", "bob"}} {
		pg, err := pbmChallenge(ctx, s, g[0], g[1], GameSpec{Variant: []string{"nine-mens-morris", "lasker"}[i%2]})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Resign(ctx, users[g[2]], pg.ID); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, pg.ID)
		time.Sleep(2 * time.Millisecond)
	}
	if _, err := pbmChallenge(ctx, s, "ann", "cy", GameSpec{}); err != nil { // going on: not in the archive
		t.Fatal(err)
	}
	today := time.Now().UTC().Format("2006-01-02")
	for _, c := range []struct {
		q    ArchiveQuery
		want []int64
	}{
		{ArchiveQuery{}, []int64{ids[3], ids[2], ids[1], ids[0]}},
		{ArchiveQuery{Player: "ann"}, []int64{ids[2], ids[1], ids[0]}},
		{ArchiveQuery{Player: "ANN", Result: "win"}, []int64{ids[0]}},
		{ArchiveQuery{Player: "ann", Result: "loss"}, []int64{ids[2], ids[1]}},
		{ArchiveQuery{Player: "ann", Color: "black"}, []int64{ids[1]}},
		{ArchiveQuery{Player: "ann", Opponent: "bob"}, []int64{ids[1], ids[0]}},
		{ArchiveQuery{Variant: "lasker"}, []int64{ids[3], ids[1]}},
		{ArchiveQuery{Result: "0-1"}, []int64{ids[2]}},
		{ArchiveQuery{Player: "bob", Result: "1-0"}, []int64{ids[3], ids[1], ids[0]}},
		{ArchiveQuery{Result: "draw"}, nil},
		{ArchiveQuery{From: today, To: today}, []int64{ids[3], ids[2], ids[1], ids[0]}},
		{ArchiveQuery{To: "2020-01-01"}, nil},
	} {
		a, err := s.Archive(ctx, c.q)
		if err != nil {
			t.Errorf("%+v: %v", c.q, err)
			continue
		}
		var got []int64
		for _, g := range a.Games {
			got = append(got, g.ID)
		}
		if !slices.Equal(got, c.want) || a.Next != "" {
			t.Errorf("%+v: got %v (next %q), want %v", c.q, got, a.Next, c.want)
		}
	}
	// Pages of one.
	var got []int64
	q := ArchiveQuery{Player: "ann", Limit: 1}
	for {
		a, err := s.Archive(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range a.Games {
			got = append(got, g.ID)
		}
		if a.Next == "" {
			break
		}
		q.Before = a.Next
	}
	if want := []int64{ids[2], ids[1], ids[0]}; !slices.Equal(got, want) {
		t.Errorf("ann's games in pages of 1: got %v, want %v", got, want)
	}
	for _, c := range []struct {
		q    ArchiveQuery
		kind Kind
	}{
		{ArchiveQuery{Player: "nobody"}, NotFound},
		{ArchiveQuery{Player: "x!"}, BadRequest},
		{ArchiveQuery{Opponent: "bob"}, BadRequest},
		{ArchiveQuery{Color: "white"}, BadRequest},
		{ArchiveQuery{Result: "win"}, BadRequest},
		{ArchiveQuery{Player: "ann", Opponent: "ann"}, BadRequest},
		{ArchiveQuery{Player: "ann", Color: "red"}, BadRequest},
		{ArchiveQuery{Variant: "chess"}, BadRequest},
		{ArchiveQuery{Result: "2-0"}, BadRequest},
		{ArchiveQuery{From: "yesterday"}, BadRequest},
		{ArchiveQuery{From: "2026-02-30"}, BadRequest},
		{ArchiveQuery{From: "1999-12-31"}, BadRequest},
		{ArchiveQuery{From: "2026-03-02", To: "2026-03-01"}, BadRequest},
		{ArchiveQuery{Before: "abc"}, BadRequest},
		{ArchiveQuery{Before: "12.-3"}, BadRequest},
		{ArchiveQuery{Limit: MaxArchivePage + 1}, BadRequest},
	} {
		_, err := s.Archive(ctx, c.q)
		wantKind(t, fmt.Sprintf("archive %+v", c.q), err, c.kind)
	}
}
