package store

import (
	"context"
	"testing"
	"time"
)

// TestSetPassword: the hash changes and every token of the user but the
// one kept is deleted, in one call; other users' tokens stay.
func TestSetPassword(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		f := newFixture(t, dsn)
		s := f.s
		for _, tk := range []Token{{Hash: "a1", User: f.ann.ID}, {Hash: "a2", User: f.ann.ID}, {Hash: "a3", User: f.ann.ID}, {Hash: "b1", User: f.bob.ID}} {
			must(t, "CreateToken", s.CreateToken(ctx, tk))
		}
		n, err := s.SetPassword(ctx, f.ann.ID, "new-hash", "a2")
		if err != nil || n != 2 {
			t.Fatalf("SetPassword: got %d, %v, want 2 tokens deleted", n, err)
		}
		u, err := s.User(ctx, f.ann.ID)
		must(t, "User", err)
		if u.PasswordHash != "new-hash" {
			t.Errorf("the hash after SetPassword: got %q, want %q", u.PasswordHash, "new-hash")
		}
		for _, c := range []struct {
			hash string
			ok   bool
		}{{"a1", false}, {"a2", true}, {"a3", false}, {"b1", true}} {
			_, err := s.UserByToken(ctx, c.hash, t0)
			if got := err == nil; got != c.ok {
				t.Errorf("token %s after SetPassword: valid %v (%v), want %v", c.hash, got, err, c.ok)
			}
		}
		n, err = s.DeleteUserTokens(ctx, f.ann.ID, "")
		if err != nil || n != 1 {
			t.Errorf("DeleteUserTokens: got %d, %v, want 1", n, err)
		}
		_, err = s.SetPassword(ctx, 99, "x", "")
		wantErr(t, "SetPassword(unknown user)", err, ErrNotFound)
		if _, err := s.SetPassword(ctx, f.ann.ID, "", ""); err == nil {
			t.Error("SetPassword with an empty hash: no error")
		}
	})
}

// TestDeleteUser: the account becomes a tombstone under a neutral name;
// its games and chat stay and show that name; its tokens, challenges,
// preferences, ratings and subscriptions go; the old name stays taken.
func TestDeleteUser(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		f := newFixture(t, dsn)
		s := f.s
		cy := f.user("Cy")
		g := f.game() // Ann against Bob
		f.move(g.ID, 0, "d6")
		_, err := s.AddChat(ctx, ChatMessage{Game: g.ID, User: f.ann.ID, Text: "hello", At: t0})
		must(t, "AddChat", err)
		must(t, "CreateToken", s.CreateToken(ctx, Token{Hash: "a1", User: f.ann.ID}))
		must(t, "CreateToken", s.CreateToken(ctx, Token{Hash: "b1", User: f.bob.ID}))
		_, err = s.CreateChallenge(ctx, Challenge{From: f.ann.ID, To: cy.ID, Variant: "nine-mens-morris", Rules: "nine-mens-morris", Color: "white"})
		must(t, "CreateChallenge", err)
		_, err = s.CreateChallenge(ctx, Challenge{From: cy.ID, To: f.ann.ID, Variant: "nine-mens-morris", Rules: "nine-mens-morris", Color: "white"})
		must(t, "CreateChallenge", err)
		bobs, err := s.CreateChallenge(ctx, Challenge{From: f.bob.ID, Variant: "nine-mens-morris", Rules: "nine-mens-morris", Color: "random"})
		must(t, "CreateChallenge", err)
		must(t, "SetRating", s.SetRating(ctx, Rating{User: f.ann.ID, Variant: "nine-mens-morris", R: 1600, RD: 100, Sigma: 0.06, Games: 3}))
		must(t, "SetRating", s.SetRating(ctx, Rating{User: f.bob.ID, Variant: "nine-mens-morris", R: 1400, RD: 100, Sigma: 0.06, Games: 3}))
		must(t, "SetLimit", s.SetLimit(ctx, f.ann.ID, "nine-mens-morris", 3))
		must(t, "SetFilter", s.SetFilter(ctx, cy.ID, "nine-mens-morris", []int64{f.ann.ID}, false))
		must(t, "AddVacation", s.AddVacation(ctx, Vacation{User: f.ann.ID, From: t0, To: t0.Add(24 * time.Hour)}))
		must(t, "Subscribe", s.Subscribe(ctx, Subscription{Game: g.ID, User: f.ann.ID, Kind: FollowMoves}))

		must(t, "DeleteUser", s.DeleteUser(ctx, f.ann.ID, "deleted-1"))

		u, err := s.User(ctx, f.ann.ID)
		must(t, "User", err)
		if u.Name != "deleted-1" || u.PasswordHash != "" || u.Email != "" || u.DeletedAt.IsZero() {
			t.Errorf("the tombstone: got %+v, want name deleted-1, no hash, no e-mail, DeletedAt set", u)
		}
		for _, name := range []string{"ann", "ANN", "deleted-1"} {
			_, err := s.UserByName(ctx, name)
			wantErr(t, "UserByName("+name+") after DeleteUser", err, ErrNotFound)
		}
		_, err = s.CreateUser(ctx, User{Name: "ann", PasswordHash: "x"})
		wantErr(t, "CreateUser(ann) after DeleteUser", err, ErrDuplicate)
		_, err = s.UserByToken(ctx, "a1", t0)
		wantErr(t, "UserByToken(a1) after DeleteUser", err, ErrNotFound)
		if _, err := s.UserByToken(ctx, "b1", t0); err != nil {
			t.Errorf("Bob's token after Ann's deletion: %v", err)
		}
		got, err := s.Game(ctx, g.ID)
		must(t, "Game", err)
		if got.WhiteName != "deleted-1" || got.BlackName != "Bob" || got.Ply != 1 {
			t.Errorf("the game after DeleteUser: got %s against %s at ply %d, want deleted-1 against Bob at ply 1", got.WhiteName, got.BlackName, got.Ply)
		}
		chat, err := s.Chat(ctx, g.ID, 0)
		must(t, "Chat", err)
		if len(chat) != 1 || chat[0].UserName != "deleted-1" {
			t.Errorf("the chat after DeleteUser: got %+v, want one message by deleted-1", chat)
		}
		open, err := s.OpenChallenges(ctx, 0)
		must(t, "OpenChallenges", err)
		if len(open) != 1 || open[0].ID != bobs.ID {
			t.Errorf("open challenges after DeleteUser: got %+v, want Bob's seek only", open)
		}
		standings, err := s.Standings(ctx, "nine-mens-morris", 0)
		must(t, "Standings", err)
		if len(standings) != 1 || standings[0].User != f.bob.ID {
			t.Errorf("standings after DeleteUser: got %+v, want Bob only", standings)
		}
		_, err = s.Rating(ctx, f.ann.ID, "nine-mens-morris")
		wantErr(t, "Rating(Ann) after DeleteUser", err, ErrNotFound)
		subs, err := s.Subscribers(ctx, g.ID)
		must(t, "Subscribers", err)
		if len(subs) != 0 {
			t.Errorf("subscriptions after DeleteUser: got %+v, want none", subs)
		}
		vac, err := s.Vacations(ctx, f.ann.ID, time.Time{})
		must(t, "Vacations", err)
		if len(vac) != 0 {
			t.Errorf("vacations after DeleteUser: got %+v, want none", vac)
		}
		var n int
		must(t, "counting preferences", s.r.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM challenge_prefs WHERE user_id = $1)
			+ (SELECT COUNT(*) FROM challenge_filters WHERE user_id = $1 OR challenger_id = $1)`, f.ann.ID).Scan(&n))
		if n != 0 {
			t.Errorf("challenge preferences and filters of or naming Ann after DeleteUser: got %d, want 0", n)
		}

		wantErr(t, "DeleteUser again", s.DeleteUser(ctx, f.ann.ID, "deleted-1"), ErrNotFound)
		wantErr(t, "DeleteUser(unknown)", s.DeleteUser(ctx, 99, "deleted-99"), ErrNotFound)
		_, err = s.SetPassword(ctx, f.ann.ID, "x", "")
		wantErr(t, "SetPassword of a deleted user", err, ErrNotFound)
	})
}
