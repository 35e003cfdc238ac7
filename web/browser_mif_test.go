package web_test

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/morrisgame/morris/mif"
	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/mill/milltest"
)

// TestBrowserStudyMIF: the study page takes what other Mill programs
// write. An MFEN position (MIF 1.0) pasted in the import tab is set up
// under the rules shown, its export tab gives the same MFEN back (and the
// position with its rules as MIFPOS, the rules as MRS), a
// damaged MFEN is refused with a message and leaves the board as it was,
// Sanmill's FEN is set up as MFEN is, and a record as Sanmill writes it
// (its own tags, move marks, a variation) is loaded move for move.
func TestBrowserStudyMIF(t *testing.T) {
	s := startSite(t)
	b := newBrowser(t, s, 80*time.Second)
	p := b.newPage("study")
	p.open("/study")
	p.waitVisible("study-page")
	p.waitState("the study board", func(s debugState) bool { return s.Page == "study" && s.Status == "active" && len(s.Legal) > 0 })

	// A position of nine men's morris after 22 random plies: the moving
	// phase, captures on the way.
	r := mill.MustRules("nine-mens-morris")
	g := milltest.RandomGame(r, rand.New(rand.NewPCG(4, 9)), 22)
	want := g.Position()
	if o, _ := want.Status(); o != mill.NoOutcome || want.InHand(mill.White)+want.InHand(mill.Black) > 0 {
		t.Fatalf("%s: want a live position of the moving phase", want)
	}
	m, err := mif.FromPosition(want)
	if err != nil {
		t.Fatal(err)
	}
	mfen := m.String()

	p.click("tab-import")
	p.waitVisible("import-form")
	p.choose("import-text", mfen)
	p.click("import-submit")
	st := p.waitState("the MFEN set up", func(s debugState) bool { return s.Position == want.String() && s.Status != "loading" })
	if legal := slices.Sorted(slices.Values(st.Legal)); !slices.Equal(legal, moveTexts(want)) {
		b.fatalf("the MFEN's legal moves: %v, want %v", legal, moveTexts(want))
	}
	p.click("tab-export")
	p.waitJS("the export tab's MFEN", `(() => { const el = document.querySelector('[data-testid="export-mfen"]'); return !!el && el.value !== ''; })()`)
	if got := eval[string](p, `document.querySelector('[data-testid="export-mfen"]').value`); got != mfen {
		b.fatalf("exported MFEN %q, want the one imported %q", got, mfen)
	}
	// The same position with its rules (MIFPOS), and the rules (MRS): read
	// back, the position and the rules shown.
	p.waitJS("the export tab's MIFPOS", `(() => { const el = document.querySelector('[data-testid="export-mifpos"]'); return !!el && el.value !== '' && !document.querySelector('[data-testid="export-mif"]').hidden; })()`)
	if pos, err := mif.ParsePositionEnvelope(eval[string](p, `document.querySelector('[data-testid="export-mifpos"]').value`)); err != nil || pos.String() != want.String() {
		b.fatalf("the exported MIFPOS read back: %v, %v; want %s", pos, err, want)
	}
	if man, err := mif.ParseManifest([]byte(eval[string](p, `document.querySelector('[data-testid="export-mrs"]').value`))); err != nil {
		b.fatalf("the exported MRS: %v", err)
	} else if rr, err := man.Rules(); err != nil || rr.String() != r.String() {
		b.fatalf("the exported MRS as our rules: %v, %v; want %s", rr, err, r)
	}

	// A damaged MFEN (a point too many): refused, the board unchanged.
	bad := strings.Replace(mfen, "mill24-state-v1 ", "mill24-state-v1 W", 1)
	p.expectConsoleError("/api/position") // the server's 400, which the browser logs
	p.click("tab-import")
	p.waitVisible("import-form")
	p.choose("import-text", bad)
	p.click("import-submit")
	p.waitJS("the damaged MFEN refused", `(() => { const el = document.querySelector('[data-testid="import-error"]'); return !!el && el.textContent.trim() !== ''; })()`)
	if st := p.waitState("the board", func(s debugState) bool { return s.Page == "study" }); st.Position != want.String() {
		b.fatalf("after a damaged MFEN the board is %q, want %q as it was", st.Position, want.String())
	}

	// Sanmill's FEN, under the rules shown: d6 d5 a1 played.
	fen := "@*******/O*******/*****O** b p p 2 7 1 8 0 0 0 0 0 0 0 0 2"
	g = mill.NewGame(r)
	for _, m := range []string{"d6", "d5", "a1"} {
		if err := g.PlayText(m); err != nil {
			t.Fatal(err)
		}
	}
	p.choose("import-text", fen)
	p.click("import-submit")
	p.waitState("Sanmill's FEN set up", func(s debugState) bool { return s.Position == g.Position().String() && s.Status != "loading" })

	// Sanmill's record: Russian mill, a question mark, a variation.
	p.click("tab-import")
	p.waitVisible("import-form")
	rec, err := os.ReadFile("../cmd/morris/testdata/sanmill.pgn")
	if err != nil {
		t.Fatal(err)
	}
	p.choose("import-text", strings.ReplaceAll(string(rec), "\r\n", "\n")) // a textarea keeps LF only
	p.click("import-submit")
	st = p.waitState("Sanmill's record loaded", func(s debugState) bool { return len(s.Moves) == 7 && s.Status != "loading" })
	if !strings.HasPrefix(st.Rules, "russian-mill") || !slices.Equal(st.Moves, []string{"a1", "b2", "d1", "b6", "g1xb2", "d6", "d2"}) {
		b.fatalf("Sanmill's record: rules %q, moves %v; want russian-mill and its 7 moves", st.Rules, st.Moves)
	}
	// The MIFPOS of another rule set pasted in the import tab (nine men's
	// morris, the rules shown Russian mill's): set up under its own rules.
	env, err := mif.EnvelopeFor(want)
	if err != nil {
		t.Fatal(err)
	}
	envText, _ := json.MarshalIndent(env, "", "  ")
	p.click("tab-import")
	p.waitVisible("import-form")
	p.choose("import-text", string(envText))
	p.click("import-submit")
	p.waitState("the MIFPOS set up under its rules", func(s debugState) bool {
		return s.Position == want.String() && s.Rules == "nine-mens-morris" && s.Status != "loading"
	})
	p.click("tab-export")
	p.waitJS("the MFEN of the MIFPOS", `(() => { const el = document.querySelector('[data-testid="export-mfen"]'); return !!el && el.value === '`+mfen+`'; })()`)
}

// moveTexts are p's legal moves as the page lists them.
func moveTexts(p mill.Position) []string {
	var out []string
	for _, m := range p.Moves(nil) {
		out = append(out, p.MoveText(m))
	}
	slices.Sort(out)
	return out
}
