package web_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserReplay: a finished game replayed move by move on its page
// with the replay buttons, the move list and the keys; at every step the
// board shows the position the server computes.
func TestBrowserReplay(t *testing.T) {
	s := startSite(t)
	white := s.account(t, "cleo", "cleopass")
	black := s.account(t, "dan", "danpass1")
	g := s.finishedGame(t, white, black, "dan", 40)
	moves := g.State.Moves
	if g.State.Status != "finished" || len(moves) < 20 {
		t.Fatalf("the game to replay: %s after %d moves", g.State.Status, len(moves))
	}

	b := newBrowser(t, s, 60*time.Second)
	p := b.newPage("replay")
	p.open(fmt.Sprintf("/game/%d", g.ID))
	st := p.waitState("the finished game", func(s debugState) bool { return gameLoaded(s) && s.Status == "finished" && len(s.Moves) == len(moves) })
	if st.Cursor != len(moves) || !slices.Equal(st.Moves, moves) {
		b.fatalf("opened at cursor %d with %v; want the end of %v", st.Cursor, st.Moves, moves)
	}
	p.checkResultShown(g.State.Result)
	checkBoard(b, p, s, g.Start, moves)

	at := func(k int) {
		t.Helper()
		p.waitState(fmt.Sprintf("cursor %d", k), func(s debugState) bool { return s.Cursor == k })
		checkBoard(b, p, s, g.Start, moves[:k])
		// The move list marks the move shown.
		if k > 0 {
			p.waitJS(fmt.Sprintf("move-%d current", k-1), fmt.Sprintf(`document.querySelector('[data-testid="move-%d"]').classList.contains('current')`, k-1))
		}
	}
	p.click("replay-first")
	at(0)
	if w, bl := p.pieces(); len(w)+len(bl) != 0 {
		b.fatalf("the start has pieces: white %v, black %v", w, bl)
	}
	for k := 1; k <= len(moves); k++ {
		p.click("replay-next")
		at(k)
	}
	for k := len(moves) - 1; k >= len(moves)-5; k-- {
		p.click("replay-prev")
		at(k)
	}
	// A click on a move shows the position after it.
	p.click("move-9")
	at(10)
	// The keys: Home, the arrows, End (the focus off the board).
	p.run("blur", chromedp.Evaluate[chromedp.Void](`document.activeElement && document.activeElement.blur && document.activeElement.blur()`))
	p.run("Home", chromedp.KeyEvent(kb.Home))
	at(0)
	p.run("ArrowRight", chromedp.KeyEvent(kb.ArrowRight))
	at(1)
	p.run("End", chromedp.KeyEvent(kb.End))
	at(len(moves))
	if eval[bool](p, `document.querySelector('[data-testid="replay-next"]').disabled !== true`) {
		b.fatalf("replay-next is enabled at the end")
	}
}
