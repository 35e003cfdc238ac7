package search

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/morrisgame/morris/mill"
)

// TestSmallBoards checks the engine at full strength (level 10, at a fixed
// depth to keep the test short) on the small boards, where a mill ends the
// game (three men's morris, tapatan) or the board has 16 or 17 points: it
// takes a win in one, blocks a line the opponent would complete, and sees
// the game's end through Position.Status as a win or a loss.
func TestSmallBoards(t *testing.T) {
	for _, tc := range []struct {
		name, pos string
		best      []string // the moves that do it
		plies     int      // a win in this many plies; 0: not lost
	}{
		// White's c1 completes a1-b1-c1 (black threatens a2-b2-c2).
		{"three: placing wins", "three-mens-morris WW5B/B w 1,1 - 0 4", []string{"c1"}, 1},
		// Only c2-c1 completes a line; b1-c1 leaves b1.
		{"three: a step wins", "three-mens-morris WW1WB2B/B w 0,0 - 0 6", []string{"c2-c1"}, 1},
		// Black threatens a2-b2-c2: white must take c2 (and then wins
		// nothing at once, but loses nothing either).
		{"three: block", "three-mens-morris W3W2B/B w 1,1 - 0 4", []string{"c2"}, 0},
		// Tapatan: black threatens the diagonal c1-b2-a3; white takes a3.
		{"tapatan: block a diagonal", "tapatan W1B1W3/B w 1,1 - 0 4", []string{"a3"}, 0},
		// Tapatan: white steps along the diagonal to c3 and completes a1-b2-c3.
		{"tapatan: a diagonal step wins", "tapatan WB1W1B1B/W w 0,0 - 0 6", []string{"c2-c3"}, 1},
		// Six men's morris: e3-e1 closes a1-c1-e1 and leaves black two men.
		{"six: material in 1", "six-mens-morris WW1W1B1B/1B6 w 0,0 - 0 30", []string{"e3-e1xa3", "e3-e1xc2", "e3-e1xc5"}, 1},
		// Seven men's morris: d3-c3 closes c3-c4-c5 on the cross.
		{"seven: the cross in 1", "seven-mens-morris B1B1BW2/3W1W2/1 w 0,0 - 0 30", []string{"d3-c3xa1", "d3-c3xe1", "d3-c3xe5"}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := mill.ParsePosition(tc.pos)
			if err != nil {
				t.Fatal(err)
			}
			e := New(Options{HashMB: 4})
			rng := rand.New(rand.NewPCG(1, 2))
			res := e.Choose(context.Background(), []mill.Position{p}, LevelFor(10), Limits{Depth: 8}, rng, nil)
			got := p.MoveText(res.Move)
			if !p.Legal(res.Move) {
				t.Fatalf("%s: illegal move %v", tc.pos, res.Move)
			}
			if tc.best != nil && !contains(tc.best, got) {
				t.Errorf("%s: got %s (%s), want one of %v", tc.pos, got, ScoreText(res.Score), tc.best)
			}
			switch {
			case tc.plies > 0 && (!IsMate(res.Score) || res.Score < 0 || MatePlies(res.Score) != tc.plies):
				t.Errorf("%s: %s scores %s, want a win in %d", tc.pos, got, ScoreText(res.Score), tc.plies)
			case tc.plies == 0 && IsMate(res.Score) && res.Score < 0:
				t.Errorf("%s: %s scores %s, want no loss", tc.pos, got, ScoreText(res.Score))
			}
		})
	}
}

// TestLevelTenAgainstLevelOne plays level 10 (at a fixed depth) against
// level 1, with either colour where the game is not a forced win for the
// first player: the full-strength engine must never lose, and must win
// where mustWin says so. On the small boards: tapatan is a win for the first
// player, who opens in the centre (the engine finds it in 9 plies from the
// start): there level 10 moves first and must win; with the centre banned it
// plays both colours. The regional presets, where the same side often moves
// twice in a row (and Shah, where it does when placing ends), level 10 must
// win at a small depth.
func TestLevelTenAgainstLevelOne(t *testing.T) {
	games := 4
	if testing.Short() {
		games = 2
	}
	for _, tc := range []struct {
		rules     string
		depth     int  // level 10's depth
		firstOnly bool // level 10 moves first in every game
		mustWin   bool
	}{
		{"three-mens-morris", 10, false, false},
		{"tapatan", 10, true, true},
		{"tapatan,centre-ban=yes", 10, false, false},
		{"six-mens-morris", 10, false, false},
		{"seven-mens-morris", 10, false, false},
		{"dooz", 4, false, true},
		{"cheng-san-qi", 4, false, true},
		{"da-san-qi", 4, false, true},
		{"zhi-qi", 4, false, true},
		{"el-filja", 4, false, true},
		{"shah", 4, false, true},
	} {
		t.Run(tc.rules, func(t *testing.T) {
			r, err := mill.ParseRules(tc.rules)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(3, uint64(len(tc.rules))))
			strong, weak := New(Options{HashMB: 4}), New(Options{HashMB: 4})
			for gi := 0; gi < games; gi++ {
				g := mill.NewGame(r, mill.WithSeed(uint64(gi)))
				strongSide := mill.Color(gi % 2)
				if tc.firstOnly {
					strongSide = g.Position().SideToMove()
				}
				for g.Outcome() == mill.NoOutcome && len(g.Moves()) < 300 {
					side := g.Position().SideToMove()
					e, lv, lim := weak, LevelFor(1), Limits{Depth: 1}
					if side == strongSide {
						e, lv, lim = strong, LevelFor(10), Limits{Depth: tc.depth}
					}
					res := e.Choose(context.Background(), g.Positions(), lv, lim, rng, nil)
					if err := g.Play(res.Move); err != nil {
						t.Fatalf("game %d: %v in %s: %v", gi, res.Move, g.Position(), err)
					}
				}
				switch o := g.Outcome(); {
				case o == mill.Won(strongSide.Other()):
					t.Errorf("game %d: level 10 (%v) lost to level 1 by %v: %s", gi, strongSide, g.Method(), moveList(g))
				case tc.mustWin && o != mill.Won(strongSide):
					t.Errorf("game %d: level 10 (%v) did not win: %v by %v: %s", gi, strongSide, o, g.Method(), moveList(g))
				}
			}
		})
	}
}

func moveList(g *mill.Game) string {
	p := g.Start()
	var out []string
	for _, m := range g.Moves() {
		out = append(out, p.MoveText(m))
		p = p.Play(m)
	}
	return strings.Join(out, " ")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
