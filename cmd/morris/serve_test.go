package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/morrisgame/morris/egdb"
	"github.com/morrisgame/morris/internal/server/store"
	"github.com/morrisgame/morris/internal/server/store/storetest"
	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/search"
)

// TestMain lets the tests run this very binary as the morris program (a
// server to kill), when MORRIS_RUN_MAIN is set.
func TestMain(m *testing.M) {
	if os.Getenv("MORRIS_RUN_MAIN") == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

// freeAddr returns a loopback address nobody listens on.
func freeAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// server is `morris serve` in a process of its own.
type serverProc struct {
	cmd    *exec.Cmd
	addr   string
	stderr *bytes.Buffer
	done   chan error
	// client, when set, is the client of call, over https (nginx with
	// the deploy test's certificate); nil: plain http.
	client *http.Client
}

// startServer starts a server and waits up to 30 s for it to be healthy:
// it starts in about half a second, but the race detector makes that five
// and the whole suite running beside it (CI) more.
func startServer(t testing.TB, args ...string) *serverProc {
	t.Helper()
	return startServerWithin(t, 30*time.Second, args...)
}

// startServerWithin is startServer that waits up to wait for the server
// to be healthy (a slow disk makes its start slow).
func startServerWithin(t testing.TB, wait time.Duration, args ...string) *serverProc {
	t.Helper()
	p := &serverProc{addr: freeAddr(t), stderr: &bytes.Buffer{}, done: make(chan error, 1)}
	p.cmd = exec.Command(os.Args[0], append([]string{"serve", "-addr", p.addr, "-pbm-addr", freeAddr(t), "-log-level", "warn"}, args...)...)
	p.cmd.Env = append(os.Environ(), "MORRIS_RUN_MAIN=1")
	p.cmd.Stdout = io.Discard
	p.cmd.Stderr = &syncWriter{w: p.stderr}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.done <- p.cmd.Wait() }()
	t.Cleanup(func() {
		if p.cmd.ProcessState == nil {
			p.cmd.Process.Kill()
			<-p.done
		}
	})
	for range wait / (25 * time.Millisecond) {
		resp, err := http.Get("http://" + p.addr + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return p
			}
		}
		select {
		case err := <-p.done:
			t.Fatalf("morris serve exited: %v\n%s", err, p.stderr)
		case <-time.After(25 * time.Millisecond):
		}
	}
	t.Fatalf("morris serve did not become healthy\n%s", p.stderr)
	return nil
}

type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(b)
}

func (p *serverProc) call(ctx context.Context, method, path, token string, body, out any) (int, error) {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	scheme, client := "http://", http.DefaultClient
	if p.client != nil {
		scheme, client = "https://", p.client
	}
	req, err := http.NewRequestWithContext(ctx, method, scheme+p.addr+path, rd)
	if err != nil {
		return 0, err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return resp.StatusCode, err
	}
	if out != nil && resp.StatusCode < 300 {
		if err := json.Unmarshal(data, out); err != nil {
			return resp.StatusCode, err
		}
	}
	if resp.StatusCode >= 300 {
		return resp.StatusCode, fmt.Errorf("%s %s: %d %s", method, path, resp.StatusCode, bytes.TrimSpace(data))
	}
	return resp.StatusCode, nil
}

func (p *serverProc) account(t testing.TB, name string) string {
	t.Helper()
	ctx := context.Background()
	if _, err := p.call(ctx, "POST", "/api/account", "", map[string]string{"name": name, "password": "secret-" + name}, nil); err != nil {
		t.Fatal(err)
	}
	var tok struct{ Token string }
	if _, err := p.call(ctx, "POST", "/api/token", "", map[string]string{"name": name, "password": "secret-" + name}, &tok); err != nil {
		t.Fatal(err)
	}
	return tok.Token
}

// TestServeLifecycle starts morris serve on a fresh data folder: healthy,
// metrics, the pbmserv text port; then SIGTERM stops it cleanly.
func TestServeLifecycle(t *testing.T) {
	dir := t.TempDir()
	p := startServer(t, "-data", filepath.Join(dir, "data"))
	tok := p.account(t, "ann")
	p.account(t, "bob")
	ctx := context.Background()
	var c struct{ ID, Game int64 }
	if _, err := p.call(ctx, "POST", "/api/challenge/bob", tok, map[string]any{"color": "white"}, &c); err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get("http://" + p.addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{"morris_moves_total", "morris_http_requests_total", "morris_streams", "go_goroutines"} {
		if !bytes.Contains(body, []byte(want)) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	resp, err = http.Post("http://"+p.addr+"/pbm", "text/plain", strings.NewReader("help\n"))
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || len(body) == 0 {
		t.Errorf("POST /pbm help: %d %q", resp.StatusCode, body)
	}
	// A stream is open while the server is told to stop: it ends, and the
	// process exits 0 within the grace period.
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	req, _ := http.NewRequestWithContext(sctx, "GET", "http://"+p.addr+"/api/stream/event", nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	sresp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer sresp.Body.Close()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-p.done:
		if err != nil {
			t.Errorf("after SIGTERM: %v\n%s", err, p.stderr)
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("morris serve did not stop on SIGTERM\n%s", p.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "data", "morris.db")); err != nil {
		t.Errorf("the database: %v", err)
	}
}

// TestCrashKill9 plays many games at once against a server process, kills
// it with SIGKILL in the middle, starts it again on the same data and
// checks that every move it acknowledged is stored, none twice, and that
// the games go on.
func TestCrashKill9(t *testing.T) {
	games := 40
	if testing.Short() {
		games = 10
	}
	dir := filepath.Join(t.TempDir(), "data")
	p := startServer(t, "-data", dir, "-rate", "100000")
	ann, bob := p.account(t, "ann"), p.account(t, "bob")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ids := make([]int64, games)
	for i := range ids {
		var c struct{ ID, Game int64 }
		if _, err := p.call(ctx, "POST", "/api/challenge/bob", ann, map[string]any{"color": "white"}, &c); err != nil {
			t.Fatal(err)
		}
		if _, err := p.call(ctx, "POST", fmt.Sprintf("/api/challenge/%d/accept", c.ID), bob, nil, &c); err != nil {
			t.Fatal(err)
		}
		ids[i] = c.Game
	}
	// acked[i] are the moves of game i the server acknowledged.
	acked := make([][]string, games)
	var wg sync.WaitGroup
	var mu sync.Mutex
	total := 0
	for i := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(i), 1))
			g := mill.NewGame(mill.MustRules("nine-mens-morris"))
			for g.Outcome() == mill.NoOutcome {
				pos := g.Position()
				ms := pos.Moves(nil)
				m := ms[rng.IntN(len(ms))]
				tok := ann
				if pos.SideToMove() == mill.Black {
					tok = bob
				}
				text := pos.MoveText(m)
				if _, err := p.call(ctx, "POST", fmt.Sprintf("/api/game/%d/move", ids[i]), tok, map[string]any{"move": text, "ply": len(g.Moves())}, nil); err != nil {
					return // killed
				}
				mu.Lock()
				acked[i] = append(acked[i], text)
				total++
				mu.Unlock()
				_ = g.Play(m)
			}
		}()
	}
	// Kill in the middle of the writes.
	deadline := time.Now().Add(30 * time.Second)
	for {
		mu.Lock()
		n := total
		mu.Unlock()
		if n >= games*8 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("only %d moves acknowledged in 30 s\n%s", n, p.stderr)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := p.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-p.done
	wg.Wait()
	cancel()

	// The store as the killed process left it.
	st, err := store.Open(context.Background(), filepath.Join(dir, "morris.db"))
	if err != nil {
		t.Fatal(err)
	}
	extra := 0
	for i, id := range ids {
		moves, err := st.Moves(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		stored := make([]string, len(moves))
		for j, m := range moves {
			stored[j] = m.Text
			if m.Ply != j {
				t.Errorf("game %d: move %d stored at ply %d", id, j, m.Ply)
			}
		}
		// Every acknowledged move is stored; at most the one move in
		// flight when the process died was stored without its answer.
		if len(stored) < len(acked[i]) || len(stored) > len(acked[i])+1 ||
			strings.Join(stored[:len(acked[i])], " ") != strings.Join(acked[i], " ") {
			t.Errorf("game %d: acknowledged %v, stored %v", id, acked[i], stored)
		}
		extra += len(stored) - len(acked[i])
	}
	st.Close()
	t.Logf("%d moves acknowledged in %d games before SIGKILL; %d stored without their answer", total, games, extra)

	// Restarted on the same data, the games go on from where they are.
	p2 := startServer(t, "-data", dir, "-rate", "100000")
	var full struct {
		State struct {
			Ply    int
			Moves  []string
			Status string
		}
	}
	if _, err := p2.call(context.Background(), "GET", fmt.Sprintf("/api/game/%d", ids[0]), "", nil, &full); err != nil {
		t.Fatal(err)
	}
	g := mill.NewGame(mill.MustRules("nine-mens-morris"))
	for _, m := range full.State.Moves {
		if err := g.PlayText(m); err != nil {
			t.Fatal(err)
		}
	}
	if g.Outcome() == mill.NoOutcome {
		pos := g.Position()
		m := pos.Moves(nil)[0]
		tok := ann
		if pos.SideToMove() == mill.Black {
			tok = bob
		}
		if _, err := p2.call(context.Background(), "POST", fmt.Sprintf("/api/game/%d/move", ids[0]), tok,
			map[string]any{"move": pos.MoveText(m), "ply": full.State.Ply}, nil); err != nil {
			t.Errorf("a move after the restart: %v", err)
		}
	}
}

// TestServeTablebases: serve -tablebases opens the databases of morris solve
// once, and the analysis answers with their result; /metrics counts their
// hits. A directory that holds none stops the start with a clear error.
func TestServeTablebases(t *testing.T) {
	dir := t.TempDir()
	tb := filepath.Join(dir, "egdb")
	if _, errOut, err := solve("-variant", "nine-mens-morris", "-sectors", "3v3", "-dir", tb); err != nil {
		t.Fatalf("solve: %v\n%s", err, errOut)
	}
	db, err := egdb.Open(tb)
	if err != nil {
		t.Fatal(err)
	}
	// A position the databases call won in 11 plies or more.
	r := db.Rules()
	rng := rand.New(rand.NewPCG(9, 9))
	var won mill.Position
	var v egdb.Value
	for tries := 0; tries < 100000 && v.Plies == 0; tries++ {
		perm := rng.Perm(r.Board().Len())
		p, _ := r.SetUp(1<<perm[0]|1<<perm[1]|1<<perm[2], 1<<perm[3]|1<<perm[4]|1<<perm[5], mill.White, 0, 0)
		if pv, ok := db.Value(p); ok && pv.Result == egdb.Win && pv.Plies >= 11 {
			won, v = p, pv
		}
	}
	if v.Plies == 0 {
		t.Fatal("no won 3v3 position found")
	}

	p := startServer(t, "-data", filepath.Join(dir, "data"), "-tablebases", tb)
	var an struct {
		ScoreText, Tablebase string
		TBHits               uint64
	}
	if _, err := p.call(context.Background(), "POST", "/api/analysis", "", map[string]any{"position": won.String(), "depth": 3}, &an); err != nil {
		t.Fatal(err)
	}
	if want := search.ScoreText(search.Mate - v.Plies); an.ScoreText != want || an.Tablebase != v.String() || an.TBHits == 0 {
		t.Errorf("analysis of %s (%s): got %+v, want %s", won, v, an, want)
	}
	_, metrics, err := p.get(context.Background(), "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(metrics, "morris_tablebase_hits_total ") || strings.Contains(metrics, "morris_tablebase_hits_total 0\n") {
		t.Errorf("/metrics: no tablebase hits counted")
	}

	empty := t.TempDir()
	t.Setenv("MORRIS_TABLEBASES", empty)
	for _, args := range [][]string{{"-tablebases", filepath.Join(dir, "missing")}, {}} {
		var errb bytes.Buffer
		code := run(context.Background(), append([]string{"serve", "-addr", freeAddr(t), "-pbm-addr", "", "-data", filepath.Join(dir, "bad")}, args...), strings.NewReader(""), io.Discard, &errb)
		if code != exitUsage || !strings.Contains(errb.String(), "-tablebases") {
			t.Errorf("serve %v (MORRIS_TABLEBASES=%s): exit %d, %q; want %d and a message about -tablebases", args, empty, code, errb.String(), exitUsage)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "bad")); err == nil {
		t.Errorf("a failed start made the data folder")
	}
	if code := run(context.Background(), []string{"serve", "-tablebases", "", "-engine-hash", "0"}, strings.NewReader(""), io.Discard, io.Discard); code != exitUsage {
		t.Errorf("serve -engine-hash 0: exit %d, want %d", code, exitUsage)
	}
}

// TestServeLogsNoPassword: the DSN of -db is logged and printed without
// its password, whether it is in the user part or in the query, when the
// store opens and when it cannot be reached.
func TestServeLogsNoPassword(t *testing.T) {
	const secret = "hunter2sekrit"
	cases := []struct {
		name string
		dsn  func(t *testing.T) string
		ok   bool // the store opens
	}{
		{"unreachable, password in the query", func(*testing.T) string {
			return "postgres://morris@127.0.0.1:1/morris?connect_timeout=1&password=" + secret
		}, false},
		{"unreachable, password in the user part", func(*testing.T) string {
			return "postgres://morris:" + secret + "@127.0.0.1:1/morris?connect_timeout=1"
		}, false},
		{"PostgreSQL, password in the query", func(t *testing.T) string {
			// The test database's own password, moved to the query, and
			// a second password parameter that only the log could show.
			u, err := url.Parse(storetest.DSN(t, "postgres"))
			if err != nil {
				t.Fatal(err)
			}
			q := u.Query()
			if pw, ok := u.User.Password(); ok {
				q.Set("password", pw)
				u.User = url.User(u.User.Username())
			}
			q.Set("sslpassword", secret)
			u.RawQuery = q.Encode()
			return u.String()
		}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dsn := c.dsn(t)
			var logs, stdout storetest.Log
			log := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			addr := freeAddr(t)
			done := make(chan error, 1)
			go func() {
				done <- serve(ctx, serveConfig{addr: addr, data: t.TempDir(), db: dsn, workers: 1, trusted: nil}, log, &stdout)
			}()
			var err error
			if c.ok {
				for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
					if resp, err := http.Get("http://" + addr + "/healthz"); err == nil {
						resp.Body.Close()
						if resp.StatusCode == 200 {
							break
						}
					}
					if time.Now().After(deadline) {
						t.Fatalf("the server did not start:\n%s", logs.String())
					}
				}
				cancel()
			}
			if err = <-done; (err == nil) != c.ok {
				t.Fatalf("serve: %v, want ok %v", err, c.ok)
			}
			all := logs.String() + stdout.String() + fmt.Sprint(err)
			if !strings.Contains(all, "127.0.0.1") {
				t.Errorf("the log does not say where the store is:\n%s", all)
			}
			pw := secret
			if u, _ := url.Parse(dsn); u.Query().Get("password") != "" {
				pw = u.Query().Get("password")
			}
			for _, s := range []string{secret, "password=" + pw} {
				if strings.Contains(all, s) {
					t.Errorf("the log or the output shows %q:\n%s", s, all)
				}
			}
		})
	}
}
