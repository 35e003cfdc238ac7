package web_test

// More browser tests, with the helpers of browser_test.go: offers and
// chat between two players (and a spectator), moves by keyboard, moves by
// drag (pointer events from the mouse), a real-time clock whose flag falls
// on the server, and Shah's removal and pass.

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// gameBetween makes a game between two users through the API: a challenge
// from white (whiteTok) to blackName, with body's settings and white's
// colour, accepted by blackTok. It returns the game's id.
func (s *site) gameBetween(t *testing.T, whiteTok, blackName, blackTok string, body map[string]any) int {
	t.Helper()
	body["color"] = "white"
	var c struct{ ID int }
	s.call(t, "POST", "/api/challenge/"+blackName, whiteTok, body, &c)
	var acc struct{ Game int }
	s.call(t, "POST", fmt.Sprintf("/api/challenge/%d/accept", c.ID), blackTok, nil, &acc)
	return acc.Game
}

// fullGame is GET /api/game/ID with the offers, the chat and the clocks.
type fullGame struct {
	Variant string `json:"variant"`
	State   struct {
		Moves  []string `json:"moves"`
		ToMove string   `json:"toMove"`
		Status string   `json:"status"`
		Result string   `json:"result"`
		Method string   `json:"method"`
		Offers []struct {
			Kind string `json:"kind"`
			By   string `json:"by"`
		} `json:"offers"`
		Clocks *struct {
			WhiteMs int64  `json:"whiteMs"`
			BlackMs int64  `json:"blackMs"`
			Running string `json:"running"`
		} `json:"clocks"`
	} `json:"state"`
	Chat []struct {
		User string `json:"user"`
		Text string `json:"text"`
	} `json:"chat"`
}

func (s *site) fullGame(t *testing.T, id int) fullGame {
	t.Helper()
	var g fullGame
	s.call(t, "GET", fmt.Sprintf("/api/game/%d", id), "", nil, &g)
	return g
}

// playAPI plays one move for the side to move through the API (chooseMove
// over the server's legal moves) and returns it.
func (s *site) playAPI(t *testing.T, id int, tokens map[string]string) string {
	t.Helper()
	g := s.game(t, id)
	v := s.position(t, g.State.Position, nil)
	var texts []string
	for _, m := range v.Legal {
		texts = append(texts, m.Text)
	}
	m := chooseMove(texts)
	s.call(t, "POST", fmt.Sprintf("/api/game/%d/move", id), tokens[g.State.ToMove], map[string]any{"move": m, "ply": len(g.State.Moves)}, nil)
	return m
}

// waitGame waits until the server's game satisfies ok (a click's command
// may still be on its way when the page's click returns).
func (s *site) waitGame(b *browser, id int, what string, ok func(g apiGame) bool) apiGame {
	b.t.Helper()
	d := time.Now().Add(stepTimeout)
	for {
		g := s.game(b.t, id)
		if ok(g) {
			return g
		}
		if time.Now().After(d) {
			b.fatalf("the server's game %d: timed out waiting for %s; it has %s %s %v", id, what, g.State.Status, g.State.Result, g.State.Moves)
		}
		time.Sleep(40 * time.Millisecond)
	}
}

// gameExtras is the part of morrisDebug.state() on a game page that
// debugState leaves out.
type gameExtras struct {
	Offers []struct {
		Kind string `json:"kind"`
		By   string `json:"by"`
	} `json:"offers"`
	Chat []struct {
		User string `json:"user"`
		Text string `json:"text"`
	} `json:"chat"`
	Clocks *struct {
		White float64 `json:"white"`
		Black float64 `json:"black"`
	} `json:"clocks"`
}

func (p *page) extras() gameExtras {
	p.b.t.Helper()
	raw := eval[[]byte](p, `window.morrisDebug.state()`)
	var x gameExtras
	if err := json.Unmarshal(raw, &x); err != nil {
		p.b.fatalf("page %s: state %s: %v", p.name, raw, err)
	}
	return x
}

// openGame opens a game's page and waits until it has the game over an
// open connection.
func (p *page) openGame(id int) debugState {
	p.b.t.Helper()
	p.open(fmt.Sprintf("/game/%d", id))
	return p.waitState(fmt.Sprintf("game %d open", id), func(s debugState) bool {
		return gameLoaded(s) && s.ID == id && s.Connection == "open"
	})
}

// existsJS is a script true when an element with the test id exists.
func existsJS(id string) string {
	return fmt.Sprintf(`!!document.querySelector('[data-testid=%q]')`, id)
}

// ---- offers and chat ----

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

// ---- the keyboard ----

// focused is the name of the board point that has the focus ("" when
// none).
func (p *page) focused() string {
	p.b.t.Helper()
	return eval[string](p, `(() => { const f = document.activeElement; return f && f.dataset && f.dataset.point !== undefined ? f.dataset.name : ''; })()`)
}

// key presses one key (a kb constant or a character).
func (p *page) key(k string) {
	p.b.t.Helper()
	p.run("key "+k, chromedp.KeyEvent(k))
}

// xy is a point in the viewport, in CSS pixels.
type xy struct{ X, Y float64 }

// center is the centre of an element in the viewport.
func (p *page) center(id string) xy {
	p.b.t.Helper()
	c := eval[*xy](p, fmt.Sprintf(`(() => { const el = document.querySelector('[data-testid=%q]'); if (!el) return null;
		const r = el.getBoundingClientRect(); return {X: r.left + r.width / 2, Y: r.top + r.height / 2}; })()`, id))
	if c == nil {
		p.b.fatalf("page %s: no %s", p.name, id)
	}
	return *c
}

// keyTo moves the board's focus to point with the arrow keys, from the
// point that has it: each key toward the target along the larger distance
// on the screen. Every key must move the focus.
func (p *page) keyTo(point string) {
	p.b.t.Helper()
	path := []string{p.focused()}
	for range 12 {
		at := path[len(path)-1]
		if at == point {
			return
		}
		if at == "" {
			p.b.fatalf("page %s: no board point has the focus (keys so far: %v)", p.name, path)
		}
		from, to := p.center("point-"+at), p.center("point-"+point)
		dx, dy := to.X-from.X, to.Y-from.Y
		k := kb.ArrowRight
		switch {
		case math.Abs(dx) >= math.Abs(dy) && dx < 0:
			k = kb.ArrowLeft
		case math.Abs(dy) > math.Abs(dx) && dy < 0:
			k = kb.ArrowUp
		case math.Abs(dy) > math.Abs(dx):
			k = kb.ArrowDown
		}
		p.key(k)
		now := p.focused()
		if now == at {
			p.b.fatalf("page %s: an arrow key left the focus on %s (path %v, toward %s)", p.name, at, path, point)
		}
		path = append(path, now)
	}
	p.b.fatalf("page %s: the arrow keys did not reach %s: %v", p.name, point, path)
}

// TestBrowserKeyboard: a placement and a slide (Lasker: both from the
// first moves) made with the keyboard only: the focus on the board, the
// arrow keys, Enter and Space; Escape drops a selection. The server has
// the moves.
func TestBrowserKeyboard(t *testing.T) {
	s := startSite(t)
	tok := map[string]string{"white": s.account(t, "ann", "annpass1"), "black": s.account(t, "bob", "bobpass1")}
	id := s.gameBetween(t, tok["white"], "bob", tok["black"], map[string]any{"variant": "lasker"})
	b := newBrowser(t, s, 45*time.Second)
	ann := b.newPage("ann")
	ann.signIn("ann", "annpass1")
	ann.openGame(id)
	st := ann.waitMyTurn()
	if st.MySide != "white" || st.ToMove != "white" {
		b.fatalf("ann is %q with %q to move; want white to move", st.MySide, st.ToMove)
	}

	// The board's point in the tab order (the roving tabindex) gets the
	// focus; the arrows move it.
	ann.run("focus the board", chromedp.Focus(chromedp.CSS(`[data-testid="board-svg"] [data-point][tabindex="0"]`)))
	first := ann.focused()
	if first == "" {
		b.fatalf("no point took the focus")
	}
	const place = "d2"
	if !slices.Contains(st.Legal, place) {
		b.fatalf("%s is not a legal placement: %v", place, st.Legal)
	}
	ann.keyTo(place)
	if n := eval[int](ann, `document.querySelectorAll('[data-testid="board-svg"] [data-point][tabindex="0"]').length`); n != 1 {
		b.fatalf("%d points are in the tab order after the arrows, want 1", n)
	}
	ann.waitJS("the focused point's label", fmt.Sprintf(`document.activeElement.getAttribute('aria-label') === '%s, empty, legal move'`, place))
	ann.key(kb.Enter)
	ann.waitPlayed(place, 0)
	if got := ann.focused(); got != place {
		t.Errorf("the focus after Enter is on %q, want %s", got, place)
	}
	bm := s.playAPI(t, id, tok)
	ann.waitMoves([]string{place, bm})

	// A slide: Space on the piece selects it, Escape drops it, Space again,
	// the arrows to the target, Enter.
	st = ann.waitMyTurn()
	var slide string
	for _, m := range st.Legal {
		if strings.HasPrefix(m, place+"-") && !strings.Contains(m, "x") {
			slide = m
			break
		}
	}
	if slide == "" {
		b.fatalf("no slide from %s in %v", place, st.Legal)
	}
	_, target, _, _ := clicksOf(slide)
	ann.keyTo(place)
	ann.key(" ")
	ann.waitJS(place+" selected by Space", hasClassJS(place, "selected"))
	ann.waitJS(target+" a target", hasClassJS(target, "is-target"))
	ann.key(kb.Escape)
	ann.waitJS(place+" no longer selected after Escape", `!document.querySelector('[data-testid="board-svg"] .selected')`)
	ann.key(" ")
	ann.waitJS(place+" selected again", hasClassJS(place, "selected"))
	ann.keyTo(target)
	ann.key(kb.Enter)
	ann.waitPlayed(slide, 2)
	want := []string{place, bm, slide}
	if g := s.game(t, id); !slices.Equal(g.State.Moves, want) {
		b.fatalf("the server has %v, want %v", g.State.Moves, want)
	}
	checkBoard(b, ann, s, s.game(t, id).Start, want)
}

// ---- drag ----

// drag presses the left button at from, moves to to in steps and releases
// it there, as a mouse does; mid reports on the page in the middle of the
// drag (the button down, the pointer near to).
func (p *page) drag(what string, from, to xy, mid func()) {
	p.b.t.Helper()
	p.run(what+": press", chromedp.MouseEvent(chromedp.MouseMoved, from.X, from.Y),
		chromedp.MouseEvent(chromedp.MousePressed, from.X, from.Y, chromedp.ButtonLeft, chromedp.ClickCount(1)))
	const steps = 8
	for i := 1; i <= steps; i++ {
		x := from.X + (to.X-from.X)*float64(i)/steps
		y := from.Y + (to.Y-from.Y)*float64(i)/steps
		p.run(what+": move", chromedp.MouseEvent(chromedp.MouseMoved, x, y, chromedp.ButtonLeft))
	}
	if mid != nil {
		mid()
	}
	p.run(what+": release", chromedp.MouseEvent(chromedp.MouseReleased, to.X, to.Y, chromedp.ButtonLeft, chromedp.ClickCount(1)))
}

// inViewport fails unless the element is wholly in the viewport (a
// pointer event goes where the mouse is on the screen).
func (p *page) inViewport(id string) {
	p.b.t.Helper()
	ok := eval[bool](p, fmt.Sprintf(`(() => { const el = document.querySelector('[data-testid=%q]'); if (!el) return false;
		const r = el.getBoundingClientRect(); return r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth; })()`, id))
	if !ok {
		p.b.fatalf("page %s: %s is not in the viewport", p.name, id)
	}
}

// TestBrowserDrag: in Lasker, a piece dragged from the hand onto a point
// (a placement), then a piece dragged on the board to a neighbour (a
// slide), after a drop off any target that plays nothing; mouse events,
// which the page gets as pointer events. The server has the moves.
func TestBrowserDrag(t *testing.T) {
	s := startSite(t)
	tok := map[string]string{"white": s.account(t, "ann", "annpass1"), "black": s.account(t, "bob", "bobpass1")}
	id := s.gameBetween(t, tok["white"], "bob", tok["black"], map[string]any{"variant": "lasker"})
	b := newBrowser(t, s, 45*time.Second)
	ann := b.newPage("ann")
	ann.signIn("ann", "annpass1")
	ann.openGame(id)
	st := ann.waitMyTurn()
	// White's hand is under the board: scrolled into view, as a person
	// would, with the board's middle still in view.
	ann.run("scroll to white's hand", chromedp.Evaluate[chromedp.Void](`document.querySelector('[data-testid="player-white"]').scrollIntoView({block: 'end'})`))

	// The placement: from white's hand (under the board) to b4.
	const place = "b4"
	if !slices.Contains(st.Legal, place) {
		b.fatalf("%s is not a legal placement: %v", place, st.Legal)
	}
	ann.waitJS("white's hand a drag source", `(() => { const h = document.querySelector('[data-testid="hand-white"]'); return !!h && h.classList.contains('hand-source') && h.dataset.count === '10'; })()`)
	for _, id := range []string{"hand-white", "point-" + place} {
		ann.inViewport(id)
	}
	ann.drag("hand to "+place, ann.center("hand-white"), ann.center("point-"+place), func() {
		ann.waitJS("a ghost piece under the pointer", `!!document.querySelector('[data-testid="board-svg"] .board-drag .ghost')`)
	})
	ann.waitPlayed(place, 0)
	if g := s.game(t, id); !slices.Equal(g.State.Moves, []string{place}) {
		b.fatalf("after the drag the server has %v, want [%s]", g.State.Moves, place)
	}
	ann.waitJS("white's hand one less", `document.querySelector('[data-testid="hand-white"]').dataset.count === '9'`)
	bm := s.playAPI(t, id, tok)
	ann.waitMoves([]string{place, bm})

	// A drop on a point that is not a target plays nothing and leaves the
	// piece selected.
	st = ann.waitMyTurn()
	var slide string
	for _, m := range st.Legal {
		if strings.HasPrefix(m, place+"-") && !strings.Contains(m, "x") {
			slide = m
			break
		}
	}
	if slide == "" {
		b.fatalf("no slide from %s in %v", place, st.Legal)
	}
	_, target, _, _ := clicksOf(slide)
	const off = "f4" // empty and not next to b4
	if slices.Contains(st.Legal, place+"-"+off) || eval[string](ann, fmt.Sprintf(`document.querySelector('[data-testid="point-%s"]').dataset.piece`, off)) != "" {
		b.fatalf("%s is not an empty point off b4's targets: %v", off, st.Legal)
	}
	ann.drag(place+" to "+off, ann.center("point-"+place), ann.center("point-"+off), func() {
		ann.waitJS(place+" marked as dragged", hasClassJS(place, "dragging"))
	})
	ann.waitJS(place+" selected after the drop off target", hasClassJS(place, "selected"))
	time.Sleep(300 * time.Millisecond)
	if st, _ := ann.state(); len(st.Moves) != 2 {
		b.fatalf("a drop off target played: %v", st.Moves)
	}

	// The slide.
	ann.drag(place+" to "+target, ann.center("point-"+place), ann.center("point-"+target), nil)
	ann.waitPlayed(slide, 2)
	want := []string{place, bm, slide}
	g := s.game(t, id)
	if !slices.Equal(g.State.Moves, want) {
		b.fatalf("the server has %v, want %v", g.State.Moves, want)
	}
	checkBoard(b, ann, s, g.Start, want)
}

// ---- a real-time clock ----

// clockMs reads a clock's data-ms (-1 when it has none yet).
func (p *page) clockMs(side string) float64 {
	p.b.t.Helper()
	return eval[float64](p, fmt.Sprintf(`(() => { const c = document.querySelector('[data-testid="clock-%s"]'); return c && c.dataset.ms !== '' && c.dataset.ms !== undefined ? Number(c.dataset.ms) : -1; })()`, side))
}

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

// ---- Shah ----

// TestBrowserShah: Shah by clicks between two players: the 24 placements
// (no mills: each side takes the first legal point, corners and
// midpoints alternate), the removal at the end of placing by a click on
// the piece, and the pass of the side whose pieces all stand away from
// the one empty point, by the pass button; then the remover's slide into
// the hole.
func TestBrowserShah(t *testing.T) {
	start := time.Now()
	s := startSite(t)
	tok := map[string]string{"white": s.account(t, "ann", "annpass1"), "black": s.account(t, "bob", "bobpass1")}
	id := s.gameBetween(t, tok["white"], "bob", tok["black"], map[string]any{"variant": "shah"})
	b := newBrowser(t, s, 60*time.Second)
	ann := b.newPage("ann")
	bob := b.newPage("bob")
	ann.signIn("ann", "annpass1")
	bob.signIn("bob", "bobpass1")
	players := map[string]*page{"white": ann, "black": bob}
	for _, p := range players {
		p.openGame(id)
		p.waitJS("the variant shown", `document.querySelector('[data-testid="game-variant"]').dataset.variant === 'shah'`)
	}

	var moves []string
	turn := func() (*page, debugState) {
		t.Helper()
		g := s.game(t, id)
		p := players[g.State.ToMove]
		return p, p.waitMyTurn()
	}
	// Placing.
	for {
		p, st := turn()
		if st.Status != "active" {
			b.fatalf("the game ended while placing: %s by %s", st.Result, st.Method)
		}
		if strings.HasPrefix(st.Legal[0], "x") {
			break
		}
		m := st.Legal[0]
		p.playMove(m)
		moves = append(moves, m)
		if len(moves) > 24 {
			b.fatalf("still placing after 24 moves: %v", moves)
		}
	}
	if len(moves) != 24 {
		b.fatalf("the removal came after %d placements, want 24", len(moves))
	}

	// The removal: every legal move takes a piece; the page says so and
	// marks the pieces that may go.
	remover, st := turn()
	remover.waitJS("the status asks for a removal", `document.querySelector('[data-testid="status"]').textContent.includes('choose a piece to remove')`)
	for _, m := range st.Legal {
		if !strings.HasPrefix(m, "x") {
			b.fatalf("a move that is not a removal at the removal turn: %v", st.Legal)
		}
	}
	if n := eval[int](remover, `document.querySelectorAll('[data-testid="board-svg"] .capturable').length`); n != len(st.Legal) {
		b.fatalf("%d pieces marked capturable, %d removals legal", n, len(st.Legal))
	}
	g := s.game(t, id)
	v := s.position(t, g.State.Position, nil)
	var removal string
	for _, m := range v.Legal {
		if m.Kind != "remove" {
			b.fatalf("the server's legal moves at the removal: %+v", v.Legal)
		}
		if after := s.position(t, g.State.Position, []string{m.Text}); len(after.Legal) == 1 && after.Legal[0].Kind == "pass" {
			removal = m.Text
			break
		}
	}
	if removal == "" {
		// Every removal leaves the other side a slide: no pass to test.
		b.fatalf("no removal after these placements leaves a pass: %v", v.Legal)
	}
	remover.playMove(removal)
	moves = append(moves, removal)

	// The other side can only pass: the pass button.
	passer, st := turn()
	if passer == remover || !slices.Equal(st.Legal, []string{"pass"}) {
		b.fatalf("after the removal: page %s with legal %v; want the other player with [pass]", passer.name, st.Legal)
	}
	passer.waitVisible("pass")
	passer.waitJS("the status says to pass", `document.querySelector('[data-testid="status"]').textContent.includes('You cannot move: pass')`)
	if n := eval[int](passer, `document.querySelectorAll('[data-testid="board-svg"] .is-target, [data-testid="board-svg"] .movable').length`); n != 0 {
		b.fatalf("the board offers %d points to a side that must pass", n)
	}
	if eval[bool](remover, existsJS("pass")) {
		b.fatalf("the side not to move has a pass button")
	}
	passer.playMove("pass")
	moves = append(moves, "pass")

	// The remover slides into the hole by clicks.
	remover2, st := turn()
	if remover2 != remover {
		b.fatalf("after the pass %s is to move, want %s", remover2.name, remover.name)
	}
	if remover.waitVisible("status"); eval[bool](remover, existsJS("pass")) {
		b.fatalf("a pass button when a slide is legal")
	}
	m := chooseMove(st.Legal)
	remover.playMove(m)
	moves = append(moves, m)

	g = s.game(t, id)
	if !slices.Equal(g.State.Moves, moves) {
		b.fatalf("the server has %v, the pages played %v", g.State.Moves, moves)
	}
	for _, p := range players {
		p.waitMoves(moves)
		checkBoard(b, p, s, g.Start, moves)
	}
	t.Logf("game %d: %d Shah plies by clicks (removal %s, a pass) in %v", id, len(moves), removal, time.Since(start).Round(time.Millisecond))
}
