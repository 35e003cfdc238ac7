package server

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/morrisgame/morris/internal/server/auth"
)

// TestLimitersBounded: a million keys of 16 KB each, as random names in
// POST /api/token would make, keep the limiters at their bound, and the
// memory they hold does not grow with the keys' length.
func TestLimitersBounded(t *testing.T) {
	ls := newLimiters(Rates{MaxKeys: 1000})
	long := strings.Repeat("x", 16<<10)
	n := 1000000
	if testing.Short() {
		n = 100000
	}
	for i := range n {
		ls.allow(kindLogin, fmt.Sprintf("%s%d", long[:100], i)+long)
		if size, _ := ls.size(); size > 1000 {
			t.Fatalf("after %d keys: %d buckets, want at most 1000", i+1, size)
		}
	}
	// The keys are hashes: no bucket holds its key's text.
	for k := range ls.m {
		if len(k.kind) > 16 {
			t.Fatalf("a bucket keyed by %d bytes of kind", len(k.kind))
		}
	}
}

// TestLimitersForgetFull: a bucket that has filled up again is dropped
// (it is the same as none), one still spent is kept.
func TestLimitersForgetFull(t *testing.T) {
	now := time.Unix(1000, 0)
	ls := newLimiters(Rates{Login: 1, LoginBurst: 2, MaxKeys: 10})
	ls.now = func() time.Time { return now }
	for i := range 10 {
		ls.allow(kindLogin, fmt.Sprint(i))
	}
	now = now.Add(time.Minute) // all full again
	ls.allow(kindLogin, "spent")
	ls.allow(kindLogin, "spent")
	if n, evicted := ls.size(); n != 1 || evicted != 0 {
		t.Fatalf("got %d buckets (%d spent ones dropped), want 1 (0)", n, evicted)
	}
	if ls.peek(kindLogin, "spent") {
		t.Fatal("the spent bucket was forgotten")
	}
}

// TestLimitersRefund: a token given back is there again, never above the
// burst.
func TestLimitersRefund(t *testing.T) {
	ls := newLimiters(Rates{Login: 1e-9, LoginBurst: 1})
	if !ls.allow(kindLogin, "k") || ls.allow(kindLogin, "k") {
		t.Fatal("a burst of 1 gave other than one token")
	}
	ls.refund(kindLogin, "k")
	ls.refund(kindLogin, "k")
	if !ls.allow(kindLogin, "k") || ls.allow(kindLogin, "k") {
		t.Fatal("after two refunds: want exactly one token back")
	}
}

// TestParallelGuesses: 40 wrong passwords sent at once from one address
// are checked at most as often as the burst of failed sign-ins allows;
// checking before spending let every one of them through.
func TestParallelGuesses(t *testing.T) {
	s := newService(t, Config{Hash: auth.Default, Rates: Rates{Login: 1e-9, LoginBurst: 3, LoginAddr: 1e-9, LoginAddrBurst: 100}})
	signUp(t, s, "victim")
	var wrong, limited atomic.Int64
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Go(func() {
			_, err := s.Login(context.Background(), "198.51.100.1", "victim", fmt.Sprintf("guess-%d", i))
			switch KindOf(err) {
			case Unauthorized:
				wrong.Add(1)
			case TooMany:
				limited.Add(1)
			default:
				t.Errorf("guess %d: %v", i, err)
			}
		})
	}
	wg.Wait()
	if wrong.Load() > 3 || wrong.Load()+limited.Load() != 40 {
		t.Fatalf("%d guesses checked, %d refused; want at most 3 checked", wrong.Load(), limited.Load())
	}
	// Another address is not locked out, nor is the right password.
	if _, err := s.Login(context.Background(), "198.51.100.2", "victim", "secret-victim"); err != nil {
		t.Fatalf("the owner from another address: %v", err)
	}
}

// TestRightPasswordGivesBack: a right password spends nothing of the
// budget of failures: a pbmserv player who sends it with every command
// is never locked out, and a wrong one after many right ones is still
// only a failure.
func TestRightPasswordGivesBack(t *testing.T) {
	s := newService(t, Config{Rates: Rates{Login: 1e-9, LoginBurst: 2, LoginAddr: 1e-9, LoginAddrBurst: 2}})
	signUp(t, s, "player")
	ctx := context.Background()
	for i := range 50 {
		if i%10 == 0 {
			s.pw = pwCache{} // the check itself, not only the cache
		}
		if _, err := s.Login(ctx, "203.0.113.9", "player", "secret-player"); err != nil {
			t.Fatalf("sign-in %d: %v", i, err)
		}
	}
	if _, err := s.Login(ctx, "203.0.113.9", "player", "wrong-one"); KindOf(err) != Unauthorized {
		t.Fatalf("a wrong password after right ones: got %v, want wrong user id or password", err)
	}
}

// TestLoginAddrBound: rotating names from one address does not give
// fresh budgets: the failures of an address are bounded whatever names
// it tries.
func TestLoginAddrBound(t *testing.T) {
	s := newService(t, Config{Rates: Rates{Login: 1e-9, LoginBurst: 10, LoginAddr: 1e-9, LoginAddrBurst: 5}})
	ctx := context.Background()
	refused := 0
	for i := range 20 {
		_, err := s.Login(ctx, "198.51.100.3", fmt.Sprintf("name%d", i), "password")
		if KindOf(err) == TooMany {
			refused++
		}
	}
	if refused != 15 {
		t.Fatalf("%d of 20 refused, want 15 (a burst of 5 failures per address)", refused)
	}
	if _, err := s.Login(ctx, "198.51.100.4", "name1", "password"); KindOf(err) != Unauthorized {
		t.Fatalf("another address: got %v, want wrong user id or password", err)
	}
}

// TestLoginValidatesName: a name that cannot be a user's is refused before
// anything is spent or looked up.
func TestLoginValidatesName(t *testing.T) {
	s := newService(t, Config{})
	before, _ := s.limits.size()
	for _, name := range []string{"", "x", strings.Repeat("a", 16<<10), "bad name", "ünïcode"} {
		if _, err := s.Login(context.Background(), "198.51.100.5", name, "password"); KindOf(err) != BadRequest {
			t.Errorf("name %.20q: got %v, want a bad request", name, err)
		}
	}
	if after, _ := s.limits.size(); after != before {
		t.Errorf("bad names made %d buckets", after-before)
	}
}

// TestHashingBounded: no more argon2id hashes run at once than
// HashWorkers; one that finds no slot within HashWait is told the server
// is busy (503) instead of holding its memory.
func TestHashingBounded(t *testing.T) {
	s := newService(t, Config{HashWorkers: 2, HashWait: 30 * time.Millisecond})
	var running, peak, busy atomic.Int64
	var wg sync.WaitGroup
	for range 10 {
		wg.Go(func() {
			err := s.hashing(context.Background(), func() error {
				n := running.Add(1)
				for {
					p := peak.Load()
					if n <= p || peak.CompareAndSwap(p, n) {
						break
					}
				}
				time.Sleep(100 * time.Millisecond)
				running.Add(-1)
				return nil
			})
			if KindOf(err) == Unavailable {
				busy.Add(1)
				if RetryAfter(err) < 1 {
					t.Errorf("busy without a Retry-After")
				}
			} else if err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if peak.Load() > 2 {
		t.Errorf("%d hashes at once, want at most 2", peak.Load())
	}
	if busy.Load() == 0 {
		t.Errorf("10 hashes of 100 ms on 2 slots with 30 ms of waiting: none told busy")
	}
}

// TestSignInsThroughHashGate: real sign-ins with the real argon2id cost,
// many at once, all succeed when they can wait (the gate queues them), and
// the right ones refund their failure tokens.
func TestSignInsThroughHashGate(t *testing.T) {
	s := newService(t, Config{Hash: auth.Default, HashWorkers: 1, HashWait: time.Minute})
	signUp(t, s, "many")
	var wg sync.WaitGroup
	for i := range 6 {
		wg.Go(func() {
			if _, err := s.Login(context.Background(), fmt.Sprintf("192.0.2.%d", i), "many", "secret-many"); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
}

// TestBadTokensLimited: calls with tokens that are not valid spend the
// address's budget; past it they are refused before the store is read,
// other addresses and valid tokens are not.
func TestBadTokensLimited(t *testing.T) {
	s := newService(t, Config{Rates: Rates{BadToken: 1e-9, BadTokenBurst: 5}})
	signUp(t, s, "owner")
	ctx := context.Background()
	tok, _, _, err := s.NewToken(ctx, "192.0.2.1", "owner", "secret-owner")
	if err != nil {
		t.Fatal(err)
	}
	var kinds []Kind
	for i := range 8 {
		_, err := s.Authenticate(ctx, "198.51.100.6", fmt.Sprintf("mor_guess%d", i))
		kinds = append(kinds, KindOf(err))
	}
	want := []Kind{Unauthorized, Unauthorized, Unauthorized, Unauthorized, Unauthorized, TooMany, TooMany, TooMany}
	if fmt.Sprint(kinds) != fmt.Sprint(want) {
		t.Fatalf("got %v, want %v", kinds, want)
	}
	if _, err := s.Authenticate(ctx, "198.51.100.7", "mor_other"); KindOf(err) != Unauthorized {
		t.Fatalf("another address: got %v, want unauthorized", err)
	}
	if u, err := s.Authenticate(ctx, "192.0.2.1", tok); err != nil || u.Name != "owner" {
		t.Fatalf("a valid token: got %v, %v", u, err)
	}
}

// TestTokensPerUser: successful sign-ins for a token are limited per
// user, from any address; the check comes after the password, so nobody
// else can use up an account's budget.
func TestTokensPerUser(t *testing.T) {
	s := newService(t, Config{Rates: Rates{TokenUser: 1e-9, TokenUserBurst: 3}})
	signUp(t, s, "minter")
	signUp(t, s, "other")
	ctx := context.Background()
	for i := range 5 {
		_, _, _, err := s.NewToken(ctx, "198.51.100.8", "minter", "bad-password")
		if KindOf(err) != Unauthorized {
			t.Fatalf("wrong password %d: %v", i, err)
		}
	}
	for i := range 4 {
		_, _, _, err := s.NewToken(ctx, fmt.Sprintf("192.0.2.%d", 10+i), "minter", "secret-minter")
		if want := i < 3; (err == nil) != want {
			t.Fatalf("token %d: got %v, want success %v", i+1, err, want)
		}
		if i == 3 && KindOf(err) != TooMany {
			t.Fatalf("token 4: got %v, want too many", err)
		}
	}
	if _, _, _, err := s.NewToken(ctx, "192.0.2.20", "other", "secret-other"); err != nil {
		t.Fatalf("another user: %v", err)
	}
}

// TestTokenRequestsPerAddress: POST /api/token is limited per address,
// right or wrong.
func TestTokenRequestsPerAddress(t *testing.T) {
	s := newService(t, Config{Rates: Rates{Token: 1e-9, TokenBurst: 4}})
	signUp(t, s, "asker")
	ctx := context.Background()
	var err error
	for range 5 {
		_, _, _, err = s.NewToken(ctx, "198.51.100.9", "asker", "secret-asker")
	}
	if KindOf(err) != TooMany || RetryAfter(err) < 1 {
		t.Fatalf("the 5th token request of a burst of 4: got %v, want too many with a Retry-After", err)
	}
}

// TestExpiredTokensSwept: the sweeper deletes tokens past their expiry.
func TestExpiredTokensSwept(t *testing.T) {
	now := time.Now()
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	s := newService(t, Config{Now: clock, TokenTTL: time.Hour, SweepEvery: time.Hour})
	signUp(t, s, "leaver")
	ctx := context.Background()
	for range 3 {
		if _, _, _, err := s.NewToken(ctx, "192.0.2.30", "leaver", "secret-leaver"); err != nil {
			t.Fatal(err)
		}
	}
	mu.Lock()
	now = now.Add(2 * time.Hour)
	mu.Unlock()
	s.sweepTimers()
	if n, err := s.st.DeleteExpiredTokens(ctx, clock()); err != nil || n != 0 {
		t.Fatalf("after the sweep %d expired tokens were left (%v), want 0", n, err)
	}
}

// TestEveryKindHasRates: each kind of bucket has a default and is lifted
// by NoRates; a zero pair takes the default, one set is kept.
func TestEveryKindHasRates(t *testing.T) {
	set := Rates{Chat: 3, ChatBurst: 4}.withDefaults()
	for _, kind := range kinds {
		d, db := DefaultRates.pair(kind)
		n, nb := NoRates.pair(kind)
		r, rb := set.pair(kind)
		switch {
		case *d <= 0 || *db < 1:
			t.Errorf("%s: default %v a second, burst %v", kind, *d, *db)
		case *n < 1e6 || *nb < 1e6:
			t.Errorf("%s: NoRates %v, burst %v", kind, *n, *nb)
		case kind == kindChat && (*r != 3 || *rb != 4):
			t.Errorf("chat: got %v, %v; want the 3, 4 set", *r, *rb)
		case kind != kindChat && (*r != *d || *rb != *db):
			t.Errorf("%s: got %v, %v; want the default %v, %v", kind, *r, *rb, *d, *db)
		}
	}
}
