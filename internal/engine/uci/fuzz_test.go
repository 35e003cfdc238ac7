package uci

import (
	"bufio"
	"context"
	"strconv"
	"strings"
	"testing"
	"time"
)

// FuzzRun feeds command lines to the engine: it never panics, never hangs
// (each run gets a short deadline, and must return soon after it), answers
// each go at most once, and writes only whole lines of the protocol.
func FuzzRun(f *testing.F) {
	for _, s := range []string{
		"uci\nisready\nposition startpos moves d6 d5\ngo depth 2\n",
		"setoption name Variant value shah\nposition startpos seed 3 moves a1 a4\ngo nodes 500\n",
		"position shah WWBBBBBW/WWWWWBBB/WBWWBWBB b 0,0 xb 0 24 moves xd2\ngo depth 2\ngo perft 2\n",
		"position nine-mens-morris W7/1W2B2B/8 b 0,0 - 0 40\ngo depth 3\n",
		"setoption name Level value 1\nposition startpos\ngo depth 3\nucinewgame\ngo movetime 5\n",
		"setoption name Rules value flying=never,protection=always\nposition startpos moves a1 d1\ngo wtime 50 btime 50 winc 1 binc 1 movestogo 3\n",
		"go infinite\nstop\ngo infinite\nisready\nquit\n",
		"position twelve-mens-morris-large 1B1W4/BBBBB3/W1B3W1/1B1B2W1 w 0,0 - 2 40\ngo depth 2\n",
		"position startpos moves d6 d6\nposition 1 2 3 4 5 6 7\nsetoption name Hash value x\ngo depth 0\nfoo\n",
		"go perft 9\nstop\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, script string) {
		if expensive(script) {
			t.Skip("a big table or many threads: slow, not wrong")
		}
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		out := newSink()
		done := make(chan error, 1)
		go func() { done <- Run(ctx, strings.NewReader(script), out, WithSeed(1), WithHash(1)) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("Run did not return 10s after a deadline of 100ms: %q", script)
		}
		gos, bestmoves := 0, 0
		sc := bufio.NewScanner(strings.NewReader(script))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			if f := strings.Fields(sc.Text()); len(f) > 0 && f[0] == "go" {
				gos++
			}
		}
		for len(out.ch) > 0 {
			l := <-out.ch
			if strings.Contains(l, "\n") || l == "" {
				t.Fatalf("a broken line %q", l)
			}
			if isBestmove(l) {
				bestmoves++
			}
		}
		if bestmoves > gos {
			t.Fatalf("%d bestmoves for %d go commands: %q", bestmoves, gos, script)
		}
	})
}

// expensive reports scripts that ask for a big table or many threads: they
// take memory and time, and the fuzzer finds nothing in them.
func expensive(script string) bool {
	for _, line := range strings.Split(script, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || f[0] != "setoption" {
			continue
		}
		name := strings.ToLower(line)
		if !strings.Contains(name, "hash") && !strings.Contains(name, "threads") {
			continue
		}
		if n, err := strconv.Atoi(f[len(f)-1]); err == nil && n > 4 {
			return true
		}
	}
	return false
}
