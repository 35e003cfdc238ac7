package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/morrisgame/morris/mill"
)

const benchSynopsis = `[-url URL,...] [-db postgres://...] [-limits] [-games N] [-users N] [-rate N]
       [-duration D] [-warmup D] [-streams=false] [-variant V] [-seed N] [-cpuprofile FILE]

Plays N concurrent games over the HTTP API, pairs of users making random
moves, each move sent with its ply (stored durably before it is answered),
and prints the moves a second and the latency percentiles of the move
requests; with a stream a game, also the time from a move sent to its event
on the stream, and the servers' memory. Without -url it starts a server in
this process on loopback, on SQLite in a temporary folder or on -db. -url
takes several servers sharing a database: a game's white player sends to
one, its black player to the next, and its stream is open on black's.

Flags:`

// cmdBenchServer is the load generator: N concurrent games played over the
// HTTP API by pairs of users, every move sent with its ply (so stored
// durably before it is answered), for a duration or a number of moves. It
// prints moves per second and the latency percentiles of the move
// requests. Each game also has a stream open (-streams), and the time from
// a move sent to its event on that stream is measured. -url takes several
// servers sharing a database: a game's white player sends to one, its
// black player to the next, and its stream is open on the black player's,
// so that white's moves cross from one process to another. Without -url
// it starts a server in this process on loopback, on SQLite in a
// temporary folder or on -db.
func cmdBenchServer(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("bench-server", benchSynopsis, stderr)
	url := fs.String("url", "", "running servers (http://host:port), comma-separated when several share a database; empty to start one in this process")
	streams := fs.Bool("streams", true, "open a game stream for every game and measure when each move reaches it")
	db := fs.String("db", "", "with no -url: a postgres:// URL for the server started here (default SQLite in a temporary folder)")
	games := fs.Int("games", 1000, "concurrent games")
	users := fs.Int("users", 200, "players (each plays games/users*2 games at once)")
	duration := fs.Duration("duration", 20*time.Second, "how long to measure")
	warmup := fs.Duration("warmup", 5*time.Second, "moves before this are not measured (the games are made meanwhile)")
	variant := fs.String("variant", "nine-mens-morris", "the preset played")
	seed := fs.Uint64("seed", 1, "the seed of the moves chosen")
	rate := fs.Float64("rate", 2000, "moves a second offered in all, spread evenly over the games; 0 for as fast as the server answers")
	limits := fs.Bool("limits", false, "with no -url: run the server with its default rate limits and quotas (as morris serve does) instead of none, every user calling from an address of its own on 127.2.0.0/16, as a club's members do; refusals are counted apart")
	cpuprofile := fs.String("cpuprofile", "", "write a CPU profile of the measured span of this process (the server too, without -url) to this file")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *games < 1 || *users < 2 || *duration <= 0 || *rate < 0 {
		return badInput("-games must be at least 1, -users at least 2, -duration positive")
	}
	if _, err := mill.NewRules(*variant); err != nil {
		return usageError{err}
	}
	if *limits && *url != "" {
		return badInput("-limits is for the server started here: run the servers of -url without -no-limits instead")
	}
	if *limits && *users > 200*250 {
		return badInput("-limits gives each user an address of 127.2.0.0/16: at most %d users", 200*250)
	}
	var bases []string
	for _, u := range strings.Split(*url, ",") {
		if u = strings.TrimRight(strings.TrimSpace(u), "/"); u != "" {
			bases = append(bases, u)
		}
	}
	if len(bases) == 0 {
		dir, err := os.MkdirTemp("", "morris-bench-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return err
		}
		addr := ln.Addr().String()
		ln.Close()
		sctx, stop := context.WithCancel(context.WithoutCancel(ctx))
		done := make(chan error, 1)
		go func() {
			done <- serve(sctx, serveConfig{addr: addr, data: filepath.Join(dir, "data"), db: *db, bench: !*limits},
				slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn})), io.Discard)
		}()
		defer func() { stop(); <-done }()
		bases = []string{"http://" + addr}
		if err := waitHealthy(ctx, bases[0], done); err != nil {
			return err
		}
	}
	var profile *os.File
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			return err
		}
		defer f.Close()
		profile = f
	}
	// The calls share at most apiConns connections a server, as players'
	// requests come through a proxy's pool; each stream holds one of its
	// own. (Without the bound, the burst of challenges at the start opened
	// a connection for each game, 10,000 besides the 10,000 streams, past
	// the server's open-file limit.)
	b := &bench{bases: bases, variant: *variant, profile: profile, streams: *streams, ownAddrs: *limits,
		client: &http.Client{Transport: &http.Transport{
			MaxConnsPerHost: apiConns, MaxIdleConns: apiConns * len(bases), MaxIdleConnsPerHost: apiConns, IdleConnTimeout: time.Minute}},
		streamClient: &http.Client{Transport: &http.Transport{IdleConnTimeout: time.Minute}}}
	offered := "as fast as answered"
	if *rate > 0 {
		offered = fmt.Sprintf("%.0f moves/s offered", *rate)
	}
	with := ""
	if *streams {
		with = ", a stream a game"
	}
	if soft, _, ok := openFileLimit(); ok && *streams && soft < uint64(*games+apiConns*len(bases)+256) {
		fmt.Fprintf(stderr, "bench-server: the open-file limit %d is low for %d games with their streams (%d connections): raise it (ulimit -n)\n", soft, *games, *games+apiConns*len(bases))
	}
	fmt.Fprintf(stdout, "bench-server: %s, %d games%s, %d users, %s, %s (after %s of warm-up)\n", strings.Join(bases, " "), *games, with, *users, offered, *duration, *warmup)
	res, err := b.run(ctx, *games, *users, *warmup, *duration, *seed, *rate)
	if err != nil {
		return err
	}
	res.print(stdout)
	return nil
}

// apiConns is how many connections the calls to one server share.
const apiConns = 256

func waitHealthy(ctx context.Context, base string, done <-chan error) error {
	for range 300 {
		select {
		case err := <-done:
			return fmt.Errorf("the server stopped: %v", err)
		case <-ctx.Done():
			return ctx.Err()
		default:
		}
		resp, err := http.Get(base + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return nil
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("%s/healthz did not answer", base)
}

type bench struct {
	bases   []string // the servers
	variant string
	profile *os.File // the CPU profile of the measured span, or nil
	streams bool     // a stream a game
	// client makes the calls, streamClient opens the streams.
	client, streamClient *http.Client
	// ownAddrs gives each user clients of its own, calling from an
	// address of its own (loopbackClients).
	ownAddrs bool
}

// loopbackClients are the clients of user i calling from 127.2.x.y, an
// address of its own (Linux routes all of 127.0.0.0/8 to the loopback),
// so that the server's limits by address see each user as a client apart:
// calls share a few connections, each stream has its own.
func loopbackClients(i int) (calls, streams *http.Client) {
	ip := net.IPv4(127, 2, byte(i/250), byte(1+i%250))
	dial := (&net.Dialer{LocalAddr: &net.TCPAddr{IP: ip}, Timeout: 10 * time.Second}).DialContext
	calls = &http.Client{Transport: &http.Transport{DialContext: dial, MaxConnsPerHost: 8, MaxIdleConnsPerHost: 8, IdleConnTimeout: time.Minute}}
	streams = &http.Client{Transport: &http.Transport{DialContext: dial, IdleConnTimeout: time.Minute}}
	return calls, streams
}

// call sends a JSON request to the first server and decodes the answer
// into out.
func (b *bench) call(ctx context.Context, method, path, token string, body, out any) (int, error) {
	return b.callAt(ctx, b.bases[0], method, path, token, body, out)
}

// callAt sends a JSON request to the server base and decodes the answer
// into out.
func (b *bench) callAt(ctx context.Context, base, method, path, token string, body, out any) (int, error) {
	return b.callVia(ctx, b.client, base, method, path, token, body, out)
}

// callAs is callAt with u's own client (with -limits).
func (b *bench) callAs(ctx context.Context, u benchUser, base, method, path string, body, out any) (int, error) {
	c := u.client
	if c == nil {
		c = b.client
	}
	return b.callVia(ctx, c, base, method, path, u.token, body, out)
}

// setupCall POSTs a sign-up or sign-in of u before the run, sent again,
// as a person would, when the server says it is busy (503: every argon2id
// slot taken by the other sign-ups) after a pause.
func (b *bench) setupCall(ctx context.Context, u benchUser, path string, body, out any) error {
	for try := 0; ; try++ {
		code, err := b.callAs(ctx, u, b.bases[0], "POST", path, body, out)
		if code != http.StatusServiceUnavailable || try == 10 {
			return err
		}
		select {
		case <-time.After(time.Second):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// callVia is callAt through the client c.
func (b *bench) callVia(ctx context.Context, c *http.Client, base, method, path, token string, body, out any) (int, error) {
	var rd io.Reader
	if body != nil {
		buf, _ := json.Marshal(body)
		rd = bytes.NewReader(buf)
	}
	req, err := http.NewRequestWithContext(ctx, method, base+path, rd)
	if err != nil {
		return 0, err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := c.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return resp.StatusCode, err
	}
	if resp.StatusCode >= 300 {
		return resp.StatusCode, fmt.Errorf("%s %s: %d %s", method, path, resp.StatusCode, bytes.TrimSpace(data))
	}
	if out != nil {
		return resp.StatusCode, json.Unmarshal(data, out)
	}
	return resp.StatusCode, nil
}

type benchUser struct {
	name, token string
	// client and streamClient: the user's own (with -limits), or nil for
	// the bench's.
	client, streamClient *http.Client
}

type benchResult struct {
	moves, games, errors int
	refused              int // errors that were 429 or 503: a limit's refusal
	elapsed              time.Duration
	lat                  []time.Duration
	// With streams: from a move sent to its event on the game's stream,
	// for every move and for those sent to another server than the
	// stream's; missed counts the measured moves whose event never came.
	seen, seenAcross []time.Duration
	missed           int
	streams          bool
	// memory: the servers' resident memory and streams before the games
	// and when they were all going (from their /metrics).
	memory []serverMemory
	games0 int // games going when memory was read the second time
}

type serverMemory struct {
	base                   string
	before, after          float64 // resident bytes
	streamsBefore, streams float64
}

// percentiles returns "p50 .. ms, p90 .., p99 .., max .." of lat (sorted here).
func percentiles(lat []time.Duration) string {
	slices.Sort(lat)
	pct := func(p float64) time.Duration {
		if len(lat) == 0 {
			return 0
		}
		return lat[min(len(lat)-1, int(p*float64(len(lat))))]
	}
	return fmt.Sprintf("p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms", ms(pct(0.50)), ms(pct(0.90)), ms(pct(0.99)), ms(pct(1)))
}

func (r benchResult) print(w io.Writer) {
	fmt.Fprintf(w, "moves %d in %.1f s: %.0f moves/s; games finished %d; errors %d (refused by a limit %d)\n",
		r.moves, r.elapsed.Seconds(), float64(r.moves)/r.elapsed.Seconds(), r.games, r.errors, r.refused)
	fmt.Fprintf(w, "move latency: %s\n", percentiles(r.lat))
	if r.streams {
		fmt.Fprintf(w, "seen on the game's stream: %s (%d moves; %d never seen)\n", percentiles(r.seen), len(r.seen), r.missed)
		if len(r.seenAcross) > 0 {
			fmt.Fprintf(w, "seen on another server's stream: %s (%d moves)\n", percentiles(r.seenAcross), len(r.seenAcross))
		}
	}
	for _, m := range r.memory {
		if m.after == 0 {
			continue
		}
		per := ""
		switch {
		case r.games0 > 0 && m.after >= m.before:
			per = fmt.Sprintf(", %.1f KB a game with its stream", (m.after-m.before)/float64(r.games0)*float64(len(r.memory))/1e3)
		case r.games0 > 0:
			// The server gave memory back to the system meanwhile (its
			// garbage collector, or a cache released): no figure a game.
			per = "; less than before, so no figure a game (too few games to outweigh what the server gave back)"
		}
		fmt.Fprintf(w, "memory of %s: %.0f MB resident before the games, %.0f MB with %d games going and %.0f streams open%s\n",
			m.base, m.before/1e6, m.after/1e6, r.games0, m.streams, per)
	}
}

// metricsOf reads the server's resident memory and open streams from its
// /metrics (0 when it has none).
func (b *bench) metricsOf(ctx context.Context, base string) (resident, streams float64) {
	req, err := http.NewRequestWithContext(ctx, "GET", base+"/metrics", nil)
	if err != nil {
		return 0, 0
	}
	resp, err := b.client.Do(req)
	if err != nil {
		return 0, 0
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	for _, line := range strings.Split(string(data), "\n") {
		name, value, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		if err != nil {
			continue
		}
		switch name {
		case "process_resident_memory_bytes":
			resident = f
		case "morris_streams":
			streams = f
		}
	}
	return resident, streams
}

// gameWatch is a game's stream as the bench reads it: when each move was
// sent, and when it was seen.
type gameWatch struct {
	mu   sync.Mutex
	sent map[int]sentMove // by ply
}

type sentMove struct {
	at       time.Time
	measured bool // sent in the measured span
	across   bool // sent to another server than the stream's
	seen     bool
}

// watch reads the stream of game id on base through c (nil: the bench's
// stream client) until ctx ends, recording when each move is seen into
// seen/seenAcross (under mu). A stream refused says its status.
func (b *bench) watch(ctx context.Context, c *http.Client, base string, id int64, gw *gameWatch, mu *sync.Mutex, seen, seenAcross *[]time.Duration) (int, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", fmt.Sprintf("%s/api/game/%d/stream", base, id), nil)
	if err != nil {
		return 0, err
	}
	if c == nil {
		c = b.streamClient
	}
	resp, err := c.Do(req)
	if err != nil {
		return 0, err
	}
	if resp.StatusCode != 200 {
		resp.Body.Close()
		return resp.StatusCode, fmt.Errorf("the stream of game %d: %s", id, resp.Status)
	}
	go func() {
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			var ev struct {
				Type string `json:"type"`
				Ply  int    `json:"ply"`
			}
			if json.Unmarshal(sc.Bytes(), &ev) != nil || ev.Type != "move" {
				continue
			}
			now := time.Now()
			gw.mu.Lock()
			m, ok := gw.sent[ev.Ply]
			first := ok && !m.seen
			if first {
				m.seen = true
				gw.sent[ev.Ply] = m
			}
			gw.mu.Unlock()
			if first && m.measured {
				mu.Lock()
				*seen = append(*seen, now.Sub(m.at))
				if m.across {
					*seenAcross = append(*seenAcross, now.Sub(m.at))
				}
				mu.Unlock()
			}
		}
	}()
	return 200, nil
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func (b *bench) run(ctx context.Context, games, nusers int, warmup, duration time.Duration, seed uint64, rate float64) (benchResult, error) {
	// Users: signed up and signed in once, before the clock starts.
	run := fmt.Sprintf("%x", time.Now().UnixNano()&0xffffff)
	users := make([]benchUser, nusers)
	var firstErr error
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, 8)
	for i := range users {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			u := benchUser{name: fmt.Sprintf("b%s_%d", run, i)}
			if b.ownAddrs {
				u.client, u.streamClient = loopbackClients(i)
			}
			pw := "bench-password"
			err := b.setupCall(ctx, u, "/api/account", map[string]string{"name": u.name, "password": pw}, nil)
			var tok struct{ Token string }
			if err == nil {
				err = b.setupCall(ctx, u, "/api/token", map[string]string{"name": u.name, "password": pw}, &tok)
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
	if firstErr != nil {
		return benchResult{}, firstErr
	}
	rules := mill.MustRules(b.variant)
	var moves, finished, errs, refused, missed, going atomic.Int64
	var seenMu sync.Mutex
	var seen, seenAcross []time.Duration
	memory := make([]serverMemory, len(b.bases))
	for i, base := range b.bases {
		memory[i].base = base
		memory[i].before, memory[i].streamsBefore = b.metricsOf(ctx, base)
	}
	start := time.Now()
	measureFrom := start.Add(warmup)
	end := measureFrom.Add(duration)
	lats := make([][]time.Duration, games)
	gctx, cancel := context.WithDeadline(ctx, end)
	defer cancel()
	// failed counts a call that failed (not one cut short by the run's
	// end); code 429 or 503 is a refusal by a limit.
	failed := func(code int) {
		if gctx.Err() != nil {
			return
		}
		errs.Add(1)
		if code == http.StatusTooManyRequests || code == http.StatusServiceUnavailable {
			refused.Add(1)
		}
	}
	if b.profile != nil {
		// The measured span only: not the sign-ups (argon2id) nor the
		// first games being made.
		t := time.AfterFunc(time.Until(measureFrom), func() { _ = pprof.StartCPUProfile(b.profile) })
		defer func() { t.Stop(); pprof.StopCPUProfile() }()
	}
	// The servers' memory once the games (and their streams) are going.
	var games0 int
	memDone := make(chan struct{})
	memTimer := time.AfterFunc(time.Until(measureFrom), func() {
		defer close(memDone)
		games0 = int(going.Load())
		for i, base := range b.bases {
			memory[i].after, memory[i].streams = b.metricsOf(ctx, base)
		}
	})
	// Streams outlive the moves by a moment, for the last moves' events.
	sctx, scancel := context.WithDeadline(ctx, end.Add(2*time.Second))
	defer scancel()
	for i := range games {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(seed, uint64(i)))
			white, black := users[(2*i)%nusers], users[(2*i+1)%nusers]
			if white.name == black.name {
				black = users[(2*i+2)%nusers]
			}
			// White sends to one server, black to the next; the stream is
			// on black's.
			wBase, bBase := b.bases[i%len(b.bases)], b.bases[(i+1)%len(b.bases)]
			var buf []mill.Move
			// Each game moves on a schedule of its own, every games/rate
			// seconds from a random start; a game behind its schedule (the
			// server slower than offered) moves at once, so throughput
			// shows whether the server keeps up.
			var every time.Duration
			due := time.Now()
			if rate > 0 {
				every = time.Duration(float64(games) / rate * float64(time.Second))
				due = due.Add(time.Duration(rng.Int64N(int64(every))))
			}
			for gctx.Err() == nil {
				var c struct{ ID int64 }
				if code, err := b.callAs(gctx, white, wBase, "POST", "/api/challenge/"+black.name,
					map[string]any{"variant": b.variant, "color": "white"}, &c); err != nil {
					failed(code)
					return
				}
				var acc struct{ Game int64 }
				if code, err := b.callAs(gctx, black, bBase, "POST", fmt.Sprintf("/api/challenge/%d/accept", c.ID), nil, &acc); err != nil {
					failed(code)
					return
				}
				var gw *gameWatch
				gctxGame, stopStream := context.WithCancel(sctx)
				if b.streams {
					gw = &gameWatch{sent: map[int]sentMove{}}
					if code, err := b.watch(gctxGame, black.streamClient, bBase, acc.Game, gw, &seenMu, &seen, &seenAcross); err != nil {
						stopStream()
						failed(code)
						return
					}
				}
				going.Add(1)
				// The schedule starts when the game does: the first games
				// are made all at once, which is not the load measured.
				if now := time.Now(); due.Before(now) {
					due = now
					if every > 0 {
						due = due.Add(time.Duration(rng.Int64N(int64(every))))
					}
				}
				g := mill.NewGame(rules)
				for g.Outcome() == mill.NoOutcome && gctx.Err() == nil {
					p := g.Position()
					buf = p.Moves(buf[:0])
					m := buf[rng.IntN(len(buf))]
					player, base := white, wBase
					if p.SideToMove() == mill.Black {
						player, base = black, bBase
					}
					if every > 0 {
						if wait := time.Until(due); wait > 0 {
							select {
							case <-time.After(wait):
							case <-gctx.Done():
								stopStream()
								going.Add(-1)
								return
							}
						}
						due = due.Add(every)
					}
					t0 := time.Now()
					ply := len(g.Moves())
					if gw != nil {
						gw.mu.Lock()
						gw.sent[ply] = sentMove{at: t0, measured: t0.After(measureFrom) && t0.Before(end), across: base != bBase}
						gw.mu.Unlock()
					}
					code, err := b.callAs(gctx, player, base, "POST", fmt.Sprintf("/api/game/%d/move", acc.Game),
						map[string]any{"move": p.MoveText(m), "ply": ply}, nil)
					if err != nil {
						failed(code)
						stopStream()
						going.Add(-1)
						return
					}
					t1 := time.Now()
					if t0.After(measureFrom) && t1.Before(end) {
						moves.Add(1)
						lats[i] = append(lats[i], t1.Sub(t0))
					}
					if err := g.Play(m); err != nil {
						errs.Add(1)
						stopStream()
						going.Add(-1)
						return
					}
				}
				if g.Outcome() != mill.NoOutcome {
					finished.Add(1)
				}
				going.Add(-1)
				if gw != nil {
					// Wait (to the streams' end) for the events of the
					// measured moves; those that never come are missed.
					for {
						gw.mu.Lock()
						left := 0
						for _, m := range gw.sent {
							if m.measured && !m.seen {
								left++
							}
						}
						gw.mu.Unlock()
						if left == 0 || sctx.Err() != nil {
							missed.Add(int64(left))
							break
						}
						time.Sleep(5 * time.Millisecond)
					}
				}
				stopStream()
			}
		}()
	}
	wg.Wait()
	if memTimer.Stop() {
		close(memDone) // the run ended before the games were going
	}
	<-memDone
	var all []time.Duration
	for _, l := range lats {
		all = append(all, l...)
	}
	seenMu.Lock()
	defer seenMu.Unlock()
	return benchResult{moves: int(moves.Load()), games: int(finished.Load()), errors: int(errs.Load()), refused: int(refused.Load()),
		elapsed: duration, lat: all, seen: seen, seenAcross: seenAcross, missed: int(missed.Load()),
		streams: b.streams, memory: memory, games0: games0}, nil
}
