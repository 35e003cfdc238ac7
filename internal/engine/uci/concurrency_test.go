package uci

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

func isBestmove(l string) bool { return strings.HasPrefix(l, "bestmove ") }

// TestConcurrency drives the engine through a pipe while it searches:
// isready is answered during a search, stop ends it with one bestmove, a go
// during a search is refused, quit and the end of ctx stop a search and
// return. Run it with -race.
func TestConcurrency(t *testing.T) {
	t.Run("isready and stop", func(t *testing.T) {
		e := startEngine(t, context.Background(), WithThreads(2))
		e.send(t, "position startpos moves d6", "go infinite")
		// The search has started once it reports an iteration.
		e.until(t, func(l string) bool { return strings.HasPrefix(l, "info depth 1 ") })
		e.send(t, "isready")
		lines := e.until(t, func(l string) bool { return l == "readyok" || isBestmove(l) })
		if last := lines[len(lines)-1]; last != "readyok" {
			t.Fatalf("isready during go infinite: got %q before readyok", last)
		}
		e.send(t, "go depth 2", "setoption name Hash value 2", "ucinewgame")
		for _, want := range []string{"go depth 2", "setoption", "ucinewgame"} {
			lines = e.until(t, func(l string) bool { return strings.HasPrefix(l, "info string") || isBestmove(l) })
			if l := lines[len(lines)-1]; l != "info string error: "+errBusy.Error() {
				t.Fatalf("%s during a search: got %q, want the error %q", want, l, errBusy)
			}
		}
		e.send(t, "stop")
		e.until(t, isBestmove)
		// The engine is free again: the next go is answered once, and
		// nothing else comes from the stopped search.
		e.send(t, "go depth 2")
		lines = e.until(t, isBestmove)
		e.send(t, "isready")
		lines = append(lines, e.until(t, func(l string) bool { return l == "readyok" })...)
		if n := count(lines, isBestmove); n != 1 {
			t.Errorf("after stop, one go: %d bestmoves in %q", n, lines)
		}
		e.send(t, "quit")
		if err := e.wait(t); err != nil {
			t.Errorf("quit: Run = %v", err)
		}
	})

	t.Run("stop twice and stop when idle", func(t *testing.T) {
		e := startEngine(t, context.Background())
		e.send(t, "stop", "go depth 60", "stop", "stop", "isready")
		lines := e.until(t, func(l string) bool { return l == "readyok" })
		if !strings.Contains(strings.Join(lines, "\n"), "bestmove") {
			lines = append(lines, e.until(t, isBestmove)...)
		}
		e.send(t, "isready")
		lines = append(lines, e.until(t, func(l string) bool { return l == "readyok" })...)
		if n := count(lines, isBestmove); n != 1 {
			t.Errorf("go then stop twice: %d bestmoves in %q", n, lines)
		}
		e.send(t, "quit")
		e.wait(t)
	})

	t.Run("quit during a search", func(t *testing.T) {
		e := startEngine(t, context.Background())
		e.send(t, "go infinite")
		e.until(t, func(l string) bool { return strings.HasPrefix(l, "info depth 1 ") })
		start := time.Now()
		e.send(t, "quit")
		if err := e.wait(t); err != nil {
			t.Errorf("quit during a search: Run = %v", err)
		}
		if el := time.Since(start); el > 5*time.Second {
			t.Errorf("quit during a search took %v", el)
		}
		var rest []string
		for len(e.out.ch) > 0 {
			rest = append(rest, <-e.out.ch)
		}
		if n := count(rest, isBestmove); n != 1 {
			t.Errorf("quit during a search: %d bestmoves in %q, want 1", n, rest)
		}
	})

	t.Run("quit during a perft", func(t *testing.T) {
		e := startEngine(t, context.Background())
		e.send(t, "go perft 12", "quit")
		if err := e.wait(t); err != nil {
			t.Errorf("quit during a perft: Run = %v", err)
		}
	})

	t.Run("the end of ctx", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		e := startEngine(t, ctx)
		e.send(t, "go infinite")
		e.until(t, func(l string) bool { return strings.HasPrefix(l, "info depth 1 ") })
		cancel()
		if err := e.wait(t); !errors.Is(err, context.Canceled) {
			t.Errorf("the end of ctx: Run = %v, want context.Canceled", err)
		}
	})

	t.Run("many searches", func(t *testing.T) {
		e := startEngine(t, context.Background(), WithThreads(2))
		for i := 0; i < 20; i++ {
			e.send(t, "position startpos", "go movetime 5", "isready")
			lines := e.until(t, isBestmove)
			if count(lines, isBestmove) != 1 {
				t.Fatalf("search %d: %q", i, lines)
			}
		}
		e.send(t, "quit")
		e.wait(t)
	})
}

func count(lines []string, f func(string) bool) int {
	n := 0
	for _, l := range lines {
		if f(l) {
			n++
		}
	}
	return n
}
