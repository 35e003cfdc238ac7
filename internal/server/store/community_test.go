package store

import (
	"context"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pressly/goose/v3"
)

// end finishes a new game between white and black, of the fixture's
// variant or v, with result at t0+minutes, with ratings (nil: none).
func (f *fixture) end(white, black User, v, result string, minutes int, ratings []Rating) Game {
	f.t.Helper()
	if v == "" {
		v = f.gameVariant
	}
	g, err := f.s.CreateGame(f.ctx, Game{Variant: v, Rules: v, White: white.ID, Black: black.ID, Rated: ratings != nil, LastMoveAt: t0})
	must(f.t, "CreateGame", err)
	at := t0.Add(time.Duration(minutes) * time.Minute)
	f.s.now = func() time.Time { return at }
	defer func() { f.s.now = time.Now }()
	_, err = f.s.FinishGame(f.ctx, g.ID, Finish{Ply: 0, At: at, Ending: Ending{Result: result, Method: "resignation", Ratings: ratings}})
	must(f.t, "FinishGame", err)
	g, err = f.s.Game(f.ctx, g.ID)
	must(f.t, "Game", err)
	return g
}

func resultsOf(t *testing.T, s *Store, u User) map[string][3]int64 {
	t.Helper()
	rs, err := s.PlayerResults(context.Background(), u.ID)
	must(t, "PlayerResults", err)
	out := map[string][3]int64{}
	for _, r := range rs {
		out[fmt.Sprintf("%s/%d", r.Variant, r.Side)] = [3]int64{r.Wins, r.Draws, r.Losses}
	}
	return out
}

// TestResultsAndRatingHistory: a game's end, by FinishGame or by a move
// (AppendMove), adds to each player's results in the preset and colour
// (a game without a result adds nothing) and writes each player's rating
// after it; the history reads back oldest first, in pages of its last
// points; deleting an account deletes its history and results.
func TestResultsAndRatingHistory(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		f := newFixture(t, dsn)
		s, ctx := f.s, f.ctx
		ann, bob := f.ann, f.bob
		r := func(u User, games int, rating float64) Rating {
			return Rating{User: u.ID, Variant: "nine-mens-morris", R: rating, RD: 300 - float64(games), Sigma: 0.06, Games: games}
		}
		g1 := f.end(ann, bob, "", "1-0", 1, []Rating{r(ann, 1, 1600), r(bob, 1, 1400)})
		f.end(bob, ann, "", "1/2-1/2", 2, []Rating{r(ann, 2, 1590), r(bob, 2, 1410)})
		f.end(bob, ann, "lasker", "0-1", 3, nil)
		f.end(ann, bob, "", "*", 4, nil)
		// An end by a move.
		g := f.game()
		f.s.now = func() time.Time { return t0.Add(5 * time.Minute) }
		_, err := s.AppendMove(ctx, g.ID, Append{Ply: 0, Move: "d6", At: t0.Add(5 * time.Minute),
			End: &Ending{Result: "0-1", Method: "material", Ratings: []Rating{r(ann, 3, 1550), r(bob, 3, 1450)}}})
		f.s.now = time.Now
		must(t, "AppendMove with an end", err)
		want := map[string][3]int64{"nine-mens-morris/0": {1, 0, 1}, "nine-mens-morris/1": {0, 1, 0}, "lasker/1": {1, 0, 0}}
		if got := resultsOf(t, s, ann); !equalMaps(got, want) {
			t.Errorf("ann's results: got %v, want %v", got, want)
		}
		want = map[string][3]int64{"nine-mens-morris/0": {0, 1, 0}, "nine-mens-morris/1": {1, 0, 1}, "lasker/0": {0, 0, 1}}
		if got := resultsOf(t, s, bob); !equalMaps(got, want) {
			t.Errorf("bob's results: got %v, want %v", got, want)
		}
		ended, err := s.Game(ctx, g.ID)
		must(t, "Game", err)
		if !ended.EndedAt.Equal(t0.Add(5*time.Minute)) || !ended.EndedAt.Equal(ended.UpdatedAt) {
			t.Errorf("a game ended by a move: EndedAt %v, UpdatedAt %v, want both %v", ended.EndedAt, ended.UpdatedAt, t0.Add(5*time.Minute))
		}
		if g1.EndedAt.IsZero() {
			t.Errorf("a game ended by FinishGame has no EndedAt")
		}
		pts, more, err := s.RatingHistory(ctx, ann.ID, "nine-mens-morris", 10)
		must(t, "RatingHistory", err)
		var got []string
		for _, p := range pts {
			got = append(got, fmt.Sprintf("%d:%.0f@%d", p.Game, p.R, p.At.Sub(t0)/time.Minute))
		}
		if w := []string{fmt.Sprintf("%d:1600@1", g1.ID), fmt.Sprintf("%d:1590@2", g1.ID+1), fmt.Sprintf("%d:1550@5", g.ID)}; !slices.Equal(got, w) || more {
			t.Errorf("ann's history: got %v (more %v), want %v", got, more, w)
		}
		pts, more, err = s.RatingHistory(ctx, ann.ID, "nine-mens-morris", 2)
		must(t, "RatingHistory", err)
		if len(pts) != 2 || !more || pts[0].R != 1590 || pts[1].R != 1550 {
			t.Errorf("ann's last 2 points: got %+v (more %v), want 1590 then 1550, more", pts, more)
		}
		if pts, _, err := s.RatingHistory(ctx, ann.ID, "lasker", 10); err != nil || len(pts) != 0 {
			t.Errorf("ann's lasker history (unrated games): %v, %v", pts, err)
		}
		must(t, "DeleteUser", s.DeleteUser(ctx, bob.ID, "deleted-2"))
		if got := resultsOf(t, s, bob); len(got) != 0 {
			t.Errorf("a deleted user's results: %v", got)
		}
		if pts, _, _ := s.RatingHistory(ctx, bob.ID, "nine-mens-morris", 10); len(pts) != 0 {
			t.Errorf("a deleted user's history: %v", pts)
		}
		if pts, _, _ := s.RatingHistory(ctx, ann.ID, "nine-mens-morris", 10); len(pts) != 3 {
			t.Errorf("ann's history after bob's deletion: %d points, want 3", len(pts))
		}
	})
}

func equalMaps[K comparable, V comparable](a, b map[K]V) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// TestCommunityMigration: a database with finished games from before
// 00014 gets their ends' times and every player's results from the
// migration, and is known to need its rating history; 00014 undone and
// done again keeps the games.
func TestCommunityMigration(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		f := newFixture(t, dsn)
		s, ctx := f.s, f.ctx
		f.end(f.ann, f.bob, "", "1-0", 1, []Rating{{User: f.ann.ID, Variant: "nine-mens-morris", R: 1600, RD: 290, Sigma: 0.06, Games: 1},
			{User: f.bob.ID, Variant: "nine-mens-morris", R: 1400, RD: 290, Sigma: 0.06, Games: 1}})
		f.end(f.bob, f.ann, "", "1-0", 2, nil)
		fsys, err := fs.Sub(migrations, "migrations")
		must(t, "fs.Sub", err)
		p, err := goose.NewProvider(s.dialect, s.w, fsys, goose.WithLogger(goose.NopLogger()), goose.WithDisableGlobalRegistry(true))
		must(t, "NewProvider", err)
		if s.batch != nil {
			s.batch.close() // goose needs the writer connection
		}
		_, err = p.DownTo(ctx, 13)
		must(t, "DownTo(13)", err)
		_, err = p.Up(ctx)
		must(t, "Up", err)
		s2 := openStore(t, dsn)
		want := map[string][3]int64{"nine-mens-morris/0": {1, 0, 0}, "nine-mens-morris/1": {0, 0, 1}}
		if got := resultsOf(t, s2, f.ann); !equalMaps(got, want) {
			t.Errorf("ann's results after the migration: got %v, want %v", got, want)
		}
		gs, err := s2.Games(ctx, GameQuery{Status: Finished})
		must(t, "Games", err)
		for _, g := range gs {
			if g.EndedAt.IsZero() || !g.EndedAt.Equal(g.UpdatedAt) {
				t.Errorf("game %d after the migration: EndedAt %v, want its UpdatedAt %v", g.ID, g.EndedAt, g.UpdatedAt)
			}
		}
		need, err := s2.NeedsRatingHistory(ctx)
		must(t, "NeedsRatingHistory", err)
		if !need {
			t.Errorf("NeedsRatingHistory after the migration: false, want true (a rated game and no history)")
		}
		must(t, "AddRatingHistory", s2.AddRatingHistory(ctx, []RatingPoint{{User: f.ann.ID, Variant: "nine-mens-morris", Game: gs[1].ID, R: 1662, RD: 290, At: gs[1].EndedAt}}))
		if need, _ := s2.NeedsRatingHistory(ctx); need {
			t.Errorf("NeedsRatingHistory with a history: true")
		}
	})
}

// TestFollows: a player follows others (at most the cap), not twice, not
// themselves, nor a closed, deleted or blocking or blocked player; a
// block ends the follows between the two; the lists and counts; the games
// going on of those one follows, those with a blocked player left out.
func TestFollows(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		f := newFixture(t, dsn)
		s, ctx := f.s, f.ctx
		ann, bob := f.ann, f.bob
		cy, dee, eve := f.user("Cy"), f.user("Dee"), f.user("Eve")
		at := t0
		follow := func(u, v User) error { return s.AddFollow(ctx, Follow{User: u.ID, Followed: v.ID, At: at}, 3) }
		must(t, "ann follows bob", follow(ann, bob))
		wantErr(t, "ann follows bob again", follow(ann, bob), ErrDuplicate)
		must(t, "ann follows cy", follow(ann, cy))
		must(t, "ann follows dee", follow(ann, dee))
		wantErr(t, "ann follows a 4th (cap 3)", follow(ann, eve), ErrConflict)
		must(t, "bob follows ann", follow(bob, ann))
		must(t, "eve follows ann", follow(eve, ann))
		if fs, err := s.Following(ctx, ann.ID); err != nil || len(fs) != 3 || fs[0].Name != "Bob" || fs[1].Name != "Cy" || fs[2].Name != "Dee" {
			t.Errorf("ann's follows: got %+v, %v; want Bob, Cy, Dee", fs, err)
		}
		page, more, err := s.Followers(ctx, ann.ID, 0, 1)
		must(t, "Followers", err)
		if len(page) != 1 || page[0].Name != "Bob" || !more {
			t.Errorf("ann's followers, page 1: %+v, more %v", page, more)
		}
		page, more, err = s.Followers(ctx, ann.ID, page[0].User, 1)
		must(t, "Followers", err)
		if len(page) != 1 || page[0].Name != "Eve" || more {
			t.Errorf("ann's followers, page 2: %+v, more %v", page, more)
		}
		if a, b, err := s.FollowCounts(ctx, ann.ID); a != 3 || b != 2 || err != nil {
			t.Errorf("ann's counts: follows %d, followed by %d (%v); want 3, 2", a, b, err)
		}
		if ok, _ := s.Follows(ctx, ann.ID, bob.ID); !ok {
			t.Errorf("Follows(ann, bob): false")
		}

		// Games going on: bob's and cy's; dee's game is against eve,
		// whom ann blocks below; a finished game of bob's is not one.
		gb, err := s.CreateGame(ctx, Game{Variant: "nine-mens-morris", Rules: "nine-mens-morris", White: bob.ID, Black: eve.ID})
		must(t, "CreateGame", err)
		gc, err := s.CreateGame(ctx, Game{Variant: "nine-mens-morris", Rules: "nine-mens-morris", White: eve.ID, Black: cy.ID})
		must(t, "CreateGame", err)
		gd, err := s.CreateGame(ctx, Game{Variant: "nine-mens-morris", Rules: "nine-mens-morris", White: dee.ID, Black: cy.ID})
		must(t, "CreateGame", err)
		f.end(bob, cy, "", "1-0", 1, nil)
		ids := func() []int64 {
			gs, err := s.FollowedGames(ctx, ann.ID, 10)
			must(t, "FollowedGames", err)
			var out []int64
			for _, g := range gs {
				out = append(out, g.ID)
			}
			return out
		}
		if got := ids(); !slices.Equal(got, []int64{gd.ID, gc.ID, gb.ID}) {
			t.Errorf("ann's followed games: got %v, want %v", got, []int64{gd.ID, gc.ID, gb.ID})
		}
		must(t, "ann blocks eve", s.AddBlock(ctx, Block{User: ann.ID, Blocked: eve.ID, At: at}, 10))
		if got := ids(); !slices.Equal(got, []int64{gd.ID}) {
			t.Errorf("ann's followed games once she blocks eve: got %v, want %v", got, []int64{gd.ID})
		}
		if _, b, _ := s.FollowCounts(ctx, ann.ID); b != 1 {
			t.Errorf("ann's followers after she blocked eve (who followed her): %d, want 1", b)
		}
		wantErr(t, "eve follows ann, who blocks her", follow(eve, ann), ErrBlocked)
		must(t, "dee blocks bob", s.AddBlock(ctx, Block{User: dee.ID, Blocked: bob.ID, At: at}, 10))
		wantErr(t, "bob follows dee, who blocks him", follow(bob, dee), ErrBlocked)
		must(t, "ann unfollows dee", s.DeleteFollow(ctx, ann.ID, dee.ID))
		wantErr(t, "ann unfollows dee again", s.DeleteFollow(ctx, ann.ID, dee.ID), ErrNotFound)
		must(t, "DeleteUser(cy)", s.DeleteUser(ctx, cy.ID, "deleted-3"))
		wantErr(t, "bob follows a deleted user", follow(bob, cy), ErrNotFound)
		if fs, _ := s.Following(ctx, ann.ID); len(fs) != 1 || fs[0].Name != "Bob" {
			t.Errorf("ann's follows after unfollowing dee and cy's deletion: %+v, want Bob", fs)
		}
		_, _, err = s.CloseUser(ctx, dee.ID, ModAction{Action: "close", At: at})
		must(t, "CloseUser", err)
		wantErr(t, "ann follows a closed account", follow(ann, dee), ErrNotFound)
	})
}

// TestSeen: the last time seen is kept only forward; the players seen
// since a time are listed by name, without bots, closed or deleted
// accounts, the guests counted apart, the list capped.
func TestSeen(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		f := newFixture(t, dsn)
		s, ctx := f.s, f.ctx
		cy, dee, guest := f.user("Cy"), f.user("dee"), f.user("guest-abc123")
		bot, err := s.CreateUser(ctx, User{Name: "engine", PasswordHash: "x", Bot: true})
		must(t, "CreateUser", err)
		min := func(m int) time.Time { return t0.Add(time.Duration(m) * time.Minute) }
		must(t, "SetSeen", s.SetSeen(ctx, map[int64]time.Time{f.ann.ID: min(10), f.bob.ID: min(1), cy.ID: min(9), dee.ID: min(8), guest.ID: min(10), bot.ID: min(10)}))
		must(t, "SetSeen", s.SetSeen(ctx, map[int64]time.Time{f.ann.ID: min(5), f.bob.ID: min(2)}))
		if at, err := s.LastSeen(ctx, f.ann.ID); err != nil || !at.Equal(min(10)) {
			t.Errorf("ann seen at 10 then 5: LastSeen %v, %v; want t0+10m", at, err)
		}
		if at, _ := s.LastSeen(ctx, f.bob.ID); !at.Equal(min(2)) {
			t.Errorf("bob seen at 1 then 2: LastSeen %v, want t0+2m", at)
		}
		eve := f.user("Eve")
		if at, err := s.LastSeen(ctx, eve.ID); err != nil || !at.IsZero() {
			t.Errorf("eve never seen: LastSeen %v, %v", at, err)
		}
		names := func(list []Seen) []string {
			var out []string
			for _, x := range list {
				out = append(out, x.Name)
			}
			return out
		}
		list, players, guests, err := s.SeenSince(ctx, min(5), 10)
		must(t, "SeenSince", err)
		if got := names(list); !slices.Equal(got, []string{"Ann", "Cy", "dee"}) || players != 3 || guests != 1 {
			t.Errorf("seen since 5: %v, %d players, %d guests; want Ann, Cy, dee, 3, 1", got, players, guests)
		}
		list, players, _, _ = s.SeenSince(ctx, min(5), 2)
		if got := names(list); !slices.Equal(got, []string{"Ann", "Cy"}) || players != 3 {
			t.Errorf("seen since 5, 2 at most (the latest seen): %v of %d; want Ann, Cy of 3", got, players)
		}
		_, _, err = s.CloseUser(ctx, cy.ID, ModAction{Action: "close", At: t0})
		must(t, "CloseUser", err)
		must(t, "DeleteUser", s.DeleteUser(ctx, dee.ID, "deleted-5"))
		list, players, _, _ = s.SeenSince(ctx, min(5), 10)
		if got := names(list); !slices.Equal(got, []string{"Ann"}) || players != 1 {
			t.Errorf("seen since 5 after cy's closing and dee's deletion: %v (%d), want Ann", got, players)
		}
		must(t, "SetSeen of a deleted user", s.SetSeen(ctx, map[int64]time.Time{dee.ID: min(20)}))
		if at, _ := s.LastSeen(ctx, dee.ID); !at.IsZero() {
			t.Errorf("a deleted user seen: %v", at)
		}
	})
}

// TestArchive compares the archive's pages, walked to the end with small
// pages and a small bound on the rows walked, with a slow twin that
// filters and sorts every game, for many searches: every game found once,
// in order, whatever the filters, the page and the bound.
func TestArchive(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		f := newFixture(t, dsn)
		s, ctx := f.s, f.ctx
		users := []User{f.ann, f.bob, f.user("Cy"), f.user("Dee")}
		rng := rand.New(rand.NewPCG(1, 2))
		variants := []string{"nine-mens-morris", "lasker", "morabaraba"}
		results := []string{"1-0", "0-1", "1/2-1/2", "*"}
		var all []Game
		for i := range 60 {
			w := users[rng.IntN(len(users))]
			b := users[rng.IntN(len(users))]
			for b.ID == w.ID {
				b = users[rng.IntN(len(users))]
			}
			// Ends on few minutes, so that many share one.
			all = append(all, f.end(w, b, variants[rng.IntN(3)], results[rng.IntN(4)], rng.IntN(20), nil))
			_ = i
		}
		// A game going on is never in the archive.
		f.game()
		slices.SortFunc(all, func(a, b Game) int { return compareKeys(gameKey(b), gameKey(a)) })
		minute := func(m int) time.Time { return t0.Add(time.Duration(m) * time.Minute) }
		queries := []ArchiveQuery{
			{},
			{Variant: "lasker"},
			{Result: "1/2-1/2"},
			{Variant: "morabaraba", Result: "1-0"},
			{Player: f.ann.ID},
			{Player: f.ann.ID, Side: 1},
			{Player: f.ann.ID, Side: 2, Variant: "lasker"},
			{Player: f.bob.ID, PlayerResult: "win"},
			{Player: f.bob.ID, PlayerResult: "loss", Variant: "nine-mens-morris"},
			{Player: f.bob.ID, PlayerResult: "draw"},
			{Player: f.bob.ID, Result: "0-1"},
			{Player: f.ann.ID, Opponent: f.bob.ID},
			{Player: f.ann.ID, Opponent: users[2].ID, Side: 1},
			{From: minute(5), To: minute(12)},
			{Player: users[3].ID, From: minute(3), To: minute(15), PlayerResult: "win"},
			{Variant: "lasker", From: minute(10)},
			{Player: f.ann.ID, Variant: "no-such-variant"},
		}
		for _, q := range queries {
			var want []int64
			for _, g := range all {
				if twinKeeps(q, g) {
					want = append(want, g.ID)
				}
			}
			for _, size := range []struct{ limit, scan int }{{2, 3}, {3, 3}, {5, 11}, {100, 1000}} {
				q.Limit, q.Scan = size.limit, size.scan
				q.Before = ArchiveKey{}
				var got []int64
				pages := 0
				for {
					p, err := s.Archive(ctx, q)
					must(t, "Archive", err)
					if len(p.Games) > q.Limit {
						t.Fatalf("%+v: a page of %d games", q, len(p.Games))
					}
					for _, g := range p.Games {
						got = append(got, g.ID)
					}
					if p.Next.IsZero() {
						break
					}
					if !q.Before.IsZero() && !keyLess(p.Next, q.Before) {
						t.Fatalf("%+v: the next key %v is not below %v", q, p.Next, q.Before)
					}
					q.Before = p.Next
					if pages++; pages > 200 {
						t.Fatalf("%+v: no end after 200 pages", q)
					}
				}
				if !slices.Equal(got, want) {
					t.Errorf("archive %+v: got %v, want %v", q, got, want)
				}
			}
		}
	})
}

// twinKeeps is the slow twin of the archive's filters.
func twinKeeps(q ArchiveQuery, g Game) bool {
	if g.Status != Finished {
		return false
	}
	if q.Variant != "" && g.Variant != q.Variant || q.Result != "" && g.Result != q.Result {
		return false
	}
	if !q.From.IsZero() && g.EndedAt.Before(q.From) || !q.To.IsZero() && !g.EndedAt.Before(q.To) {
		return false
	}
	if q.Player == 0 {
		return true
	}
	side := -1
	switch {
	case g.White == q.Player && q.Side != 2:
		side = 0
	case g.Black == q.Player && q.Side != 1:
		side = 1
	}
	if side < 0 {
		return false
	}
	if q.Opponent != 0 && []int64{g.Black, g.White}[side] != q.Opponent {
		return false
	}
	if q.PlayerResult != "" && g.Result != playerResult(q.PlayerResult, side) {
		return false
	}
	return true
}

// TestLeaderboard: the best ratings of a preset, of players with enough
// games and a deviation low enough, not closed, deleted or bots.
func TestLeaderboard(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		f := newFixture(t, dsn)
		s, ctx := f.s, f.ctx
		set := func(u User, r, rd float64, games int) {
			must(t, "SetRating", s.SetRating(ctx, Rating{User: u.ID, Variant: "nine-mens-morris", R: r, RD: rd, Sigma: 0.06, Games: games}))
		}
		cy, dee, eve := f.user("Cy"), f.user("Dee"), f.user("Eve")
		bot, err := s.CreateUser(ctx, User{Name: "engine", PasswordHash: "x", Bot: true})
		must(t, "CreateUser", err)
		set(f.ann, 1700, 80, 30)
		set(f.bob, 1800, 120, 30) // provisional
		set(cy, 1650, 100, 5)     // too few games
		set(dee, 1900, 60, 50)    // closed below
		set(eve, 1600, 110, 10)
		set(bot, 2500, 50, 100)
		_, _, err = s.CloseUser(ctx, dee.ID, ModAction{Action: "close", At: t0})
		must(t, "CloseUser", err)
		list, err := s.Leaderboard(ctx, "nine-mens-morris", 10, 110, 100)
		must(t, "Leaderboard", err)
		var got []string
		for _, r := range list {
			got = append(got, r.Name)
		}
		if !slices.Equal(got, []string{"Ann", "Eve"}) {
			t.Errorf("leaderboard: got %v, want Ann, Eve", got)
		}
		if list, _ := s.Leaderboard(ctx, "nine-mens-morris", 10, 110, 1); len(list) != 1 {
			t.Errorf("leaderboard of 1: %d", len(list))
		}
	})
}

// TestCommunityPlans checks, on a database of 20,000 finished games and
// their players, that the queries of the archive, the followed games, the
// players online and the rating history walk the indexes made for them
// (games_archive*, games_active_*, last_seen_at, rating_history_user) in
// their order, without sorting what they read and without reading a
// whole table.
func TestCommunityPlans(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		f := newFixture(t, dsn)
		s, ctx := f.s, f.ctx
		fill := []string{
			// 20,000 finished games among 200 players in 3 presets (p0,
			// user 100, white in a quarter of them), and 50 going on.
			`INSERT INTO users (id, name, name_key, password_hash, created_at)
				SELECT 100 + n, 'p' || n, 'p' || n, 'x', 0 FROM seq WHERE n < 200`,
			`INSERT INTO games (id, variant, rules, white_id, black_id, rated, status, result, method, last_move_at, created_at, updated_at, ended_at)
				SELECT 1000 + n, CASE n % 3 WHEN 0 THEN 'lasker' WHEN 1 THEN 'morabaraba' ELSE 'nine-mens-morris' END, 'x',
					CASE WHEN n % 4 = 0 THEN 100 ELSE 100 + n % 200 END, 101 + (n * 7) % 199, TRUE, 'finished', CASE n % 3 WHEN 0 THEN '1-0' WHEN 1 THEN '0-1' ELSE '1/2-1/2' END,
					'resignation', n, n, 1000 + n * 1000, 1000 + n * 1000 FROM seq`,
			`INSERT INTO games (id, variant, rules, white_id, black_id, rated, status, last_move_at, created_at, updated_at)
				SELECT 100000 + n, 'nine-mens-morris', 'x', 100 + n, 100 + n + 1, FALSE, 'active', 0, 0, 0 FROM seq WHERE n < 50`,
			`INSERT INTO follows (user_id, followed_id, created_at) SELECT 100, 101 + n, 0 FROM seq WHERE n < 150`,
			`INSERT INTO last_seen (user_id, seen_at) SELECT 100 + n, n * 1000 FROM seq WHERE n < 200`,
			`INSERT INTO rating_history (user_id, variant, game_id, rating, deviation, at)
				SELECT 100 + n % 200, 'nine-mens-morris', 1000 + n, 1500, 100, n FROM seq`,
		}
		seq := `WITH RECURSIVE seq(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM seq WHERE n < 19999) `
		if s.Backend() == "postgres" {
			seq = `WITH seq(n) AS (SELECT generate_series(0, 19999)) `
		}
		for _, q := range fill {
			// INSERT INTO t (...) WITH ... SELECT: the CTE goes before the SELECT.
			i := strings.Index(q, "SELECT")
			if _, err := s.w.ExecContext(ctx, q[:i]+seq+q[i:]); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		analyze := "ANALYZE"
		if _, err := s.w.ExecContext(ctx, analyze); err != nil {
			t.Fatal(err)
		}
		type check struct {
			what  string
			query string
			args  []any
			index string // the index the plan must use
		}
		var checks []check
		add := func(what, index string, q ArchiveQuery) {
			q.Limit, q.Scan = 50, 1000
			for i, src := range s.archiveSQL(q) {
				idx := index
				if q.Player != 0 && i == 1 || q.Side == 2 {
					idx = "games_archive_black"
				}
				checks = append(checks,
					check{what + ": the bound", src.bound, src.boundArgs, idx},
					check{what + ": the page", src.match, src.matchArgs, idx},
					check{what + ": the page to the bound", src.matchTo, append(slices.Clone(src.matchArgs), int64(5_000_000), int64(5000)), idx})
			}
		}
		add("everything", "games_archive", ArchiveQuery{})
		add("a result", "games_archive", ArchiveQuery{Result: "1-0"})
		add("a date range", "games_archive", ArchiveQuery{From: time.UnixMilli(1_000_000), To: time.UnixMilli(9_000_000)})
		add("a preset", "games_archive_variant", ArchiveQuery{Variant: "lasker", Before: ArchiveKey{At: time.UnixMilli(10_000_000), ID: 10_000}})
		add("a player", "games_archive_white", ArchiveQuery{Player: 100, Variant: "lasker", PlayerResult: "win"})
		add("a player of few games", "games_archive_white", ArchiveQuery{Player: 150, Opponent: 120})
		add("a player as black", "games_archive_black", ArchiveQuery{Player: 150, Side: 2, From: time.UnixMilli(1_000_000)})
		checks = append(checks,
			check{"the followed games", followedGamesSQL, []any{int64(100), 50}, "games_active_"},
			check{"the players online", seenSinceSQL, []any{int64(19_000_000)}, "last_seen_at"},
			check{"a rating history", ratingHistorySQL, []any{int64(150), "nine-mens-morris", 1001}, "rating_history_user"})
		pg := s.Backend() == "postgres"
		for _, c := range checks {
			plan := explain(t, s, c.query, c.args)
			t.Logf("%s:\n%s", c.what, plan) // go test -v shows every plan
			// SQLite walks the index named, in its order: no sort. The
			// followed games and the players online are sorted: a few
			// hundred rows, bounded by the follows and the players
			// online. PostgreSQL's planner chooses by its statistics
			// among the indexes made for the archive: the index of a
			// player of few games read whole and sorted (a hundred
			// rows), a preset's games by the index of all the games
			// with the preset as a filter when it is a third of them;
			// a player of a quarter of the games by the index of all
			// the games in order with the player as a filter (the ends'
			// order follows the table's, so that walk reads fewer
			// pages), as it reads a player's rating history by the
			// primary key, and the active games of the followed by the
			// index of the status when they are few; it never reads the
			// whole table of games.
			others := map[string][]string{
				"games_archive":       {"games_archive"},
				"games_archive_":      {"games_archive"},
				"games_active_":       {"games_active_", "games_status"},
				"rating_history_user": {"rating_history_user", "rating_history_pkey"},
				"last_seen_at":        {"last_seen_at"},
			}
			key := c.index
			if strings.HasPrefix(key, "games_archive_") {
				key = "games_archive_"
			}
			switch {
			case pg:
				if !slices.ContainsFunc(others[key], func(i string) bool { return strings.Contains(plan, i) }) {
					t.Errorf("%s: the plan uses none of %v:\n%s\n%s", c.what, others[key], c.query, plan)
				}
			case !strings.Contains(plan, c.index):
				t.Errorf("%s: the plan does not use %s:\n%s\n%s", c.what, c.index, c.query, plan)
			}
			sorted := pg || c.what == "the followed games" || c.what == "the players online"
			for _, bad := range []string{"TEMP B-TREE FOR ORDER BY", "SCAN g\n", "Seq Scan on games", "Sort Key"} {
				if strings.Contains(plan+"\n", bad) && !(sorted && (bad == "Sort Key" || bad == "TEMP B-TREE FOR ORDER BY")) {
					t.Errorf("%s: the plan has %q:\n%s\n%s", c.what, bad, c.query, plan)
				}
			}
		}
	})
}

// explain returns the plan of a query, one line a step.
func explain(t *testing.T, s *Store, query string, args []any) string {
	t.Helper()
	prefix := "EXPLAIN QUERY PLAN "
	if s.Backend() == "postgres" {
		prefix = "EXPLAIN "
	}
	rows, err := s.r.QueryContext(context.Background(), prefix+query, args...)
	if err != nil {
		t.Fatalf("explain %s: %v", query, err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var lines []string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		must(t, "Scan", rows.Scan(ptrs...))
		lines = append(lines, fmt.Sprint(vals[len(vals)-1]))
	}
	must(t, "rows", rows.Err())
	return strings.Join(lines, "\n")
}
