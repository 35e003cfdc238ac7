package web_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/morrisgame/morris/internal/server"
	"github.com/morrisgame/morris/search"
)

// TestBrowserReview: after a game with a blunder, a player asks for the
// engine's review on the game page: its progress shows, then the
// evaluation graph with a point a position, the blunder in the list with
// the better move and in the move list; a click on a point of the graph
// shows that position; and anyone who opens the game later sees the
// review, kept with the game. The same moves imported as a record on the
// study board are reviewed there alike.
func TestBrowserReview(t *testing.T) {
	s := startSiteWith(t, func(c *server.Config) { c.ReviewLimits = search.Limits{Depth: 4} })
	ann := s.account(t, "ann", "secret-ann")
	bob := s.account(t, "bob", "secret-bob")
	var c struct{ ID int }
	s.call(t, "POST", "/api/challenge/bob", ann, map[string]any{"variant": "nine-mens-morris", "color": "white"}, &c)
	var acc struct{ Game int }
	s.call(t, "POST", fmt.Sprintf("/api/challenge/%d/accept", c.ID), bob, nil, &acc)
	moves := []string{"a1", "d6", "a4", "g1", "a7xd6"} // g1 lets white close a1-a4-a7
	for ply, m := range moves {
		tok := ann
		if ply%2 == 1 {
			tok = bob
		}
		s.call(t, "POST", fmt.Sprintf("/api/game/%d/move", acc.Game), tok, map[string]any{"move": m, "ply": ply}, nil)
	}
	s.call(t, "POST", fmt.Sprintf("/api/game/%d/resign", acc.Game), bob, nil, nil)

	b := newBrowser(t, s, 90*time.Second)
	p := b.newPage("ann")
	p.signIn("ann", "secret-ann")
	p.open(fmt.Sprintf("/game/%d", acc.Game))
	p.waitState("the finished game", func(st debugState) bool { return st.Page == "game" && st.Status == "finished" })
	p.click("review-request")
	p.waitVisible("review-graph")
	if n := eval[string](p, `document.querySelector('[data-testid="review-graph"]').dataset.points`); n != fmt.Sprint(len(moves)+1) {
		b.fatalf("the graph has %s points, want %d (the start and each move)", n, len(moves)+1)
	}
	type item struct{ Mark, Best string }
	it := eval[item](p, `(() => { const e = document.querySelector('[data-testid="review-item-3"]'); return e ? {Mark: e.dataset.mark, Best: e.dataset.best} : {}; })()`)
	if it.Mark != "blunder" || it.Best != "a7" {
		b.fatalf("g1 in the review's list: %+v, want a blunder with a7 better", it)
	}
	if mark := eval[string](p, `document.querySelector('[data-testid="move-3"]').dataset.mark || ''`); mark != "blunder" {
		b.fatalf("g1 in the move list is marked %q, want blunder", mark)
	}
	p.click("review-point-2")
	p.waitState("the position after two moves", func(st debugState) bool { return st.Cursor == 2 })
	p.waitJS("the point shown as current", `document.querySelector('[data-testid="review-point-2"]').classList.contains('current')`)

	// An imported record on the study board: the same review.
	st := b.newPage("study")
	st.open("/study")
	st.waitState("the study board", func(s debugState) bool { return s.Page == "study" && len(s.Legal) > 0 })
	st.click("tab-import")
	st.choose("import-text", "[Variant \"nine-mens-morris\"]\n\n1. a1 d6 2. a4 g1 3. a7xd6 *\n")
	st.click("import-submit")
	st.waitState("the record", func(s debugState) bool { return len(s.Moves) == len(moves) })
	st.click("review-request")
	st.waitVisible("review-graph")
	if n := eval[string](st, `document.querySelector('[data-testid="review-graph"]').dataset.points`); n != fmt.Sprint(len(moves)+1) {
		b.fatalf("the study board's graph has %s points, want %d", n, len(moves)+1)
	}
	if mark := eval[string](st, `document.querySelector('[data-testid="move-3"]').dataset.mark || ''`); mark != "blunder" {
		b.fatalf("g1 on the study board is marked %q, want blunder", mark)
	}
	st.click("review-point-4")
	st.waitState("the position after four moves", func(s debugState) bool { return s.Cursor == 4 })

	// Anyone opening the game later sees the review.
	q := b.newPage("spectator")
	q.open(fmt.Sprintf("/game/%d", acc.Game))
	q.waitVisible("review-graph")
	if eval[bool](q, `!!document.querySelector('[data-testid="review-request"]')`) {
		b.fatalf("the spectator is offered to ask for a review already done")
	}
}
