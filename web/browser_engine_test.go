package web_test

import (
	"slices"
	"testing"
	"time"
)

// TestBrowserEngineGame: a guest starts a game against the engine from
// /play and plays it by clicks to its end (resigning after maxPlies), and
// the page and the server agree on it. The engine plays at random at level
// 1, so it may end a game in the placing phase (a blockade at the last
// placement, however the clicks choose): such a game is followed by
// another through the page's "play again" link, up to maxGames, until one
// has slides by clicks.
func TestBrowserEngineGame(t *testing.T) {
	start := time.Now()
	s := startSite(t)
	b := newBrowser(t, s, 110*time.Second)
	p := b.newPage("engine")
	p.open("/play")
	const maxGames = 4
	for game := 1; ; game++ {
		n, g := playEngineGame(t, s, p)
		t.Logf("game %d: %d plies (%d placements, %d slides and flights, %d captures by clicks), %s by %s, in %v",
			g.ID, len(g.State.Moves), n.placements, n.slides, n.captures, g.State.Result, g.State.Method, time.Since(start).Round(time.Millisecond))
		// A win by material (white is the clicks' side) needs captures.
		if n.captures == 0 && g.State.Result == "1-0" && g.State.Method == "material" {
			t.Errorf("game %d: won by material with no capture by clicks", g.ID)
		}
		if n.slides > 0 {
			return
		}
		if game == maxGames {
			t.Fatalf("%d games against the engine ended with no slide by clicks: want one that reaches the moving phase", maxGames)
		}
		p.click("play-again")
	}
}

// playEngineGame starts a game against the engine from the /play form
// (which the page shows), plays it by clicks to its end, and checks that
// the page and the server agree on it.
func playEngineGame(t *testing.T, s *site, p *page) (clickCounts, apiGame) {
	t.Helper()
	b := p.b
	p.waitVisible("engine-form")
	p.choose("engine-variant", "nine-mens-morris")
	p.choose("engine-level", "1")
	p.choose("engine-control", "none")
	p.choose("engine-color", "white")
	p.click("engine-submit")
	st := p.waitState("the new game", func(s debugState) bool { return gameLoaded(s) && s.Status == "active" })
	if st.MySide != "white" {
		b.fatalf("got side %q, want white", st.MySide)
	}
	id := st.ID
	p.waitJS("the guest's name in the header", `!!document.querySelector('[data-testid="nav-me"]')`)

	const maxPlies = 240
	n := p.playEngine(maxPlies)
	if st, _ := p.state(); st.Status == "active" {
		t.Logf("no end after %d plies: resigning", st.Ply)
		p.waitMyTurn()
		p.resign()
	}
	st = p.waitState("the end", func(s debugState) bool { return s.ID == id && s.Status == "finished" })
	g := s.game(t, id)
	if g.State.Status != "finished" || !slices.Equal(st.Moves, g.State.Moves) || st.Result != g.State.Result {
		b.fatalf("the page ended with %s %v; the server has %s %s %v", st.Result, st.Moves, g.State.Status, g.State.Result, g.State.Moves)
	}
	p.checkResultShown(g.State.Result)
	p.waitVisible("play-again")
	return n, g
}
