package loadgen

import (
	"bytes"
	"context"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/morrisgame/morris/internal/server"
	"github.com/morrisgame/morris/internal/server/auth"
	"github.com/morrisgame/morris/internal/server/httpapi"
	"github.com/morrisgame/morris/internal/server/store"
)

// testServer starts a game server in the test's process, on SQLite in a
// temporary folder, without limits (as morris bench-server's own) and
// with its /metrics, and returns its URL.
func testServer(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "morris.db"))
	if err != nil {
		t.Fatal(err)
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	cfg := server.Config{Store: st, Hash: auth.Test, Rates: server.NoRates, Metrics: server.NewMetrics(reg)}
	cfg.Quotas.ConnsPerAddr, cfg.Quotas.EngineGames, cfg.Quotas.OpenChallenges = -1, -1, -1
	svc, err := server.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.Start(ctx); err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(httpapi.New(httpapi.Config{Service: svc, Registerer: reg,
		Metrics: promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg})}))
	t.Cleanup(func() { svc.CloseStreams(); ts.Close(); svc.Close(); st.Close() })
	return ts.URL
}

// TestRun generates a small load against a server and checks what it
// counts and reports; its figures are measurements, not facts, and are
// not checked.
func TestRun(t *testing.T) {
	c := Config{Bases: []string{testServer(t)}, Games: 4, Users: 4, Warmup: 300 * time.Millisecond, Duration: time.Second,
		Variant: "nine-mens-morris", Seed: 1, Rate: 40, Streams: true}
	if want := c.Bases[0] + ", 4 games, a stream a game, 4 users, 40 moves/s offered, 1s (after 300ms of warm-up)"; c.String() != want {
		t.Errorf("String: got %q, want %q", c.String(), want)
	}
	res, err := Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	if res.Moves == 0 || res.Moves != len(res.Latency) || res.Errors != 0 || res.Missed != 0 || len(res.Seen) == 0 {
		t.Errorf("got %d moves, %d latencies, %d errors, %d missed, %d seen; want moves, one latency each, no errors, none missed",
			res.Moves, len(res.Latency), res.Errors, res.Missed, len(res.Seen))
	}
	var out bytes.Buffer
	if _, err := res.WriteTo(&out); err != nil {
		t.Fatal(err)
	}
	for _, re := range []string{
		`^moves \d+ in 1\.0 s: \d+ moves/s; games finished \d+; errors 0 \(refused by a limit 0\)\n`,
		`\nmove latency: p50 \d+\.\d\d ms, p90 \d+\.\d\d ms, p99 \d+\.\d\d ms, max \d+\.\d\d ms\n`,
		`\nseen on the game's stream: p50 .* \(\d+ moves; 0 never seen\)\n`,
		`\nmemory of http://127\.0\.0\.1:\d+: \d+ MB resident before the games, \d+ MB with \d+ games going and \d+ streams open`,
	} {
		if !regexp.MustCompile(re).MatchString(out.String()) {
			t.Errorf("the report does not match %s:\n%s", re, out.String())
		}
	}
}

// TestRunCancelled: a run whose context has ended stops at once.
func TestRunCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	c := Config{Bases: []string{testServer(t)}, Games: 2, Users: 2, Duration: time.Minute, Variant: "nine-mens-morris"}
	start := time.Now()
	if _, err := Run(ctx, c); err == nil {
		t.Errorf("Run with a cancelled context: no error")
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("Run with a cancelled context took %v", d)
	}
}

func TestValidate(t *testing.T) {
	good := Config{Bases: []string{"http://127.0.0.1:1"}, Games: 1, Users: 2, Duration: time.Second, Variant: "nine-mens-morris"}
	if err := good.Validate(); err != nil {
		t.Fatalf("%+v: %v", good, err)
	}
	for _, tc := range []struct {
		change func(*Config)
		want   string
	}{
		{func(c *Config) { c.Bases = nil }, "no server"},
		{func(c *Config) { c.Games = 0 }, "0 games"},
		{func(c *Config) { c.Users = 1 }, "1 users"},
		{func(c *Config) { c.Duration = 0 }, "measured span of 0s"},
		{func(c *Config) { c.Warmup = -time.Second }, "warm-up of -1s"},
		{func(c *Config) { c.Rate = -1 }, "rate of -1"},
		{func(c *Config) { c.Variant = "chess" }, "chess"},
		{func(c *Config) { c.OwnAddrs, c.Users = true, MaxOwnAddrs+1 }, "at most 50000 users"},
	} {
		c := good
		tc.change(&c)
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: got %v, want an error with %q", c, err, tc.want)
		}
	}
}

// TestMemoryLine: the memory line gives a figure a game only when the
// server grew; one that gave memory back says so instead of a negative
// size.
func TestMemoryLine(t *testing.T) {
	for _, tc := range []struct {
		before, after float64
		games         int
		want          string
	}{
		{100e6, 160e6, 1000, "memory of S: 100 MB resident before the games, 160 MB with 1000 games going and 1000 streams open, 60.0 KB a game with its stream\n"},
		{330e6, 286e6, 2000, "memory of S: 330 MB resident before the games, 286 MB with 2000 games going and 1000 streams open; less than before, so no figure a game (too few games to outweigh what the server gave back)\n"},
		{100e6, 160e6, 0, "memory of S: 100 MB resident before the games, 160 MB with 0 games going and 1000 streams open\n"},
	} {
		r := Result{Memory: []ServerMemory{{Base: "S", Before: tc.before, After: tc.after, Streams: 1000}}, GamesGoing: tc.games}
		var out bytes.Buffer
		r.WriteTo(&out)
		if got := out.String()[strings.Index(out.String(), "memory of"):]; got != tc.want {
			t.Errorf("before %v after %v games %d:\ngot  %q\nwant %q", tc.before, tc.after, tc.games, got, tc.want)
		}
	}
}
