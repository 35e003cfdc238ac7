package review

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/mill/milltest"
	"github.com/morrisgame/morris/search"
)

func TestJudge(t *testing.T) {
	const mate = search.Mate
	for _, tc := range []struct {
		best, played int
		loss         int
		mark         Mark
		note         string
	}{
		{30, 30, 0, Good, ""},
		{30, 10, 20, Good, ""},
		{30, -5, 35, Inaccuracy, ""},
		{30, -30, 60, Mistake, ""},
		{30, -60, 90, Blunder, ""},
		{800, 600, 200, Good, ""},   // far ahead, still far ahead
		{-600, -800, 200, Good, ""}, // lost, still lost
		{10, 40, 0, Good, ""},       // a deeper look found the move better
		{mate - 9, 200, -1, Good, ""},
		{mate - 9, 50, -1, Blunder, "throws away a forced win"},
		{0, -(mate - 5), -1, Blunder, "walks into a forced loss"},
		{-100, -(mate - 5), -1, Mistake, "walks into a forced loss"},
		{-400, -(mate - 5), -1, Good, ""}, // the game was lost before it
		{mate - 5, mate - 9, -1, Good, ""},
		{-(mate - 5), -(mate - 3), -1, Good, ""},
	} {
		loss, mark, note := Judge(tc.best, tc.played, 150)
		if loss != tc.loss || mark != tc.mark || note != tc.note {
			t.Errorf("Judge(%d, %d) = %d %v %q, want %d %v %q", tc.best, tc.played, loss, mark, note, tc.loss, tc.mark, tc.note)
		}
	}
}

func TestChances(t *testing.T) {
	if Chances(search.Mate-3, 100) != 1 || Chances(-(search.Mate-3), 100) != -1 || Chances(0, 100) != 0 || Chances(200, 200) != Chances(100, 100) {
		t.Error("forced ends are ±1, an even score 0")
	}
	for s := -1500; s < 1500; s += 7 {
		if a, b := Chances(s, 100), Chances(s+7, 100); !(a <= b && a > -1 && b < 1) || Chances(-s, 100) != -a {
			t.Fatalf("Chances(%d) = %v, Chances(%d) = %v: not increasing, odd and inside (-1, 1)", s, a, s+7, b)
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
func randomGame(seed uint64, plies int) *mill.Game {
	return milltest.RandomGame(mill.MustRules("nine-mens-morris"), rand.New(rand.NewPCG(seed, 0x4e71e3)), plies)
}

// TestSameHorizon: whatever limits the review (a depth, nodes, a time),
// the move played is searched to one ply less than the best move's search,
// after it, so that both scores look as far ahead.
func TestSameHorizon(t *testing.T) {
	g := randomGame(1, 40)
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
