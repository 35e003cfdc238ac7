package server

import (
	"crypto/sha256"
	"sync"
	"time"

	"github.com/morrisgame/morris/internal/store"
	"golang.org/x/time/rate"
)

// Rates are the rate limits: events per second and burst.
type Rates struct {
	Login, LoginBurst     float64 // failed sign-ins per address and name
	Signup, SignupBurst   float64 // sign-ups per address
	Command, CommandBurst float64 // commands and API calls per user or address
}

// DefaultRates: 5 failed sign-ins a minute (burst 10), 10 sign-ups an hour
// per address (burst 20), 20 commands a second per user (burst 50).
var DefaultRates = Rates{
	Login: 5.0 / 60, LoginBurst: 10,
	Signup: 10.0 / 3600, SignupBurst: 20,
	Command: 20, CommandBurst: 50,
}

// limiters are token buckets by kind and key. They live in one process's
// memory, which is right for them: they protect this process, and a
// restart forgives.
type limiters struct {
	rates Rates
	mu    sync.Mutex
	m     map[string]*entry
	n     int
}

type entry struct {
	l    *rate.Limiter
	seen time.Time
}

func newLimiters(r Rates) *limiters { return &limiters{rates: r, m: map[string]*entry{}} }

func (ls *limiters) get(kind, key string) *rate.Limiter {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	k := kind + "\x00" + key
	e := ls.m[k]
	if e == nil {
		var r, b float64
		switch kind {
		case "login":
			r, b = ls.rates.Login, ls.rates.LoginBurst
		case "signup":
			r, b = ls.rates.Signup, ls.rates.SignupBurst
		default:
			r, b = ls.rates.Command, ls.rates.CommandBurst
		}
		e = &entry{l: rate.NewLimiter(rate.Limit(r), int(b))}
		ls.m[k] = e
	}
	e.seen = time.Now()
	if ls.n++; ls.n%4096 == 0 { // forget idle keys now and then
		for k, e := range ls.m {
			if time.Since(e.seen) > 10*time.Minute {
				delete(ls.m, k)
			}
		}
	}
	return e.l
}

func (ls *limiters) allow(kind, key string) bool { return ls.get(kind, key).Allow() }

// peek reports whether a token is there without spending it.
func (ls *limiters) peek(kind, key string) bool { return ls.get(kind, key).Tokens() >= 1 }

// pwCache remembers passwords verified lately, as SHA-256 of the stored
// hash and the password, so that a pbmserv player, who sends the password
// with every command, does not pay argon2id on every move. An entry is
// good for five minutes and only while the stored hash is the same.
type pwCache struct {
	mu sync.Mutex
	m  map[[32]byte]time.Time
}

func pwKey(u store.User, password string) [32]byte {
	return sha256.Sum256([]byte(u.PasswordHash + "\x00" + password))
}

func (c *pwCache) ok(u store.User, password string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, ok := c.m[pwKey(u, password)]
	return ok && time.Since(t) < 5*time.Minute
}

func (c *pwCache) remember(u store.User, password string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) > 100000 {
		c.m = map[[32]byte]time.Time{}
	}
	c.m[pwKey(u, password)] = time.Now()
}

// tokenCache remembers the users of tokens checked in the last
// tokenCacheTTL, so that an API call does not read the store to learn who
// calls. A token revoked here is forgotten at once; one revoked through
// another process sharing the database works here until its entry ages
// out (at most tokenCacheTTL), and a token that expires works at most that
// long past its expiry.
type tokenCache struct {
	mu sync.Mutex
	m  map[string]tokenEntry
}

type tokenEntry struct {
	u    User
	seen time.Time
}

const tokenCacheTTL = 30 * time.Second

func (c *tokenCache) get(hash string, now time.Time) (User, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[hash]
	if !ok || now.Sub(e.seen) > tokenCacheTTL || now.Before(e.seen) {
		return User{}, false
	}
	return e.u, true
}

func (c *tokenCache) put(hash string, u User, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) > 100000 {
		c.m = map[string]tokenEntry{}
	}
	c.m[hash] = tokenEntry{u: u, seen: now}
}

func (c *tokenCache) drop(hash string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, hash)
}
