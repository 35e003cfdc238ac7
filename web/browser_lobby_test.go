package web_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserTwoPlayers: ann challenges bob from the lobby, bob accepts in
// his lobby, they play by clicks, each seeing the other's moves, while a
// third browser that is not signed in watches from the lobby's list of
// games; ann's connection drops while bob moves, bob's page is reloaded
// while ann moves, and nothing is lost; bob resigns through the UI.
func TestBrowserTwoPlayers(t *testing.T) {
	start := time.Now()
	s := startSite(t)
	s.account(t, "ann", "annpass1")
	s.account(t, "bob", "bobpass1")
	b := newBrowser(t, s, 100*time.Second)
	ann := b.newPage("ann")
	bob := b.newPage("bob")
	watcher := b.newPage("watcher")
	ann.signIn("ann", "annpass1")
	bob.signIn("bob", "bobpass1")

	// The challenge, from ann's lobby.
	ann.click("tab-challenge")
	ann.waitVisible("challenge-form")
	ann.fill("challenge-user", "bob")
	ann.choose("challenge-variant", "nine-mens-morris")
	ann.choose("challenge-control", "none")
	ann.choose("challenge-color", "white")
	ann.click("challenge-submit")
	ann.waitJS("the challenge listed as sent", `!!document.querySelector('[data-testid^="challenge-"][data-direction="out"]')`)

	// Bob sees it come in (the account stream) and accepts.
	bob.waitJS("the challenge listed as received", `!!document.querySelector('[data-testid^="challenge-accept-"]')`)
	cid := eval[string](bob, `document.querySelector('[data-testid^="challenge-"][data-direction="in"]').dataset.id`)
	bob.click("challenge-accept-" + cid)
	bs := bob.waitState("bob's game page", func(s debugState) bool { return gameLoaded(s) && s.Status == "active" })
	id := bs.ID
	// Ann is taken to the game when bob accepts.
	as := ann.waitState("ann taken to the game", func(s debugState) bool { return gameLoaded(s) && s.ID == id && s.Status == "active" })
	if as.MySide != "white" || bs.MySide != "black" {
		b.fatalf("sides: ann %q, bob %q; want white and black", as.MySide, bs.MySide)
	}

	// The watcher finds the game in the lobby's games in progress.
	watcher.open("/")
	watcher.waitVisible(fmt.Sprintf("active-game-%d", id))
	watcher.click(fmt.Sprintf("active-game-%d", id))
	ws := watcher.waitState("the watcher on the game", func(s debugState) bool { return gameLoaded(s) && s.ID == id && s.Connection == "open" })
	if ws.MySide != "" {
		b.fatalf("the watcher has side %q, want none", ws.MySide)
	}
	watcher.waitVisible("spectating")
	if eval[bool](watcher, `!!document.querySelector('[data-testid="resign"]') || !!document.querySelector('[data-testid="point-a1"].is-target')`) {
		b.fatalf("the watcher is offered moves or a resign button")
	}

	players := map[string]*page{"white": ann, "black": bob}
	var moves []string
	// move plays one ply by clicks for the side to move and waits until
	// all three pages show it and the server has it.
	move := func() {
		t.Helper()
		g := s.game(t, id)
		p := players[g.State.ToMove]
		st := p.waitMyTurn()
		m := chooseMove(st.Legal)
		p.playMove(m)
		moves = append(moves, m)
		for _, q := range []*page{ann, bob, watcher} {
			q.waitMoves(moves)
		}
		if g := s.game(t, id); !slices.Equal(g.State.Moves, moves) {
			b.fatalf("the server has %v, the pages %v", g.State.Moves, moves)
		}
	}
	for range 6 {
		move()
	}

	// Ann's connection drops (and the watcher's) just after her move;
	// bob moves before they are back (the client waits at least 375 ms
	// before it reconnects). They come back with ?since and get the move.
	move() // ann's
	ann.run("drop the connection", chromedp.Evaluate[chromedp.Void](`window.morrisDebug.dropConnection()`))
	watcher.run("drop the connection", chromedp.Evaluate[chromedp.Void](`window.morrisDebug.dropConnection()`))
	st := bob.waitMyTurn()
	m := chooseMove(st.Legal)
	bob.playMove(m)
	moves = append(moves, m)
	if st, _ := ann.state(); st.Connection == "open" || slices.Equal(st.Moves, moves) {
		t.Logf("ann was back (%s, %d moves) before bob's move: the drop did not span it", st.Connection, len(st.Moves))
	}
	for _, q := range []*page{ann, watcher} {
		q.waitState("reconnected with every move", func(s debugState) bool {
			return s.Connection == "open" && slices.Equal(s.Moves, moves)
		})
	}
	if g := s.game(t, id); !slices.Equal(g.State.Moves, moves) {
		b.fatalf("the server has %v, the pages %v", g.State.Moves, moves)
	}

	// Bob's page is reloaded while ann moves.
	st = ann.waitMyTurn()
	m = chooseMove(st.Legal)
	bob.run("reload", chromedp.Evaluate[chromedp.Void](`location.reload()`))
	ann.playMove(m)
	moves = append(moves, m)
	bob.waitState("bob back after a reload", func(s debugState) bool {
		return s.Page == "game" && s.Connection == "open" && s.MySide == "black" && slices.Equal(s.Moves, moves)
	})
	watcher.waitMoves(moves)

	// Bob's connection drops on his turn and he moves at once, before it
	// is back (the page sends the move over HTTP meanwhile).
	st = bob.waitMyTurn()
	m = chooseMove(st.Legal)
	bob.run("drop the connection", chromedp.Evaluate[chromedp.Void](`window.morrisDebug.dropConnection()`))
	bob.waitState("bob's page reconnecting", func(s debugState) bool { return s.Connection != "open" })
	bob.clickMove(m)
	if st, _ := bob.state(); st.Connection == "open" {
		t.Logf("bob was back before his last click: his move may have gone on the socket")
	}
	bob.waitPlayed(m, len(moves))
	moves = append(moves, m)
	for _, q := range []*page{ann, bob, watcher} {
		q.waitState("every move after bob's drop", func(s debugState) bool {
			return s.Connection == "open" && slices.Equal(s.Moves, moves)
		})
	}

	// A few more moves after all that, then bob resigns on his turn.
	for range 3 {
		move()
	}
	bob.waitMyTurn()
	bob.resign()
	g := s.game(t, id)
	if g.State.Status != "finished" || g.State.Result != "1-0" || g.State.Method != "resignation" {
		b.fatalf("after bob resigned the server has %s %s by %s, want finished 1-0 by resignation", g.State.Status, g.State.Result, g.State.Method)
	}
	for _, q := range []*page{ann, bob, watcher} {
		st := q.waitState("the end", func(s debugState) bool { return s.Status == "finished" })
		if st.Result != "1-0" || st.Method != "resignation" || !slices.Equal(st.Moves, g.State.Moves) {
			b.fatalf("page %s ended with %s by %s after %v; the server has 1-0 by resignation after %v", q.name, st.Result, st.Method, st.Moves, g.State.Moves)
		}
		q.checkResultShown("1-0")
	}

	// The watcher replays the game: the start is empty, the end is the
	// final position.
	watcher.click("replay-first")
	watcher.waitState("the start shown", func(s debugState) bool { return s.Cursor == 0 })
	checkBoard(b, watcher, s, g.Start, nil)
	watcher.click("replay-last")
	watcher.waitState("the end shown", func(s debugState) bool { return s.Cursor == len(moves) })
	checkBoard(b, watcher, s, g.Start, moves)
	t.Logf("game %d: %d plies by clicks between two browsers, watched from a third, in %v", id, len(moves), time.Since(start).Round(time.Millisecond))
}

// TestBrowserSeek: an open seek posted from one lobby and joined from
// another; both players land on the game with their sides.
func TestBrowserSeek(t *testing.T) {
	s := startSite(t)
	s.account(t, "gus", "guspass1")
	s.account(t, "hal", "halpass1")
	b := newBrowser(t, s, 45*time.Second)
	gus := b.newPage("gus")
	hal := b.newPage("hal")
	gus.signIn("gus", "guspass1")
	gus.click("tab-seek")
	gus.waitVisible("seek-form")
	gus.choose("seek-variant", "lasker")
	gus.choose("seek-control", "days")
	gus.choose("seek-color", "black")
	gus.click("seek-submit")
	gus.waitJS("gus's seek listed with a cancel button", `!!document.querySelector('[data-testid^="seek-cancel-"]')`)
	hal.signIn("hal", "halpass1")
	hal.waitJS("gus's seek in hal's lobby", `!!document.querySelector('[data-testid^="seek-accept-"]')`)
	id := eval[string](hal, `document.querySelector('[data-testid^="seek-accept-"]').closest('[data-id]').dataset.id`)
	hal.click("seek-accept-" + id)
	hs := hal.waitState("hal's game", func(s debugState) bool { return gameLoaded(s) })
	gs := gus.waitState("gus taken to the game", func(s debugState) bool { return gameLoaded(s) && s.ID == hs.ID })
	if gs.MySide != "black" || hs.MySide != "white" {
		b.fatalf("sides: gus %q, hal %q; want black and white", gs.MySide, hs.MySide)
	}
	for _, p := range []*page{gus, hal} {
		p.waitJS("the variant shown", `document.querySelector('[data-testid="game-variant"]').dataset.variant === 'lasker'`)
	}
	// Lasker: hal (white) may place or slide from the first move; one
	// move each by clicks.
	hal.playMove(chooseMove(hal.waitMyTurn().Legal))
	gus.playMove(chooseMove(gus.waitMyTurn().Legal))
	g := s.game(t, hs.ID)
	for _, p := range []*page{gus, hal} {
		p.waitMoves(g.State.Moves)
	}
}
