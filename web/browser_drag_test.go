package web_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

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
	slide := slideFrom(b, st, place)
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
