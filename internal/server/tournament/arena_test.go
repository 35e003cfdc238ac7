package tournament

import (
	"fmt"
	"slices"
	"testing"
)

func TestArenaScore(t *testing.T) {
	const win, draw, loss = 1.0, 0.5, 0.0
	g := func(score float64) ArenaGame { return ArenaGame{Score: score, Plies: 40} }
	berserk := func(score float64, plies int) ArenaGame { return ArenaGame{Score: score, Berserk: true, Plies: plies} }
	tests := []struct {
		name   string
		games  []ArenaGame
		points []int
		fire   bool
	}{
		{"nothing", nil, nil, false},
		{"win draw loss", []ArenaGame{g(win), g(draw), g(loss)}, []int{2, 1, 0}, false},
		// The third win is on fire (4), and so is the draw that ends
		// the streak (2); the next win starts a new streak.
		{"streak", []ArenaGame{g(win), g(win), g(win), g(draw), g(win), g(loss)}, []int{2, 2, 4, 2, 2, 0}, false},
		{"on fire", []ArenaGame{g(win), g(win)}, []int{2, 2}, true},
		{"fire out by a loss", []ArenaGame{g(win), g(win), g(win), g(loss), g(win)}, []int{2, 2, 4, 0, 2}, false},
		// Berserk wins add one point, not doubled, when long enough
		// (14 plies here); a berserk draw or loss adds nothing.
		{"berserk", []ArenaGame{berserk(win, 30), berserk(win, 13), berserk(win, 14), berserk(draw, 40), berserk(loss, 40)}, []int{3, 2, 5, 2, 0}, false},
	}
	a := Arena{BerserkMinPlies: 14}
	for _, tt := range tests {
		got := a.Score(tt.games)
		total := 0
		for _, p := range tt.points {
			total += p
		}
		if !slices.Equal(got.Points, tt.points) || got.Total != total || got.OnFire != tt.fire {
			t.Errorf("%s: got %v total %d fire %v, want %v total %d fire %v", tt.name, got.Points, got.Total, got.OnFire, tt.points, total, tt.fire)
		}
	}
}

func formatGames(games []Game) string {
	s := ""
	for _, g := range games {
		s += fmt.Sprintf("%d-%d ", g.White, g.Black)
	}
	return s
}

func TestPairArena(t *testing.T) {
	p := func(id PlayerID, points int, last PlayerID, colourDiff int) ArenaPlayer {
		return ArenaPlayer{ID: id, Points: points, Rating: 1500, LastOpponent: last, ColourDiff: colourDiff}
	}
	tests := []struct {
		name    string
		waiting []ArenaPlayer
		want    string
	}{
		{"none", nil, ""},
		{"alone", []ArenaPlayer{p(1, 0, 0, 0)}, ""},
		// Neighbours by points; the higher-ranked has white when even.
		{"four", []ArenaPlayer{p(4, 1, 0, 0), p(1, 10, 0, 0), p(3, 4, 0, 0), p(2, 8, 0, 0)}, "1-2 3-4 "},
		// Whoever had white less often has it.
		{"colours", []ArenaPlayer{p(1, 10, 0, 1), p(2, 8, 0, 0), p(3, 4, 0, -1), p(4, 1, 0, -2)}, "2-1 4-3 "},
		// The last of an odd number waits.
		{"five", []ArenaPlayer{p(1, 10, 0, 0), p(2, 8, 0, 0), p(3, 4, 0, 0), p(4, 1, 0, 0), p(5, 0, 0, 0)}, "1-2 3-4 "},
		// 1 and 2 just played: 1 meets 3, 2 meets 4 (1-4 and 2-3
		// costs the same; the matching's choice is kept stable here).
		{"no rematch", []ArenaPlayer{p(1, 10, 2, 0), p(2, 8, 1, 0), p(3, 4, 0, 0), p(4, 1, 0, 0)}, "1-3 2-4 "},
		// Two players who just played each other are the only choice.
		{"only choice", []ArenaPlayer{p(1, 10, 2, 0), p(2, 8, 1, 0)}, "1-2 "},
		// Of three, with 1 and 2 just played, 3 does not wait.
		{"three", []ArenaPlayer{p(1, 10, 2, 0), p(2, 8, 1, 0), p(3, 4, 0, 0)}, "1-3 "},
	}
	for _, tt := range tests {
		games, err := PairArena(tt.waiting)
		if err != nil {
			t.Fatal(err)
		}
		if got := formatGames(games); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
	if _, err := PairArena([]ArenaPlayer{p(1, 0, 0, 0), p(1, 0, 0, 0)}); err == nil {
		t.Error("a player waiting twice: no error")
	}
}
