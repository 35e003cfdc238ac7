package record

import (
	"errors"
	"fmt"
	"io"

	"github.com/morrisgame/morris/mill"
)

// Replay reads the records of r, replays each, and writes one line per game
// to w: "game 1: 57 moves, 1-0 by blocked, ok", or the game's error. It
// returns an error if a game is bad or the stream does not parse (it stops
// there: the games after a syntax error are not read).
func Replay(r io.Reader, w io.Writer) error {
	sc := NewScanner(r)
	n, bad := 0, 0
	for sc.Scan() {
		n++
		rec := sc.Record()
		g, err := rec.Game()
		if err != nil {
			bad++
			var re *ReplayError
			if errors.As(err, &re) && re.Line > 0 {
				fmt.Fprintf(w, "game %d: %v\n", n, err)
			} else {
				fmt.Fprintf(w, "game %d (line %d): %v\n", n, rec.Line, err)
			}
			continue
		}
		fmt.Fprintf(w, "game %d: %s, ok\n", n, Summary(g))
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintf(w, "game %d: %v\n", n+1, err)
		return fmt.Errorf("game %d: %w", n+1, err)
	}
	if bad > 0 {
		return fmt.Errorf("record: %d of %d games have errors", bad, n)
	}
	return nil
}

// Summary describes a game in a few words: "57 moves, 1-0 by blocked",
// "12 moves, * (unfinished)".
func Summary(g *mill.Game) string {
	n := len(g.Moves())
	s := fmt.Sprintf("%d moves", n)
	if n == 1 {
		s = "1 move"
	}
	switch o, how := g.Outcome(), g.Method(); {
	case o == mill.NoOutcome:
		return s + ", * (unfinished)"
	case how == mill.NoMethod:
		return s + ", " + o.String()
	default:
		return s + ", " + o.String() + " by " + how.String()
	}
}
