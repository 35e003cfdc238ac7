package server

import (
	"crypto/sha256"
	"hash/maphash"
	"sync"
	"time"

	"github.com/morrisgame/morris/internal/server/store"
)

// Rates are the rate limits: events per second and burst. A zero pair
// takes its default (DefaultRates), so that a caller who sets some rates
// does not turn the others off.
type Rates struct {
	Login, LoginBurst           float64 // failed sign-ins per address and name
	LoginAddr, LoginAddrBurst   float64 // failed sign-ins per address, whatever the name
	Signup, SignupBurst         float64 // sign-ups (and guests) per address
	Command, CommandBurst       float64 // commands and API calls per user or address
	Token, TokenBurst           float64 // POST /api/token per address, right or wrong
	TokenUser, TokenUserBurst   float64 // tokens made per user (successful sign-ins for a token)
	BadToken, BadTokenBurst     float64 // calls with an unknown or expired token per address
	Chat, ChatBurst             float64 // chat messages per player and game (quotas.go)
	Review, ReviewBurst         float64 // new reviews asked for per address (quotas.go)
	Puzzle, PuzzleBurst         float64 // puzzle moves sent per user, or address without one (quotas.go)
	Report, ReportBurst         float64 // reports to the moderators per user (moderation.go)
	ReportAddr, ReportAddrBurst float64 // reports to the moderators per address (moderation.go)
	Club, ClubBurst             float64 // clubs created per user (clubs.go)
	Tournament, TournamentBurst float64 // tournaments created per user (tournaments.go)
	Follow, FollowBurst         float64 // players followed per user (friends.go)
	HalfBye, HalfByeBurst       float64 // half-point byes asked for or taken back per user (tournaments.go)
	// MaxKeys bounds the buckets kept in memory (100,000 by default: about
	// 10 MB). Past it the full buckets are dropped (a full bucket is the
	// same as none), then any others at random: memory never grows with
	// what clients send.
	MaxKeys int
}

// DefaultRates: 5 failed sign-ins a minute per address and name (burst
// 10) and 30 per address whatever the name (burst 30); 10 sign-ups an
// hour per address (burst 20); 20 commands a second per user (burst 50);
// 30 token requests a minute per address (burst 30); 20 tokens an hour per
// user (burst 20); 30 calls with a bad token a minute per address (burst
// 30); and the quotas' (quotas.go): a chat message a second per player and
// game (burst 10), 20 new reviews an hour per address (burst 10), a puzzle
// move a second per user or address (burst 30); moderation's
// (moderation.go): 10 reports an hour per user (burst 10) and 30 per
// address (burst 30); 5 clubs created per user, then one every 4 hours;
// 5 tournaments created per user, then one an hour; 30 players
// followed per user, then one a minute; and 10 changes of one's half-point
// byes per user, then 10 an hour. An honest player meets none of
// them.
var DefaultRates = Rates{
	Login: 5.0 / 60, LoginBurst: 10,
	LoginAddr: 30.0 / 60, LoginAddrBurst: 30,
	Signup: 10.0 / 3600, SignupBurst: 20,
	Command: 20, CommandBurst: 50,
	Token: 30.0 / 60, TokenBurst: 30,
	TokenUser: 20.0 / 3600, TokenUserBurst: 20,
	BadToken: 30.0 / 60, BadTokenBurst: 30,
	Chat: 1, ChatBurst: 10,
	Review: 20.0 / 3600, ReviewBurst: 10,
	Puzzle: 1, PuzzleBurst: 30,
	Report: 10.0 / 3600, ReportBurst: 10,
	ReportAddr: 30.0 / 3600, ReportAddrBurst: 30,
	Club: 1.0 / (4 * 3600), ClubBurst: 5,
	Tournament: 1.0 / 3600, TournamentBurst: 5,
	Follow: 1.0 / 60, FollowBurst: 30,
	HalfBye: 10.0 / 3600, HalfByeBurst: 10,
	MaxKeys: 100000,
}

// NoRates lifts every rate limit: for load tests (morris serve -no-limits).
var NoRates = func() Rates {
	var r Rates
	for _, kind := range kinds {
		rate, burst := r.pair(kind)
		*rate, *burst = 1e6, 1e6
	}
	return r
}()

// withDefaults fills the zero pairs of r from DefaultRates.
func (r Rates) withDefaults() Rates {
	d := DefaultRates
	for _, kind := range kinds {
		rate, burst := r.pair(kind)
		if *rate == 0 && *burst == 0 {
			dr, db := d.pair(kind)
			*rate, *burst = *dr, *db
		}
	}
	if r.MaxKeys <= 0 {
		r.MaxKeys = d.MaxKeys
	}
	return r
}

// pair returns the rate and the burst of kind in r: the one place that
// ties a kind to its fields.
func (r *Rates) pair(kind string) (rate, burst *float64) {
	switch kind {
	case kindLogin:
		return &r.Login, &r.LoginBurst
	case kindLoginAddr:
		return &r.LoginAddr, &r.LoginAddrBurst
	case kindSignup:
		return &r.Signup, &r.SignupBurst
	case kindToken:
		return &r.Token, &r.TokenBurst
	case kindTokenUser:
		return &r.TokenUser, &r.TokenUserBurst
	case kindBadToken:
		return &r.BadToken, &r.BadTokenBurst
	case kindChat:
		return &r.Chat, &r.ChatBurst
	case kindReview:
		return &r.Review, &r.ReviewBurst
	case kindPuzzle:
		return &r.Puzzle, &r.PuzzleBurst
	case kindReport:
		return &r.Report, &r.ReportBurst
	case kindReportAddr:
		return &r.ReportAddr, &r.ReportAddrBurst
	case kindClub:
		return &r.Club, &r.ClubBurst
	case kindTournament:
		return &r.Tournament, &r.TournamentBurst
	case kindFollow:
		return &r.Follow, &r.FollowBurst
	case kindHalfBye:
		return &r.HalfBye, &r.HalfByeBurst
	default:
		return &r.Command, &r.CommandBurst
	}
}

// The kinds of bucket. A kind is one of these constants, never text from
// a client.
const (
	kindLogin      = "login"      // address and name
	kindLoginAddr  = "login-addr" // address
	kindSignup     = "signup"
	kindCommand    = "command"
	kindToken      = "token"       // address
	kindTokenUser  = "token-user"  // user id
	kindBadToken   = "bad-token"   // address
	kindChat       = "chat"        // user and game (quotas.go)
	kindReview     = "review"      // address (quotas.go)
	kindPuzzle     = "puzzle"      // user, or address (quotas.go)
	kindReport     = "report"      // user (moderation.go)
	kindReportAddr = "report-addr" // address (moderation.go)
	kindClub       = "club"        // user (clubs.go)
	kindTournament = "tournament"  // user (tournaments.go)
	kindFollow     = "follow"      // user (friends.go)
	kindHalfBye    = "half-bye"    // user (tournaments.go)
)

// kinds are all the kinds of bucket.
var kinds = []string{kindLogin, kindLoginAddr, kindSignup, kindCommand, kindToken, kindTokenUser, kindBadToken, kindChat, kindReview, kindPuzzle,
	kindReport, kindReportAddr, kindClub, kindTournament, kindFollow, kindHalfBye}

// limiters are token buckets by kind and key. They live in one process's
// memory, which is right for them: they protect this process, and a
// restart forgives. A key is kept as a 64-bit hash under a seed of this
// process, so an entry has the same small size whatever the key's text;
// the number of entries is bounded by Rates.MaxKeys.
type limiters struct {
	rates Rates
	seed  maphash.Seed
	now   func() time.Time
	// refused is told the kind of each refusal (the metrics); may be nil.
	refused func(kind string)

	mu      sync.Mutex
	m       map[limitKey]*bucket
	calls   int
	evicted int // buckets dropped with tokens spent, because the map was full
}

type limitKey struct {
	kind string
	h    uint64
}

// bucket is a token bucket: tokens at the time last.
type bucket struct {
	tokens float64
	last   time.Time
	rate   float64
	burst  float64
}

// fill brings the bucket to now.
func (b *bucket) fill(now time.Time) {
	if d := now.Sub(b.last); d > 0 {
		b.tokens = min(b.burst, b.tokens+d.Seconds()*b.rate)
		b.last = now
	}
}

func (b *bucket) full() bool { return b.tokens >= b.burst }

// wait is the time until the bucket has a token again.
func (b *bucket) wait() time.Duration {
	if b.rate <= 0 {
		return time.Hour
	}
	return time.Duration((1 - b.tokens) / b.rate * float64(time.Second))
}

func newLimiters(r Rates) *limiters {
	return &limiters{rates: r.withDefaults(), seed: maphash.MakeSeed(), now: time.Now, m: map[limitKey]*bucket{}}
}

func (ls *limiters) rateOf(kind string) (float64, float64) {
	rate, burst := ls.rates.pair(kind)
	return *rate, *burst
}

// bucket returns the bucket of kind and key, filled to now; ls.mu is held.
// create false returns nil for a key without a bucket (a full one).
func (ls *limiters) bucket(kind, key string, now time.Time, create bool) *bucket {
	k := limitKey{kind: kind, h: maphash.String(ls.seed, key)}
	b := ls.m[k]
	if b == nil {
		if !create {
			return nil
		}
		if len(ls.m) >= ls.rates.MaxKeys {
			ls.shrink(now)
		}
		r, burst := ls.rateOf(kind)
		b = &bucket{tokens: burst, last: now, rate: r, burst: burst}
		ls.m[k] = b
	}
	b.fill(now)
	if ls.calls++; ls.calls%4096 == 0 {
		ls.dropFull(now)
	}
	return b
}

// dropFull forgets the buckets that have filled up again: they are the
// same as no bucket.
func (ls *limiters) dropFull(now time.Time) {
	for k, b := range ls.m {
		if b.fill(now); b.full() {
			delete(ls.m, k)
		}
	}
}

// shrink makes room when the map is at its bound: the full buckets go,
// then, if that was not enough, an eighth of the rest (map order is
// random). Dropping a spent bucket forgives its key, which is the price
// of bounded memory when more keys than MaxKeys spend at once.
func (ls *limiters) shrink(now time.Time) {
	ls.dropFull(now)
	if len(ls.m) < ls.rates.MaxKeys {
		return
	}
	n := max(1, len(ls.m)/8)
	for k := range ls.m {
		delete(ls.m, k)
		ls.evicted++
		if n--; n == 0 {
			break
		}
	}
}

// allow spends one token of kind and key and reports whether it had one.
func (ls *limiters) allow(kind, key string) bool {
	ok, _ := ls.spend(kind, key)
	return ok
}

// spend spends one token of kind and key; without one it says how long
// until there is one (for a Retry-After).
func (ls *limiters) spend(kind, key string) (bool, time.Duration) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	b := ls.bucket(kind, key, ls.now(), true)
	if b.tokens < 1 {
		if ls.refused != nil {
			ls.refused(kind)
		}
		return false, b.wait()
	}
	b.tokens--
	return true, 0
}

// limited spends a token of kind and key, or returns a TooMany error
// with msg and the time until the next token.
func (ls *limiters) limited(kind, key, msg string) error {
	if ok, wait := ls.spend(kind, key); !ok {
		return &Error{Kind: TooMany, Msg: msg, RetryAfter: wait}
	}
	return nil
}

// peek reports whether kind and key have a token, without spending it
// (and without making a bucket for a key that has none).
func (ls *limiters) peek(kind, key string) bool {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	b := ls.bucket(kind, key, ls.now(), false)
	return b == nil || b.tokens >= 1
}

// refund gives back a token spent by allow (a sign-in that turned out
// right).
func (ls *limiters) refund(kind, key string) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if b := ls.bucket(kind, key, ls.now(), false); b != nil {
		b.tokens = min(b.burst, b.tokens+1)
	}
}

// size is the number of buckets kept, and how many spent ones were
// dropped for room.
func (ls *limiters) size() (int, int) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	return len(ls.m), ls.evicted
}

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
// calls. A token revoked, here or through another process sharing the
// database, is forgotten at once (account.go says how); a token that
// expires works at most tokenCacheTTL past its expiry.
type tokenCache struct {
	mu  sync.Mutex
	m   map[string]tokenEntry
	gen uint64 // revocations seen (account.go: putIf)
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
