package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/morrisgame/morris/internal/server"
)

// TestQuotaFlags: the quotas' flags reach the service's configuration,
// their defaults are the service's, and values that would shut honest
// players out or mean nothing are refused before anything starts.
func TestQuotaFlags(t *testing.T) {
	parse := func(args ...string) (quotaConfig, error) {
		fs := flag.NewFlagSet("serve", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		read := quotaFlags(fs)
		if err := fs.Parse(args); err != nil {
			return quotaConfig{}, err
		}
		return read()
	}
	q, err := parse()
	if err != nil {
		t.Fatal(err)
	}
	var cfg server.Config
	q.apply(&cfg)
	if cfg.Quotas != server.DefaultQuotas || cfg.Rates != server.DefaultRates {
		t.Errorf("the defaults: got %+v and %+v, want the service's", cfg.Quotas, cfg.Rates)
	}
	q, err = parse("-vacation-days", "30", "-chat-rate", "0.5", "-chat-after-end", "1m", "-chat-kept", "300", "-draw-offer-plies", "10",
		"-takeback-delay", "5s", "-analysis-queue", "4", "-analysis-per-address", "2", "-review-rate", "36", "-reviews-per-address", "5", "-puzzle-rate", "2")
	if err != nil {
		t.Fatal(err)
	}
	cfg = server.Config{}
	q.apply(&cfg)
	want := server.DefaultQuotas
	want.VacationDays, want.ChatAfterEnd, want.ChatKept, want.DrawOfferPlies, want.TakebackDelay = 30, time.Minute, 300, 10, 5*time.Second
	want.AnalysisQueue, want.AnalysisPerAddress, want.ReviewsQueued = 4, 2, 5
	if cfg.Quotas != want {
		t.Errorf("quotas: got %+v, want %+v", cfg.Quotas, want)
	}
	if cfg.Rates.Chat != 0.5 || cfg.Rates.Review != 0.01 || cfg.Rates.Puzzle != 2 || cfg.Rates.Command != server.DefaultRates.Command {
		t.Errorf("rates: got %+v", cfg.Rates)
	}
	q, err = parse("-clubs-led", "0", "-clubs-joined", "20", "-club-requests", "3", "-club-rate", "86.4")
	if err != nil {
		t.Fatal(err)
	}
	cfg = server.Config{}
	q.apply(&cfg)
	if g := cfg.Quotas; g.ClubsLed != -1 || g.ClubsJoined != 20 || g.ClubRequests != 3 || cfg.Rates.Club != 0.001 || cfg.Rates.ClubBurst != 5 {
		t.Errorf("club quotas: got %+v and rate %v, burst %v", g, cfg.Rates.Club, cfg.Rates.ClubBurst)
	}
	q, err = parse("-tournaments", "0", "-tournaments-joined", "3", "-tournament-rate", "8.64")
	if err != nil {
		t.Fatal(err)
	}
	cfg = server.Config{}
	q.apply(&cfg)
	if g := cfg.Quotas; g.Tournaments != -1 || g.TournamentsJoined != 3 || cfg.Rates.Tournament != 0.0001 || cfg.Rates.TournamentBurst != 5 {
		t.Errorf("tournament quotas: got %+v and rate %v, burst %v", g, cfg.Rates.Tournament, cfg.Rates.TournamentBurst)
	}
	for _, args := range [][]string{
		{"-tournaments", "-1"}, {"-tournaments-joined", "-1"}, {"-tournament-rate", "0"},
		{"-vacation-days", "0"}, {"-vacation-days", "400"}, {"-chat-rate", "0"}, {"-chat-after-end", "0s"}, {"-chat-kept", "10"},
		{"-draw-offer-plies", "0"}, {"-takeback-delay", "0s"}, {"-analysis-queue", "0"}, {"-analysis-per-address", "0"},
		{"-analysis-queue", "2", "-analysis-per-address", "3"}, {"-review-rate", "-1"}, {"-reviews-per-address", "0"}, {"-puzzle-rate", "0"},
		{"-clubs-led", "-1"}, {"-clubs-joined", "-1"}, {"-club-requests", "-1"}, {"-club-rate", "0"},
	} {
		if _, err := parse(args...); err == nil || !strings.Contains(err.Error(), args[len(args)-2]) {
			t.Errorf("%v: got %v, want an error naming %s", args, err, args[len(args)-2])
		}
	}
	if code := run(context.Background(), []string{"serve", "-pbm-addr", "", "-analysis-queue", "0"}, strings.NewReader(""), io.Discard, io.Discard); code != exitUsage {
		t.Errorf("serve -analysis-queue 0: exit %d, want %d", code, exitUsage)
	}
}

// TestServeQuotas: the quota flags of morris serve reach both gateways.
// With -streams-per-addr 2, a pbmserv TCP connection and an HTTP stream
// from one address fill it: one more stream is refused 429 with a
// Retry-After, one more TCP connection is told why and closed; with
// -engine-games 1 a second game against the engine is refused 409.
func TestServeQuotas(t *testing.T) {
	pbmAddr := freeAddr(t)
	p := startServer(t, "-data", filepath.Join(t.TempDir(), "data"), "-pbm-addr", pbmAddr, "-streams-per-addr", "2", "-engine-games", "1")
	tok := p.account(t, "ann")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	// dialPBM returns the first line the pbmserv port sends.
	dialPBM := func() (net.Conn, string) {
		t.Helper()
		c, err := net.Dial("tcp", pbmAddr)
		if err != nil {
			t.Fatal(err)
		}
		_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
		line, _ := bufio.NewReader(c).ReadString('\n')
		return c, line
	}
	stream := func() *http.Response {
		t.Helper()
		req, _ := http.NewRequestWithContext(ctx, "GET", "http://"+p.addr+"/api/stream/event", nil)
		req.Header.Set("Authorization", "Bearer "+tok)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	tcp, greeting := dialPBM()
	defer tcp.Close()
	if !strings.HasPrefix(greeting, "morris pbmserv gateway") {
		t.Fatalf("the first pbmserv connection: got %q, want the greeting", greeting)
	}
	first := stream()
	defer first.Body.Close()
	if first.StatusCode != 200 {
		t.Fatalf("the first stream: got %d, want 200", first.StatusCode)
	}
	third := stream()
	if third.StatusCode == 200 {
		third.Body.Close()
		t.Fatal("a second stream beside a pbmserv connection, 2 per address: got 200, want 429")
	}
	body, _ := io.ReadAll(third.Body)
	third.Body.Close()
	if third.StatusCode != 429 || third.Header.Get("Retry-After") == "" || !strings.Contains(string(body), "holds 2 streams and connections") {
		t.Errorf("a third connection by HTTP: got %d (Retry-After %q) %s, want 429 with Retry-After and why", third.StatusCode, third.Header.Get("Retry-After"), body)
	}
	c, line := dialPBM()
	c.Close()
	if want := "error: this address holds 2 connections and streams, its most: closing the connection\n"; line != want {
		t.Errorf("a third connection by pbmserv: got %q, want %q", line, want)
	}

	body1 := map[string]any{"level": 1, "color": "white"}
	if _, err := p.call(ctx, "POST", "/api/challenge/ai", tok, body1, nil); err != nil {
		t.Fatal(err)
	}
	code, err := p.call(ctx, "POST", "/api/challenge/ai", tok, body1, nil)
	if code != 409 || err == nil || !strings.Contains(err.Error(), "against the engine already") {
		t.Errorf("a second engine game with -engine-games 1: got %d %v, want 409 and why", code, err)
	}
}

// TestServeQuotaFlags: a quota flag out of range is a usage error, before
// anything opens.
func TestServeQuotaFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-streams-per-addr", "-1"},
		{"-engine-games", "-2"},
		{"-open-challenges", "-1"},
		{"-engine-abandon", "-1h"},
		{"-challenge-expiry", "30s"},
		{"-realtime-expiry", "-5m"},
	} {
		err := cmdServe(context.Background(), append(args, "-data", filepath.Join(t.TempDir(), "data"), "-addr", "127.0.0.1:0", "-pbm-addr", ""), nil, io.Discard, io.Discard)
		var ue usageError
		if !errors.As(err, &ue) {
			t.Errorf("%q: got %v, want a usage error", args, err)
		}
	}
}
