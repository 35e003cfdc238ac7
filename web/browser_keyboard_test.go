package web_test

import (
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

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
	slide := slideFrom(b, st, place)
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
