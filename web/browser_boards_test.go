package web_test

import (
	"fmt"
	"testing"
	"time"
)

// TestBrowserSmallBoards: a game against the engine by clicks on each of
// the small boards (9, 16 and 17 points), drawn from their data, to the
// end: placing, moving, and the end the rules give (a mill that wins three
// men's morris; material or a blockade in six and seven men's morris).
func TestBrowserSmallBoards(t *testing.T) {
	s := startSite(t)
	b := newBrowser(t, s, 150*time.Second)
	for _, tc := range []struct {
		variant string
		points  int
	}{{"three-mens-morris", 9}, {"six-mens-morris", 16}, {"seven-mens-morris", 17}} {
		p := b.newPage(tc.variant)
		p.open("/play")
		p.waitVisible("engine-form")
		p.choose("engine-variant", tc.variant)
		p.choose("engine-level", "1")
		p.choose("engine-control", "none")
		p.choose("engine-color", "white")
		p.click("engine-submit")
		st := p.waitState("the new game", func(s debugState) bool { return gameLoaded(s) && s.Status == "active" })
		p.waitJS(fmt.Sprintf("a board of %d points", tc.points), fmt.Sprintf(`document.querySelectorAll('[data-testid="board-svg"] [data-point]').length === %d`, tc.points))
		n := p.playEngine(200)
		if st, _ := p.state(); st.Status == "active" {
			p.waitMyTurn()
			p.resign()
		}
		st = p.waitState("the end", func(s debugState) bool { return s.Status == "finished" })
		g := s.game(t, st.ID)
		if g.State.Status != "finished" || st.Result != g.State.Result {
			b.fatalf("%s: the page ended with %s; the server has %s %s", tc.variant, st.Result, g.State.Status, g.State.Result)
		}
		p.checkResultShown(g.State.Result)
		t.Logf("%s: %d plies (%d placements, %d slides by clicks), %s by %s", tc.variant, len(g.State.Moves), n.placements, n.slides, g.State.Result, g.State.Method)
		if n.placements == 0 {
			b.fatalf("%s: no placement by clicks", tc.variant)
		}
	}
}
