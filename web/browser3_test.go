package web_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

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
	var c struct{ ID, Game int }
	s.call(t, "POST", "/api/challenge/bob", ann, map[string]any{"color": "white"}, &c)
	s.call(t, "POST", fmt.Sprintf("/api/challenge/%d/accept", c.ID), bob, nil, &c)

	b := newBrowser(t, s, 60*time.Second)
	p := b.newPage("ann")
	p.open(fmt.Sprintf("/game/%d", c.Game))
	st := p.waitState("the game, watched", func(s debugState) bool { return gameLoaded(s) && s.ID == c.Game && s.Connection == "open" })
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
	if g := s.game(t, c.Game); len(g.State.Moves) != 1 {
		b.fatalf("the server has %v, want one move", g.State.Moves)
	}
}

// TestBrowserCorrespondence: a player sets a vacation on her own page, and
// a reminder of a correspondence game that waited for her move shows as a
// notice that opens the game.
func TestBrowserCorrespondence(t *testing.T) {
	if testing.Short() {
		t.Skip("browser tests are long: not under -short")
	}
	s := startSite(t)
	ann := s.account(t, "ann", "annpass1")
	bob := s.account(t, "bob", "bobpass1")
	var c struct{ ID, Game int }
	s.call(t, "POST", "/api/challenge/bob", ann, map[string]any{"color": "white", "days": 4}, &c)
	s.call(t, "POST", fmt.Sprintf("/api/challenge/%d/accept", c.ID), bob, nil, &c)

	b := newBrowser(t, s, 60*time.Second)
	p := b.newPage("ann")
	p.signIn("ann", "annpass1")
	p.open("/user/ann")
	p.waitVisible("vacation-form")
	p.choose("vacation-days", "3")
	p.click("vacation-submit")
	p.waitJS("the vacation confirmed", `(document.querySelector('[data-testid="vacation-result"]')||{}).textContent !== ''`)
	if got := eval[string](p, `document.querySelector('[data-testid="vacation-result"]').textContent`); !strings.Contains(got, "stand still") {
		b.fatalf("the vacation: %q", got)
	}

	// Four days per move: the reminder comes after two, and the vacation
	// (three days, from now) pushes it to five.
	s.skew.Store(int64(4 * 24 * time.Hour))
	if err := s.svc.Sweep(t.Context()); err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond)
	if eval[bool](p, `!document.querySelector('[data-testid="notice-open-game"]')`) == false {
		b.fatalf("a reminder during the vacation")
	}
	s.skew.Store(int64(5*24*time.Hour + time.Hour))
	if err := s.svc.Sweep(t.Context()); err != nil {
		t.Fatal(err)
	}
	p.waitVisible("notice-open-game")
	p.click("notice-open-game")
	p.waitState("the game opened from the reminder", func(st debugState) bool { return gameLoaded(st) && st.ID == c.Game && st.MySide == "white" })
}
