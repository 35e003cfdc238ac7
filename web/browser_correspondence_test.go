package web_test

import (
	"strings"
	"testing"
	"time"
)

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
	game := s.gameBetween(t, ann, "bob", bob, map[string]any{"days": 4})

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
	p.waitState("the game opened from the reminder", func(st debugState) bool { return gameLoaded(st) && st.ID == game && st.MySide == "white" })
}
