package web_test

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/morrisgame/morris/mill"
)

// setupState is the study page's set-up, from window.morrisDebug.state().
type setupState struct {
	Setup *struct {
		Position string `json:"position"`
		Error    string `json:"error"`
	} `json:"setup"`
	Start string `json:"start"`
}

func (p *page) setup() setupState {
	p.b.t.Helper()
	return eval[setupState](p, `window.morrisDebug.state()`)
}

// TestBrowserBoardEditor sets a position up by hand on the study page:
// pieces put on the board by clicks (and one taken back), the side to move
// and the pieces in hand chosen; a position with too many pieces is
// refused with the server's reason and changes nothing; the legal one is
// analysed by the engine, its link opens it on another page, and from
// there it is played against the engine, the game starting at it.
func TestBrowserBoardEditor(t *testing.T) {
	s := startSite(t)
	b := newBrowser(t, s, 120*time.Second)
	p := b.newPage("editor")
	p.open("/study")
	p.waitState("the study board", func(st debugState) bool { return st.Page == "study" && len(st.Legal) > 0 })
	p.click("tab-setup")
	p.waitJS("the board as an editor", `document.querySelector('[data-testid="board"]').classList.contains('editing')`)
	p.click("setup-clear")
	white := []string{"a1", "g1", "d2", "b4"}
	black := []string{"a7", "g7", "d6", "f4"}
	for _, pt := range white {
		p.click("point-" + pt)
	}
	p.click("point-c3") // put and taken away again
	p.click("point-c3")
	p.click("setup-tool-black")
	for _, pt := range black {
		p.click("point-" + pt)
	}
	p.choose("setup-to-move", "white")
	p.choose("setup-hand-white", "0")
	p.choose("setup-hand-black", "0")
	if w, bl := p.pieces(); len(w) != 4 || len(bl) != 4 {
		b.fatalf("the board shows white %v, black %v; want %v and %v", w, bl, white, black)
	}
	text := p.setup().Setup.Position
	pos, err := mill.ParsePosition(text)
	if err != nil {
		b.fatalf("the page's position text %q: %v", text, err)
	}
	for c, pts := range map[mill.Color][]string{mill.White: white, mill.Black: black} {
		for _, pt := range pts {
			i, ok := pos.Rules().Board().PointByName(pt)
			if got, occupied := pos.At(i); !ok || !occupied || got != c {
				b.fatalf("the position text %q has not %s on %s", text, c, pt)
			}
		}
	}

	// Too many pieces: refused, with the reason, and nothing changes.
	p.expectConsoleError("status of 400 (Bad Request) (" + s.URL + "/api/position:")
	p.choose("setup-hand-white", "9")
	p.click("setup-check")
	p.waitJS("the refusal", `document.querySelector('[data-testid="setup-error"]').textContent.includes('more than 9')`)
	if st := p.setup(); st.Setup == nil || st.Start != "" {
		b.fatalf("after a refused check the page left the set-up (%+v)", st)
	}
	p.choose("setup-hand-white", "0")
	p.click("setup-check")
	st := p.waitState("the position analysed", func(st debugState) bool {
		return st.Analysis != nil && st.Analysis.Best != "" && strings.HasPrefix(st.Position, "nine-mens-morris ")
	})
	if su := p.setup(); su.Setup != nil || su.Start != text {
		b.fatalf("after the check the study board starts at %q (set-up %v), want %q", su.Start, su.Setup, text)
	}
	if !slicesContain(st.Legal, st.Analysis.Best) {
		b.fatalf("the engine's best move %q is not one of the position's moves %v", st.Analysis.Best, st.Legal)
	}
	link := eval[string](p, `location.href`)
	if !strings.Contains(link, "#/study?position="+url.QueryEscape(text)) && !strings.Contains(link, "position="+url.PathEscape(text)) {
		b.fatalf("the address %q is not the position's link", link)
	}

	// The link on another page: the same position; played against the
	// engine from there.
	q := b.newPage("link")
	q.open(strings.TrimPrefix(link[strings.Index(link, "#"):], "#"))
	q.waitState("the shared position", func(st debugState) bool { return st.Page == "study" && len(st.Legal) > 0 })
	if got := q.setup().Start; got != text {
		b.fatalf("the link opens %q, want %q", got, text)
	}
	q.click("tab-setup")
	q.choose("setup-level", "1")
	q.choose("setup-color", "black") // white is to move: the engine begins
	q.click("setup-play")
	gst := q.waitState("the game from the position", func(st debugState) bool { return st.Page == "game" && st.ID > 0 && len(st.Moves) >= 1 })
	g := s.game(t, gst.ID)
	if g.Start != text || g.White.Name != "engine" {
		b.fatalf("the game starts at %q with %s as white; want %q and the engine", g.Start, g.White.Name, text)
	}
	if m, err := pos.ParseMove(g.State.Moves[0]); err != nil || !slicesContainMove(pos.Moves(nil), m) {
		b.fatalf("the engine's first move %q is not legal in the position: %v", g.State.Moves[0], err)
	}
	t.Logf("set up %s; engine's analysis %s; the game %d began with %s", text, st.Analysis.Best, gst.ID, g.State.Moves[0])
}

func slicesContain(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func slicesContainMove(list []mill.Move, m mill.Move) bool {
	for _, x := range list {
		if x == m {
			return true
		}
	}
	return false
}
