package store

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pressly/goose/v3"
)

func TestOpen(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	for _, dsn := range []string{
		dir + "/a.db",
		"sqlite:" + dir + "/b.db",
		"sqlite://" + dir + "/c.db",
		dir + "/new/folder/d.db",
	} {
		s, err := Open(ctx, dsn)
		if err != nil {
			t.Errorf("Open(%q): %v", dsn, err)
			continue
		}
		if s.Backend() != "sqlite" {
			t.Errorf("Open(%q).Backend() = %q, want sqlite", dsn, s.Backend())
		}
		s.Close()
	}
	for _, dsn := range []string{"", "sqlite:", dir + "/x.db?mode=ro", "postgres://%zz"} {
		if s, err := Open(ctx, dsn); err == nil {
			s.Close()
			t.Errorf("Open(%q): no error", dsn)
		}
	}
}

// TestReopen: the migrations run once, a second Open finds the schema up
// to date, and what was stored is there after Close.
func TestReopen(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		f := newFixture(t, dsn)
		g := f.game()
		f.move(g.ID, 0, "d6")
		if _, err := f.s.SetOffer(ctx, g.ID, Offer{Kind: DrawOffer, Side: 1, Ply: 1, At: t0}); err != nil {
			t.Fatal(err)
		}
		before, err := f.s.Snapshot(ctx, g.ID)
		must(t, "Snapshot", err)
		must(t, "Close", f.s.Close())

		for i := range 2 {
			s := openStore(t, dsn)
			var n int
			must(t, "counting migrations", s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM goose_db_version WHERE version_id > 0`).Scan(&n))
			if n != len(migrationFiles(t)) {
				t.Errorf("open %d: %d migrations recorded, want %d", i+2, n, len(migrationFiles(t)))
			}
			after, err := s.Snapshot(ctx, g.ID)
			must(t, "Snapshot", err)
			if !reflect.DeepEqual(before, after) {
				t.Errorf("open %d: got\n%+v\nwant\n%+v", i+2, after, before)
			}
			// The counters go on where they were.
			u, err := s.CreateUser(ctx, User{Name: fmt.Sprintf("Cy%d", i), PasswordHash: "h"})
			must(t, "CreateUser", err)
			if want := int64(3 + i); u.ID != want {
				t.Errorf("open %d: new user id %d, want %d", i+2, u.ID, want)
			}
			must(t, "Close", s.Close())
		}
	})
}

// TestConcurrentOpen: processes that start together on a new PostgreSQL
// database migrate one after the other (the advisory lock).
func TestConcurrentOpen(t *testing.T) {
	dsn := testDSN(t, "postgres")
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Go(func() {
			s, err := Open(context.Background(), dsn)
			if err == nil {
				s.Close()
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("Open %d: %v", i, err)
		}
	}
}

func TestUsers(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		f := newFixture(t, dsn)
		s := f.s
		if f.ann.ID != 1 || f.bob.ID != 2 {
			t.Errorf("user ids %d, %d, want 1, 2", f.ann.ID, f.bob.ID)
		}
		bot, err := s.CreateUser(ctx, User{Name: "Ärger", PasswordHash: "x", Email: "e@example.org", Bot: true})
		must(t, "CreateUser", err)
		for _, name := range []string{"ann", "ANN", "Bob", "bOB", "ärger", "ÄRGER"} {
			u, err := s.UserByName(ctx, name)
			if err != nil {
				t.Errorf("UserByName(%q): %v", name, err)
				continue
			}
			if !strings.EqualFold(u.Name, name) {
				t.Errorf("UserByName(%q) = %q", name, u.Name)
			}
		}
		got, err := s.User(ctx, bot.ID)
		must(t, "User", err)
		if !reflect.DeepEqual(got, bot) {
			t.Errorf("User: got %+v, want %+v", got, bot)
		}
		if !got.Bot || got.Email != "e@example.org" || got.CreatedAt.IsZero() {
			t.Errorf("User: got %+v", got)
		}
		_, err = s.CreateUser(ctx, User{Name: "aNN", PasswordHash: "x"})
		wantErr(t, "CreateUser(aNN)", err, ErrDuplicate)
		_, err = s.CreateUser(ctx, User{Name: "ärGER", PasswordHash: "x"})
		wantErr(t, "CreateUser(ärGER)", err, ErrDuplicate)
		_, err = s.UserByName(ctx, "nobody")
		wantErr(t, "UserByName(nobody)", err, ErrNotFound)
		_, err = s.User(ctx, 99)
		wantErr(t, "User(99)", err, ErrNotFound)
		if _, err := s.CreateUser(ctx, User{Name: "", PasswordHash: "x"}); err == nil {
			t.Error("CreateUser without a name: no error")
		}
		// A failed insert gives back its id: the next user is 4.
		u, err := s.CreateUser(ctx, User{Name: "Dee", PasswordHash: "x"})
		must(t, "CreateUser", err)
		if u.ID != 4 {
			t.Errorf("the user after a duplicate has id %d, want 4", u.ID)
		}
	})
}

func TestTokens(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		f := newFixture(t, dsn)
		s := f.s
		must(t, "CreateToken", s.CreateToken(ctx, Token{Hash: "h1", User: f.ann.ID, CreatedAt: t0, ExpiresAt: t0.Add(time.Hour)}))
		must(t, "CreateToken", s.CreateToken(ctx, Token{Hash: "h2", User: f.bob.ID, CreatedAt: t0}))
		wantErr(t, "CreateToken(h1 again)", s.CreateToken(ctx, Token{Hash: "h1", User: f.bob.ID}), ErrDuplicate)
		wantErr(t, "CreateToken(unknown user)", s.CreateToken(ctx, Token{Hash: "h3", User: 99}), ErrNotFound)

		u, err := s.UserByToken(ctx, "h1", t0.Add(time.Minute))
		if err != nil || u.ID != f.ann.ID {
			t.Errorf("UserByToken(h1): got %v, %v, want Ann", u, err)
		}
		_, err = s.UserByToken(ctx, "h1", t0.Add(time.Hour))
		wantErr(t, "UserByToken(h1, expired)", err, ErrNotFound)
		u, err = s.UserByToken(ctx, "h2", t0.Add(1000*time.Hour))
		if err != nil || u.ID != f.bob.ID {
			t.Errorf("UserByToken(h2): got %v, %v, want Bob", u, err)
		}
		_, err = s.UserByToken(ctx, "nope", t0)
		wantErr(t, "UserByToken(nope)", err, ErrNotFound)

		n, err := s.DeleteExpiredTokens(ctx, t0.Add(2*time.Hour))
		if err != nil || n != 1 {
			t.Errorf("DeleteExpiredTokens: got %d, %v, want 1", n, err)
		}
		must(t, "DeleteToken(h2)", s.DeleteToken(ctx, "h2"))
		wantErr(t, "DeleteToken(h2 again)", s.DeleteToken(ctx, "h2"), ErrNotFound)
		_, err = s.UserByToken(ctx, "h2", t0)
		wantErr(t, "UserByToken(h2, deleted)", err, ErrNotFound)
	})
}

func TestGames(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		f := newFixture(t, dsn)
		s := f.s
		cy := f.user("Cy")
		want := Game{
			Variant: "twelve-mens-morris", Rules: "twelve-mens-morris,flying=never",
			White: f.bob.ID, Black: f.ann.ID, Start: "twelve-mens-morris 24 w 12,12 - 0 0",
			Seed: 1<<63 + 12345, HasSeed: true, Rated: false,
			Control:     TimeControl{NagDays: 7, ForfeitDays: 21},
			Clocks:      Clocks{Left: [2]time.Duration{1500 * time.Millisecond, 2 * time.Second}, Running: 1},
			EngineLevel: 3, NagSentPly: -1,
		}
		g, err := s.CreateGame(ctx, want)
		must(t, "CreateGame", err)
		if g.ID != 101 {
			t.Errorf("the first game is %d, want 101", g.ID)
		}
		want.ID, want.WhiteName, want.BlackName, want.Status, want.Result = 101, "Bob", "Ann", Active, "*"
		want.LastMoveAt, want.CreatedAt, want.UpdatedAt = g.CreatedAt, g.CreatedAt, g.CreatedAt
		if !reflect.DeepEqual(g, want) {
			t.Errorf("CreateGame: got\n%+v\nwant\n%+v", g, want)
		}
		if got, err := s.Game(ctx, 101); err != nil || !reflect.DeepEqual(got, g) {
			t.Errorf("Game(101): got %+v, %v, want %+v", got, err, g)
		}
		_, err = s.Game(ctx, 100)
		wantErr(t, "Game(100)", err, ErrNotFound)
		_, err = s.CreateGame(ctx, Game{Variant: "v", Rules: "v", White: f.ann.ID, Black: 99})
		wantErr(t, "CreateGame(unknown black)", err, ErrNotFound)
		if _, err := s.CreateGame(ctx, Game{White: f.ann.ID, Black: f.bob.ID}); err == nil {
			t.Error("CreateGame without rules: no error")
		}

		g102 := f.game() // Ann-Bob
		g103 := f.game() // Ann-Bob, finished below
		g104, err := s.CreateGame(ctx, Game{Variant: "shah", Rules: "shah", White: cy.ID, Black: f.ann.ID})
		must(t, "CreateGame", err)
		if g102.ID != 102 || g104.ID != 104 {
			t.Errorf("ids %d, %d, want 102, 104 (a failed CreateGame gives its id back)", g102.ID, g104.ID)
		}
		if _, err := s.FinishGame(ctx, g103.ID, Finish{Ply: 0, At: t0, Ending: Ending{Result: "0-1", Method: "resignation"}}); err != nil {
			t.Fatal(err)
		}
		ids := func(q GameQuery) []int64 {
			t.Helper()
			games, err := s.Games(ctx, q)
			must(t, "Games", err)
			var ids []int64
			for _, g := range games {
				ids = append(ids, g.ID)
			}
			return ids
		}
		for _, tc := range []struct {
			q    GameQuery
			want []int64
		}{
			{GameQuery{}, []int64{104, 103, 102, 101}},
			{GameQuery{User: f.ann.ID}, []int64{104, 103, 102, 101}},
			{GameQuery{User: cy.ID}, []int64{104}},
			{GameQuery{User: f.bob.ID, Status: Active}, []int64{102, 101}},
			{GameQuery{Status: Finished}, []int64{103}},
			{GameQuery{Variant: "nine-mens-morris"}, []int64{103, 102}},
			{GameQuery{User: f.ann.ID, Limit: 2}, []int64{104, 103}},
			{GameQuery{User: f.ann.ID, Before: 103, Limit: 2}, []int64{102, 101}},
			{GameQuery{User: 99}, nil},
		} {
			if got := ids(tc.q); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Games(%+v): got %v, want %v", tc.q, got, tc.want)
			}
		}
	})
}

func TestAppendMove(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		f := newFixture(t, dsn)
		s := f.s
		g := f.game()
		texts := []string{"d6", "d5", "b4", "f4"}
		for ply, m := range texts {
			if v := f.move(g.ID, ply, m); v != int64(ply+1) {
				t.Errorf("ply %d: version %d, want %d", ply, v, ply+1)
			}
		}
		// The same move again (a retry), a move at an old ply, a move ahead.
		for _, ply := range []int{3, 0, 5} {
			_, err := s.AppendMove(ctx, g.ID, Append{Ply: ply, Move: "a1", At: t0})
			wantErr(t, fmt.Sprintf("AppendMove at ply %d when the game is at 4", ply), err, ErrConflict)
		}
		_, err := s.AppendMove(ctx, 999, Append{Ply: 0, Move: "a1", At: t0})
		wantErr(t, "AppendMove(game 999)", err, ErrNotFound)
		if _, err := s.AppendMove(ctx, g.ID, Append{Ply: 4, Move: "", At: t0}); err == nil {
			t.Error("AppendMove without a move: no error")
		}

		moves, err := s.Moves(ctx, g.ID)
		must(t, "Moves", err)
		if len(moves) != len(texts) {
			t.Fatalf("%d moves stored, want %d", len(moves), len(texts))
		}
		for i, m := range moves {
			want := Move{Ply: i, Text: texts[i], At: t0.Add(time.Duration(i) * time.Second),
				Left: [2]time.Duration{time.Minute, time.Minute}, Version: int64(i + 1)}
			if m != want {
				t.Errorf("move %d: got %+v, want %+v", i, m, want)
			}
		}
		got, err := s.Game(ctx, g.ID)
		must(t, "Game", err)
		wantClocks := Clocks{Left: [2]time.Duration{time.Minute, time.Minute}, Running: 0, Since: t0.Add(3 * time.Second)}
		if got.Ply != 4 || got.Version != 4 || got.Clocks != wantClocks || !got.LastMoveAt.Equal(t0.Add(3*time.Second)) {
			t.Errorf("after 4 moves: %+v", got)
		}
		_, err = s.Moves(ctx, 999)
		wantErr(t, "Moves(999)", err, ErrNotFound)
		if moves, err := s.Moves(ctx, f.game().ID); err != nil || len(moves) != 0 {
			t.Errorf("Moves of a new game: %v, %v", moves, err)
		}

		// A move that withdraws the offers, then one that ends the game.
		_, err = s.SetOffer(ctx, g.ID, Offer{Kind: DrawOffer, Side: 0, Ply: 4, At: t0})
		must(t, "SetOffer", err)
		_, err = s.AppendMove(ctx, g.ID, Append{Ply: 4, Move: "b6", At: t0, ClearOffers: true})
		must(t, "AppendMove", err)
		if offers, _ := s.Offers(ctx, g.ID); len(offers) != 0 {
			t.Errorf("offers after a move that clears them: %v", offers)
		}
		_, err = s.SetOffer(ctx, g.ID, Offer{Kind: DrawOffer, Side: 1, Ply: 5, At: t0})
		must(t, "SetOffer", err)
		_, err = s.AppendMove(ctx, g.ID, Append{Ply: 5, Move: "d7", At: t0})
		must(t, "AppendMove", err)
		if offers, _ := s.Offers(ctx, g.ID); len(offers) != 1 {
			t.Errorf("offers after a move that keeps them: %v", offers)
		}
		v, err := s.AppendMove(ctx, g.ID, Append{Ply: 6, Move: "f6", At: t0.Add(time.Minute),
			Clocks: Clocks{Left: [2]time.Duration{time.Second, 2 * time.Second}, Running: 1},
			End:    &Ending{Result: "1-0", Method: "blocked"}})
		must(t, "AppendMove (the last)", err)
		got, err = s.Game(ctx, g.ID)
		must(t, "Game", err)
		if got.Status != Finished || got.Result != "1-0" || got.Method != "blocked" || got.Ply != 7 || got.Version != v ||
			got.Clocks != (Clocks{Left: [2]time.Duration{time.Second, 2 * time.Second}, Running: 1}) {
			t.Errorf("after the last move: %+v", got)
		}
		if offers, _ := s.Offers(ctx, g.ID); len(offers) != 0 {
			t.Errorf("offers after the end: %v", offers)
		}
		_, err = s.AppendMove(ctx, g.ID, Append{Ply: 7, Move: "a1", At: t0})
		wantErr(t, "AppendMove after the end", err, ErrConflict)
		if _, err := s.AppendMove(ctx, g.ID, Append{Ply: 7, Move: "a1", End: &Ending{Result: "2-0", Method: "x"}}); err == nil {
			t.Error("AppendMove with a bad result: no error")
		}
	})
}

// TestAppendMoveConcurrent: many requests for the same ply of one game at
// once, ply after ply: exactly one is stored each time, the others get
// ErrConflict.
func TestAppendMoveConcurrent(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		f := newFixture(t, dsn)
		g := f.game()
		const senders, plies = 12, 25
		for ply := range plies {
			var wg sync.WaitGroup
			errs := make([]error, senders)
			start := make(chan struct{})
			for i := range senders {
				wg.Go(func() {
					<-start
					_, errs[i] = f.s.AppendMove(ctx, g.ID, Append{Ply: ply, Move: fmt.Sprintf("s%d", i), At: t0})
				})
			}
			close(start)
			wg.Wait()
			won := 0
			for i, err := range errs {
				switch {
				case err == nil:
					won++
				case !errors.Is(err, ErrConflict):
					t.Errorf("ply %d, sender %d: %v", ply, i, err)
				}
			}
			if won != 1 {
				t.Fatalf("ply %d: %d senders stored their move, want 1", ply, won)
			}
		}
		moves, err := f.s.Moves(ctx, g.ID)
		must(t, "Moves", err)
		if len(moves) != plies {
			t.Errorf("%d moves stored, want %d", len(moves), plies)
		}
		for i, m := range moves {
			if m.Ply != i {
				t.Errorf("move %d has ply %d", i, m.Ply)
			}
		}
	})
}

// TestAppendMoveManyGames: games played at once do not get in each
// other's way (on PostgreSQL they lock only their own rows).
func TestAppendMoveManyGames(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		f := newFixture(t, dsn)
		const games, plies = 16, 20
		var wg sync.WaitGroup
		errs := make(chan error, games)
		for range games {
			g := f.game()
			wg.Go(func() {
				for ply := range plies {
					if _, err := f.s.AppendMove(ctx, g.ID, Append{Ply: ply, Move: "m", At: t0}); err != nil {
						errs <- fmt.Errorf("game %d ply %d: %w", g.ID, ply, err)
						return
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		all, err := f.s.Games(ctx, GameQuery{Status: Active})
		must(t, "Games", err)
		for _, g := range all {
			if g.Ply != plies {
				t.Errorf("game %d: ply %d, want %d", g.ID, g.Ply, plies)
			}
		}
	})
}

func TestFinishGame(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		f := newFixture(t, dsn)
		s := f.s
		g := f.game()
		f.move(g.ID, 0, "d6")
		_, err := s.SetOffer(ctx, g.ID, Offer{Kind: DrawOffer, Side: 1, Ply: 1, At: t0})
		must(t, "SetOffer", err)

		rated := func(u User, games int, r float64) Rating {
			return Rating{User: u.ID, Variant: g.Variant, R: r, RD: 300, Sigma: 0.06, Games: games}
		}
		// Stale: the game is at ply 1.
		_, err = s.FinishGame(ctx, g.ID, Finish{Ply: 0, At: t0, Ending: Ending{Result: "0-1", Method: "time"}})
		wantErr(t, "FinishGame at a stale ply", err, ErrConflict)
		// A rating that is not where the caller thought: nothing changes.
		must(t, "SetRating", s.SetRating(ctx, rated(f.bob, 5, 1600)))
		_, err = s.FinishGame(ctx, g.ID, Finish{Ply: 1, At: t0, Ending: Ending{Result: "1-0", Method: "resignation",
			Ratings: []Rating{rated(f.ann, 1, 1650), rated(f.bob, 1, 1550)}}})
		wantErr(t, "FinishGame with Bob's rating at 5 games, not 0", err, ErrConflict)
		if got, _ := s.Game(ctx, g.ID); got.Status != Active {
			t.Errorf("a failed FinishGame changed the game: %+v", got)
		}
		if _, err := s.Rating(ctx, f.ann.ID, g.Variant); !errors.Is(err, ErrNotFound) {
			t.Errorf("a failed FinishGame wrote Ann's rating: %v", err)
		}
		if _, err := s.FinishGame(ctx, g.ID, Finish{Ply: 1, Ending: Ending{Result: "1-0"}}); err == nil {
			t.Error("FinishGame without a method: no error")
		}

		stopped := Clocks{Left: [2]time.Duration{time.Minute, 30 * time.Second}, Running: 1}
		v, err := s.FinishGame(ctx, g.ID, Finish{Ply: 1, At: t0.Add(time.Minute), Clocks: stopped,
			Ending: Ending{Result: "1-0", Method: "resignation", Ratings: []Rating{rated(f.bob, 6, 1550), rated(f.ann, 1, 1650)}}})
		must(t, "FinishGame", err)
		got, err := s.Game(ctx, g.ID)
		must(t, "Game", err)
		if got.Status != Finished || got.Result != "1-0" || got.Method != "resignation" || got.Version != v || got.Clocks != stopped {
			t.Errorf("after FinishGame: %+v", got)
		}
		if offers, _ := s.Offers(ctx, g.ID); len(offers) != 0 {
			t.Errorf("offers after the end: %v", offers)
		}
		for _, want := range []Rating{rated(f.ann, 1, 1650), rated(f.bob, 6, 1550)} {
			r, err := s.Rating(ctx, want.User, g.Variant)
			must(t, "Rating", err)
			if r.R != want.R || r.Games != want.Games || !r.UpdatedAt.Equal(t0.Add(time.Minute)) {
				t.Errorf("rating of user %d: got %+v, want %+v", want.User, r, want)
			}
		}
		_, err = s.FinishGame(ctx, g.ID, Finish{Ply: 1, At: t0, Ending: Ending{Result: "0-1", Method: "time"}})
		wantErr(t, "FinishGame twice", err, ErrConflict)
		_, err = s.FinishGame(ctx, 999, Finish{Ply: 0, At: t0, Ending: Ending{Result: "0-1", Method: "time"}})
		wantErr(t, "FinishGame(999)", err, ErrNotFound)
	})
}

func TestTakeBack(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		f := newFixture(t, dsn)
		s := f.s
		g := f.game()
		for ply, m := range []string{"d6", "d5", "b4", "f4"} {
			f.move(g.ID, ply, m)
		}
		_, err := s.SetOffer(ctx, g.ID, Offer{Kind: TakebackOffer, Side: 1, Ply: 4, At: t0})
		must(t, "SetOffer", err)
		clocks := Clocks{Left: [2]time.Duration{2 * time.Minute, 3 * time.Minute}, Running: 0, Since: t0.Add(time.Hour)}
		_, err = s.TakeBackMoves(ctx, g.ID, TakeBack{Ply: 3, To: 2, At: t0, Clocks: clocks})
		wantErr(t, "TakeBackMoves at a stale ply", err, ErrConflict)
		if _, err := s.TakeBackMoves(ctx, g.ID, TakeBack{Ply: 4, To: 4}); err == nil {
			t.Error("TakeBackMoves of nothing: no error")
		}
		v, err := s.TakeBackMoves(ctx, g.ID, TakeBack{Ply: 4, To: 2, At: t0.Add(time.Hour), Clocks: clocks})
		must(t, "TakeBackMoves", err)
		snap, err := s.Snapshot(ctx, g.ID)
		must(t, "Snapshot", err)
		if snap.Game.Ply != 2 || snap.Game.Version != v || v != 6 || snap.Game.Clocks != clocks || len(snap.Moves) != 2 || len(snap.Offers) != 0 {
			t.Errorf("after the take-back: %+v", snap)
		}
		// Play on from ply 2.
		f.move(g.ID, 2, "a7")
		moves, err := s.Moves(ctx, g.ID)
		must(t, "Moves", err)
		if len(moves) != 3 || moves[2].Text != "a7" || moves[2].Version != 7 {
			t.Errorf("moves after the take-back and a move: %+v", moves)
		}
	})
}

func TestOffers(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		f := newFixture(t, dsn)
		s := f.s
		g := f.game()
		f.move(g.ID, 0, "d6")
		v1, err := s.SetOffer(ctx, g.ID, Offer{Kind: DrawOffer, Side: 0, Ply: 1, At: t0})
		must(t, "SetOffer", err)
		v2, err := s.SetOffer(ctx, g.ID, Offer{Kind: TakebackOffer, Side: 1, Ply: 1, At: t0.Add(time.Second)})
		must(t, "SetOffer", err)
		// Replaced: the draw is now offered by black.
		v3, err := s.SetOffer(ctx, g.ID, Offer{Kind: DrawOffer, Side: 1, Ply: 1, At: t0.Add(2 * time.Second)})
		must(t, "SetOffer", err)
		if v1 != 2 || v2 != 3 || v3 != 4 {
			t.Errorf("versions %d %d %d, want 2 3 4", v1, v2, v3)
		}
		want := []Offer{
			{Kind: DrawOffer, Side: 1, Ply: 1, At: t0.Add(2 * time.Second)},
			{Kind: TakebackOffer, Side: 1, Ply: 1, At: t0.Add(time.Second)},
		}
		got, err := s.Offers(ctx, g.ID)
		must(t, "Offers", err)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("Offers: got %+v, want %+v", got, want)
		}
		_, err = s.SetOffer(ctx, g.ID, Offer{Kind: DrawOffer, Side: 0, Ply: 0, At: t0})
		wantErr(t, "SetOffer at a stale ply", err, ErrConflict)
		_, err = s.SetOffer(ctx, 999, Offer{Kind: DrawOffer, Side: 0, Ply: 0, At: t0})
		wantErr(t, "SetOffer(999)", err, ErrNotFound)
		if _, err := s.SetOffer(ctx, g.ID, Offer{Kind: "rematch", Ply: 1}); err == nil {
			t.Error("SetOffer(rematch): no error")
		}
		if _, err := s.SetOffer(ctx, g.ID, Offer{Kind: DrawOffer, Side: 2, Ply: 1}); err == nil {
			t.Error("SetOffer(side 2): no error")
		}

		v, err := s.ClearOffer(ctx, g.ID, DrawOffer)
		must(t, "ClearOffer", err)
		if v != 5 {
			t.Errorf("ClearOffer: version %d, want 5", v)
		}
		_, err = s.ClearOffer(ctx, g.ID, DrawOffer)
		wantErr(t, "ClearOffer twice", err, ErrNotFound)
		got, err = s.Offers(ctx, g.ID)
		must(t, "Offers", err)
		if !reflect.DeepEqual(got, want[1:]) {
			t.Errorf("Offers after ClearOffer: got %+v, want %+v", got, want[1:])
		}

		// Two answers to one offer at once: one succeeds.
		var wg sync.WaitGroup
		errs := make([]error, 8)
		for i := range errs {
			wg.Go(func() { _, errs[i] = s.ClearOffer(ctx, g.ID, TakebackOffer) })
		}
		wg.Wait()
		ok := 0
		for _, err := range errs {
			if err == nil {
				ok++
			} else if !errors.Is(err, ErrNotFound) {
				t.Error(err)
			}
		}
		if ok != 1 {
			t.Errorf("%d answers to one offer succeeded, want 1", ok)
		}
	})
}

func TestChat(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		f := newFixture(t, dsn)
		s := f.s
		g := f.game()
		v1, err := s.AddChat(ctx, ChatMessage{Game: g.ID, User: f.ann.ID, Text: "hello", At: t0})
		must(t, "AddChat", err)
		f.move(g.ID, 0, "d6")
		v2, err := s.AddChat(ctx, ChatMessage{Game: g.ID, User: f.bob.ID, Text: "gl hf", At: t0.Add(time.Second)})
		must(t, "AddChat", err)
		if v1 != 1 || v2 != 3 {
			t.Errorf("chat versions %d, %d, want 1, 3", v1, v2)
		}
		_, err = s.FinishGame(ctx, g.ID, Finish{Ply: 1, At: t0, Ending: Ending{Result: "1/2-1/2", Method: "agreement"}})
		must(t, "FinishGame", err)
		v3, err := s.AddChat(ctx, ChatMessage{Game: g.ID, User: f.ann.ID, Text: "gg", At: t0.Add(time.Minute)})
		must(t, "AddChat after the end", err)

		want := []ChatMessage{
			{Game: g.ID, Version: v1, User: f.ann.ID, UserName: "Ann", Text: "hello", At: t0},
			{Game: g.ID, Version: v2, User: f.bob.ID, UserName: "Bob", Text: "gl hf", At: t0.Add(time.Second)},
			{Game: g.ID, Version: v3, User: f.ann.ID, UserName: "Ann", Text: "gg", At: t0.Add(time.Minute)},
		}
		got, err := s.Chat(ctx, g.ID, 0)
		must(t, "Chat", err)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("Chat: got %+v, want %+v", got, want)
		}
		got, err = s.Chat(ctx, g.ID, v2)
		must(t, "Chat", err)
		if !reflect.DeepEqual(got, want[2:]) {
			t.Errorf("Chat after %d: got %+v, want %+v", v2, got, want[2:])
		}
		_, err = s.AddChat(ctx, ChatMessage{Game: 999, User: f.ann.ID, Text: "x", At: t0})
		wantErr(t, "AddChat(game 999)", err, ErrNotFound)
		_, err = s.AddChat(ctx, ChatMessage{Game: g.ID, User: 99, Text: "x", At: t0})
		wantErr(t, "AddChat(user 99)", err, ErrNotFound)
		if _, err := s.AddChat(ctx, ChatMessage{Game: g.ID, User: f.ann.ID}); err == nil {
			t.Error("AddChat of nothing: no error")
		}
		if got, _ := s.Game(ctx, g.ID); got.Version != v3 {
			t.Errorf("a failed AddChat changed the version: %d, want %d", got.Version, v3)
		}
	})
}

func TestRatings(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		f := newFixture(t, dsn)
		s := f.s
		cy := f.user("Cy")
		_, err := s.Rating(ctx, f.ann.ID, "shah")
		wantErr(t, "Rating before any", err, ErrNotFound)
		for _, r := range []Rating{
			{User: f.ann.ID, Variant: "shah", R: 1612.5, RD: 80.25, Sigma: 0.0599, Games: 30, UpdatedAt: t0},
			{User: f.bob.ID, Variant: "shah", R: 1700, RD: 50, Sigma: 0.06, Games: 40, UpdatedAt: t0},
			{User: cy.ID, Variant: "shah", R: 1500, RD: 350, Sigma: 0.06, Games: 0, UpdatedAt: t0},
			{User: f.ann.ID, Variant: "lasker", R: 1800, RD: 60, Sigma: 0.06, Games: 12, UpdatedAt: t0},
		} {
			must(t, "SetRating", s.SetRating(ctx, r))
		}
		// SetRating overwrites.
		must(t, "SetRating", s.SetRating(ctx, Rating{User: cy.ID, Variant: "shah", R: 1400, RD: 340, Sigma: 0.06, Games: 1, UpdatedAt: t0}))
		r, err := s.Rating(ctx, f.ann.ID, "shah")
		must(t, "Rating", err)
		want := Rating{User: f.ann.ID, Name: "Ann", Variant: "shah", R: 1612.5, RD: 80.25, Sigma: 0.0599, Games: 30, UpdatedAt: t0}
		if r != want {
			t.Errorf("Rating: got %+v, want %+v", r, want)
		}
		wantErr(t, "SetRating(unknown user)", s.SetRating(ctx, Rating{User: 99, Variant: "shah"}), ErrNotFound)

		list, err := s.Standings(ctx, "shah", 0)
		must(t, "Standings", err)
		var names []string
		for _, r := range list {
			names = append(names, r.Name)
		}
		if strings.Join(names, " ") != "Bob Ann Cy" {
			t.Errorf("Standings: %v, want Bob Ann Cy", names)
		}
		if list, _ := s.Standings(ctx, "shah", 2); len(list) != 2 {
			t.Errorf("Standings with limit 2: %d ratings", len(list))
		}
		if list, _ := s.Standings(ctx, "mill", 0); len(list) != 0 {
			t.Errorf("Standings of an unplayed variant: %v", list)
		}
	})
}

func TestSubscriptions(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		f := newFixture(t, dsn)
		s := f.s
		cy := f.user("Cy")
		g := f.game()
		must(t, "Subscribe", s.Subscribe(ctx, Subscription{Game: g.ID, User: cy.ID, Kind: FollowMoves}))
		must(t, "Subscribe", s.Subscribe(ctx, Subscription{Game: g.ID, User: f.ann.ID, Kind: FollowEnd}))
		must(t, "Subscribe again", s.Subscribe(ctx, Subscription{Game: g.ID, User: cy.ID, Kind: FollowEnd}))
		wantErr(t, "Subscribe(game 999)", s.Subscribe(ctx, Subscription{Game: 999, User: cy.ID, Kind: FollowEnd}), ErrNotFound)
		wantErr(t, "Subscribe(user 99)", s.Subscribe(ctx, Subscription{Game: g.ID, User: 99, Kind: FollowEnd}), ErrNotFound)
		if err := s.Subscribe(ctx, Subscription{Game: g.ID, User: cy.ID, Kind: "all"}); err == nil {
			t.Error("Subscribe(all): no error")
		}
		subs, err := s.Subscribers(ctx, g.ID)
		must(t, "Subscribers", err)
		kinds := map[int64]SubscriptionKind{}
		for _, sub := range subs {
			kinds[sub.User] = sub.Kind
			if sub.Game != g.ID || sub.CreatedAt.IsZero() {
				t.Errorf("subscription %+v", sub)
			}
		}
		if !reflect.DeepEqual(kinds, map[int64]SubscriptionKind{cy.ID: FollowEnd, f.ann.ID: FollowEnd}) {
			t.Errorf("Subscribers: %+v", subs)
		}
		must(t, "Unsubscribe", s.Unsubscribe(ctx, g.ID, cy.ID))
		wantErr(t, "Unsubscribe twice", s.Unsubscribe(ctx, g.ID, cy.ID), ErrNotFound)
		if subs, _ := s.Subscribers(ctx, g.ID); len(subs) != 1 || subs[0].User != f.ann.ID {
			t.Errorf("Subscribers after Unsubscribe: %+v", subs)
		}
	})
}

func TestChallenges(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		f := newFixture(t, dsn)
		s := f.s
		cy := f.user("Cy")
		control := TimeControl{Initial: 3 * time.Minute, Increment: 2 * time.Second}
		c1, err := s.CreateChallenge(ctx, Challenge{From: f.ann.ID, To: f.bob.ID, Variant: "lasker", Rules: "lasker", Rated: true,
			Color: "random", Control: control})
		must(t, "CreateChallenge", err)
		want := Challenge{ID: 1, From: f.ann.ID, To: f.bob.ID, Variant: "lasker", Rules: "lasker", Rated: true,
			Color: "random", Control: control, Status: ChallengeOpen, CreatedAt: c1.CreatedAt, UpdatedAt: c1.CreatedAt}
		if c1 != want || c1.CreatedAt.IsZero() {
			t.Errorf("CreateChallenge: got %+v, want %+v", c1, want)
		}
		seek, err := s.CreateChallenge(ctx, Challenge{From: cy.ID, Variant: "shah", Rules: "shah", Color: "white"})
		must(t, "CreateChallenge (a seek)", err)
		c3, err := s.CreateChallenge(ctx, Challenge{From: f.bob.ID, To: cy.ID, Variant: "mill", Rules: "mill", Color: "black"})
		must(t, "CreateChallenge", err)
		_, err = s.CreateChallenge(ctx, Challenge{From: f.bob.ID, To: 99, Variant: "mill", Rules: "mill", Color: "black"})
		wantErr(t, "CreateChallenge(to user 99)", err, ErrNotFound)
		if _, err := s.CreateChallenge(ctx, Challenge{From: f.bob.ID, Variant: "mill", Rules: "mill", Color: "green"}); err == nil {
			t.Error("CreateChallenge(green): no error")
		}
		_, err = s.Challenge(ctx, 99)
		wantErr(t, "Challenge(99)", err, ErrNotFound)

		open := func(user int64) []int64 {
			t.Helper()
			list, err := s.OpenChallenges(ctx, user)
			must(t, "OpenChallenges", err)
			var ids []int64
			for _, c := range list {
				ids = append(ids, c.ID)
			}
			return ids
		}
		if got := open(0); !reflect.DeepEqual(got, []int64{c1.ID, seek.ID, c3.ID}) {
			t.Errorf("OpenChallenges(0): %v", got)
		}
		if got := open(f.bob.ID); !reflect.DeepEqual(got, []int64{c1.ID, c3.ID}) {
			t.Errorf("OpenChallenges(Bob): %v", got)
		}

		// Everyone accepts the seek at once: one game starts.
		var wg sync.WaitGroup
		results := make([]error, 6)
		games := make([]Game, 6)
		for i := range results {
			wg.Go(func() {
				games[i], results[i] = s.AcceptChallenge(ctx, seek.ID, Game{Variant: "shah", Rules: "shah", White: cy.ID, Black: f.ann.ID})
			})
		}
		wg.Wait()
		var started []Game
		for _, err := range results {
			if err != nil && !errors.Is(err, ErrConflict) {
				t.Errorf("AcceptChallenge: %v", err)
			}
		}
		for i, g := range games {
			if results[i] == nil {
				started = append(started, g)
			}
		}
		if len(started) != 1 {
			t.Fatalf("%d games started from one seek, want 1", len(started))
		}
		g := started[0]
		if g.ID != 101 || g.White != cy.ID || g.Status != Active {
			t.Errorf("the game of the seek: %+v", g)
		}
		got, err := s.Challenge(ctx, seek.ID)
		must(t, "Challenge", err)
		if got.Status != ChallengeAccepted || got.Game != g.ID {
			t.Errorf("the accepted seek: %+v", got)
		}
		_, err = s.AcceptChallenge(ctx, 99, Game{Variant: "shah", Rules: "shah", White: cy.ID, Black: f.ann.ID})
		wantErr(t, "AcceptChallenge(99)", err, ErrNotFound)

		must(t, "CloseChallenge(declined)", s.CloseChallenge(ctx, c1.ID, ChallengeDeclined))
		wantErr(t, "CloseChallenge twice", s.CloseChallenge(ctx, c1.ID, ChallengeCancelled), ErrConflict)
		wantErr(t, "CloseChallenge(accepted)", s.CloseChallenge(ctx, seek.ID, ChallengeCancelled), ErrConflict)
		wantErr(t, "CloseChallenge(99)", s.CloseChallenge(ctx, 99, ChallengeCancelled), ErrNotFound)
		if err := s.CloseChallenge(ctx, c3.ID, ChallengeAccepted); err == nil {
			t.Error("CloseChallenge(accepted): no error")
		}
		_, err = s.AcceptChallenge(ctx, c1.ID, Game{Variant: "lasker", Rules: "lasker", White: f.ann.ID, Black: f.bob.ID})
		wantErr(t, "AcceptChallenge(declined)", err, ErrConflict)
		if got := open(0); !reflect.DeepEqual(got, []int64{c3.ID}) {
			t.Errorf("OpenChallenges(0) at the end: %v", got)
		}
		if all, _ := s.Games(ctx, GameQuery{}); len(all) != 1 {
			t.Errorf("%d games, want 1", len(all))
		}
	})
}

// TestMigrationsDown: every migration can be undone and done again, on
// both databases.
func TestMigrationsDown(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		s := openStore(t, dsn)
		fsys, err := fs.Sub(migrations, "migrations")
		must(t, "fs.Sub", err)
		p, err := goose.NewProvider(s.dialect, s.w, fsys, goose.WithLogger(goose.NopLogger()), goose.WithDisableGlobalRegistry(true))
		must(t, "NewProvider", err)
		if s.batch != nil {
			s.batch.close() // goose needs the writer connection
		}
		_, err = p.DownTo(ctx, 0)
		must(t, "DownTo(0)", err)
		if v, err := p.GetDBVersion(ctx); err != nil || v != 0 {
			t.Errorf("after DownTo(0): version %d, %v", v, err)
		}
		_, err = p.Up(ctx)
		must(t, "Up", err)
		if v, err := p.GetDBVersion(ctx); err != nil || v != lastMigration(t) {
			t.Errorf("after Up: version %d, %v; want %d", v, err, lastMigration(t))
		}
	})
}

// migrationFiles lists the embedded migrations.
func migrationFiles(t *testing.T) []fs.DirEntry {
	t.Helper()
	es, err := fs.ReadDir(migrations, "migrations")
	must(t, "ReadDir", err)
	return es
}

// lastMigration is the highest version of the embedded migrations: the
// database's version once they ran. Not their count: branches written at
// the same time take their numbers ahead, and goose runs a set with a gap
// (00010 then 00012) as one without.
func lastMigration(t *testing.T) int64 {
	t.Helper()
	var last int64
	for _, e := range migrationFiles(t) {
		n, _, _ := strings.Cut(e.Name(), "_")
		v, err := strconv.ParseInt(n, 10, 64)
		must(t, "the version of "+e.Name(), err)
		last = max(last, v)
	}
	return last
}

func TestQueueNagVacationsPrefs(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		f := newFixture(t, dsn)
		s := f.s
		g, err := s.CreateGame(ctx, Game{Variant: "nine-mens-morris", Rules: "nine-mens-morris", White: f.ann.ID, Black: f.bob.ID})
		must(t, "CreateGame", err)
		if g.NagSentPly != -1 {
			t.Errorf("NagSentPly of a new game: got %d, want -1", g.NagSentPly)
		}

		// Queued moves: one per player and game, taken once.
		if _, err := s.TakeQueuedMove(ctx, g.ID, f.bob.ID); !errors.Is(err, ErrNotFound) {
			t.Errorf("TakeQueuedMove with none: got %v, want ErrNotFound", err)
		}
		must(t, "QueueMove", s.QueueMove(ctx, QueuedMove{Game: g.ID, User: f.bob.ID, Move: "d6", Ply: 1, At: time.UnixMilli(1000)}))
		must(t, "QueueMove again", s.QueueMove(ctx, QueuedMove{Game: g.ID, User: f.bob.ID, Move: "d5", Ply: 1, At: time.UnixMilli(2000)}))
		q, err := s.TakeQueuedMove(ctx, g.ID, f.bob.ID)
		must(t, "TakeQueuedMove", err)
		if q.Move != "d5" || q.Ply != 1 {
			t.Errorf("TakeQueuedMove: got %+v, want d5 at ply 1", q)
		}
		if _, err := s.TakeQueuedMove(ctx, g.ID, f.bob.ID); !errors.Is(err, ErrNotFound) {
			t.Errorf("TakeQueuedMove twice: got %v, want ErrNotFound", err)
		}
		if err := s.QueueMove(ctx, QueuedMove{Game: 999, User: f.bob.ID, Move: "d6", Ply: 0}); !errors.Is(err, ErrNotFound) {
			t.Errorf("QueueMove in no game: got %v, want ErrNotFound", err)
		}

		// A reminder is marked once per turn.
		for i, want := range []bool{true, false} {
			ok, err := s.MarkNagged(ctx, g.ID, 0)
			must(t, "MarkNagged", err)
			if ok != want {
				t.Errorf("MarkNagged #%d: got %v, want %v", i+1, ok, want)
			}
		}
		if ok, err := s.MarkNagged(ctx, g.ID, 3); err != nil || ok {
			t.Errorf("MarkNagged at a ply the game is not at: got %v, %v; want false", ok, err)
		}

		// Vacations.
		day := 24 * time.Hour
		t0 := time.UnixMilli(1_700_000_000_000).UTC()
		must(t, "AddVacation", s.AddVacation(ctx, Vacation{User: f.ann.ID, From: t0, To: t0.Add(3 * day)}))
		must(t, "AddVacation", s.AddVacation(ctx, Vacation{User: f.ann.ID, From: t0.Add(10 * day), To: t0.Add(12 * day)}))
		if err := s.AddVacation(ctx, Vacation{User: f.ann.ID, From: t0, To: t0}); err == nil {
			t.Error("AddVacation of an empty span: no error")
		}
		vs, err := s.Vacations(ctx, f.ann.ID, t0.Add(5*day))
		must(t, "Vacations", err)
		if len(vs) != 1 || !vs[0].From.Equal(t0.Add(10*day)) {
			t.Errorf("Vacations after day 5: got %+v, want the one from day 10", vs)
		}

		// Challenge preferences.
		p, err := s.Prefs(ctx, f.ann.ID, "nine-mens-morris")
		must(t, "Prefs", err)
		if p.Set || p.Limit != -1 || p.AcceptAll || p.Allow != nil || p.Deny != nil {
			t.Errorf("default prefs: got %+v, want none set, no limit, no challenger taken", p)
		}
		must(t, "SetLimit", s.SetLimit(ctx, f.ann.ID, "nine-mens-morris", 5))
		must(t, "SetFilter", s.SetFilter(ctx, f.ann.ID, "nine-mens-morris", nil, false))
		must(t, "SetFilter", s.SetFilter(ctx, f.ann.ID, "nine-mens-morris", []int64{f.bob.ID}, true))
		p, err = s.Prefs(ctx, f.ann.ID, "nine-mens-morris")
		must(t, "Prefs", err)
		if p.Limit != 5 || p.AcceptAll || len(p.Allow) != 1 || p.Allow[0] != f.bob.ID || p.Deny != nil {
			t.Errorf("prefs after limit 5, reject all, accept bob: got %+v", p)
		}
		must(t, "SetFilter", s.SetFilter(ctx, f.ann.ID, "nine-mens-morris", nil, true))
		p, err = s.Prefs(ctx, f.ann.ID, "nine-mens-morris")
		must(t, "Prefs", err)
		if p.Limit != 5 || !p.AcceptAll || p.Allow != nil {
			t.Errorf("prefs after accept all: got %+v", p)
		}
	})
}
