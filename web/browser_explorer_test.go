package web_test

import (
	"fmt"
	"strconv"
	"testing"
	"time"
)

// TestBrowserExplorer plays games through the API and opens the study
// board: the explorer shows, for the start and after a move played by a
// click on its row, exactly the games played (how many went on with each
// move, and how they ended), and the book's values of the first moves.
func TestBrowserExplorer(t *testing.T) {
	s := startSite(t)
	ann := s.account(t, "ann", "secret-ann")
	bob := s.account(t, "bob", "secret-bob")
	// Each game: ann white, the moves, then the loser resigns.
	games := []struct {
		moves  []string
		loser  string
		result string
	}{
		{[]string{"d6", "d5", "a4"}, bob, "1-0"},
		{[]string{"d6", "d5", "b4"}, ann, "0-1"},
		{[]string{"d6", "f4"}, ann, "0-1"},
		{[]string{"a1", "d5"}, bob, "1-0"},
	}
	for _, g := range games {
		var c struct{ ID int }
		s.call(t, "POST", "/api/challenge/bob", ann, map[string]any{"variant": "nine-mens-morris", "color": "white"}, &c)
		var acc struct{ Game int }
		s.call(t, "POST", fmt.Sprintf("/api/challenge/%d/accept", c.ID), bob, nil, &acc)
		for ply, m := range g.moves {
			tok := ann
			if ply%2 == 1 {
				tok = bob
			}
			s.call(t, "POST", fmt.Sprintf("/api/game/%d/move", acc.Game), tok, map[string]any{"move": m, "ply": ply}, nil)
		}
		s.call(t, "POST", fmt.Sprintf("/api/game/%d/resign", acc.Game), g.loser, nil, nil)
		if got := s.game(t, acc.Game); got.State.Result != g.result {
			t.Fatalf("game %d ended %s, want %s", acc.Game, got.State.Result, g.result)
		}
	}
	// What the games say, as the explorer must show it: after no move and
	// after d6, each move with its games, white wins, draws, black wins.
	want := map[string]map[string][4]int{
		"":   {"d6": {3, 1, 0, 2}, "a1": {1, 1, 0, 0}},
		"d6": {"d5": {2, 1, 0, 1}, "f4": {1, 0, 0, 1}},
	}
	b := newBrowser(t, s, 90*time.Second)
	p := b.newPage("explorer")
	p.open("/study")
	p.waitState("the study board", func(st debugState) bool { return st.Page == "study" && len(st.Legal) > 0 })
	check := func(at string) {
		b.t.Helper()
		total := 0
		for _, v := range want[at] {
			total += v[0]
		}
		// The games are explored as they end; the page asks once per position.
		p.waitJS("the explorer's total after "+at, fmt.Sprintf(`document.querySelector('[data-testid="explorer-total"]')?.dataset.games === %q`, strconv.Itoa(total)))
		for move, v := range want[at] {
			type row struct{ Games, White, Draws, Black string }
			r := eval[row](p, fmt.Sprintf(`(() => { const r = document.querySelector('[data-testid="explorer-row-%s"]'); return r ? {Games: r.dataset.games, White: r.dataset.white, Draws: r.dataset.draws, Black: r.dataset.black} : {}; })()`, move))
			got := [4]string{r.Games, r.White, r.Draws, r.Black}
			exp := [4]string{strconv.Itoa(v[0]), strconv.Itoa(v[1]), strconv.Itoa(v[2]), strconv.Itoa(v[3])}
			if got != exp {
				b.fatalf("after %q the explorer shows %s with games, white, draws, black %v; the games played say %v", at, move, got, exp)
			}
		}
	}
	check("")
	if book := eval[int](p, `document.querySelectorAll('[data-testid^="explorer-row-"]:not([data-book=""])').length`); book == 0 {
		b.fatalf("no move of the start shows the book's value")
	}
	p.click("explorer-row-d6")
	p.waitState("d6 played from the explorer", func(st debugState) bool { return len(st.Moves) == 1 && st.Moves[0] == "d6" })
	check("d6")
}
