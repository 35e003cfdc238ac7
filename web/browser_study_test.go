package web_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestBrowserStudyAndRules: a record imported on the study page, stepped
// through, analysed by the engine; and every preset's rules page draws its
// board with the board's points.
func TestBrowserStudyAndRules(t *testing.T) {
	s := startSite(t)
	white := s.account(t, "eve", "evepass1")
	black := s.account(t, "fay", "faypass1")
	g := s.finishedGame(t, white, black, "fay", 24)
	var record string
	s.call(t, "GET", fmt.Sprintf("/api/game/%d/export", g.ID), "", nil, &record)

	b := newBrowser(t, s, 80*time.Second)
	p := b.newPage("study")
	p.open("/study")
	p.waitVisible("study-page")
	p.waitState("the study board", func(s debugState) bool { return s.Page == "study" && s.Status == "active" && len(s.Legal) > 0 })
	p.click("tab-import")
	p.waitVisible("import-form")
	p.choose("import-text", record)
	p.click("import-submit")
	st := p.waitState("the record loaded", func(s debugState) bool { return slices.Equal(s.Moves, g.State.Moves) && s.Status != "loading" })
	if st.Cursor != 0 || !strings.HasPrefix(st.Rules, "nine-mens-morris") {
		b.fatalf("imported: cursor %d, rules %q; want 0 and nine-mens-morris", st.Cursor, st.Rules)
	}
	p.waitJS("the study's info names the players", `(() => { const el = document.querySelector('[data-testid="study-info"]'); return !!el && el.textContent.includes('eve') && el.textContent.includes('fay'); })()`)
	checkBoard(b, p, s, g.Start, nil)
	p.click("replay-last")
	p.waitState("the end of the record", func(s debugState) bool { return s.Cursor == len(g.State.Moves) && s.Position != "" })
	checkBoard(b, p, s, g.Start, g.State.Moves)
	// Back in the middle, with the engine on.
	mid := 12
	p.click(fmt.Sprintf("move-%d", mid-1))
	p.waitState("the middle", func(s debugState) bool { return s.Cursor == mid })
	checkBoard(b, p, s, g.Start, g.State.Moves[:mid])
	p.click("engine-toggle")
	st = p.waitState("the engine's analysis", func(s debugState) bool {
		return s.Analysis != nil && (s.Analysis.Best != "" || s.Analysis.Error != "")
	})
	if st.Analysis.Error != "" || !slices.Contains(st.Legal, st.Analysis.Best) {
		b.fatalf("analysis: best %q (error %q); want one of %v", st.Analysis.Best, st.Analysis.Error, st.Legal)
	}
	p.waitVisible("engine-score")
	p.waitJS("the best move shown", fmt.Sprintf(`document.querySelector('[data-testid="engine-best"]').textContent === %q`, st.Analysis.Best))
	// A move played on the analysis board from there.
	m := chooseMove(st.Legal)
	before := p.waitState("the study board's legal moves", func(s debugState) bool { return len(s.Legal) > 0 })
	from, to, caps, _ := clicksOf(m)
	if from != "" {
		p.click("point-" + from)
	}
	p.click("point-" + to)
	for _, c := range caps {
		p.click("point-" + c)
	}
	st = p.waitState("the move on the analysis board", func(s debugState) bool { return s.Cursor == before.Cursor+1 && len(s.Moves) == before.Cursor+1 })
	if st.Moves[mid] != m {
		b.fatalf("played %s on the analysis board, got %v", m, st.Moves)
	}

	// Every preset's rules page draws its board.
	var variants []struct{ ID, Board string }
	s.call(t, "GET", "/api/variants", "", nil, &variants)
	boards := s.boards(t)
	p.open("/rules")
	for _, v := range variants {
		p.waitJS("the card of "+v.ID, fmt.Sprintf(`(() => { const c = document.querySelector('[data-testid="rules-card-%s"]'); return !!c && c.querySelectorAll('[data-point]').length === %d; })()`, v.ID, len(boards[v.Board].Points)))
	}
	for _, v := range variants {
		p.open("/rules/" + v.ID)
		n := len(boards[v.Board].Points)
		p.waitJS(v.ID+"'s board", fmt.Sprintf(`(() => { const r = document.querySelector('[data-testid="rules-page"][data-variant=%q]'); if (!r) return false;
			const svg = r.querySelector('[data-testid="board-svg"]'); const b = r.querySelector('[data-testid="board"]');
			return !!svg && !!b && b.dataset.board === %q && svg.querySelectorAll('[data-point]').length === %d
				&& !!r.querySelector('[data-testid="rules-title"]') && r.querySelector('[data-testid="rules-text"] li') !== null; })()`, v.ID, v.Board, n))
	}
}
