package review

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/search"
)

func TestJudge(t *testing.T) {
	for _, tc := range []struct {
		best, played int
		loss         int
		mark         Mark
	}{
		{30, 30, 0, Good},
		{30, 10, 20, Good},
		{30, 0, 30, Inaccuracy},
		{30, -30, 60, Mistake},
		{30, -100, 130, Blunder},
		{10, 40, 0, Good}, // a deeper look found the move better
		{search.Mate - 9, 200, -1, Blunder},
		{0, -(search.Mate - 5), -1, Blunder},
		{search.Mate - 5, search.Mate - 9, -1, Good},
		{-(search.Mate - 5), -(search.Mate - 3), -1, Good},
	} {
		loss, mark, _ := Judge(tc.best, tc.played)
		if loss != tc.loss || mark != tc.mark {
			t.Errorf("Judge(%d, %d) = %d %v, want %d %v", tc.best, tc.played, loss, mark, tc.loss, tc.mark)
		}
	}
}

// TestGame: a move that lets the opponent close a mill at once is a
// blunder, the engine's own moves lose nothing, and the summary counts them.
func TestGame(t *testing.T) {
	g := mill.NewGame(mill.MustRules("nine-mens-morris"))
	// White makes two in a row on a1-a4; black's reply lets white close
	// the mill; black then must answer the new threat.
	for _, m := range []string{"a1", "d6", "a4", "g1", "b2", "b6"} {
		if err := g.PlayText(m); err != nil {
			t.Fatal(err)
		}
	}
	e := search.New(search.Options{HashMB: 8, Threads: 1})
	var calls int
	moves, err := Game(context.Background(), e, g, search.Limits{Depth: 4}, func(done, total int) {
		calls++
		if done != calls || total != 6 {
			t.Errorf("progress %d of %d, call %d", done, total, calls)
		}
	})
	if err != nil || len(moves) != 6 || calls != 6 {
		t.Fatalf("%d moves, %d progress calls, %v", len(moves), calls, err)
	}
	// g1 leaves a7 open: white closes a1-a4-a7.
	if m := moves[3]; m.Mark != Blunder || m.Before.MoveText(m.Best) != "a7" {
		t.Errorf("g1: %v (best %s, loss %d), want a blunder with a7 best", m.Mark.Name(), m.Before.MoveText(m.Best), m.Loss)
	}
	for _, m := range moves {
		if m.Played == m.Best && m.Loss != 0 {
			t.Errorf("ply %d: the engine's own move lost %d", m.Ply, m.Loss)
		}
	}
	sum := Summarize(moves)
	if sum[mill.Black].Blunders == 0 || sum[mill.White].Moves != 3 || sum[mill.Black].Moves != 3 {
		t.Errorf("summary %+v", sum)
	}
}

// randomGame plays plies random moves of nine men's morris from the start
// (fewer if the game ends).
func randomGame(t *testing.T, seed uint64, plies int) *mill.Game {
	t.Helper()
	g := mill.NewGame(mill.MustRules("nine-mens-morris"))
	rng := rand.New(rand.NewPCG(seed, 0x4e71e3))
	for range plies {
		ms := g.Position().Moves(nil)
		if len(ms) == 0 || g.Outcome() != mill.NoOutcome {
			break
		}
		if err := g.Play(ms[rng.IntN(len(ms))]); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

// TestSameHorizon: whatever limits the review (a depth, nodes, a time),
// the move played is searched to one ply less than the best move's search,
// after it, so that both scores look as far ahead.
func TestSameHorizon(t *testing.T) {
	g := randomGame(t, 1, 40)
	for _, lim := range []search.Limits{{Depth: 4}, {Nodes: 20000}, {MoveTime: 20 * time.Millisecond}} {
		e := search.New(search.Options{HashMB: 8, Threads: 1})
		moves, err := Game(context.Background(), e, g, lim, nil)
		if err != nil {
			t.Fatal(err)
		}
		searched := 0
		for _, m := range moves {
			if m.Played == m.Best || m.Depth <= 1 {
				continue
			}
			if m.Ply == len(moves)-1 && g.Outcome() != mill.NoOutcome {
				continue // the last move ended the game
			}
			searched++
			if m.PlayedDepth != m.Depth-1 && !search.IsMate(m.PlayedScore) {
				t.Errorf("%+v: ply %d: best at depth %d, the move played at %d", lim, m.Ply, m.Depth, m.PlayedDepth)
			}
		}
		if searched == 0 {
			t.Errorf("%+v: no move played but the best", lim)
		}
	}
}
