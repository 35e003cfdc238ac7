package web_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/morrisgame/morris/egdb/egdbtest"
	"github.com/morrisgame/morris/internal/server/rating"
	"github.com/morrisgame/morris/internal/server/store"
	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/puzzle"
)

// clickMoveText plays a move in standard notation by clicks: its points in
// order (the piece, the target, then each capture).
func (p *page) clickMoveText(move string) {
	p.b.t.Helper()
	main, caps, _ := strings.Cut(move, "x")
	for _, pt := range strings.Split(main, "-") {
		p.click("point-" + pt)
	}
	if caps != "" {
		for _, c := range strings.Split(caps, "x") {
			p.click("point-" + c)
		}
	}
}

// puzzleState is the puzzle page's state.
type puzzleState struct {
	Page   string   `json:"page"`
	ID     int      `json:"id"`
	Status string   `json:"status"`
	Moves  []string `json:"moves"`
	Legal  []string `json:"legal"`
	// Solution is the line the page shows (after asking), nil before.
	Solution []string `json:"solution"`
}

func (p *page) waitPuzzle(what string, ok func(puzzleState) bool) puzzleState {
	p.b.t.Helper()
	deadline := time.Now().Add(stepTimeout)
	for {
		st := eval[puzzleState](p, `window.morrisDebug ? window.morrisDebug.state() : {}`)
		if ok(st) {
			return st
		}
		if time.Now().After(deadline) {
			p.b.fatalf("page %s: timed out waiting for %s; last %+v", p.name, what, st)
		}
		time.Sleep(40 * time.Millisecond)
	}
}

// TestBrowserPuzzles: puzzles made from the 3v3 databases; the lobby shows
// the puzzle of the day; a signed-in player solves one by clicks against
// the defence's replies and fails another, the puzzle rating going up and
// then down as the server computes it; the player's page lists both.
func TestBrowserPuzzles(t *testing.T) {
	s := startSite(t)
	r := mill.MustRules("nine-mens-morris")
	db, _ := egdbtest.Build(t, r)
	o := puzzle.Defaults
	o.Sectors = [][2]int{{3, 3}}
	rng := rand.New(rand.NewPCG(3, 4))
	var ids []int
	var sols [][]string
	for len(ids) < 2 {
		pz, err := puzzle.Find(db, r, rng, o)
		if err != nil {
			t.Fatal(err)
		}
		id, err := s.svc.Store().AddPuzzle(context.Background(), store.Puzzle{Rules: r.String(), Position: pz.Position.String(), Solution: pz.Texts(),
			Plies: pz.Plies, Source: "tablebase", CreatedAt: time.Now()})
		if err != nil {
			t.Fatal(err)
		}
		ids, sols = append(ids, int(id)), append(sols, pz.Texts())
	}
	s.account(t, "ann", "secret-ann")

	b := newBrowser(t, s, 90*time.Second)
	p := b.newPage("ann")
	p.signIn("ann", "secret-ann")
	p.open("/")
	p.waitVisible("lobby-daily-puzzle-link")
	if daily, _ := strconv.Atoi(eval[string](p, `document.querySelector('[data-testid="lobby-daily-puzzle"]').dataset.id`)); !slices.Contains(ids, daily) {
		b.fatalf("the puzzle of the day is %d, not one of %v", daily, ids)
	}

	// Solve the first: every solver's move of the line, the replies coming.
	p.open(fmt.Sprintf("/puzzle/%d", ids[0]))
	p.waitPuzzle("the puzzle", func(st puzzleState) bool { return st.Page == "puzzle" && st.Status == "solving" && len(st.Legal) > 0 })
	for i := 0; i < len(sols[0]); i += 2 {
		p.clickMoveText(sols[0][i])
		want := min(i+2, len(sols[0]))
		p.waitPuzzle("the line after "+sols[0][i], func(st puzzleState) bool { return len(st.Moves) == want && st.Status != "checking" })
	}
	p.waitPuzzle("solved", func(st puzzleState) bool { return st.Status == "solved" })
	up := eval[[2]string](p, `(() => { const e = document.querySelector('[data-testid="puzzle-rating-change"]'); return [e.dataset.before, e.dataset.after]; })()`)
	before, _ := strconv.Atoi(up[0])
	after, _ := strconv.Atoi(up[1])
	if before != rating.DefaultR || after <= before {
		b.fatalf("solving moved the rating %d → %d; want up from %d", before, after, rating.DefaultR)
	}

	// Fail the second: a legal move that is not the solution's.
	p.open(fmt.Sprintf("/puzzle/%d", ids[1]))
	st := p.waitPuzzle("the second puzzle", func(st puzzleState) bool { return st.ID == ids[1] && st.Status == "solving" && len(st.Legal) > 0 })
	wrong := ""
	for _, m := range st.Legal {
		if m != sols[1][0] {
			wrong = m
			break
		}
	}
	p.clickMoveText(wrong)
	p.waitPuzzle("failed", func(st puzzleState) bool { return st.Status == "failed" })
	down := eval[[2]string](p, `(() => { const e = document.querySelector('[data-testid="puzzle-rating-change"]'); return [e.dataset.before, e.dataset.after]; })()`)
	if down[0] != up[1] || down[1] >= down[0] {
		b.fatalf("failing moved the rating %s → %s; want down from %s", down[0], down[1], up[1])
	}
	// The wrong move does not show the solution; the button does, at no
	// further cost (the attempt was kept already).
	if got := eval[[]string](p, `window.morrisDebug.state().solution || []`); len(got) != 0 {
		b.fatalf("after a wrong move the page has the solution %v; want none until asked", got)
	}
	p.click("puzzle-show-solution")
	shown := p.waitPuzzle("the solution", func(st puzzleState) bool { return len(st.Solution) > 0 })
	if !slices.Equal(shown.Solution, sols[1]) {
		b.fatalf("the solution shown: %v, want %v", shown.Solution, sols[1])
	}
	if got := eval[string](p, `document.querySelector('[data-testid="puzzle-solution"]').textContent`); !strings.Contains(got, sols[1][0]) {
		b.fatalf("the solution's text %q does not show %s", got, sols[1][0])
	}
	// The answer is on the board too: the wrong move taken back, the
	// solution's move drawn (an arrow, or a ring for a placement).
	if got := eval[string](p, `document.querySelector('[data-testid="board-hint"]').dataset.move`); got != sols[1][0] {
		b.fatalf("the board shows the answer %q, want %s", got, sols[1][0])
	}
	if n := eval[int](p, `document.querySelector('[data-testid="board-hint"]').children.length`); n == 0 {
		b.fatalf("the board draws nothing for the answer %s", sols[1][0])
	}
	wrongMain, _, _ := strings.Cut(wrong, "x")
	wrongTo := wrongMain[strings.LastIndex(wrongMain, "-")+1:]
	if got := eval[string](p, fmt.Sprintf(`document.querySelector('[data-testid="point-%s"]').dataset.piece`, wrongTo)); got != "" {
		b.fatalf("with the answer shown, %s (where the wrong move %s went) holds %q; want the move taken back", wrongTo, wrong, got)
	}
	// Try again: the wrong move taken back, the right one accepted (the
	// attempt was kept already: practice, the rating unchanged).
	p.click("puzzle-retry")
	p.waitPuzzle("solving again", func(st puzzleState) bool { return st.Status == "solving" && len(st.Moves) == 0 && len(st.Legal) > 0 })
	if got := eval[string](p, `document.querySelector('[data-testid="board-hint"]').dataset.move`); got != "" {
		b.fatalf("after the retry the board still shows the answer %q", got)
	}
	p.clickMoveText(sols[1][0])
	p.waitPuzzle("the right move after the retry", func(st puzzleState) bool {
		return len(st.Moves) >= 1 && st.Moves[0] == sols[1][0] && (st.Status == "solving" || st.Status == "solved")
	})

	// The player's page: the rating and both attempts.
	p.open("/user/ann")
	p.waitVisible("user-puzzle-rating")
	if got := eval[string](p, `document.querySelector('[data-testid="user-puzzle-rating"]').dataset.rating`); got != down[1] {
		b.fatalf("ann's page shows the puzzle rating %s, want %s", got, down[1])
	}
	for i, solved := range []string{"true", "false"} {
		if got := eval[string](p, fmt.Sprintf(`document.querySelector('[data-testid="user-puzzle-%d"]')?.dataset.solved || ''`, ids[i])); got != solved {
			b.fatalf("ann's page: puzzle %d solved %q, want %s", ids[i], got, solved)
		}
	}
}
