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
	for _, args := range [][]string{{"-games", "0"}, {"-users", "1"}, {"-rate", "-1"}, {"-variant", "chess"}, {"-limits", "-url", "http://127.0.0.1:1"},
		{"-db", "postgres://x", "-url", "http://127.0.0.1:1"}, {"-warmup", "-1s"}, {"-duration", "0s"}, {"-url", "http://127.0.0.1:1", "extra"}} {
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
