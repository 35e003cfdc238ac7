package main

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
)

// TestBenchServer runs the load generator at a tiny scale against the
// server it starts itself, so that the command keeps working; its figures
// are not checked (they are measurements, not facts).
func TestBenchServer(t *testing.T) {
	var out, errs bytes.Buffer
	code := run([]string{"bench-server", "-games", "4", "-users", "4", "-duration", "1s", "-warmup", "300ms", "-rate", "40"}, nil, &out, &errs)
	if code != exitOK {
		t.Fatalf("bench-server: exit %d\n%s%s", code, out.String(), errs.String())
	}
	if !regexp.MustCompile(`moves \d+ in 1\.0 s: \d+ moves/s; games finished \d+; errors 0\n`).MatchString(out.String()) ||
		!strings.Contains(out.String(), "move latency: p50 ") ||
		!regexp.MustCompile(`seen on the game's stream: p50 .* \(\d+ moves; 0 never seen\)\n`).MatchString(out.String()) ||
		!regexp.MustCompile(`memory of http://127\.0\.0\.1:\d+: \d+ MB resident before the games`).MatchString(out.String()) {
		t.Errorf("bench-server printed:\n%s", out.String())
	}
	for _, args := range [][]string{{"-games", "0"}, {"-users", "1"}, {"-rate", "-1"}, {"-variant", "chess"}} {
		var o, e bytes.Buffer
		if code := run(append([]string{"bench-server"}, args...), nil, &o, &e); code != exitUsage {
			t.Errorf("bench-server %v: exit %d, want %d", args, code, exitUsage)
		}
	}
}
