package uci

import (
	"context"
	"strings"
	"testing"
)

// TestOwnBook: from the start, level 10 answers from the built-in book (an
// info line of no nodes, then bestmove) unless OwnBook is off; a go depth
// always searches.
func TestOwnBook(t *testing.T) {
	for _, tc := range []struct {
		name     string
		setup    []string
		go_      string
		fromBook bool
	}{
		{"default", nil, "go movetime 5000", true},
		{"off", []string{"setoption name OwnBook value false"}, "go movetime 200", false},
		{"off then on", []string{"setoption name OwnBook value false", "setoption name OwnBook value true"}, "go movetime 5000", true},
		{"go depth", nil, "go depth 3", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			e := startEngine(t, ctx)
			e.send(t, tc.setup...)
			e.send(t, "position startpos", tc.go_)
			lines := e.until(t, isBestmove)
			book := len(lines) == 2 && strings.Contains(lines[0], " nodes 0 ")
			if book != tc.fromBook {
				t.Errorf("%s: from the book %v, want %v:\n%s", tc.go_, book, tc.fromBook, strings.Join(lines, "\n"))
			}
		})
	}
}
