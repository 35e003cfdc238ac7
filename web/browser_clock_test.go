package web_test

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserClockFlag: a game with 10 s a side that nobody plays. The
// pages (white's and a spectator's) show white's clock counting down and
// black's standing; when the flag falls on the server the pages show the
// game lost on time, without a reload.
func TestBrowserClockFlag(t *testing.T) {
	s := startSite(t)
	tok := map[string]string{"white": s.account(t, "ann", "annpass1"), "black": s.account(t, "bob", "bobpass1")}
	b := newBrowser(t, s, 40*time.Second)
	ann := b.newPage("ann")
	watcher := b.newPage("watcher")
	ann.signIn("ann", "annpass1")
	watcher.open("/")
	watcher.waitState("the lobby", func(s debugState) bool { return s.Page == "home" })
	// The clock runs from the game's creation: sign in first.
	created := time.Now()
	id := s.gameBetween(t, tok["white"], "bob", tok["black"], map[string]any{"variant": "nine-mens-morris", "clock": map[string]int{"initialMs": 10000}})
	if g := s.fullGame(t, id); g.State.Clocks == nil || g.State.Clocks.Running != "white" {
		t.Fatalf("the new game's clocks: %+v", g.State.Clocks)
	}
	pages := []*page{ann, watcher}
	for _, p := range pages {
		p.openGame(id)
		p.run("mark the document", chromedp.Evaluate[chromedp.Void](`window.__sameDocument = true`))
	}
	for _, p := range pages {
		p.waitJS("white's clock shown", `(() => { const c = document.querySelector('[data-testid="clock-white"]'); return !!c && c.dataset.ms !== '' && c.classList.contains('running'); })()`)
		w1 := p.clockMs("white")
		time.Sleep(1200 * time.Millisecond)
		w2, bl := p.clockMs("white"), p.clockMs("black")
		if !(w2 > 0 && w2 < w1-800 && w1 <= 10000) || bl != 10000 {
			b.fatalf("page %s: white's clock %v then %v 1.2 s later, black's %v; want white counting down from 10000 and black at 10000", p.name, w1, w2, bl)
		}
		if x := p.extras(); x.Clocks == nil || x.Clocks.White > w2+50 || x.Clocks.Black != 10000 {
			b.fatalf("page %s: state's clocks %+v, clock-white %v", p.name, x.Clocks, w2)
		}
	}
	ann.waitJS("tenths under 10 s", `/^\d\d:\d\d\.\d$/.test(document.querySelector('[data-testid="clock-white"]').textContent)`)

	// The flag falls at 10 s on the server (nobody claims it).
	for _, p := range pages {
		st := p.waitState("the game lost on time", func(s debugState) bool { return s.Status == "finished" })
		if st.Result != "0-1" || st.Method != "time" || len(st.Moves) != 0 {
			b.fatalf("page %s: %s by %s after %v; want 0-1 by time", p.name, st.Result, st.Method, st.Moves)
		}
		p.checkResultShown("0-1")
		if !eval[bool](p, `window.__sameDocument === true`) {
			b.fatalf("page %s was reloaded", p.name)
		}
		p.waitJS("white's clock at zero, stopped", `(() => { const c = document.querySelector('[data-testid="clock-white"]'); return !!c && c.dataset.ms === '0' && !c.classList.contains('running'); })()`)
	}
	if el := time.Since(created); el < 10*time.Second {
		b.fatalf("the game ended after %v, before white's 10 s", el)
	}
	g := s.fullGame(t, id)
	if g.State.Status != "finished" || g.State.Result != "0-1" || g.State.Method != "time" {
		b.fatalf("the server has %s %s by %s", g.State.Status, g.State.Result, g.State.Method)
	}
	t.Logf("game %d lost on time %v after its creation", id, time.Since(created).Round(100*time.Millisecond))
}
