package loadgen

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"runtime/pprof"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/morrisgame/morris/mill"
)

// Config is a load to generate.
type Config struct {
	// Bases are the servers (http://host:port), several when they share a
	// database.
	Bases []string
	// Games are the games played at once, by Users players (each plays
	// about 2*Games/Users games at once).
	Games, Users int
	// Warmup is the time before the measured span: the games are made
	// meanwhile, and their moves are not measured. Duration is the
	// measured span.
	Warmup, Duration time.Duration
	// Variant is the preset played (mill.NewRules).
	Variant string
	// Seed is the seed of the moves chosen.
	Seed uint64
	// Rate is the moves a second offered in all, spread evenly over the
	// games; 0 for as fast as the servers answer.
	Rate float64
	// Streams opens a stream for every game and measures when each move
	// reaches it.
	Streams bool
	// OwnAddrs gives every user clients of its own, calling from an
	// address of its own on 127.2.0.0/16 (Linux routes all of 127.0.0.0/8
	// to the loopback), so that a server's limits by address see each
	// user as a client apart, as a club's members are: at most MaxOwnAddrs
	// users, and servers on loopback.
	OwnAddrs bool
	// CPUProfile, when not nil, receives a CPU profile of this process
	// over the measured span (runtime/pprof: there is one a process).
	CPUProfile io.Writer
}

// MaxOwnAddrs is the most users Config.OwnAddrs has addresses for.
const MaxOwnAddrs = 200 * 250

// APIConns is how many connections the calls to one server share, as
// players' requests come through a proxy's pool; each stream holds one
// of its own. (Without the bound, the burst of challenges at the start
// opened a connection for each game, 10,000 besides the 10,000 streams,
// past the server's open-file limit.)
const APIConns = 256

// Validate says what is wrong with c, if anything.
func (c Config) Validate() error {
	switch {
	case len(c.Bases) == 0:
		return errors.New("no server to drive")
	case c.Games < 1:
		return fmt.Errorf("%d games: want at least 1", c.Games)
	case c.Users < 2:
		return fmt.Errorf("%d users: want at least 2, a game's two players", c.Users)
	case c.Duration <= 0:
		return fmt.Errorf("a measured span of %v: want more than 0", c.Duration)
	case c.Warmup < 0:
		return fmt.Errorf("a warm-up of %v: want 0 or more", c.Warmup)
	case c.Rate < 0 || math.IsNaN(c.Rate):
		return fmt.Errorf("a rate of %v moves a second: want 0 (as fast as answered) or more", c.Rate)
	case c.OwnAddrs && c.Users > MaxOwnAddrs:
		return fmt.Errorf("an address of 127.2.0.0/16 for each user: at most %d users, not %d", MaxOwnAddrs, c.Users)
	}
	if _, err := mill.NewRules(c.Variant); err != nil {
		return err
	}
	return nil
}

// String describes the load in a line: the servers, the games, the users,
// the rate and the spans.
func (c Config) String() string {
	offered := "as fast as answered"
	if c.Rate > 0 {
		offered = fmt.Sprintf("%.0f moves/s offered", c.Rate)
	}
	with := ""
	if c.Streams {
		with = ", a stream a game"
	}
	return fmt.Sprintf("%s, %d games%s, %d users, %s, %s (after %s of warm-up)",
		strings.Join(c.Bases, " "), c.Games, with, c.Users, offered, c.Duration, c.Warmup)
}

// Connections is about how many connections the run holds at once at the
// most: a stream a game, and the calls' pool to each server. (With
// OwnAddrs, each user's calls have a small pool of their own instead.)
func (c Config) Connections() int {
	n := APIConns * len(c.Bases)
	if c.Streams {
		n += c.Games
	}
	return n
}

// Run generates the load c until the end of its measured span (or of
// ctx) and returns what it measured. A user that cannot sign up or in is
// an error; calls that fail during the run are counted in the Result.
func Run(ctx context.Context, c Config) (*Result, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	r := &runner{Config: c,
		client: &http.Client{Transport: &http.Transport{
			MaxConnsPerHost: APIConns, MaxIdleConns: APIConns * len(c.Bases), MaxIdleConnsPerHost: APIConns, IdleConnTimeout: time.Minute}},
		streamClient: &http.Client{Transport: &http.Transport{IdleConnTimeout: time.Minute}}}
	defer r.client.CloseIdleConnections()
	defer r.streamClient.CloseIdleConnections()
	users, err := r.signUp(ctx)
	if err != nil {
		return nil, err
	}
	return r.play(ctx, users), nil
}

// runner is a run of Run.
type runner struct {
	Config
	// client makes the calls, streamClient opens the streams.
	client, streamClient *http.Client
}

// signUp signs the users up and in, before the clock starts.
func (r *runner) signUp(ctx context.Context) ([]user, error) {
	run := fmt.Sprintf("%x", time.Now().UnixNano()&0xffffff)
	users := make([]user, r.Users)
	var firstErr error
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, 8)
	for i := range users {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			u := user{name: fmt.Sprintf("b%s_%d", run, i)}
			if r.OwnAddrs {
				u.client, u.streamClient = loopbackClients(i)
			}
			pw := "bench-password"
			err := r.setupCall(ctx, u, "/api/account", map[string]string{"name": u.name, "password": pw}, nil)
			var tok struct{ Token string }
			if err == nil {
				err = r.setupCall(ctx, u, "/api/token", map[string]string{"name": u.name, "password": pw}, &tok)
			}
			mu.Lock()
			defer mu.Unlock()
			if err != nil && firstErr == nil {
				firstErr = fmt.Errorf("setting up user %s: %w", u.name, err)
			}
			u.token = tok.Token
			users[i] = u
		}()
	}
	wg.Wait()
	return users, firstErr
}

// play plays the games of the run between users and measures them.
func (r *runner) play(ctx context.Context, users []user) *Result {
	memory := make([]ServerMemory, len(r.Bases))
	for i, base := range r.Bases {
		memory[i].Base = base
		memory[i].Before, memory[i].StreamsBefore = r.metricsOf(ctx, base)
	}
	start := time.Now()
	m := &measures{from: start.Add(r.Warmup), lats: make([][]time.Duration, r.Games)}
	m.end = m.from.Add(r.Duration)
	var cancel, scancel context.CancelFunc
	m.moves, cancel = context.WithDeadline(ctx, m.end)
	defer cancel()
	// Streams outlive the moves by a moment, for the last moves' events.
	m.streams, scancel = context.WithDeadline(ctx, m.end.Add(2*time.Second))
	defer scancel()
	if r.CPUProfile != nil {
		// The measured span only: not the sign-ups (argon2id) nor the
		// first games being made.
		t := time.AfterFunc(time.Until(m.from), func() { _ = pprof.StartCPUProfile(r.CPUProfile) })
		defer func() { t.Stop(); pprof.StopCPUProfile() }()
	}
	// The servers' memory once the games (and their streams) are going.
	var games0 int
	memDone := make(chan struct{})
	memTimer := time.AfterFunc(time.Until(m.from), func() {
		defer close(memDone)
		games0 = int(m.going.Load())
		for i, base := range r.Bases {
			memory[i].After, memory[i].Streams = r.metricsOf(ctx, base)
		}
	})
	rules := mill.MustRules(r.Variant)
	var wg sync.WaitGroup
	for i := range r.Games {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.slot(i, users, rules, m)
		}()
	}
	wg.Wait()
	if memTimer.Stop() {
		close(memDone) // the run ended before the games were going
	}
	<-memDone
	var all []time.Duration
	for _, l := range m.lats {
		all = append(all, l...)
	}
	m.seenMu.Lock()
	defer m.seenMu.Unlock()
	return &Result{Moves: int(m.moved.Load()), Games: int(m.finished.Load()), Errors: int(m.errs.Load()), Refused: int(m.refused.Load()),
		Elapsed: r.Duration, Latency: all, Seen: m.seen, SeenAcross: m.seenAcross, Missed: int(m.missed.Load()),
		Streams: r.Streams, Memory: memory, GamesGoing: games0}
}

// measures are what the games of a run count, and its spans.
type measures struct {
	from, end time.Time // the measured span
	// moves ends at the end of the measured span, streams a moment later.
	moves, streams                                context.Context
	moved, finished, errs, refused, missed, going atomic.Int64
	lats                                          [][]time.Duration // by slot
	seenMu                                        sync.Mutex
	seen, seenAcross                              []time.Duration
}

// failed counts a call that failed (not one cut short by the run's end);
// code 429 or 503 is a refusal by a limit.
func (m *measures) failed(code int) {
	if m.moves.Err() != nil {
		return
	}
	m.errs.Add(1)
	if code == http.StatusTooManyRequests || code == http.StatusServiceUnavailable {
		m.refused.Add(1)
	}
}

// slot plays game after game in the slot i of the run, between two of
// users, until the end of the measured span (or a call fails).
func (r *runner) slot(i int, users []user, rules *mill.Rules, m *measures) {
	rng := rand.New(rand.NewPCG(r.Seed, uint64(i)))
	white, black := users[(2*i)%r.Users], users[(2*i+1)%r.Users]
	if white.name == black.name {
		black = users[(2*i+2)%r.Users]
	}
	// White sends to one server, black to the next; the stream is on
	// black's.
	wBase, bBase := r.Bases[i%len(r.Bases)], r.Bases[(i+1)%len(r.Bases)]
	// Each game moves on a schedule of its own, every games/rate seconds
	// from a random start; a game behind its schedule (the server slower
	// than offered) moves at once, so throughput shows whether the server
	// keeps up.
	s := &schedule{rng: rng}
	if r.Rate > 0 {
		s.every = time.Duration(float64(r.Games) / r.Rate * float64(time.Second))
		s.due = time.Now().Add(time.Duration(rng.Int64N(int64(s.every))))
	}
	g := slotGame{i: i, white: white, black: black, wBase: wBase, bBase: bBase}
	for m.moves.Err() == nil {
		if !r.game(g, rules, s, m) {
			return
		}
	}
}

// slotGame are the players of a slot's games and their servers.
type slotGame struct {
	i            int // the slot
	white, black user
	wBase, bBase string
}

// schedule is when a slot's next move is due, every so often (0: at once).
type schedule struct {
	rng   *rand.Rand
	every time.Duration
	due   time.Time
}

// start begins the schedule of a game: the first games are made all at
// once, which is not the load measured.
func (s *schedule) start() {
	if now := time.Now(); s.due.Before(now) {
		s.due = now
		if s.every > 0 {
			s.due = s.due.Add(time.Duration(s.rng.Int64N(int64(s.every))))
		}
	}
}

// wait waits until the next move is due, or ctx ends (false).
func (s *schedule) wait(ctx context.Context) bool {
	if s.every == 0 {
		return true
	}
	if wait := time.Until(s.due); wait > 0 {
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return false
		}
	}
	s.due = s.due.Add(s.every)
	return true
}

// game plays a game of the slot g to its end or to the end of the measured
// span, and says whether the slot goes on (false: a call failed).
func (r *runner) game(g slotGame, rules *mill.Rules, s *schedule, m *measures) bool {
	var c struct{ ID int64 }
	if code, err := r.callAs(m.moves, g.white, g.wBase, "POST", "/api/challenge/"+g.black.name,
		map[string]any{"variant": r.Variant, "color": "white"}, &c); err != nil {
		m.failed(code)
		return false
	}
	var acc struct{ Game int64 }
	if code, err := r.callAs(m.moves, g.black, g.bBase, "POST", fmt.Sprintf("/api/challenge/%d/accept", c.ID), nil, &acc); err != nil {
		m.failed(code)
		return false
	}
	var gw *gameWatch
	streamCtx, stopStream := context.WithCancel(m.streams)
	defer stopStream()
	if r.Streams {
		gw = &gameWatch{sent: map[int]sentMove{}}
		if code, err := r.watch(streamCtx, g.black.streamClient, g.bBase, acc.Game, gw, &m.seenMu, &m.seen, &m.seenAcross); err != nil {
			m.failed(code)
			return false
		}
	}
	m.going.Add(1)
	s.start()
	game := mill.NewGame(rules)
	var buf []mill.Move
	for game.Outcome() == mill.NoOutcome && m.moves.Err() == nil {
		p := game.Position()
		buf = p.Moves(buf[:0])
		mv := buf[s.rng.IntN(len(buf))]
		player, base := g.white, g.wBase
		if p.SideToMove() == mill.Black {
			player, base = g.black, g.bBase
		}
		if !s.wait(m.moves) {
			m.going.Add(-1)
			return false
		}
		t0 := time.Now()
		ply := len(game.Moves())
		if gw != nil {
			gw.mu.Lock()
			gw.sent[ply] = sentMove{at: t0, measured: t0.After(m.from) && t0.Before(m.end), across: base != g.bBase}
			gw.mu.Unlock()
		}
		code, err := r.callAs(m.moves, player, base, "POST", fmt.Sprintf("/api/game/%d/move", acc.Game),
			map[string]any{"move": p.MoveText(mv), "ply": ply}, nil)
		if err != nil {
			m.failed(code)
			m.going.Add(-1)
			return false
		}
		t1 := time.Now()
		if t0.After(m.from) && t1.Before(m.end) {
			m.moved.Add(1)
			m.lats[g.i] = append(m.lats[g.i], t1.Sub(t0))
		}
		if err := game.Play(mv); err != nil {
			m.errs.Add(1)
			m.going.Add(-1)
			return false
		}
	}
	if game.Outcome() != mill.NoOutcome {
		m.finished.Add(1)
	}
	m.going.Add(-1)
	if gw != nil {
		// Wait (to the streams' end) for the events of the measured
		// moves; those that never come are missed.
		for {
			left := gw.unseen()
			if left == 0 || m.streams.Err() != nil {
				m.missed.Add(int64(left))
				break
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	return true
}
