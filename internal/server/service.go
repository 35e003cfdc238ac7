package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/morrisgame/morris/egdb"
	"github.com/morrisgame/morris/internal/server/auth"
	"github.com/morrisgame/morris/internal/server/store"
	"github.com/morrisgame/morris/search"
)

// Config configures a Service. Zero fields take the defaults.
type Config struct {
	Store  *store.Store
	Logger *slog.Logger
	// Now gives the time (time.Now by default); tests pass their own to
	// step the correspondence timers.
	Now func() time.Time
	// Hash are the argon2id parameters of new passwords (auth.Default).
	Hash auth.Params
	// TokenTTL is how long an API token lasts (30 days).
	TokenTTL time.Duration
	// EngineWorkers is how many engine searches may run at once (games
	// against the engine wait their turn beyond that): by default one less
	// than the processors, at least one, so that games between people
	// always have a processor.
	EngineWorkers int
	// EngineHashMB is the transposition table of each engine worker and
	// of the analysis board's engine, in MiB: 64, the Hash of `morris
	// engine`, so that the site's engine is as strong. The engine's
	// memory is EngineWorkers+1 tables.
	EngineHashMB int
	// FlagSweepEvery is how often a process sharing a PostgreSQL database
	// with others looks for real-time games whose flag no timer took (1 s;
	// timers.go).
	FlagSweepEvery time.Duration
	// EngineLease is how long an engine move taken by a process stays
	// its own (30 s): a process that dies in the middle of the search
	// leaves the move to another after that (engine.go). Longer than any
	// search of the server, which stops after 10 s.
	EngineLease time.Duration
	// Tablebase is the endgame databases that every search probes, the
	// engine's moves and the analyses alike, in the games of rules they
	// cover (Covers): the sector files of morris solve (an *egdb.DB) or a
	// compact file of wins, draws and losses (an *egdb.Compact); nil for
	// none.
	Tablebase egdb.Perfect
	// SweepEvery is how often the correspondence timers are checked (1 minute).
	SweepEvery time.Duration
	// PollEvery is how often the process looks in the store for changes
	// to the games its streams watch that no event brought (2 s): with
	// other processes sharing the database, a notification lost while the
	// relay's connection was down. One query for all the games.
	PollEvery time.Duration
	// ExploreEvery is how often the opening explorer looks for finished
	// games not yet explored (10 s); a game that ends in this process is
	// explored at once.
	ExploreEvery time.Duration
	// ReviewLimits bound the engine's searches of a game review, two a
	// move (250 ms each by default).
	ReviewLimits search.Limits
	// ReviewPollEvery is how often a process looks for reviews asked for
	// through another process (2 s); one asked for here starts at once.
	ReviewPollEvery time.Duration
	// KeepAlive is the interval of keep-alive lines on streams (7 s).
	KeepAlive time.Duration
	// ClaimAfter is how long the opponent must have been silent on their
	// turn before a player may claim victory in a game without a clock
	// (60 s); in real-time games the clock decides and in correspondence
	// games the forfeit.
	ClaimAfter time.Duration
	// Metrics receives the service's measurements (nil: none).
	Metrics *Metrics
	// Rates limit sign-ins and commands (see DefaultRates).
	Rates Rates
	// HashWorkers bounds the argon2id hashes and checks running at once
	// (sign-ups, sign-ins): by default the processors. HashWait is how
	// long a sign-in waits for one (5 s: a queue of sign-ins on a busy
	// machine is served, a flood is not) before it is answered 503.
	HashWorkers int
	HashWait    time.Duration
	// Quotas bound chat, offers, analyses, reviews and vacations
	// (quotas.go), and what one user or address holds at once:
	// connections, games against the engine, open challenges, and how
	// long those wait (held.go). Zero fields take DefaultQuotas'.
	Quotas Quotas
	// PresenceEvery is how often the process writes to the store when its
	// players were seen (10 s), and OnlineWindow how long after their
	// last call a player without a live connection is online (5
	// minutes): presence.go.
	PresenceEvery time.Duration
	OnlineWindow  time.Duration
	// LeaderboardEvery is how long a process serves a preset's
	// leaderboard before it reads it again (30 s): leaderboard.go.
	LeaderboardEvery time.Duration
	// AnalysisPollEvery is how often an analysis handed to another
	// process looks in the store for its answer (1 s): only a safety net,
	// since the answer's notification wakes it at once.
	AnalysisPollEvery time.Duration
	// TournamentSweepEvery is how often the tournament director looks in
	// the store for the events it is due to start, pair or end that no
	// game's end woke it for (2 s; director.go).
	TournamentSweepEvery time.Duration

	hooks testHooks // the tests' ways to make background work panic (recover.go)
}

// Service is the game service: it owns games, players and their rules;
// every gateway (pbmserv text commands, the HTTP API, streams, WebSocket)
// is a thin layer over it. Each game's changes are serialised by one owner
// at a time, checked by the rules core, stored, then announced. Everything
// that matters is in the store: the owners are caches, so a restarted
// process, or another process on the same PostgreSQL, goes on from there.
type Service struct {
	cfg     Config
	st      *store.Store
	log     *slog.Logger
	now     func() time.Time
	hub     *hub
	metrics *Metrics
	limits  *limiters

	mu     sync.Mutex
	owners map[int64]*owner

	engine   *enginePool
	engineID int64 // the engine's user
	analysis analyst

	pw       pwCache
	tokens   tokenCache
	sessions sessions // the streams opened with a token (account.go)
	// hashSlots holds a token for each argon2id hash running (hashing).
	hashSlots chan struct{}
	quota     quotaState // the counts of the quotas (quotas.go)
	// conns counts the long-lived connections by address (held.go);
	// quotaLocks serialise a user's check of a quota and what it allows.
	conns      *Conns
	quotaLocks userLocks
	// process names this process among those sharing the store (random):
	// the origin of its relayed events, the holder of its engine jobs.
	process string
	// shared: the store may be shared with other processes (PostgreSQL),
	// so an owner checks its copy against the stored version before use.
	shared bool
	// exploreKick wakes the opening explorer (explorer.go), reviewKick
	// the review worker (review.go).
	exploreKick, reviewKick chan struct{}
	// dir wakes the tournament director and the events' streams (director.go).
	dir directorState
	// blockGen counts the blocks made and lifted in this process, so
	// that a stream's chat mask looks them up again (blocks.go).
	blockGen atomic.Uint64
	// presence is who was seen lately (presence.go); leaderboards the
	// leaderboards read lately (leaderboard.go).
	presence     presence
	leaderboards leaderboards

	ctx       context.Context // cancelled by Close
	cancel    context.CancelFunc
	closeOnce sync.Once
	wg        sync.WaitGroup
	// streams ends the streams (CloseStreams), before the rest stops.
	streams     context.Context
	stopStreams context.CancelFunc
}

// New returns a service over cfg.Store. Call Start to resume the games in
// the store and run the timers, and Close to stop.
func New(cfg Config) (*Service, error) {
	if cfg.Store == nil {
		return nil, errors.New("server: no store")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Hash == (auth.Params{}) {
		cfg.Hash = auth.Default
	}
	if cfg.TokenTTL == 0 {
		cfg.TokenTTL = 30 * 24 * time.Hour
	}
	if cfg.EngineWorkers <= 0 {
		cfg.EngineWorkers = max(1, runtime.GOMAXPROCS(0)-1)
	}
	if cfg.EngineHashMB <= 0 {
		cfg.EngineHashMB = 64
	}
	if cfg.FlagSweepEvery <= 0 {
		cfg.FlagSweepEvery = time.Second
	}
	if cfg.EngineLease <= 0 {
		cfg.EngineLease = 30 * time.Second
	}
	if cfg.SweepEvery == 0 {
		cfg.SweepEvery = time.Minute
	}
	if cfg.ReviewLimits == (search.Limits{}) {
		cfg.ReviewLimits = search.Limits{MoveTime: 250 * time.Millisecond}
	}
	if cfg.ReviewPollEvery == 0 {
		cfg.ReviewPollEvery = 2 * time.Second
	}
	if cfg.ExploreEvery == 0 {
		cfg.ExploreEvery = 10 * time.Second
	}
	if cfg.PollEvery == 0 {
		cfg.PollEvery = 2 * time.Second
	}
	if cfg.KeepAlive == 0 {
		cfg.KeepAlive = 7 * time.Second
	}
	if cfg.ClaimAfter == 0 {
		cfg.ClaimAfter = time.Minute
	}
	if cfg.HashWorkers <= 0 {
		cfg.HashWorkers = runtime.GOMAXPROCS(0)
	}
	if cfg.HashWait <= 0 {
		cfg.HashWait = 5 * time.Second
	}
	cfg.Quotas = cfg.Quotas.withDefaults()
	if cfg.AnalysisPollEvery <= 0 {
		cfg.AnalysisPollEvery = time.Second
	}
	if cfg.PresenceEvery <= 0 {
		cfg.PresenceEvery = 10 * time.Second
	}
	if cfg.OnlineWindow <= 0 {
		cfg.OnlineWindow = 5 * time.Minute
	}
	if cfg.LeaderboardEvery <= 0 {
		cfg.LeaderboardEvery = 30 * time.Second
	}
	if cfg.TournamentSweepEvery <= 0 {
		cfg.TournamentSweepEvery = 2 * time.Second
	}
	ctx, cancel := context.WithCancel(context.Background())
	streams, stopStreams := context.WithCancel(ctx)
	s := &Service{streams: streams, stopStreams: stopStreams, shared: cfg.Store.Backend() == "postgres", exploreKick: make(chan struct{}, 1), reviewKick: make(chan struct{}, 1),
		cfg: cfg, st: cfg.Store, log: cfg.Logger, now: cfg.Now, hub: newHub(), metrics: cfg.Metrics,
		limits: newLimiters(cfg.Rates), owners: map[int64]*owner{}, ctx: ctx, cancel: cancel,
		process: processName(), analysis: newAnalyst(), hashSlots: make(chan struct{}, cfg.HashWorkers),
		conns: newConns(cfg.Quotas.ConnsPerAddr), presence: newPresence(), dir: newDirectorState(),
	}
	s.limits.refused = s.metrics.limited
	return s, nil
}

// EngineName is the user name of the built-in engine.
const EngineName = "engine"

// Start makes sure the engine has its account, resumes every active game
// of the store (real-time clocks armed, the engine's turns queued) and
// starts the correspondence sweeper and the engine workers.
func (s *Service) Start(ctx context.Context) error {
	s.startRelay()
	u, err := s.st.UserByName(ctx, EngineName)
	if errors.Is(err, store.ErrNotFound) {
		// The engine's password is random and thrown away: nobody signs in as it.
		pw, _, err := auth.NewToken()
		if err != nil {
			return err
		}
		h, err := auth.Hash(pw, auth.Test)
		if err != nil {
			return err
		}
		u, err = s.st.CreateUser(ctx, store.User{Name: EngineName, PasswordHash: h, Bot: true})
		if errors.Is(err, store.ErrDuplicate) { // another process made it meanwhile
			u, err = s.st.UserByName(ctx, EngineName)
		}
		if err != nil {
			return fmt.Errorf("server: the engine's account: %w", err)
		}
	} else if err != nil {
		return fmt.Errorf("server: the engine's account: %w", err)
	}
	s.engineID = u.ID
	s.engine = newEnginePool(s, s.cfg.EngineWorkers)

	games, err := s.st.Games(ctx, store.GameQuery{Status: store.Active})
	if err != nil {
		return fmt.Errorf("server: resuming games: %w", err)
	}
	for _, g := range games {
		o := s.owner(g.ID)
		o.lock()
		err := o.load(ctx)
		if err == nil {
			s.afterChange(o)
		}
		o.mu.Unlock()
		if err != nil {
			s.log.Error("resuming a game", "game", g.ID, "err", err)
		}
	}
	s.log.Info("games resumed", "active", len(games))
	s.metrics.activeGames(len(games))
	if err := s.backfillRatingHistory(ctx); err != nil {
		return fmt.Errorf("server: the rating history of the games rated before it: %w", err)
	}
	s.wg.Add(5)
	go s.presenceWriter()
	go s.every("correspondence sweep", s.cfg.SweepEvery, s.sweepTimers)
	go s.explorer()
	go s.reviewer()
	go s.director()
	if s.shared {
		s.wg.Add(3)
		go s.every("stream poll", s.cfg.PollEvery, s.pollStreams)
		go s.every("flag sweep", s.cfg.FlagSweepEvery, s.sweepFlags)
		go s.analysisWorker()
	}
	return nil
}

// CloseStreams ends every stream: the first step of a graceful shutdown,
// so that the HTTP server's Shutdown does not wait for them (clients
// reconnect to another process, or later, and catch up).
func (s *Service) CloseStreams() { s.stopStreams() }

// Close stops the streams, the timers, the sweeper and the engine, and
// waits for them. It does not close the store. Calls after the first do
// nothing.
func (s *Service) Close() {
	s.closeOnce.Do(s.close)
}

func (s *Service) close() {
	s.cancel()
	if s.engine != nil {
		s.engine.close()
	}
	// Each timer is stopped under its owner's lock, which a timer that
	// fires meanwhile takes to re-arm itself; not under s.mu, which the
	// holder of an owner's lock may wait for (forget).
	s.mu.Lock()
	owners := slices.Collect(maps.Values(s.owners))
	s.mu.Unlock()
	for _, o := range owners {
		o.mu.Lock()
		o.stopTimer()
		o.mu.Unlock()
	}
	s.wg.Wait()
}

// Store returns the service's store.
func (s *Service) Store() *store.Store { return s.st }

// User is an account as the gateways see it.
type User struct {
	ID   int64
	Name string
	Bot  bool
}

func userOf(u store.User) User { return User{ID: u.ID, Name: u.Name, Bot: u.Bot} }

// Limits of names and passwords (the pbmserv syntax has the same).
const (
	MinName     = 2
	MaxName     = 20
	MinPassword = 8 // for new passwords; older, shorter ones still sign in
	MaxPassword = 128
)

// ValidName reports whether name can be a user name: 2 to 20 letters,
// digits, _ or -, starting with a letter (pbmserv's user ids).
func ValidName(name string) error {
	if len(name) < MinName || len(name) > MaxName {
		return errorf(BadRequest, "a user name has %d to %d characters", MinName, MaxName)
	}
	for i, r := range name {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && (r >= '0' && r <= '9' || r == '_' || r == '-')
		if !ok {
			return errorf(BadRequest, "a user name is letters, digits, _ and -, starting with a letter: %q", name)
		}
	}
	return nil
}

func validPassword(pw string) error {
	if len(pw) < MinPassword || len(pw) > MaxPassword {
		return errorf(BadRequest, "a password has %d to %d bytes", MinPassword, MaxPassword)
	}
	if strings.ContainsAny(pw, " \t\r\n") {
		return errorf(BadRequest, "a password has no spaces")
	}
	return nil
}

// SignUp creates an account. from identifies the caller for rate limits
// (an address).
func (s *Service) SignUp(ctx context.Context, from, name, password, email string) (User, error) {
	if !s.limits.allow("signup", from) {
		return User{}, errorf(TooMany, "too many sign-ups from here: try again later")
	}
	if err := ValidName(name); err != nil {
		return User{}, err
	}
	if strings.EqualFold(name, EngineName) || strings.EqualFold(name, "ai") {
		// "ai" would be unreachable: /api/challenge/ai challenges the engine.
		return User{}, errorf(Conflict, "the name %q is taken", name)
	}
	if strings.HasPrefix(strings.ToLower(name), GuestPrefix) {
		return User{}, errorf(BadRequest, "names starting with %q are for guests", GuestPrefix)
	}
	if strings.HasPrefix(strings.ToLower(name), DeletedPrefix) {
		return User{}, errorf(BadRequest, "names starting with %q are those of deleted accounts", DeletedPrefix)
	}
	if err := validPassword(password); err != nil {
		return User{}, err
	}
	if len(email) > 254 || strings.ContainsAny(email, " \t\r\n") || (email != "" && !strings.Contains(email, "@")) {
		return User{}, errorf(BadRequest, "%q is not an e-mail address", email)
	}
	var h string
	err := s.hashing(ctx, func() (err error) {
		h, err = auth.Hash(password, s.cfg.Hash)
		return err
	})
	if err != nil {
		return User{}, err
	}
	u, err := s.st.CreateUser(ctx, store.User{Name: name, PasswordHash: h, Email: email})
	if errors.Is(err, store.ErrDuplicate) {
		return User{}, errorf(Conflict, "the name %q is taken", name)
	}
	if err != nil {
		return User{}, err
	}
	s.log.Info("signed up", "user", u.ID, "name", u.Name)
	return userOf(u), nil
}

// Login checks a name and password (each pbmserv command carries them).
// from identifies the caller (an address) for the limits of failed
// sign-ins, by address and by address and name. A guess spends a token of
// both before the password is checked, so that parallel guesses are
// bounded as well as successive ones, and a right password gives them
// back; a password remembered as right (pwCache) spends nothing, but is
// only looked at while the caller has tokens, so the cache is no oracle.
func (s *Service) Login(ctx context.Context, from, name, password string) (User, error) {
	if err := ValidName(name); err != nil {
		return User{}, err
	}
	key := from + "\x00" + strings.ToLower(name)
	const busy = "too many failed sign-ins: try again later"
	if !s.limits.peek(kindLoginAddr, from) || !s.limits.peek(kindLogin, key) {
		return User{}, errorf(TooMany, busy)
	}
	u, err := s.st.UserByName(ctx, name)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return User{}, err
	}
	found := err == nil && !u.Bot
	if found && s.pw.ok(u, password) {
		return s.signedIn(u)
	}
	if err := s.limits.limited(kindLoginAddr, from, busy); err != nil {
		return User{}, err
	}
	if err := s.limits.limited(kindLogin, key, busy); err != nil {
		s.limits.refund(kindLoginAddr, from)
		return User{}, err
	}
	if found && len(password) <= MaxPassword {
		err := s.hashing(ctx, func() error { return auth.Verify(password, u.PasswordHash) })
		if err == nil || !errors.Is(err, auth.ErrMismatch) {
			// Right, or not checked (busy, cancelled): not a failure of the caller's.
			s.limits.refund(kindLoginAddr, from)
			s.limits.refund(kindLogin, key)
		}
		if err == nil {
			s.pw.remember(u, password)
			return s.signedIn(u)
		}
		if !errors.Is(err, auth.ErrMismatch) {
			return User{}, err
		}
	}
	return User{}, errorf(Unauthorized, "wrong user id or password")
}

// signedIn is the user whose password was right, unless a moderator
// closed the account (moderation.go): the right password of a closed
// account is told so, and a wrong one only that it is wrong. A player
// signed in is seen (presence.go).
func (s *Service) signedIn(u store.User) (User, error) {
	if !u.ClosedAt.IsZero() {
		return User{}, closedError(u.Name)
	}
	s.seenNow(userOf(u))
	return userOf(u), nil
}

// hashing runs fn, an argon2id hash or check, when one of the process's
// hashing slots is free (Config.HashWorkers): each holds its memory (19
// MiB by default) and a processor, so that a flood of sign-ins cannot take
// all the memory or starve the games. A caller waits at most
// Config.HashWait for a slot, then is told the server is busy.
func (s *Service) hashing(ctx context.Context, fn func() error) error {
	t := time.NewTimer(s.cfg.HashWait)
	defer t.Stop()
	select {
	case s.hashSlots <- struct{}{}:
	case <-t.C:
		s.metrics.hashBusy()
		return &Error{Kind: Unavailable, Msg: "the server is busy with other sign-ins: try again in a moment", RetryAfter: time.Second}
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-s.hashSlots }()
	return fn()
}

// NewToken signs in with a name and password and returns a new API token.
// from (an address) is limited in token requests, right or wrong, and the
// user in tokens made.
func (s *Service) NewToken(ctx context.Context, from, name, password string) (string, time.Time, User, error) {
	if err := ValidName(name); err != nil {
		return "", time.Time{}, User{}, err
	}
	if err := s.limits.limited(kindToken, from, "too many sign-ins from here: try again later"); err != nil {
		return "", time.Time{}, User{}, err
	}
	u, err := s.Login(ctx, from, name, password)
	if err != nil {
		return "", time.Time{}, User{}, err
	}
	if err := s.limits.limited(kindTokenUser, strconv.FormatInt(u.ID, 10), "too many sign-ins to this account lately: try again later"); err != nil {
		return "", time.Time{}, User{}, err
	}
	tok, hash, err := auth.NewToken()
	if err != nil {
		return "", time.Time{}, User{}, err
	}
	now := s.now()
	exp := now.Add(s.cfg.TokenTTL)
	if err := s.st.CreateToken(ctx, store.Token{Hash: hash, User: u.ID, CreatedAt: now, ExpiresAt: exp}); err != nil {
		return "", time.Time{}, User{}, err
	}
	return tok, exp, u, nil
}

// Authenticate returns the user of an API token. from (an address) pays
// for tokens that are not: a caller out of that budget is refused before
// the store is asked, so guessing tokens or replaying expired ones costs
// the server a map lookup.
func (s *Service) Authenticate(ctx context.Context, from, token string) (User, error) {
	const busy = "too many calls with a token that is not valid: sign in again"
	if token == "" || len(token) > 200 {
		if err := s.limits.limited(kindBadToken, from, busy); err != nil {
			return User{}, err
		}
		return User{}, errorf(Unauthorized, "no valid token")
	}
	hash := auth.TokenHash(token)
	now := s.now()
	if u, ok := s.tokens.get(hash, now); ok {
		s.seenNow(u)
		return u, nil
	}
	if !s.limits.peek(kindBadToken, from) {
		return User{}, errorf(TooMany, busy)
	}
	gen := s.tokens.generation() // before the read: account.go
	su, err := s.st.UserByToken(ctx, hash, now)
	if errors.Is(err, store.ErrNotFound) {
		s.limits.allow(kindBadToken, from)
		return User{}, errorf(Unauthorized, "no valid token")
	}
	if err != nil {
		return User{}, err
	}
	u := userOf(su)
	s.tokens.putIf(hash, u, now, gen)
	s.seenNow(u)
	return u, nil
}

// RevokeToken deletes a token (signing out), on every process.
func (s *Service) RevokeToken(ctx context.Context, token string) error {
	s.tokens.drop(auth.TokenHash(token))
	err := s.st.DeleteToken(ctx, auth.TokenHash(token))
	if errors.Is(err, store.ErrNotFound) {
		return errorf(Unauthorized, "no valid token")
	}
	if err == nil {
		s.tokensRevoked(ctx, 0, "", auth.TokenHash(token))
	}
	return err
}

// sweepTokens deletes the expired tokens (with the correspondence sweep):
// the table does not grow with tokens nobody uses.
func (s *Service) sweepTokens() {
	ctx, cancel := context.WithTimeout(s.ctx, time.Minute)
	defer cancel()
	n, err := s.st.DeleteExpiredTokens(ctx, s.now())
	switch {
	case err != nil && s.ctx.Err() == nil:
		s.log.Error("deleting expired tokens", "err", err)
	case n > 0:
		s.log.Info("expired tokens deleted", "n", n)
	}
}

// Limiters reports the rate limits' buckets kept in memory (at most
// Rates.MaxKeys) and how many spent ones were dropped to keep them so.
func (s *Service) Limiters() (buckets, dropped int) { return s.limits.size() }

// Allow spends one token of the command rate of a caller (a user id or
// an address) and reports whether it had one.
func (s *Service) Allow(key string) bool { return s.limits.allow("command", key) }

// UserByName returns a user.
func (s *Service) UserByName(ctx context.Context, name string) (User, error) {
	u, err := s.st.UserByName(ctx, name)
	if errors.Is(err, store.ErrNotFound) {
		return User{}, errorf(NotFound, "no user %q", name)
	}
	if err != nil {
		return User{}, err
	}
	return userOf(u), nil
}

// Vacation suspends the user's correspondence timers from now for days:
// one vacation at a time, within the yearly total (quotas.go).
func (s *Service) Vacation(ctx context.Context, user User, days int) (time.Time, time.Time, error) {
	if days < 1 || days > MaxVacation {
		return time.Time{}, time.Time{}, errorf(BadRequest, "a vacation is 1 to %d days", MaxVacation)
	}
	s.quota.vacations.Lock()
	defer s.quota.vacations.Unlock()
	from := s.now()
	if err := s.checkVacation(ctx, user, from, days); err != nil {
		return time.Time{}, time.Time{}, err
	}
	to := from.Add(time.Duration(days) * 24 * time.Hour)
	return from, to, s.st.AddVacation(ctx, store.Vacation{User: user.ID, From: from, To: to})
}

// GuestPrefix starts the names of guest accounts, which nobody else may take.
const GuestPrefix = "guest-"

// Guest makes a guest account, for playing the engine (or anyone) without
// signing up, and returns it with an API token. Its password is random and
// thrown away: the token is the guest's only key. Guests are rate limited
// as sign-ups are.
func (s *Service) Guest(ctx context.Context, from string) (User, string, time.Time, error) {
	if !s.limits.allow("signup", from) {
		return User{}, "", time.Time{}, errorf(TooMany, "too many new accounts from here: try again later")
	}
	pw, _, err := auth.NewToken()
	if err != nil {
		return User{}, "", time.Time{}, err
	}
	h, err := auth.Hash(pw, auth.Test) // never checked: nobody knows it
	if err != nil {
		return User{}, "", time.Time{}, err
	}
	var u store.User
	for range 5 {
		suffix, _, _ := auth.NewToken()
		u, err = s.st.CreateUser(ctx, store.User{Name: GuestPrefix + strings.ToLower(suffix[3:11]), PasswordHash: h})
		if !errors.Is(err, store.ErrDuplicate) {
			break
		}
	}
	if err != nil {
		return User{}, "", time.Time{}, err
	}
	tok, hash, err := auth.NewToken()
	if err != nil {
		return User{}, "", time.Time{}, err
	}
	now := s.now()
	exp := now.Add(s.cfg.TokenTTL)
	if err := s.st.CreateToken(ctx, store.Token{Hash: hash, User: u.ID, CreatedAt: now, ExpiresAt: exp}); err != nil {
		return User{}, "", time.Time{}, err
	}
	return userOf(u), tok, exp, nil
}

// processName is a random name for this process: its host name and 8
// random hex digits.
func processName() string {
	b := make([]byte, 4)
	rand.Read(b)
	host, _ := os.Hostname()
	return host + "-" + hex.EncodeToString(b)
}
