package web_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// tournamentState is morrisDebug.state() on an event's page (web/doc.go).
type tournamentState struct {
	Page       string   `json:"page"`
	ID         int      `json:"id"`
	Connection string   `json:"connection"`
	Lines      int      `json:"lines"`
	Status     string   `json:"status"`
	Round      int      `json:"round"`
	Entrants   []string `json:"entrants"`
	Standings  []struct {
		Rank   int     `json:"rank"`
		Name   string  `json:"name"`
		Points float64 `json:"points"`
		Games  int     `json:"games"`
	} `json:"standings"`
	Pairings []struct {
		Round    int      `json:"round"`
		Bye      *string  `json:"bye"`
		HalfByes []string `json:"halfByes"`
		Games    []struct {
			Game   int    `json:"game"`
			White  string `json:"white"`
			Black  string `json:"black"`
			Status string `json:"status"`
			Result string `json:"result"`
		} `json:"games"`
	} `json:"pairings"`
	MyGame      *int   `json:"myGame"`
	ActionError string `json:"actionError"`
}

// points is the standing's points of name (-1 when not listed).
func (s tournamentState) points(name string) float64 {
	for _, x := range s.Standings {
		if x.Name == name {
			return x.Points
		}
	}
	return -1
}

// waitTournament waits until the page is an event's page with the event
// read from its stream and ok holds, and returns its state.
func (p *page) waitTournament(what string, ok func(s tournamentState) bool) tournamentState {
	p.b.t.Helper()
	var last tournamentState
	d := time.Now().Add(stepTimeout)
	if p.b.deadline.Before(d) {
		d = p.b.deadline
	}
	for {
		raw := eval[[]byte](p, `window.morrisDebug ? window.morrisDebug.state() : null`)
		var s tournamentState
		if json.Unmarshal(raw, &s) == nil && s.Page == "tournament" && s.Status != "" {
			last = s
			if ok(s) {
				return s
			}
		}
		if time.Now().After(d) {
			p.b.fatalf("page %s: timed out waiting for %s; last state %+v", p.name, what, last)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestBrowserTournament: ann makes a round robin of three men's morris
// from the lobby; bob and cleo find it in their lobby, and the three join
// it on its page, each in a browser of their own, while a fourth, not
// signed in, watches the page. Ann starts it. The two players of round 1
// find their board open by itself and play the round by clicks (a mill
// wins); the watcher's standings and pairings follow without a reload.
// Round 2 is paired when the game ends: its player who sat out round 1,
// now on a casual game going on, is asked (and opens the game from the
// prompt); the other, on the finished game of round 1, finds the new board
// open by itself.
func TestBrowserTournament(t *testing.T) {
	start := time.Now()
	s := startSite(t)
	tok := map[string]string{}
	for _, name := range []string{"ann", "bob", "cleo", "dora"} {
		tok[name] = s.account(t, name, name+"pass1")
	}
	b := newBrowser(t, s, 150*time.Second)
	ann := b.newPage("ann")
	ann.signIn("ann", "annpass1")

	// The event, from the lobby.
	ann.waitVisible("lobby-events")
	ann.click("lobby-events-new")
	ann.waitVisible("tournament-form")
	ann.fill("tournament-name", "Tuesday Three")
	ann.choose("tournament-kind", "roundrobin")
	ann.choose("tournament-variant", "three-mens-morris")
	ann.choose("tournament-control", "realtime")
	ann.choose("tournament-minutes", "5")
	ann.choose("tournament-increment", "2")
	ann.click("tournament-submit")
	st := ann.waitTournament("the new event", func(s tournamentState) bool { return s.Status == "upcoming" && s.Connection == "open" })
	id := st.ID
	ann.waitJS("the event's summary", `document.querySelector('[data-testid="tournament-summary"]').textContent.includes("Three men's morris")`)
	ann.click("tournament-join")
	ann.waitTournament("ann in the field", func(s tournamentState) bool { return slices.Equal(s.Entrants, []string{"ann"}) })

	// Bob and cleo find it in their lobby and join.
	players := map[string]*page{"ann": ann}
	for _, name := range []string{"bob", "cleo"} {
		p := b.newPage(name)
		players[name] = p
		p.signIn(name, name+"pass1")
		p.waitVisible(fmt.Sprintf("lobby-event-%d", id))
		p.click(fmt.Sprintf("lobby-event-%d", id))
		p.waitTournament("the event", func(s tournamentState) bool { return s.ID == id })
		p.waitVisible("tournament-join")
		p.click("tournament-join")
		p.waitTournament(name+" in the field", func(s tournamentState) bool { return slices.Contains(s.Entrants, name) })
	}
	ann.waitTournament("three in the field, live", func(s tournamentState) bool { return len(s.Entrants) == 3 })

	// A fourth browser, not signed in, watches.
	watcher := b.newPage("watcher")
	watcher.open(fmt.Sprintf("/tournament/%d", id))
	watcher.waitTournament("the event", func(s tournamentState) bool { return s.ID == id && len(s.Entrants) == 3 })
	if eval[bool](watcher, existsJS("tournament-join")) || eval[bool](watcher, existsJS("tournament-start")) {
		b.fatalf("the watcher, not signed in, is offered to join or start")
	}
	eval[bool](watcher, `(window.notReloaded = true)`)

	// Ann starts it: round 1 is paired, and its players' boards open.
	ann.click("tournament-start")
	st = watcher.waitTournament("round 1 paired", func(s tournamentState) bool {
		return s.Status == "running" && len(s.Pairings) == 1 && len(s.Pairings[0].Games) == 1 && s.Pairings[0].Bye != nil
	})
	g1 := st.Pairings[0].Games[0]
	sitter := *st.Pairings[0].Bye
	white, black := players[g1.White], players[g1.Black]
	for _, p := range []*page{white, black} {
		ps := p.waitState("the board of round 1 open by itself", func(s debugState) bool { return gameLoaded(s) && s.ID == g1.Game && s.Connection == "open" })
		if want := map[*page]string{white: "white", black: "black"}[p]; ps.MySide != want {
			b.fatalf("page %s plays %q in game %d, want %s", p.name, ps.MySide, g1.Game, want)
		}
		p.waitVisible("game-event-link")
	}
	players[sitter].waitTournament("the player who sits out, on the event's page", func(s tournamentState) bool { return s.MyGame == nil })
	players[sitter].waitVisible("tournament-my-wait")

	// The player who sits out round 1 plays a casual game meanwhile (on
	// its page when round 2 is paired).
	casual := s.gameBetween(t, tok[sitter], "dora", tok["dora"], map[string]any{"variant": "nine-mens-morris", "days": 3})
	players[sitter].openGame(casual)

	// Round 1 by clicks: white makes a mill on the a-file, black places
	// out of its way.
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
	for _, p := range []*page{white, black} {
		p.waitState("the end of game 1", func(s debugState) bool { return s.ID == g1.Game && s.Status == "finished" && s.Result == "1-0" })
	}

	// The watcher's page follows: the result, the standings, round 2.
	st = watcher.waitTournament("the result and the standings, live", func(s tournamentState) bool {
		return len(s.Pairings) >= 1 && s.Pairings[0].Games[0].Result == "1-0" && s.points(g1.White) == 1
	})
	if st.points(g1.Black) != 0 || st.points(sitter) != 0 || st.Standings[0].Name != g1.White || st.Standings[0].Rank != 1 {
		b.fatalf("the standings after round 1: %+v", st.Standings)
	}
	watcher.waitJS("the winner's point in the table", fmt.Sprintf(`document.querySelector('[data-testid="standing-%s"]').dataset.points === '1'`, g1.White))
	watcher.waitJS("the game's result in the pairings", fmt.Sprintf(`document.querySelector('[data-testid="pairing-%d"]').dataset.result === '1-0'`, g1.Game))
	st = watcher.waitTournament("round 2 paired", func(s tournamentState) bool {
		return s.Round == 2 && len(s.Pairings) == 2 && len(s.Pairings[1].Games) == 1
	})
	if !eval[bool](watcher, `window.notReloaded === true`) {
		b.fatalf("the watcher's page was reloaded")
	}
	g2 := st.Pairings[1].Games[0]
	if g2.White != sitter && g2.Black != sitter {
		b.fatalf("round 2 %+v leaves out %s, who sat out round 1", g2, sitter)
	}
	other := g2.White
	if other == sitter {
		other = g2.Black
	}

	// The one on the finished game of round 1: the new board opens.
	players[other].waitState("the board of round 2 open by itself", func(s debugState) bool { return gameLoaded(s) && s.ID == g2.Game })
	// The one on a casual game going on: a prompt, and the game from it.
	sp := players[sitter]
	sp.waitVisible("paired-prompt")
	if got := eval[string](sp, `document.querySelector('[data-testid="paired-prompt"]').dataset.game`); got != fmt.Sprint(g2.Game) {
		b.fatalf("the prompt offers game %s, want %d", got, g2.Game)
	}
	if ps, _ := sp.state(); ps.ID != casual {
		b.fatalf("page %s left its casual game %d for %d without being asked", sp.name, casual, ps.ID)
	}
	sp.click("paired-open")
	sp.waitState("the board of round 2 from the prompt", func(s debugState) bool { return gameLoaded(s) && s.ID == g2.Game })
	sp.waitJS("the prompt gone", `!document.querySelector('[data-testid="paired-prompt"]')`)

	// The event's page of a player shows their game, and the crosstable.
	ann.open(fmt.Sprintf("/tournament/%d", id))
	as := ann.waitTournament("ann's view", func(s tournamentState) bool { return s.Round == 2 })
	inRound2 := g2.White == "ann" || g2.Black == "ann"
	if (as.MyGame != nil) != inRound2 || (inRound2 && *as.MyGame != g2.Game) {
		b.fatalf("ann's game on the event's page: %v, want game %d: %v", as.MyGame, g2.Game, inRound2)
	}
	ann.waitVisible("crosstable")
	if txt := eval[string](ann, `document.querySelector('[data-testid="crosstable-`+g1.White+`"]').textContent`); !strings.Contains(txt, "1") {
		b.fatalf("the crosstable's row of %s: %q", g1.White, txt)
	}
	t.Logf("event %d: round 1 (game %d) by clicks, round 2 (game %d) opened, in %v", id, g1.Game, g2.Game, time.Since(start).Round(time.Millisecond))
}
