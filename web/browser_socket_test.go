package web_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserSocketSignIn: a player's game page signs in on its WebSocket
// with the socket's first message, not in the socket's URL: the moves go
// over the socket (no HTTP move), and no URL the page asks for holds the
// token (the site's check of every browser test). When the server no
// longer takes the token (revoked elsewhere), the socket's sign-in is
// refused on the next connection and the page forgets it and watches.
func TestBrowserSocketSignIn(t *testing.T) {
	if testing.Short() {
		t.Skip("browser tests are long: not under -short")
	}
	s := startSite(t)
	ann := s.account(t, "ann", "annpass1")
	bob := s.account(t, "bob", "bobpass1")
	game := s.gameBetween(t, ann, "bob", bob, map[string]any{})

	b := newBrowser(t, s, 60*time.Second)
	p := b.newPage("ann")
	p.signIn("ann", "annpass1")
	p.open(fmt.Sprintf("/game/%d", game))
	st := p.waitState("ann's game", func(s debugState) bool {
		return gameLoaded(s) && s.ID == game && s.Connection == "open" && s.ToMove == "white"
	})
	if st.MySide != "white" {
		b.fatalf("ann's page plays %q, want white", st.MySide)
	}
	st = p.waitMyTurn()
	m := chooseMove(st.Legal)
	p.playMove(m)
	if g := s.game(t, game); len(g.State.Moves) != 1 || g.State.Moves[0] != m {
		b.fatalf("the server has %v, want [%s]", g.State.Moves, m)
	}
	reqs := s.requests.String()
	if strings.Contains(reqs, fmt.Sprintf("POST /api/game/%d/move", game)) {
		b.fatalf("the move went over HTTP, want it over the socket:\n%s", reqs)
	}
	if !strings.Contains(reqs, fmt.Sprintf("GET /api/game/%d/ws", game)) {
		b.fatalf("the page opened no socket:\n%s", reqs)
	}

	// The page's token revoked behind its back, then the connection lost:
	// the next socket's sign-in is refused, and the page watches.
	tok := eval[string](p, `JSON.parse(localStorage.getItem('morris.session')).token`)
	s.call(t, "DELETE", "/api/token", tok, nil, nil)
	p.expectConsoleError("401")
	p.run("drop the connection", chromedp.Evaluate[chromedp.Void](`window.morrisDebug.dropConnection()`))
	p.waitJS("signed out", `!document.querySelector('[data-testid="nav-me"]') && !!document.querySelector('[data-testid="nav-signin"]')`)
	st = p.waitState("the game, watched", func(s debugState) bool { return gameLoaded(s) && s.ID == game && s.Connection == "open" })
	if st.MySide != "" {
		b.fatalf("after the token was refused the page plays %q, want a spectator's page", st.MySide)
	}
}

// TestBrowserSignInElsewhere: a game page opened before signing in
// watches; signing in in another tab of the same browser makes it the
// player's page at once, without a reload of its own.
func TestBrowserSignInElsewhere(t *testing.T) {
	if testing.Short() {
		t.Skip("browser tests are long: not under -short")
	}
	s := startSite(t)
	ann := s.account(t, "ann", "annpass1")
	bob := s.account(t, "bob", "bobpass1")
	game := s.gameBetween(t, ann, "bob", bob, map[string]any{})

	b := newBrowser(t, s, 60*time.Second)
	p := b.newPage("ann")
	p.open(fmt.Sprintf("/game/%d", game))
	st := p.waitState("the game, watched", func(s debugState) bool { return gameLoaded(s) && s.ID == game && s.Connection == "open" })
	if st.MySide != "" {
		b.fatalf("before signing in: side %q, want a spectator", st.MySide)
	}
	// Another tab of the same browser (same storage) signs in.
	tab, cancel := chromedp.NewContext(p.ctx)
	defer cancel()
	ctx, stop := b.stepCtx(tab)
	defer stop()
	session := fmt.Sprintf(`localStorage.setItem('morris.session', JSON.stringify({token: %q, name: 'ann', guest: false}))`, ann)
	if err := chromedp.Do(ctx, chromedp.Navigate(s.URL+"/#/"), chromedp.Evaluate[chromedp.Void](session)); err != nil {
		b.fatalf("the other tab: %v", err)
	}
	st = p.waitState("the page become ann's", func(s debugState) bool {
		return gameLoaded(s) && s.MySide == "white" && s.Connection == "open" && len(s.Legal) > 0
	})
	// And she can play from it.
	p.playMove(chooseMove(st.Legal))
	p.waitState("her move stored", func(s debugState) bool { return len(s.Moves) == 1 })
	if g := s.game(t, game); len(g.State.Moves) != 1 {
		b.fatalf("the server has %v, want one move", g.State.Moves)
	}
}
