package web_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserOffersAndChat: between ann and bob, watched by a spectator:
// a draw offered from the UI and declined from the UI; a take-back asked
// after ann's move and accepted, both boards a move back as the server
// has it; chat typed on both pages, shown on all three; a draw offered
// and accepted ends the game 1/2-1/2 by agreement everywhere.
func TestBrowserOffersAndChat(t *testing.T) {
	start := time.Now()
	s := startSite(t)
	tok := map[string]string{"white": s.account(t, "ann", "annpass1"), "black": s.account(t, "bob", "bobpass1")}
	id := s.gameBetween(t, tok["white"], "bob", tok["black"], map[string]any{"variant": "nine-mens-morris"})
	b := newBrowser(t, s, 60*time.Second)
	ann := b.newPage("ann")
	bob := b.newPage("bob")
	watcher := b.newPage("watcher")
	ann.signIn("ann", "annpass1")
	bob.signIn("bob", "bobpass1")
	all := []*page{ann, bob, watcher}
	for _, p := range all {
		p.openGame(id)
	}

	// A draw offered by ann, declined by bob.
	ann.click("offer-draw")
	ann.waitJS("offer-draw disabled once offered", `document.querySelector('[data-testid="offer-draw"]').disabled === true`)
	for _, p := range all {
		p.waitJS("ann's draw offer shown", `(() => { const o = document.querySelector('[data-testid="offer-banner-draw"]'); return !!o && o.dataset.by === 'white'; })()`)
	}
	if eval[bool](ann, existsJS("draw-accept")) || eval[bool](watcher, existsJS("draw-accept")) {
		b.fatalf("the offerer or the spectator may accept ann's draw offer")
	}
	if g := s.fullGame(t, id); len(g.State.Offers) != 1 || g.State.Offers[0].Kind != "draw" || g.State.Offers[0].By != "white" {
		b.fatalf("the server's offers after ann's: %+v", g.State.Offers)
	}
	bob.click("draw-decline")
	for _, p := range all {
		p.waitJS("no offer after bob declined", `!document.querySelector('[data-testid="offer-banner-draw"]')`)
		if x := p.extras(); len(x.Offers) != 0 {
			b.fatalf("page %s still has offers %+v", p.name, x.Offers)
		}
	}
	ann.waitJS("offer-draw enabled again", `document.querySelector('[data-testid="offer-draw"]').disabled === false`)
	if g := s.fullGame(t, id); g.State.Status != "active" || len(g.State.Offers) != 0 {
		b.fatalf("after bob declined the server has %s with offers %+v", g.State.Status, g.State.Offers)
	}

	// Three moves by clicks; ann (white) asks to take back her last one.
	players := map[string]*page{"white": ann, "black": bob}
	var moves []string
	for range 3 {
		p := players[s.game(t, id).State.ToMove]
		m := chooseMove(p.waitMyTurn().Legal)
		p.playMove(m)
		moves = append(moves, m)
		if len(moves) == 1 {
			// Bob has no move of his own to take back yet (the server
			// refuses: "there is no move of yours to take back"), so his
			// button must be disabled, as ann's was before her first move.
			bob.waitMoves(moves)
			bob.waitVisible("offer-takeback")
			if !eval[bool](bob, `document.querySelector('[data-testid="offer-takeback"]').disabled`) {
				t.Errorf("client bug: black's offer-takeback is enabled after white's first move, before black has moved; the server refuses the request (web/static/js/pages/game.js renderControls)")
			}
		}
	}
	for _, p := range all {
		p.waitMoves(moves)
	}
	if eval[bool](ann, `document.querySelector('[data-testid="offer-takeback"]').disabled`) {
		b.fatalf("offer-takeback disabled after ann's move")
	}
	ann.click("offer-takeback")
	bob.waitJS("ann's take-back request shown", `(() => { const o = document.querySelector('[data-testid="offer-banner-takeback"]'); return !!o && o.dataset.by === 'white'; })()`)
	bob.click("takeback-accept")
	moves = moves[:2]
	g := s.waitGame(b, id, "the take-back", func(g apiGame) bool { return slices.Equal(g.State.Moves, moves) })
	for _, p := range all {
		st := p.waitMoves(moves)
		if st.ToMove != "white" || st.Cursor != len(moves) {
			b.fatalf("page %s after the take-back: %s to move, cursor %d", p.name, st.ToMove, st.Cursor)
		}
		checkBoard(b, p, s, g.Start, moves)
		p.waitJS("the take-back request gone", `!document.querySelector('[data-testid="offer-banner-takeback"]')`)
		p.waitJS("the move list a move shorter", fmt.Sprintf(`document.querySelector('[data-testid="move-list"]').dataset.count === '%d'`, len(moves)))
	}
	// Ann may move again.
	if st := ann.waitMyTurn(); len(st.Legal) == 0 || st.Position != g.State.Position {
		b.fatalf("ann after the take-back: position %q, legal %v; the server has %q", st.Position, st.Legal, g.State.Position)
	}

	// Chat: ann types and clicks send; bob types and presses Enter.
	ann.fill("chat-input", "good luck, bob")
	ann.click("chat-send")
	bob.run("type in the chat", chromedp.Clear(tid("chat-input")), chromedp.SendKeys(tid("chat-input"), "thanks ann"+kb.Enter))
	want := []string{"ann: good luck, bob", "bob: thanks ann"}
	for _, p := range all {
		p.waitJS("both chat messages", fmt.Sprintf(`(() => { const got = [...document.querySelectorAll('[data-testid="chat-message"]')].map((li) => li.textContent.trim().replace(/^(\S+) /, '$1: '));
			return JSON.stringify(got) === %q; })()`, mustJSON(want)))
		x := p.extras()
		if len(x.Chat) != 2 || x.Chat[0].User != "ann" || x.Chat[1].Text != "thanks ann" {
			b.fatalf("page %s: chat %+v", p.name, x.Chat)
		}
	}
	for _, p := range []*page{ann, bob} {
		p.waitJS("the chat input cleared", `document.querySelector('[data-testid="chat-input"]').value === ''`)
	}
	if eval[bool](watcher, `(() => { const f = document.querySelector('[data-testid="chat-form"]'); return !!f && !f.hidden; })()`) {
		b.fatalf("the spectator has a chat form")
	}
	if c := s.fullGame(t, id).Chat; len(c) != 2 || c[0].Text != "good luck, bob" || c[1].User != "bob" {
		b.fatalf("the server's chat: %+v", c)
	}

	// Bob offers a draw (on ann's turn); ann accepts.
	bob.click("offer-draw")
	ann.waitJS("bob's draw offer shown", `(() => { const o = document.querySelector('[data-testid="offer-banner-draw"]'); return !!o && o.dataset.by === 'black'; })()`)
	ann.click("draw-accept")
	s.waitGame(b, id, "the draw", func(g apiGame) bool { return g.State.Status != "active" })
	fg := s.fullGame(t, id)
	if fg.State.Status != "finished" || fg.State.Result != "1/2-1/2" || fg.State.Method != "agreement" {
		b.fatalf("after the draw the server has %s %s by %s", fg.State.Status, fg.State.Result, fg.State.Method)
	}
	for _, p := range all {
		st := p.waitState("the draw", func(s debugState) bool { return s.Status == "finished" })
		if st.Result != "1/2-1/2" || st.Method != "agreement" || !slices.Equal(st.Moves, moves) || len(st.Legal) != 0 {
			b.fatalf("page %s ended %s by %s after %v (legal %v); want 1/2-1/2 by agreement after %v", p.name, st.Result, st.Method, st.Moves, st.Legal, moves)
		}
		p.checkResultShown("1/2-1/2")
		p.waitJS("no offer left", `!document.querySelector('[data-testid="offer-banner-draw"]') && !document.querySelector('[data-testid="offer-draw"]')`)
	}
	t.Logf("game %d: offers, take-back, chat and a draw in %v", id, time.Since(start).Round(time.Millisecond))
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}
