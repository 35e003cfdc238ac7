package web_test

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/morrisgame/morris/mill"
)

// feelState is what the play-feel test reads of the game page.
type feelState struct {
	Moves          []string `json:"moves"`
	ToMove         string   `json:"toMove"`
	Premove        *string  `json:"premove"`
	PendingConfirm *string  `json:"pendingConfirm"`
	Animations     int      `json:"animations"`
}

func (p *page) feel() feelState {
	p.b.t.Helper()
	return eval[feelState](p, `window.morrisDebug.state()`)
}

func (p *page) sounds() []string {
	p.b.t.Helper()
	return eval[[]string](p, `window.morrisDebug.sounds()`)
}

// setUp returns the position text of nine men's morris with these pieces,
// white to move, nothing in hand.
func setUp(t *testing.T, white, black []string) string {
	t.Helper()
	r := mill.MustRules("nine-mens-morris")
	mask := func(names []string) mill.Points {
		var m mill.Points
		for _, n := range names {
			p, ok := r.Board().PointByName(n)
			if !ok {
				t.Fatalf("no point %s", n)
			}
			m |= 1 << p
		}
		return m
	}
	p, err := r.SetUp(mask(white), mask(black), mill.White, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	return p.String()
}

// TestBrowserPlayFeel: the moves are animated and each kind has its sound
// (a placement, a slide, a flight, a capture); in a real-time game a
// player premoves on the opponent's turn, and the premove is played when
// the turn comes, or dropped when it is no longer legal; in a
// correspondence game, with the confirmation switched on, a move waits
// for it and may be taken back before it is sent.
func TestBrowserPlayFeel(t *testing.T) {
	s := startSite(t)
	ann := s.account(t, "ann", "secret-ann")
	bob := s.account(t, "bob", "secret-bob")
	newGame := func(body map[string]any) int {
		var c struct{ ID int }
		body["variant"], body["color"] = "nine-mens-morris", "white"
		s.call(t, "POST", "/api/challenge/bob", ann, body, &c)
		var acc struct{ Game int }
		s.call(t, "POST", fmt.Sprintf("/api/challenge/%d/accept", c.ID), bob, nil, &acc)
		return acc.Game
	}
	bobMoves := func(id int, move string, ply int) {
		s.call(t, "POST", fmt.Sprintf("/api/game/%d/move", id), bob, map[string]any{"move": move, "ply": ply}, nil)
	}
	b := newBrowser(t, s, 120*time.Second)
	p := b.newPage("ann")
	p.signIn("ann", "secret-ann")

	// A real-time game: animation, sounds, premoves.
	id := newGame(map[string]any{"clock": map[string]int{"initialMs": 300000, "incrementMs": 3000}})
	p.open(fmt.Sprintf("/game/%d", id))
	p.waitState("ann's turn", func(st debugState) bool { return st.Page == "game" && len(st.Legal) > 0 })
	p.click("point-d6")
	p.waitState("d6 played", func(st debugState) bool { return len(st.Moves) == 1 })
	if f := p.feel(); f.Animations < 1 || !slices.Contains(p.sounds(), "place") {
		b.fatalf("after a placement: %d animations, sounds %v; want one and a place", f.Animations, p.sounds())
	}
	// Bob's turn: a premove, played when bob has moved.
	p.waitJS("the premoves offered", `document.querySelector('[data-testid="board"]').classList.contains('interactive')`)
	p.click("point-a1")
	p.waitVisible("premove-bar")
	if f := p.feel(); f.Premove == nil || *f.Premove != "a1" || len(f.Moves) != 1 {
		b.fatalf("after a premove on bob's turn: premove %v, moves %v", f.Premove, f.Moves)
	}
	bobMoves(id, "d2", 1)
	p.waitState("the premove played", func(st debugState) bool { return len(st.Moves) == 3 && st.Moves[2] == "a1" })
	bobMoves(id, "g7", 3)
	p.waitState("ann's turn again", func(st debugState) bool { return len(st.Moves) == 4 && len(st.Legal) > 0 })
	p.click("point-a4")
	p.waitState("a4 played", func(st debugState) bool { return len(st.Moves) == 5 })
	// A premove on d1, which bob then takes: dropped.
	p.waitJS("the premoves offered", `document.querySelector('[data-testid="board"]').classList.contains('interactive')`)
	p.click("point-d1")
	p.waitVisible("premove-bar")
	bobMoves(id, "d1", 5)
	p.waitState("the premove dropped", func(st debugState) bool { return len(st.Moves) == 6 && len(st.Legal) > 0 })
	if f := p.feel(); f.Premove != nil || len(f.Moves) != 6 {
		b.fatalf("a premove no longer legal: premove %v, moves %v", f.Premove, f.Moves)
	}
	// a7 closes a1-a4-a7: the capture's sound.
	p.click("point-a7")
	p.click("point-d2")
	p.waitState("a7xd2 played", func(st debugState) bool { return len(st.Moves) == 7 && st.Moves[6] == "a7xd2" })
	if snd := p.sounds(); !slices.Contains(snd, "capture") {
		b.fatalf("after a capture the sounds were %v", snd)
	}

	// A correspondence game with the confirmation on.
	corr := newGame(map[string]any{"days": 3})
	p.open(fmt.Sprintf("/game/%d", corr))
	p.waitState("ann's turn", func(st debugState) bool { return st.ID == corr && len(st.Legal) > 0 })
	p.click("confirm-toggle")
	p.click("point-d6")
	p.waitVisible("confirm-bar")
	time.Sleep(300 * time.Millisecond)
	if f := p.feel(); f.PendingConfirm == nil || *f.PendingConfirm != "d6" || len(f.Moves) != 0 {
		b.fatalf("a move waiting for its confirmation: pending %v, moves %v", f.PendingConfirm, f.Moves)
	}
	if g := s.game(t, corr); len(g.State.Moves) != 0 {
		b.fatalf("the server has %v before the confirmation", g.State.Moves)
	}
	p.click("cancel-move")
	p.waitState("the move taken back", func(st debugState) bool { return len(st.Legal) > 0 })
	if f := p.feel(); f.PendingConfirm != nil {
		b.fatalf("after cancel the move is still pending: %v", *f.PendingConfirm)
	}
	p.click("point-d2")
	p.waitVisible("confirm-bar")
	p.click("confirm-move")
	p.waitState("d2 sent", func(st debugState) bool { return len(st.Moves) == 1 && st.Moves[0] == "d2" })

	// A slide and a flight on the study board.
	for _, tc := range []struct {
		white, black []string
		from, to     string
		sound        string
	}{
		{[]string{"a1", "g1", "b4", "d2"}, []string{"a7", "g7", "d6", "f4"}, "d2", "d3", "slide"},
		{[]string{"a1", "g1", "b4"}, []string{"a7", "g7", "d6", "f4"}, "a1", "e5", "fly"},
	} {
		pos := setUp(t, tc.white, tc.black)
		p.open("/study?position=" + strings.ReplaceAll(url.QueryEscape(pos), "+", "%20"))
		p.waitState("the position "+pos, func(st debugState) bool { return st.Page == "study" && len(st.Legal) > 0 && st.Position == pos })
		before := len(p.sounds())
		p.click("point-" + tc.from)
		p.click("point-" + tc.to)
		p.waitState(tc.sound, func(st debugState) bool { return len(st.Moves) == 1 })
		snd := p.sounds()
		if len(snd) <= before || snd[len(snd)-1] != tc.sound {
			b.fatalf("%s-%s: the sounds end %v, want %s", tc.from, tc.to, snd, tc.sound)
		}
	}
}
