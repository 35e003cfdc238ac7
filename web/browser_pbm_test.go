package web_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/morrisgame/morris/internal/server/pbmserv"
)

// TestBrowserPbmChallenges: on her own page a player sees that she takes
// no challenges by text command in any game, and a pbm challenge to her
// starts nothing; she ticks nine men's morris, the server says so, and
// the same challenge starts a game; she unticks it and it starts none
// again. Another player's page has no such setting.
func TestBrowserPbmChallenges(t *testing.T) {
	if testing.Short() {
		t.Skip("browser tests are long: not under -short")
	}
	s := startSite(t)
	s.account(t, "ann", "annpass1")
	s.account(t, "bob", "bobpass1")
	gw := pbmserv.New(s.svc, nil)
	challenge := func() string {
		return gw.Exec(context.Background(), nil, "nmm challenge bob bobpass1 ann --forfeittime=3")
	}

	b := newBrowser(t, s, 60*time.Second)
	p := b.newPage("ann")
	p.signIn("ann", "annpass1")
	p.open("/user/bob")
	p.waitVisible("user-name")
	p.waitJS("bob's page loaded", `!!document.querySelector('[data-testid="user-challenge"]')`)
	if eval[bool](p, `!!document.querySelector('[data-testid="pbm-prefs-section"]')`) {
		b.fatalf("the pbm setting shows on another player's page")
	}

	p.open("/user/ann")
	box := `document.querySelector('[data-testid="pbm-accept-nine-mens-morris"]')`
	p.waitJS("the pbm setting listed", `!!`+box)
	if n := eval[int](p, `document.querySelectorAll('[data-testid^="pbm-accept-"]:checked').length`); n != 0 {
		b.fatalf("a new player takes pbm challenges in %d games, want none", n)
	}
	if got := challenge(); !strings.Contains(got, "error: ann takes no challenges of nine-mens-morris by text command") {
		b.fatalf("a pbm challenge before ann opts in: got %q", got)
	}

	p.click("pbm-accept-nine-mens-morris")
	result := `((document.querySelector('[data-testid="pbm-prefs-result"]')||{}).textContent || '')`
	p.waitJS("the opt-in confirmed", result+`.includes('You now take challenges by text command')`)
	if !eval[bool](p, box+`.checked`) {
		b.fatalf("the box is not ticked after the opt-in")
	}
	if got := challenge(); !strings.Contains(got, "ok: board 101 started: White bob, Black ann") {
		b.fatalf("a pbm challenge after ann opts in: got %q", got)
	}

	// The setting holds over a reload, and unticking takes it back.
	p.open("/user/bob")
	p.open("/user/ann")
	p.waitJS("the setting read again, ticked", `!!`+box+` && `+box+`.checked`)
	p.click("pbm-accept-nine-mens-morris")
	p.waitJS("the opt-out confirmed", result+`.includes('no longer take')`)
	if got := challenge(); !strings.Contains(got, "error: ann does not take challenges from bob") {
		b.fatalf("a pbm challenge after ann opts out: got %q", got)
	}
}
