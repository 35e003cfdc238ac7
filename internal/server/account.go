package server

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"sync"
	"time"

	"github.com/morrisgame/morris/internal/server/auth"
	"github.com/morrisgame/morris/internal/server/store"
)

// The life cycle of credentials: a new password, signing out everywhere,
// deleting an account; and how a token revoked here stops working at once
// in every process.
//
// # Revocation on every process
//
// The store is the truth: a revoked token is deleted from it before
// anything else, so a process that asks the store refuses it. What could
// still take it is a cache in front of the store: each process remembers
// the tokens it checked for tokenCacheTTL (30 s), and its open streams and
// WebSockets were authenticated when they opened. A revocation therefore
// also
//
//  1. drops the user's tokens from this process's cache and ends the
//     sessions (streams, WebSockets) opened with them (tokensRevoked);
//  2. tells the other processes sharing the PostgreSQL database the same,
//     in a notification of the relay's channel (kind "t": the user, the
//     token kept, or the one token revoked), sent before the call returns,
//     so that each drops them as well within a millisecond or two;
//  3. bumps the cache's generation under its lock: a lookup that read the
//     store before the revocation and comes back after it does not put
//     its (stale) answer in the cache (tokenCache.putIf). Without this a
//     request in flight at the moment of the revocation could keep an old
//     token in a cache for another 30 s.
//
// A notification is not durable: one sent while a process's listener is
// reconnecting is lost. That process empties its whole token cache each
// time it listens again (relay.listener), so what it missed costs it a
// store read per token, not a stale answer; and should the listening
// connection hang without failing, the cache's 30 s are the bound.

// DeletedPrefix starts the names of deleted accounts ("deleted-42"),
// which nobody may sign up under: a game of a player who deleted their
// account shows this name, and a new account must not pass for them.
const DeletedPrefix = "deleted-"

// ChangePassword sets a new password for the account name, whose current
// password is old, and revokes every other token of the account, on every
// process: keep is the token of the session that asked (the HTTP API's
// bearer token), which goes on working; "" (pbmserv, which has no tokens)
// revokes them all. The old password is checked as a sign-in is (Login),
// so wrong guesses spend the sign-in limit of from and name. The new
// password must be a valid one (MinPassword to MaxPassword bytes, no
// spaces), checked first: a bad one changes nothing and costs nothing.
func (s *Service) ChangePassword(ctx context.Context, from, name, old, new, keep string) (User, error) {
	if err := validPassword(new); err != nil {
		return User{}, err
	}
	u, err := s.Login(ctx, from, name, old)
	if err != nil {
		return User{}, err
	}
	var h string
	err = s.hashing(ctx, func() (err error) {
		h, err = auth.Hash(new, s.cfg.Hash)
		return err
	})
	if err != nil {
		return User{}, err
	}
	keepHash := ""
	if keep != "" {
		keepHash = auth.TokenHash(keep)
	}
	n, err := s.st.SetPassword(ctx, u.ID, h, keepHash)
	if errors.Is(err, store.ErrNotFound) { // deleted meanwhile
		return User{}, errorf(Unauthorized, "wrong user id or password")
	}
	if err != nil {
		return User{}, err
	}
	s.tokensRevoked(ctx, u.ID, keepHash, "")
	s.log.Info("password changed", "user", u.ID, "tokens revoked", n)
	return u, nil
}

// SignOutEverywhere revokes every token of the user, the caller's too, on
// every process, and ends the streams opened with them.
func (s *Service) SignOutEverywhere(ctx context.Context, user User) (int64, error) {
	n, err := s.st.DeleteUserTokens(ctx, user.ID, "")
	if err != nil {
		return 0, err
	}
	s.tokensRevoked(ctx, user.ID, "", "")
	s.log.Info("signed out everywhere", "user", user.ID, "tokens revoked", n)
	return n, nil
}

// DeleteAccount deletes the account name, whose password is password (a
// sign-in, as for ChangePassword). Its games stay, shown under the name
// "deleted-ID"; the games it is playing are resigned first (the opponent
// wins, rated games count: the player chose to leave them); its open
// challenges and seeks are cancelled and the players they were made to
// told; its tokens are revoked on every process; its preferences,
// ratings, vacations, queued moves and subscriptions are deleted. The old
// name stays taken (store.DeleteUser). The engine's account cannot be
// deleted; a guest, who has no password, cannot either (its token expires).
func (s *Service) DeleteAccount(ctx context.Context, from, name, password string) (User, error) {
	u, err := s.Login(ctx, from, name, password)
	if err != nil {
		return User{}, err
	}
	if u.Bot || u.ID == s.engineID {
		return User{}, errorf(Forbidden, "the account %q cannot be deleted", u.Name)
	}
	open, err := s.st.OpenChallenges(ctx, u.ID)
	if err != nil {
		return User{}, err
	}
	// While the account is whole, so that the ends are announced and
	// rated as any resignation.
	if err := s.resignAll(ctx, u); err != nil {
		return User{}, err
	}
	tomb := DeletedPrefix + strconv.FormatInt(u.ID, 10)
	if err := s.st.DeleteUser(ctx, u.ID, tomb); err != nil {
		if errors.Is(err, store.ErrNotFound) { // deleted meanwhile
			return User{}, errorf(Unauthorized, "wrong user id or password")
		}
		return User{}, err
	}
	s.tokensRevoked(ctx, u.ID, "", "")
	for _, c := range open {
		c.Status = store.ChallengeCancelled
		s.announceChallenge(ctx, "challengeCanceled", c)
	}
	// A game that began between the resignations and the deletion (a
	// challenge accepted through a session still open) ends the same way.
	if err := s.resignAll(ctx, User{ID: u.ID, Name: tomb}); err != nil {
		s.log.Warn("resigning the games of a deleted account", "user", u.ID, "err", err)
	}
	s.log.Info("account deleted", "user", u.ID, "name", tomb)
	return User{ID: u.ID, Name: tomb}, nil
}

// resignAll resigns every active game of the user. A game that ends
// meanwhile is no failure.
func (s *Service) resignAll(ctx context.Context, u User) error {
	games, err := s.st.Games(ctx, store.GameQuery{User: u.ID, Status: store.Active})
	if err != nil {
		return err
	}
	for _, g := range games {
		err := s.Resign(ctx, u, g.ID)
		if err != nil && KindOf(err) != Conflict && KindOf(err) != NotFound {
			return err
		}
	}
	return nil
}

// tokensRevoked makes a revocation already done in the store take effect
// in every process: for the user's tokens but keep (a token hash; "" for
// all) or, with one set, only the token of that hash. See the top of this
// file.
func (s *Service) tokensRevoked(ctx context.Context, user int64, keep, one string) {
	s.dropTokens(user, keep, one)
	if !s.st.CanNotify() {
		return
	}
	b, _ := json.Marshal(relayNote{Origin: s.process, Kind: "t", ID: user, Keep: keep, Token: one})
	// Sent here rather than through the relay's queue, which drops what
	// does not fit: the caller is answered after the others were told.
	if err := s.st.Notify(context.WithoutCancel(ctx), []string{string(b)}); err != nil {
		s.log.Warn("telling the other processes of revoked tokens; they refuse them within "+tokenCacheTTL.String(), "user", user, "err", err)
	}
}

// dropTokens forgets revoked tokens in this process: the cache's entries
// and the sessions opened with them (tokensRevoked, or a notification of
// another process's revocation).
func (s *Service) dropTokens(user int64, keep, one string) {
	if one != "" {
		s.tokens.dropHash(one)
	} else {
		s.tokens.dropUser(user, keep)
	}
	s.sessions.end(user, keep, one)
}

// generation is the cache's count of revocations (see putIf).
func (c *tokenCache) generation() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gen
}

// putIf caches a token's user read from the store when no revocation came
// since gen was taken, before the read: a read that may predate a
// revocation is answered but not remembered. The check and the put are
// under one holding of the lock, as the revocations' drops are.
func (c *tokenCache) putIf(hash string, u User, now time.Time, gen uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen != gen {
		return
	}
	if c.m == nil || len(c.m) > 100000 {
		c.m = map[string]tokenEntry{}
	}
	c.m[hash] = tokenEntry{u: u, seen: now}
}

// dropUser forgets the cached tokens of a user but keep (a hash, or "").
func (c *tokenCache) dropUser(user int64, keep string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	for h, e := range c.m {
		if e.u.ID == user && h != keep {
			delete(c.m, h)
		}
	}
}

// dropHash forgets one cached token.
func (c *tokenCache) dropHash(hash string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	delete(c.m, hash)
}

// dropAll forgets every cached token: after notifications may have been
// lost.
func (c *tokenCache) dropAll() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	clear(c.m)
}

// sessions are the streams and WebSockets open in this process with a
// token, so that revoking the token ends them: a stream authenticated when
// it opened, and a WebSocket that plays moves, would otherwise outlive
// the token.
type sessions struct {
	mu sync.Mutex
	m  map[*session]struct{}
}

type session struct {
	user   int64
	hash   string
	cancel context.CancelFunc
}

// Session returns a context that ends with ctx or when token, the user's,
// is revoked (a new password, signing out, deleting the account, on any
// process), and the func that releases it, to be called when the stream
// ends.
func (s *Service) Session(ctx context.Context, user User, token string) (context.Context, func()) {
	ctx, cancel := context.WithCancel(ctx)
	ss := &session{user: user.ID, hash: auth.TokenHash(token), cancel: cancel}
	s.sessions.mu.Lock()
	if s.sessions.m == nil {
		s.sessions.m = map[*session]struct{}{}
	}
	s.sessions.m[ss] = struct{}{}
	s.sessions.mu.Unlock()
	return ctx, func() {
		s.sessions.mu.Lock()
		delete(s.sessions.m, ss)
		s.sessions.mu.Unlock()
		cancel()
	}
}

// end ends the sessions of revoked tokens: the user's but keep's, or the
// one of hash one.
func (ss *sessions) end(user int64, keep, one string) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	for x := range ss.m {
		if one != "" && x.hash == one || one == "" && x.user == user && x.hash != keep {
			x.cancel()
			delete(ss.m, x)
		}
	}
}
