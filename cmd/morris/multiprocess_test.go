package main

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/morrisgame/morris/internal/server/store/storetest"
	"github.com/morrisgame/morris/mill"
)

// TestTwoProcessesOnePostgres runs two morris serve processes on one
// PostgreSQL database, as an operator who outgrows one machine would: an
// account made on one signs in on the other, a game's moves alternate
// between the processes, a stream opened on the first sees each move made
// through the second at once (the processes share no memory: the news
// goes through the database's notifications; the store is polled only
// once an hour here, so the poll cannot be what brings it), and one move
// sent to both at once is played once.
func TestTwoProcessesOnePostgres(t *testing.T) {
	dsn := storetest.DSN(t, "postgres") // skips without MORRIS_TEST_POSTGRES
	// The first process migrates; the second finds the schema made.
	a := startServer(t, "-db", dsn, "-rate", "100000", "-poll-every", "1h")
	b := startServer(t, "-db", dsn, "-rate", "100000", "-poll-every", "1h")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	annA := a.account(t, "ann")
	if _, err := b.call(ctx, "POST", "/api/account", "", map[string]string{"name": "bob", "password": "secret-bob"}, nil); err != nil {
		t.Fatal(err)
	}
	var tok struct{ Token string }
	if _, err := a.call(ctx, "POST", "/api/token", "", map[string]string{"name": "bob", "password": "secret-bob"}, &tok); err != nil {
		t.Fatalf("bob, made on the second process, signs in on the first: %v", err)
	}
	bobA := tok.Token
	var c struct{ ID, Game int64 }
	if _, err := a.call(ctx, "POST", "/api/challenge/bob", annA, map[string]any{"color": "white"}, &c); err != nil {
		t.Fatal(err)
	}
	if _, err := b.call(ctx, "POST", fmt.Sprintf("/api/challenge/%d/accept", c.ID), bobA, nil, &c); err != nil {
		t.Fatalf("accepting on the second process a challenge made on the first: %v", err)
	}

	// A stream on the first process.
	req, _ := http.NewRequestWithContext(ctx, "GET", fmt.Sprintf("http://%s/api/game/%d/stream", a.addr, c.Game), nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	// What the stream shows: the full game first (it may hold the first
	// moves already: the answer starts before the game is read), then
	// each move, or a whole state when a change had no event of its own.
	var seenMu sync.Mutex
	var seen []string
	var disorder string // a move out of place, if one came
	go func() {
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			var e struct {
				Type  string
				Ply   int
				Move  string
				Moves []string
				State struct{ Moves []string }
			}
			if json.Unmarshal(sc.Bytes(), &e) != nil {
				continue
			}
			seenMu.Lock()
			switch e.Type {
			case "gameFull":
				seen = append([]string(nil), e.State.Moves...)
			case "gameState":
				seen = append([]string(nil), e.Moves...)
			case "move":
				if e.Ply != len(seen) && disorder == "" {
					disorder = fmt.Sprintf("a move at ply %d after %d moves", e.Ply, len(seen))
				}
				seen = append(seen[:min(e.Ply, len(seen))], e.Move)
			}
			seenMu.Unlock()
		}
	}()

	g := mill.NewGame(mill.MustRules("nine-mens-morris"))
	var played []string
	var across []time.Duration // from a move sent to the second process to the first's stream
	for ply := range 12 {
		p := g.Position()
		m := p.Moves(nil)[ply%3]
		text := p.MoveText(m)
		tokn := annA
		if p.SideToMove() == mill.Black {
			tokn = bobA
		}
		srv := a
		if ply%2 == 1 {
			srv = b
		}
		if ply == 3 {
			// An offer made through one process, then a move through the
			// other: the move withdraws it though that process never saw it.
			if _, err := a.call(ctx, "POST", fmt.Sprintf("/api/game/%d/draw/offer", c.Game), annA, nil, nil); err != nil {
				t.Fatal(err)
			}
		}
		if ply == 6 {
			// The same move to both processes at once: played once.
			var wg sync.WaitGroup
			errs := make([]error, 2)
			for i, s := range []*serverProc{a, b} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					_, errs[i] = s.call(ctx, "POST", fmt.Sprintf("/api/game/%d/move", c.Game), tokn, map[string]any{"move": text, "ply": ply}, nil)
				}()
			}
			wg.Wait()
			if (errs[0] == nil) == (errs[1] == nil) {
				t.Fatalf("one move sent to both processes at once: errors %v and %v, want exactly one success", errs[0], errs[1])
			}
			for _, err := range errs {
				if err != nil && !strings.Contains(err.Error(), ": 409 ") {
					t.Errorf("the refused twin: %v, want a 409", err)
				}
			}
		} else {
			start := time.Now()
			if _, err := srv.call(ctx, "POST", fmt.Sprintf("/api/game/%d/move", c.Game), tokn, map[string]any{"move": text, "ply": ply}, nil); err != nil {
				t.Fatalf("ply %d on process %s: %v", ply, srv.addr, err)
			}
			// The first process's stream shows it at once.
			for {
				seenMu.Lock()
				n := len(seen)
				seenMu.Unlock()
				if n > ply {
					break
				}
				if time.Since(start) > 2*time.Second {
					t.Fatalf("ply %d, made on process %s: not on the first process's stream after 2 s", ply, srv.addr)
				}
				time.Sleep(time.Millisecond)
			}
			if srv == b {
				across = append(across, time.Since(start))
			}
		}
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
		played = append(played, text)
	}
	slices.Sort(across)
	t.Logf("moves made through the second process, seen on the first's stream %v after they were sent (the HTTP request included), the slowest %v", across, across[len(across)-1])
	deadline := time.Now().Add(10 * time.Second)
	for {
		seenMu.Lock()
		got, bad := strings.Join(seen, " "), disorder
		seenMu.Unlock()
		if bad != "" {
			t.Fatalf("the first process's stream: %s", bad)
		}
		if got == strings.Join(played, " ") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the first process's stream shows %q, want %q", got, strings.Join(played, " "))
		}
		time.Sleep(20 * time.Millisecond)
	}
	// Both processes tell the same game.
	for _, s := range []*serverProc{a, b} {
		var full struct {
			State struct {
				Moves  []string
				Offers []any
			}
		}
		if _, err := s.call(ctx, "GET", fmt.Sprintf("/api/game/%d", c.Game), "", nil, &full); err != nil {
			t.Fatal(err)
		}
		if strings.Join(full.State.Moves, " ") != strings.Join(played, " ") {
			t.Errorf("process %s: moves %v, want %v", s.addr, full.State.Moves, played)
		}
		if len(full.State.Offers) != 0 {
			t.Errorf("process %s: offers %v after later moves, want none", s.addr, full.State.Offers)
		}
	}
}

// TestEngineMoveSurvivesKill: the engine's turns are jobs in the database
// that any process takes. A process is killed (SIGKILL) while its worker
// searches the engine's reply (level 10 thinks 2 s); a second process,
// started after the kill, takes the job once its lease has run out (2 s
// here) and plays the reply: nothing is lost, and the reply is played
// once.
func TestEngineMoveSurvivesKill(t *testing.T) {
	dsn := storetest.DSN(t, "postgres") // skips without MORRIS_TEST_POSTGRES
	args := []string{"-db", dsn, "-rate", "100000", "-engine-workers", "1", "-engine-lease", "2s"}
	a := startServer(t, args...)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	ann := a.account(t, "ann")
	var g struct{ ID int64 }
	// Twelve men's morris on the small board (white first): no opening
	// book, so level 10 searches its 2 s (nine men's morris would answer
	// d6 from the book at once).
	if _, err := a.call(ctx, "POST", "/api/challenge/ai", ann, map[string]any{"variant": "twelve-mens-morris-small", "level": 10, "color": "white"}, &g); err != nil {
		t.Fatal(err)
	}
	if _, err := a.call(ctx, "POST", fmt.Sprintf("/api/game/%d/move", g.ID), ann, map[string]any{"move": "d6", "ply": 0}, nil); err != nil {
		t.Fatal(err)
	}
	// Kill a once its worker holds the job.
	admin, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	var holder string
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		err := admin.QueryRowContext(ctx, `SELECT taken_by FROM engine_jobs WHERE game_id = $1 AND ply = 1`, g.ID).Scan(&holder)
		if err == nil && holder != "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the first process did not take the engine's turn within 10 s (%v)", err)
		}
	}
	if err := a.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-a.done
	killed := time.Now()

	b := startServer(t, args...)
	var full struct {
		State struct {
			Moves []string
		}
	}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, err := b.call(ctx, "GET", fmt.Sprintf("/api/game/%d", g.ID), "", nil, &full); err != nil {
			t.Fatal(err)
		}
		if len(full.State.Moves) >= 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no engine reply 30 s after the kill of the process that was searching it (moves %v)", full.State.Moves)
		}
	}
	t.Logf("the engine's reply, searched by %s when it was killed, played by the second process %v after the kill", holder, time.Since(killed).Round(time.Millisecond))
	if len(full.State.Moves) != 2 {
		t.Errorf("moves %v, want d6 and one reply", full.State.Moves)
	}
	// The job is done, by the second process (or, if the first played
	// the reply just before it died, by whoever takes the job after its
	// lease and finds the game moved on).
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		var left int
		err := admin.QueryRowContext(ctx, `SELECT count(*) FROM engine_jobs`).Scan(&left)
		if err == nil && left == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("engine jobs left 15 s after the reply: %d (%v), want none", left, err)
		}
	}
}

// TestFlagFallsAfterKill: a real-time game's flag timer lives in the
// process that last changed the game. That process is killed (SIGKILL)
// with white's clock running (10 s, the shortest); the other process, which never loaded the
// game, finds the flag that fell (its flag sweep) and ends the game on
// time.
func TestFlagFallsAfterKill(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for a 10 s clock")
	}
	dsn := storetest.DSN(t, "postgres") // skips without MORRIS_TEST_POSTGRES
	args := []string{"-db", dsn, "-rate", "100000"}
	a := startServer(t, args...)
	b := startServer(t, args...)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ann, bob := a.account(t, "ann"), a.account(t, "bob")
	var c struct{ ID, Game int64 }
	if _, err := a.call(ctx, "POST", "/api/challenge/bob", ann, map[string]any{"color": "white", "clock": map[string]any{"initialMs": 10000}}, &c); err != nil {
		t.Fatal(err)
	}
	if _, err := a.call(ctx, "POST", fmt.Sprintf("/api/challenge/%d/accept", c.ID), bob, nil, &c); err != nil {
		t.Fatal(err)
	}
	for ply, m := range []string{"d6", "d5"} {
		tok := ann
		if ply == 1 {
			tok = bob
		}
		if _, err := a.call(ctx, "POST", fmt.Sprintf("/api/game/%d/move", c.Game), tok, map[string]any{"move": m, "ply": ply}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-a.done
	killed := time.Now()
	var full struct {
		State struct {
			Status, Result, Method string
		}
	}
	for deadline := time.Now().Add(25 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if _, err := b.call(ctx, "GET", fmt.Sprintf("/api/game/%d", c.Game), "", nil, &full); err != nil {
			t.Fatal(err)
		}
		if full.State.Status == "finished" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("white's 10 s ran out and the process that kept the timer is dead: the game is still %s 25 s after the kill", full.State.Status)
		}
	}
	if full.State.Result != "0-1" || full.State.Method != "time" {
		t.Errorf("got %s by %s, want 0-1 by time (white's flag)", full.State.Result, full.State.Method)
	}
	t.Logf("the flag fell on the other process %v after the kill", time.Since(killed).Round(time.Millisecond))
}
