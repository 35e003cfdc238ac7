package web_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestBrowserArena: ann makes an arena of three men's morris; bob and cleo
// join it on its page, each in a browser of their own, and ann starts it
// from hers. Both are paired at once and find their board open by itself;
// white berserks on the game's page before the first move (the clock
// halves) and wins by a mill, by clicks. Ann's page follows without a
// reload: the result, the winner's 2 points on their sheet, and a second
// wave paired as soon as both are free, whose board opens by itself again.
func TestBrowserArena(t *testing.T) {
	s := startSite(t)
	tok := map[string]string{}
	for _, name := range []string{"ann", "bob", "cleo"} {
		tok[name] = s.account(t, name, name+"pass1")
	}
	var ev struct{ ID int }
	s.call(t, "POST", "/api/tournament", tok["ann"], map[string]any{
		"name": "Friday Arena", "kind": "arena", "variant": "three-mens-morris",
		"clock": map[string]any{"initialMs": 180000, "incrementMs": 2000}, "durationMs": 30 * 60 * 1000,
	}, &ev)
	b := newBrowser(t, s, 150*time.Second)
	players := map[string]*page{}
	for _, name := range []string{"bob", "cleo"} {
		p := b.newPage(name)
		players[name] = p
		p.signIn(name, name+"pass1")
		p.open(fmt.Sprintf("/tournament/%d", ev.ID))
		p.waitVisible("tournament-join")
		p.click("tournament-join")
		p.waitTournament(name+" in the field", func(s tournamentState) bool { return slices.Contains(s.Entrants, name) })
	}
	ann := b.newPage("ann")
	ann.signIn("ann", "annpass1")
	ann.open(fmt.Sprintf("/tournament/%d", ev.ID))
	ann.waitTournament("two in the field", func(s tournamentState) bool { return len(s.Entrants) == 2 })
	eval[bool](ann, `(window.notReloaded = true)`)
	ann.click("tournament-start")

	// Wave 1: the two boards open by themselves.
	st := ann.waitTournament("wave 1 paired", func(s tournamentState) bool {
		return s.Status == "running" && len(s.Pairings) == 1 && len(s.Pairings[0].Games) == 1
	})
	g1 := st.Pairings[0].Games[0]
	white, black := players[g1.White], players[g1.Black]
	for _, p := range []*page{white, black} {
		p.waitState("the board of wave 1 open by itself", func(s debugState) bool { return gameLoaded(s) && s.ID == g1.Game && s.Connection == "open" })
	}

	// White berserks before the first move: half of 3 minutes left.
	white.waitVisible("game-berserk")
	white.click("game-berserk")
	white.waitVisible("game-berserked")
	white.waitJS("white's clock halved", `(() => { const c = document.querySelector('[data-testid="clock-white"]'); return c && Number(c.dataset.ms) <= 90000; })()`)

	for i, m := range []string{"a1", "b2", "a2", "c3", "a3"} {
		p := white
		if i%2 == 1 {
			p = black
		}
		ps := p.waitMyTurn()
		if !slices.Contains(ps.Legal, m) {
			b.fatalf("page %s: %s is not legal in %s (%v)", p.name, m, ps.Position, ps.Legal)
		}
		p.playMove(m)
	}
	white.waitState("the end of the game", func(s debugState) bool { return s.ID == g1.Game && s.Status == "finished" && s.Result == "1-0" })

	// Ann's page: the win scores 2 (no berserk point: the game was
	// shorter than an arena's minimum), and wave 2 comes at once.
	st = ann.waitTournament("the result and wave 2", func(s tournamentState) bool {
		return len(s.Pairings) == 2 && s.Pairings[0].Games[0].Result == "1-0" && s.points(g1.White) == 2
	})
	if st.points(g1.Black) != 0 || st.Standings[0].Name != g1.White {
		b.fatalf("the standings after wave 1: %+v", st.Standings)
	}
	ann.waitJS("the winner's sheet", fmt.Sprintf(`(() => { const r = document.querySelector('[data-testid="standing-%s"]'); return r && r.dataset.points === '2' && r.textContent.includes('2'); })()`, g1.White))
	if !eval[bool](ann, `window.notReloaded === true`) {
		b.fatalf("ann's page was reloaded")
	}
	g2 := st.Pairings[1].Games[0]
	if !(g2.White == g1.Black && g2.Black == g1.White) && !(g2.White == g1.White && g2.Black == g1.Black) {
		b.fatalf("wave 2 %+v: the only two waiting meet again", g2)
	}
	for _, p := range []*page{white, black} {
		p.waitState("the board of wave 2 open by itself", func(s debugState) bool { return gameLoaded(s) && s.ID == g2.Game })
	}
}

// TestBrowserHalfBye: in a Swiss of four, dora picks a round to sit out
// on the event's page, takes it back and asks again; when the organiser
// starts the event, round 1 pairs the three others, the page lists dora
// as sitting out for half a point, tells her so, and her crosstable cell
// is a half-point bye.
func TestBrowserHalfBye(t *testing.T) {
	s := startSite(t)
	tok := map[string]string{}
	for _, name := range []string{"ann", "bob", "cleo", "dora"} {
		tok[name] = s.account(t, name, name+"pass1")
	}
	var ev struct{ ID int }
	s.call(t, "POST", "/api/tournament", tok["ann"], map[string]any{"name": "Club Swiss", "kind": "swiss", "rounds": 3, "days": 3}, &ev)
	for _, name := range []string{"ann", "bob", "cleo", "dora"} {
		s.call(t, "POST", fmt.Sprintf("/api/tournament/%d/join", ev.ID), tok[name], nil, nil)
	}
	b := newBrowser(t, s, 90*time.Second)
	dora := b.newPage("dora")
	dora.signIn("dora", "dorapass1")
	dora.open(fmt.Sprintf("/tournament/%d", ev.ID))
	dora.waitTournament("the event", func(s tournamentState) bool { return len(s.Entrants) == 4 })
	dora.waitVisible("tournament-bye-round")
	if opts := eval[string](dora, `[...document.querySelector('[data-testid="tournament-bye-round"]').options].map((o) => o.value).join(',')`); opts != "1,2" {
		b.fatalf("the rounds dora may sit out: %q, want 1,2 (not the last)", opts)
	}
	dora.choose("tournament-bye-round", "1")
	dora.click("tournament-bye")
	dora.waitVisible("tournament-sits-out-1")
	dora.click("tournament-unbye-1")
	dora.waitJS("the bye taken back", `!document.querySelector('[data-testid="tournament-sits-out-1"]')`)
	dora.choose("tournament-bye-round", "1")
	dora.click("tournament-bye")
	dora.waitVisible("tournament-sits-out-1")

	s.call(t, "POST", fmt.Sprintf("/api/tournament/%d/start", ev.ID), tok["ann"], nil, nil)
	st := dora.waitTournament("round 1 paired", func(s tournamentState) bool { return s.Round == 1 && len(s.Pairings) == 1 })
	r1 := st.Pairings[0]
	if len(r1.Games) != 1 || r1.Bye == nil || *r1.Bye == "dora" || !slices.Equal(r1.HalfByes, []string{"dora"}) {
		b.fatalf("round 1: %+v, want one game, a bye and dora sitting out", r1)
	}
	dora.waitJS("dora listed as sitting out", `(() => { const p = document.querySelector('[data-testid="halfbyes-1"]'); return p && p.textContent.includes('dora'); })()`)
	dora.waitJS("dora told she sits out", `(() => { const p = document.querySelector('[data-testid="tournament-my-wait"]'); return p && p.textContent.includes('1'); })()`)
	dora.waitVisible("crosstable")
	if txt := eval[string](dora, `document.querySelector('[data-testid="crosstable-dora"]').textContent`); !strings.Contains(txt, "½") {
		b.fatalf("dora's crosstable row: %q, want her half-point bye", txt)
	}
	// The pairings and the standings reach the page in separate updates,
	// so the half point is waited for, not read from the pairing's state.
	dora.waitTournament("dora's half point in the standings", func(s tournamentState) bool { return s.points("dora") == 0.5 })
}
