package main

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"
)

// TestBenchServer runs the load generator at a tiny scale against the
// server it starts itself, so that the command keeps working; its figures
// are not checked (they are measurements, not facts).
func TestBenchServer(t *testing.T) {
	var out, errs bytes.Buffer
	code := run(context.Background(), []string{"bench-server", "-games", "4", "-users", "4", "-duration", "1s", "-warmup", "300ms", "-rate", "40"}, nil, &out, &errs)
	if code != exitOK {
		t.Fatalf("bench-server: exit %d\n%s%s", code, out.String(), errs.String())
	}
	if !regexp.MustCompile(`moves \d+ in 1\.0 s: \d+ moves/s; games finished \d+; errors 0 \(refused by a limit 0\)\n`).MatchString(out.String()) ||
		!strings.Contains(out.String(), "move latency: p50 ") ||
		!regexp.MustCompile(`seen on the game's stream: p50 .* \(\d+ moves; 0 never seen\)\n`).MatchString(out.String()) ||
		!regexp.MustCompile(`memory of http://127\.0\.0\.1:\d+: \d+ MB resident before the games`).MatchString(out.String()) {
		t.Errorf("bench-server printed:\n%s", out.String())
	}
	for _, args := range [][]string{{"-games", "0"}, {"-users", "1"}, {"-rate", "-1"}, {"-variant", "chess"}, {"-limits", "-url", "http://127.0.0.1:1"}} {
		var o, e bytes.Buffer
		if code := run(context.Background(), append([]string{"bench-server"}, args...), nil, &o, &e); code != exitUsage {
			t.Errorf("bench-server %v: exit %d, want %d", args, code, exitUsage)
		}
	}
}

// TestBenchServerLimits: with the server's own limits and quotas on and
// each user on an address of its own, honest play is never refused.
func TestBenchServerLimits(t *testing.T) {
	var out, errs bytes.Buffer
	code := run(context.Background(), []string{"bench-server", "-limits", "-games", "40", "-users", "20", "-duration", "2s", "-warmup", "500ms", "-rate", "200"}, nil, &out, &errs)
	if code != exitOK {
		t.Fatalf("bench-server -limits: exit %d\n%s%s", code, out.String(), errs.String())
	}
	if !regexp.MustCompile(`moves [1-9]\d* in 2\.0 s: \d+ moves/s; games finished \d+; errors 0 \(refused by a limit 0\)\n`).MatchString(out.String()) {
		t.Errorf("bench-server -limits printed:\n%s", out.String())
	}
}

// TestBenchMemoryLine: the memory line gives a figure a game only when the
// server grew; one that gave memory back says so instead of a negative
// size.
func TestBenchMemoryLine(t *testing.T) {
	for _, tc := range []struct {
		before, after float64
		games         int
		want          string
	}{
		{100e6, 160e6, 1000, "memory of S: 100 MB resident before the games, 160 MB with 1000 games going and 1000 streams open, 60.0 KB a game with its stream\n"},
		{330e6, 286e6, 2000, "memory of S: 330 MB resident before the games, 286 MB with 2000 games going and 1000 streams open; less than before, so no figure a game (too few games to outweigh what the server gave back)\n"},
		{100e6, 160e6, 0, "memory of S: 100 MB resident before the games, 160 MB with 0 games going and 1000 streams open\n"},
	} {
		r := benchResult{memory: []serverMemory{{base: "S", before: tc.before, after: tc.after, streams: 1000}}, games0: tc.games}
		var out bytes.Buffer
		r.print(&out)
		if got := out.String()[strings.Index(out.String(), "memory of"):]; got != tc.want {
			t.Errorf("before %v after %v games %d:\ngot  %q\nwant %q", tc.before, tc.after, tc.games, got, tc.want)
		}
	}
}
