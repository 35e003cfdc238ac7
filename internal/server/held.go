package server

import (
	"context"
	"sync"
	"time"

	"github.com/morrisgame/morris/internal/server/store"
	"github.com/morrisgame/morris/mill"
)

// The quotas of what one user or one address holds at once, so that no
// one client can take a server's connections, its engine or its lobby for
// themselves: Quotas.ConnsPerAddr, EngineGames and OpenChallenges, and the
// expiry of what is held and forgotten (ChallengeExpiry, RealTimeExpiry,
// EngineAbandon). For these a negative Quota lifts it (load tests).

// Conns counts the long-lived connections of each client address: the
// HTTP API's streams and WebSockets and the pbmserv TCP connections, one
// quota for all of them (Quotas.ConnsPerAddr), since each holds a file
// descriptor and a goroutine of the same process whichever door it came
// in by. Its map holds only the addresses with a connection open, so it
// cannot grow beyond the connections themselves.
type Conns struct {
	max  int // < 0: no quota
	mu   sync.Mutex
	held map[string]int
}

func newConns(max int) *Conns { return &Conns{max: max, held: map[string]int{}} }

// Acquire counts a connection of addr that is about to open: ok is false,
// and nothing is counted, when addr holds its quota already. Otherwise the
// caller calls release once the connection has closed (more calls do
// nothing).
func (c *Conns) Acquire(addr string) (release func(), ok bool) {
	if c.max < 0 {
		return func() {}, true
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.held[addr] >= c.max {
		return nil, false
	}
	c.held[addr]++
	var once sync.Once
	return func() {
		once.Do(func() {
			c.mu.Lock()
			defer c.mu.Unlock()
			if c.held[addr]--; c.held[addr] <= 0 {
				delete(c.held, addr)
			}
		})
	}, true
}

// Max is the quota of each address (negative: none).
func (c *Conns) Max() int { return c.max }

// Conns is the count of long-lived connections by address that every
// gateway acquires from before it holds a stream, a WebSocket or a TCP
// connection open.
func (s *Service) Conns() *Conns { return s.conns }

// userLocks serialise one user's check of a quota and the creation it
// allows, so that parallel requests cannot all pass the check (in one
// process: processes sharing a PostgreSQL database each check on their
// own, and a user may get one game or challenge more per process).
type userLocks struct {
	mu   sync.Mutex
	held map[int64]*userLock
}

type userLock struct {
	mu    sync.Mutex
	users int
}

func (l *userLocks) lock(user int64) (unlock func()) {
	l.mu.Lock()
	if l.held == nil {
		l.held = map[int64]*userLock{}
	}
	e := l.held[user]
	if e == nil {
		e = &userLock{}
		l.held[user] = e
	}
	e.users++
	l.mu.Unlock()
	e.mu.Lock()
	return func() {
		e.mu.Unlock()
		l.mu.Lock()
		if e.users--; e.users == 0 {
			delete(l.held, user)
		}
		l.mu.Unlock()
	}
}

// checkEngineGames refuses a new game against the engine to a user who
// plays Quotas.EngineGames of them already.
func (s *Service) checkEngineGames(ctx context.Context, user User) error {
	max := s.cfg.Quotas.EngineGames
	if max < 0 {
		return nil
	}
	games, err := s.st.Games(ctx, store.GameQuery{User: user.ID, Status: store.Active})
	if err != nil {
		return err
	}
	n := 0
	for _, g := range games {
		if g.EngineLevel > 0 {
			n++
		}
	}
	if n >= max {
		return errorf(Conflict, "you play %d games against the engine already, the most at once: finish or resign one first", n)
	}
	return nil
}

// checkOpenChallenges refuses a new open challenge or seek to a user who
// has Quotas.OpenChallenges of them already.
func (s *Service) checkOpenChallenges(ctx context.Context, user User) error {
	max := s.cfg.Quotas.OpenChallenges
	if max < 0 {
		return nil
	}
	open, err := s.st.OpenChallenges(ctx, user.ID)
	if err != nil {
		return err
	}
	n := 0
	for _, c := range open {
		if c.From == user.ID {
			n++
		}
	}
	if n >= max {
		return errorf(Conflict, "you have %d open challenges and seeks, the most at once: cancel one or wait for an answer", n)
	}
	return nil
}

// challengeExpiry is how long an open challenge waits: by its clock.
func (s *Service) challengeExpiry(c store.Challenge) time.Duration {
	if c.Control.Initial > 0 {
		return s.cfg.Quotas.RealTimeExpiry
	}
	return s.cfg.Quotas.ChallengeExpiry
}

// expireChallenges cancels the open challenges and seeks nobody answered
// in time (Quotas.ChallengeExpiry, Quotas.RealTimeExpiry), and tells both
// sides as a cancel is told. It runs in the correspondence sweep; of
// several processes sweeping at once the store lets one cancel through.
func (s *Service) expireChallenges(ctx context.Context) error {
	open, err := s.st.OpenChallenges(ctx, 0)
	if err != nil {
		return err
	}
	now := s.now()
	for _, c := range open {
		ttl := s.challengeExpiry(c)
		if ttl < 0 || now.Sub(c.CreatedAt) < ttl {
			continue
		}
		err := s.st.CloseChallenge(ctx, c.ID, store.ChallengeCancelled)
		if KindOf(err) == Conflict {
			continue // answered or expired meanwhile
		}
		if err != nil {
			return err
		}
		s.log.Info("challenge expired", "challenge", c.ID, "from", c.From, "age", now.Sub(c.CreatedAt).Round(time.Second))
		c.Status = store.ChallengeCancelled
		s.announceChallenge(ctx, "challengeCanceled", c)
	}
	return nil
}

// abandoned reports whether a game against the engine without any clock
// has waited Quotas.EngineAbandon or longer on its player's turn, and
// which side then wins: the engine's.
func (s *Service) abandoned(o *owner, now time.Time) (mill.Color, bool) {
	after := s.cfg.Quotas.EngineAbandon
	g := o.g
	if after < 0 || g.EngineLevel == 0 || g.Control != (store.TimeControl{}) {
		return 0, false
	}
	toMove := o.game.Position().SideToMove()
	if o.userOf(toMove) == s.engineID || now.Sub(g.LastMoveAt) < after {
		return 0, false
	}
	return toMove.Other(), true
}
