package server

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/morrisgame/morris/internal/server/auth"
	"github.com/morrisgame/morris/internal/server/store"
	"github.com/morrisgame/morris/internal/server/store/storetest"
)

// accountRates are roomy limits but a small sign-in burst, so that the
// tests see wrong passwords spend it.
var accountRates = func() Rates {
	r := DefaultRates
	r.Login, r.LoginBurst = 1e-9, 3
	r.Signup, r.SignupBurst = 100, 100
	r.Token, r.TokenBurst = 100, 100
	r.TokenUser, r.TokenUserBurst = 100, 100
	r.BadToken, r.BadTokenBurst = 100, 100
	return r
}()

// token signs name in and fails the test if it cannot.
func token(t *testing.T, s *Service, name, password string) string {
	t.Helper()
	tok, _, _, err := s.NewToken(context.Background(), "test", name, password)
	if err != nil {
		t.Fatalf("NewToken(%s): %v", name, err)
	}
	return tok
}

// wantKind fails the test unless err is of kind want.
func wantKind(t *testing.T, what string, err error, want Kind) {
	t.Helper()
	if err == nil || KindOf(err) != want {
		t.Errorf("%s: got error %v (kind %d), want kind %d", what, err, KindOf(err), want)
	}
}

// authenticates reports whether tok is taken by s.
func authenticates(s *Service, tok string) bool {
	_, err := s.Authenticate(context.Background(), "test", tok)
	return err == nil
}

func TestChangePassword(t *testing.T) { storetest.Each(t, testChangePassword) }

// testChangePassword: a new password revokes the other sessions' tokens
// at once, though they were checked (and cached) a moment before, and
// ends their streams; the caller's token goes on; the old password is
// refused, the new one taken. A new password that is too short, or a
// wrong old one, changes nothing, and wrong ones spend the sign-in limit.
func testChangePassword(t *testing.T, dsn string) {
	s := newServiceOn(t, dsn, Config{Rates: accountRates})
	ctx := context.Background()
	ann := signUp(t, s, "ann")
	bob := signUp(t, s, "bob")
	mine, other := token(t, s, "ann", "secret-ann"), token(t, s, "ann", "secret-ann")
	bobs := token(t, s, "bob", "secret-bob")
	for _, tok := range []string{mine, other, bobs} {
		if !authenticates(s, tok) { // and now in the cache
			t.Fatal("a new token is refused")
		}
	}
	otherStream, done := s.Session(ctx, ann, other)
	defer done()
	myStream, done2 := s.Session(ctx, ann, mine)
	defer done2()

	_, err := s.ChangePassword(ctx, "test", "ann", "secret-ann", "short", mine)
	wantKind(t, "a new password of 5 bytes", err, BadRequest)
	_, err = s.ChangePassword(ctx, "test", "ann", "wrong-password", "new-secret", mine)
	wantKind(t, "a wrong old password", err, Unauthorized)
	if !authenticates(s, other) {
		t.Fatal("a refused change of password revoked a token")
	}
	if _, err := s.Login(ctx, "test", "ann", "secret-ann"); err != nil {
		t.Fatalf("a refused change of password changed the password: %v", err)
	}

	if _, err := s.ChangePassword(ctx, "test", "ANN", "secret-ann", "new-secret", mine); err != nil {
		t.Fatalf("ChangePassword: %v", err)
	}
	for _, c := range []struct {
		what string
		tok  string
		want bool
	}{{"the caller's token", mine, true}, {"the other session's token", other, false}, {"Bob's token", bobs, true}} {
		if got := authenticates(s, c.tok); got != c.want {
			t.Errorf("%s after the change: taken %v, want %v", c.what, got, c.want)
		}
	}
	select {
	case <-otherStream.Done():
	default:
		t.Error("the other session's stream goes on after the change of password")
	}
	if myStream.Err() != nil {
		t.Error("the caller's stream ended with the change of password")
	}
	_, err = s.Login(ctx, "test", "ann", "secret-ann")
	wantKind(t, "signing in with the old password", err, Unauthorized)
	if _, err := s.Login(ctx, "test", "ann", "new-secret"); err != nil {
		t.Errorf("signing in with the new password: %v", err)
	}
	// Three wrong passwords (the one above, the old one, one more) spend
	// the burst of 3: the next change is refused, even with the right one.
	_, err = s.ChangePassword(ctx, "test", "ann", "wrong-again", "newer-secret", mine)
	wantKind(t, "a wrong old password", err, Unauthorized)
	_, err = s.ChangePassword(ctx, "test", "ann", "new-secret", "newer-secret", mine)
	wantKind(t, "a change after three wrong passwords", err, TooMany)
	_ = bob
}

// TestOldShortPasswordStillSignsIn: the minimum of 8 bytes holds for new
// passwords; an account made with a shorter one before still signs in,
// and may change it only to a long enough one.
func TestOldShortPasswordStillSignsIn(t *testing.T) {
	s := newService(t, Config{})
	ctx := context.Background()
	for _, c := range []struct {
		pw   string
		want Kind
	}{{"1234567", BadRequest}, {"12345678", Internal}} {
		_, err := s.SignUp(ctx, "test", "cy", c.pw, "")
		if KindOf(err) != c.want || (c.want == Internal && err != nil) {
			t.Errorf("SignUp with a password of %d bytes: got %v, want kind %d", len(c.pw), err, c.want)
		}
	}
	h, err := auth.Hash("abcd", auth.Test)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Store().CreateUser(ctx, store.User{Name: "old", PasswordHash: h}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Login(ctx, "test", "old", "abcd"); err != nil {
		t.Errorf("an old account with a password of 4 bytes: %v", err)
	}
	_, err = s.ChangePassword(ctx, "test", "old", "abcd", "abcdefg", "")
	wantKind(t, "changing to 7 bytes", err, BadRequest)
	if _, err := s.ChangePassword(ctx, "test", "old", "abcd", "abcdefgh", ""); err != nil {
		t.Errorf("changing to 8 bytes: %v", err)
	}
}

func TestSignOutEverywhere(t *testing.T) { storetest.Each(t, testSignOutEverywhere) }

// testSignOutEverywhere: every token of the account is refused at once,
// the caller's too, and every stream opened with them ends; another
// account's token stays.
func testSignOutEverywhere(t *testing.T, dsn string) {
	s := newServiceOn(t, dsn, Config{})
	ctx := context.Background()
	ann := signUp(t, s, "ann")
	signUp(t, s, "bob")
	toks := []string{token(t, s, "ann", "secret-ann"), token(t, s, "ann", "secret-ann")}
	bobs := token(t, s, "bob", "secret-bob")
	var streams []context.Context
	for _, tok := range toks {
		if !authenticates(s, tok) {
			t.Fatal("a new token is refused")
		}
		c, done := s.Session(ctx, ann, tok)
		defer done()
		streams = append(streams, c)
	}
	n, err := s.SignOutEverywhere(ctx, ann)
	if err != nil || n != 2 {
		t.Fatalf("SignOutEverywhere: got %d, %v, want 2 tokens revoked", n, err)
	}
	for i, tok := range toks {
		if authenticates(s, tok) {
			t.Errorf("token %d after signing out everywhere: taken, want refused", i)
		}
		if streams[i].Err() == nil {
			t.Errorf("stream %d goes on after signing out everywhere", i)
		}
	}
	if !authenticates(s, bobs) {
		t.Error("Bob's token refused after Ann signed out everywhere")
	}
}

func TestDeleteAccount(t *testing.T) { storetest.Each(t, testDeleteAccount) }

// testDeleteAccount: a wrong password changes nothing; the right one
// ends sign-in and the tokens, resigns the games going on, cancels the
// challenges, and keeps the games under the name deleted-ID, which nobody
// can sign up under, nor under the old name.
func testDeleteAccount(t *testing.T, dsn string) {
	s := newServiceOn(t, dsn, Config{})
	ctx := context.Background()
	ann, bob, cy := signUp(t, s, "ann"), signUp(t, s, "bob"), signUp(t, s, "cy")
	tok := token(t, s, "ann", "secret-ann")
	finished, err := pbmChallenge(ctx, s, "ann", "bob", GameSpec{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Move(ctx, ann, finished.ID, "d6", 0); err != nil {
		t.Fatal(err)
	}
	if err := s.Resign(ctx, bob, finished.ID); err != nil {
		t.Fatal(err)
	}
	active, err := pbmChallenge(ctx, s, "bob", "ann", GameSpec{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Challenge(ctx, ann, "cy", GameSpec{}); err != nil {
		t.Fatal(err)
	}

	_, err = s.DeleteAccount(ctx, "test", "ann", "wrong-password")
	wantKind(t, "deleting with a wrong password", err, Unauthorized)
	if !authenticates(s, tok) {
		t.Fatal("a refused deletion revoked the token")
	}
	_, err = s.DeleteAccount(ctx, "test", EngineName, "anything")
	wantKind(t, "deleting the engine", err, Unauthorized)

	gone, err := s.DeleteAccount(ctx, "test", "ann", "secret-ann")
	if err != nil {
		t.Fatalf("DeleteAccount: %v", err)
	}
	tomb := fmt.Sprintf("deleted-%d", ann.ID)
	if gone.Name != tomb || gone.ID != ann.ID {
		t.Errorf("the deleted account: got %+v, want %s, id %d", gone, tomb, ann.ID)
	}
	if authenticates(s, tok) {
		t.Error("the token of a deleted account is taken")
	}
	_, err = s.Login(ctx, "test", "ann", "secret-ann")
	wantKind(t, "signing in to a deleted account", err, Unauthorized)
	_, err = s.UserByName(ctx, "ann")
	wantKind(t, "UserByName(ann) after deletion", err, NotFound)
	for _, c := range []struct {
		name string
		want Kind
	}{{"ann", Conflict}, {"ANN", Conflict}, {tomb, BadRequest}, {"Deleted-7", BadRequest}} {
		_, err := s.SignUp(ctx, "test", c.name, "a-new-password", "")
		wantKind(t, "signing up as "+c.name+" after the deletion", err, c.want)
	}

	for _, c := range []struct {
		id                   int64
		white, black, result string
		method               string
	}{{finished.ID, tomb, "bob", "1-0", "resignation"}, {active.ID, "bob", tomb, "1-0", "resignation"}} {
		g, err := s.Game(ctx, c.id)
		if err != nil {
			t.Fatalf("game %d after the deletion: %v", c.id, err)
		}
		if g.White.Name != c.white || g.Black.Name != c.black || g.State.Status != "finished" || g.State.Result != c.result || g.State.Method != c.method {
			t.Errorf("game %d after the deletion: got %s against %s, %s %s by %s, want %s against %s, finished %s by %s",
				c.id, g.White.Name, g.Black.Name, g.State.Status, g.State.Result, g.State.Method, c.white, c.black, c.result, c.method)
		}
	}
	mine, seeks, err := s.Challenges(ctx, cy)
	if err != nil {
		t.Fatal(err)
	}
	if len(mine)+len(seeks) != 0 {
		t.Errorf("Cy's challenges after Ann's deletion: got %+v and %+v, want none", mine, seeks)
	}
	_, err = s.DeleteAccount(ctx, "test", tomb, "")
	wantKind(t, "deleting the deleted account", err, Unauthorized)
}

// TestRevocationAcrossProcesses: two services on one PostgreSQL database.
// A token of Ann's checked through the second (so in its cache) is refused
// there at once after a change of password made through the first, and
// the stream opened with it there ends; the caller's token still works on
// both. The same for signing out everywhere, and for signing out one
// token. Before the relay carried revocations, the second took the old
// token for up to 30 s.
func TestRevocationAcrossProcesses(t *testing.T) {
	dsn := storetest.DSN(t, "postgres") // skips without MORRIS_TEST_POSTGRES
	a := newServiceOn(t, dsn, Config{})
	b := newServiceOn(t, dsn, Config{})
	ctx := context.Background()
	ann := signUp(t, a, "ann")
	// Give the listeners a moment to be in place (as the relay's test).
	time.Sleep(300 * time.Millisecond)

	refusedSoon := func(what, tok string, ended context.Context) {
		t.Helper()
		start := time.Now()
		for authenticates(b, tok) {
			if time.Since(start) > 2*time.Second {
				t.Errorf("%s: still taken by the other process after %v, want refused at once", what, time.Since(start))
				return
			}
			time.Sleep(time.Millisecond)
		}
		t.Logf("%s: refused by the other process after %v", what, time.Since(start))
		if ended != nil {
			select {
			case <-ended.Done():
			case <-time.After(time.Second):
				t.Errorf("%s: the other process's stream of the token goes on", what)
			}
		}
	}

	mine, other := token(t, a, "ann", "secret-ann"), token(t, a, "ann", "secret-ann")
	if !authenticates(b, mine) || !authenticates(b, other) {
		t.Fatal("the other process refuses a new token")
	}
	stream, done := b.Session(ctx, ann, other)
	defer done()
	if _, err := a.ChangePassword(ctx, "test", "ann", "secret-ann", "new-secret", mine); err != nil {
		t.Fatal(err)
	}
	refusedSoon("the other session's token after a change of password", other, stream)
	if !authenticates(a, mine) || !authenticates(b, mine) {
		t.Error("the caller's token is refused after its change of password")
	}
	if _, err := b.Login(ctx, "test", "ann", "secret-ann"); KindOf(err) != Unauthorized {
		t.Errorf("the old password on the other process: got %v, want refused", err)
	}

	one := token(t, a, "ann", "new-secret")
	if !authenticates(b, one) {
		t.Fatal("the other process refuses a new token")
	}
	if err := a.RevokeToken(ctx, one); err != nil {
		t.Fatal(err)
	}
	refusedSoon("a token signed out", one, nil)

	stream2, done2 := b.Session(ctx, ann, mine)
	defer done2()
	if _, err := a.SignOutEverywhere(ctx, ann); err != nil {
		t.Fatal(err)
	}
	refusedSoon("the caller's token after signing out everywhere", mine, stream2)
}
