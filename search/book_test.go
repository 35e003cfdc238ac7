package search

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/morrisgame/morris/book"
	"github.com/morrisgame/morris/mill"
)

// TestChooseFromBook: levels from BookLevel up play the book's moves at
// once (level 10 its best), the levels below and a search of a fixed depth
// search, and a position outside the book is searched.
func TestChooseFromBook(t *testing.T) {
	r := mill.MustRules("nine-mens-morris")
	start := r.Start()
	var b book.Book
	// Every placement of the start, d6 (and its images) the best for
	// white: the children are scored for black, the side to move in them.
	d6, err := start.ParseMove("d6")
	if err != nil {
		t.Fatal(err)
	}
	best, _ := start.Play(d6).Canonical()
	for _, m := range start.Moves(nil) {
		score := 20
		if c, _ := start.Play(m).Canonical(); c == best {
			score = -50
		}
		b.Add(start.Play(m), score, 16)
	}
	e := New(Options{HashMB: 4, Book: &b})
	rng := rand.New(rand.NewPCG(1, 2))
	choose := func(level int, lim Limits, p mill.Position) Result {
		return e.Choose(context.Background(), []mill.Position{p}, LevelFor(level), lim, rng, nil)
	}

	// d6 and its three images under the board's symmetries score the same.
	for range 20 {
		res := choose(10, Limits{}, start)
		c, _ := start.Play(res.Move).Canonical()
		if c != best || res.Nodes != 0 || res.Score != 50 || res.Depth != 16 {
			t.Fatalf("level 10 at the start: got %s score %d depth %d after %d nodes, want the book's d6 or an image of it (50, depth 16) without a search",
				start.MoveText(res.Move), res.Score, res.Depth, res.Nodes)
		}
	}
	if res := choose(BookLevel-1, Limits{}, start); res.Nodes == 0 {
		t.Errorf("level %d played %s from the book, want a search", BookLevel-1, start.MoveText(res.Move))
	}
	if res := choose(10, Limits{Depth: 3}, start); res.Nodes == 0 || res.Depth != 3 {
		t.Errorf("level 10 with depth 3: got depth %d after %d nodes, want a search of depth 3", res.Depth, res.Nodes)
	}
	after := start.Play(start.Moves(nil)[0])
	if res := choose(10, Limits{Depth: 2}, after); res.Nodes == 0 {
		t.Errorf("a position outside the book: played %s without a search", after.MoveText(res.Move))
	}

	// Databases that call the start a draw and d6 (and its images) a loss:
	// the book plays its best of the other moves, at once.
	tb := TablebaseFunc(func(p mill.Position) (int, int, bool) {
		if c, _ := p.Canonical(); c == best {
			return 1, -1, true // won for black, to move there
		}
		return 0, 0, p.Ply() <= 1
	})
	e = New(Options{HashMB: 4, Book: &b, Tablebase: tb})
	for range 20 {
		res := choose(10, Limits{}, start)
		if c, _ := start.Play(res.Move).Canonical(); c == best || res.Nodes != 0 || res.Score != -20 {
			t.Fatalf("level 10 at the start, d6 lost: got %s score %d after %d nodes, want another book move (-20) without a search",
				start.MoveText(res.Move), res.Score, res.Nodes)
		}
	}
}
