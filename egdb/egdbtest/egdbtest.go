// Package egdbtest builds small endgame databases for tests of the packages
// that read them (puzzles, the search, the server), so that each test need
// not spell out the build and the open.
package egdbtest

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/morrisgame/morris/egdb"
	"github.com/morrisgame/morris/mill"
)

// Build solves the sectors keys (3v3 if none) of rules r into a temporary
// directory, opens it, and closes it when the test ends. It returns the
// databases and their directory.
func Build(t testing.TB, r *mill.Rules, keys ...egdb.Key) (*egdb.DB, string) {
	t.Helper()
	if len(keys) == 0 {
		keys = []egdb.Key{{White: 3, Black: 3}}
	}
	dir := t.TempDir()
	if _, err := (egdb.Builder{Rules: r, Dir: dir, Keys: keys}).Build(context.Background()); err != nil {
		t.Fatal(err)
	}
	db, err := egdb.Open(dir, egdb.ForRules(r))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, dir
}

// RandomPosition draws a position of rules r with w pieces of White and b
// of Black on the board, none in hand, White to move, that is not over.
func RandomPosition(rng *rand.Rand, r *mill.Rules, w, b int) mill.Position {
	for {
		perm := rng.Perm(r.Board().Len())
		var W, B mill.Points
		for _, i := range perm[:w] {
			W |= 1 << i
		}
		for _, i := range perm[w : w+b] {
			B |= 1 << i
		}
		if p, err := r.SetUp(W, B, mill.White, 0, 0); err == nil {
			if o, _ := p.Status(); o == mill.NoOutcome {
				return p
			}
		}
	}
}
