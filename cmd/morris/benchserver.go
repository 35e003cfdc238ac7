package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
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
	"sync"
	"sync/atomic"
	"time"

	"github.com/morrisgame/morris/mill"
)

// cmdBenchServer is the load generator: N concurrent games played over the
// HTTP API by pairs of users, every move sent with its ply (so stored
// durably before it is answered), for a duration or a number of moves. It
// prints moves per second and the latency percentiles of the move
// requests. Without -url it starts a server in this process on loopback,
// on SQLite in a temporary folder or on -db.
func cmdBenchServer(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench-server", flag.ContinueOnError)
	fs.SetOutput(stderr)
	url := fs.String("url", "", "a running server (http://host:port); empty to start one in this process")
	db := fs.String("db", "", "with no -url: a postgres:// URL for the server started here (default SQLite in a temporary folder)")
	games := fs.Int("games", 1000, "concurrent games")
	users := fs.Int("users", 200, "players (each plays games/users*2 games at once)")
	duration := fs.Duration("duration", 20*time.Second, "how long to measure")
	warmup := fs.Duration("warmup", 5*time.Second, "moves before this are not measured (the games are made meanwhile)")
	variant := fs.String("variant", "nine-mens-morris", "the preset played")
	seed := fs.Uint64("seed", 1, "the seed of the moves chosen")
	rate := fs.Float64("rate", 2000, "moves a second offered in all, spread evenly over the games; 0 for as fast as the server answers")
	cpuprofile := fs.String("cpuprofile", "", "write a CPU profile of the measured span of this process (the server too, without -url) to this file")
	if err := fs.Parse(args); err != nil {
		return usageError{err}
	}
	if *games < 1 || *users < 2 || *duration <= 0 || *rate < 0 {
		return badInput("-games must be at least 1, -users at least 2, -duration positive")
	}
	if _, err := mill.NewRules(*variant); err != nil {
		return usageError{err}
	}
	ctx := commandContext()
	base := *url
	if base == "" {
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
			done <- serve(sctx, serveConfig{addr: addr, data: filepath.Join(dir, "data"), db: *db, bench: true},
				slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn})), io.Discard)
		}()
		defer func() { stop(); <-done }()
		base = "http://" + addr
		if err := waitHealthy(ctx, base, done); err != nil {
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
	b := &bench{base: base, variant: *variant, profile: profile, client: &http.Client{Transport: &http.Transport{
		MaxIdleConns: *games * 2, MaxIdleConnsPerHost: *games * 2, IdleConnTimeout: time.Minute}}}
	offered := "as fast as answered"
	if *rate > 0 {
		offered = fmt.Sprintf("%.0f moves/s offered", *rate)
	}
	fmt.Fprintf(stdout, "bench-server: %s, %d games, %d users, %s, %s (after %s of warm-up)\n", base, *games, *users, offered, *duration, *warmup)
	res, err := b.run(ctx, *games, *users, *warmup, *duration, *seed, *rate)
	if err != nil {
		return err
	}
	res.print(stdout)
	return nil
}

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
	base, variant string
	client        *http.Client
	profile       *os.File // the CPU profile of the measured span, or nil
}

// call sends a JSON request and decodes the answer into out.
func (b *bench) call(ctx context.Context, method, path, token string, body, out any) (int, error) {
	var rd io.Reader
	if body != nil {
		buf, _ := json.Marshal(body)
		rd = bytes.NewReader(buf)
	}
	req, err := http.NewRequestWithContext(ctx, method, b.base+path, rd)
	if err != nil {
		return 0, err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := b.client.Do(req)
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

type benchUser struct{ name, token string }

type benchResult struct {
	moves, games, errors int
	elapsed              time.Duration
	lat                  []time.Duration
}

func (r benchResult) print(w io.Writer) {
	slices.Sort(r.lat)
	pct := func(p float64) time.Duration {
		if len(r.lat) == 0 {
			return 0
		}
		return r.lat[min(len(r.lat)-1, int(p*float64(len(r.lat))))]
	}
	fmt.Fprintf(w, "moves %d in %.1f s: %.0f moves/s; games finished %d; errors %d\n",
		r.moves, r.elapsed.Seconds(), float64(r.moves)/r.elapsed.Seconds(), r.games, r.errors)
	fmt.Fprintf(w, "move latency: p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms\n",
		ms(pct(0.50)), ms(pct(0.90)), ms(pct(0.99)), ms(pct(1)))
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
			pw := "bench-password"
			_, err := b.call(ctx, "POST", "/api/account", "", map[string]string{"name": u.name, "password": pw}, nil)
			var tok struct{ Token string }
			if err == nil {
				_, err = b.call(ctx, "POST", "/api/token", "", map[string]string{"name": u.name, "password": pw}, &tok)
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
	var moves, finished, errs atomic.Int64
	start := time.Now()
	measureFrom := start.Add(warmup)
	end := measureFrom.Add(duration)
	lats := make([][]time.Duration, games)
	gctx, cancel := context.WithDeadline(ctx, end)
	defer cancel()
	if b.profile != nil {
		// The measured span only: not the sign-ups (argon2id) nor the
		// first games being made.
		t := time.AfterFunc(time.Until(measureFrom), func() { _ = pprof.StartCPUProfile(b.profile) })
		defer func() { t.Stop(); pprof.StopCPUProfile() }()
	}
	for i := range games {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(seed, uint64(i)))
			white, black := users[(2*i)%nusers], users[(2*i+1)%nusers]
			if white.name == black.name {
				black = users[(2*i+2)%nusers]
			}
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
				if _, err := b.call(gctx, "POST", "/api/challenge/"+black.name, white.token,
					map[string]any{"variant": b.variant, "color": "white"}, &c); err != nil {
					if gctx.Err() == nil {
						errs.Add(1)
					}
					return
				}
				var acc struct{ Game int64 }
				if _, err := b.call(gctx, "POST", fmt.Sprintf("/api/challenge/%d/accept", c.ID), black.token, nil, &acc); err != nil {
					if gctx.Err() == nil {
						errs.Add(1)
					}
					return
				}
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
					player := white
					if p.SideToMove() == mill.Black {
						player = black
					}
					if every > 0 {
						if wait := time.Until(due); wait > 0 {
							select {
							case <-time.After(wait):
							case <-gctx.Done():
								return
							}
						}
						due = due.Add(every)
					}
					t0 := time.Now()
					_, err := b.call(gctx, "POST", fmt.Sprintf("/api/game/%d/move", acc.Game), player.token,
						map[string]any{"move": p.MoveText(m), "ply": len(g.Moves())}, nil)
					if err != nil {
						if gctx.Err() == nil {
							errs.Add(1)
						}
						return
					}
					t1 := time.Now()
					if t0.After(measureFrom) && t1.Before(end) {
						moves.Add(1)
						lats[i] = append(lats[i], t1.Sub(t0))
					}
					if err := g.Play(m); err != nil {
						errs.Add(1)
						return
					}
				}
				if g.Outcome() != mill.NoOutcome {
					finished.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	var all []time.Duration
	for _, l := range lats {
		all = append(all, l...)
	}
	return benchResult{moves: int(moves.Load()), games: int(finished.Load()), errors: int(errs.Load()),
		elapsed: duration, lat: all}, nil
}
