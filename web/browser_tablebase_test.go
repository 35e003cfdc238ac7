package web_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/morrisgame/morris/egdb"
	"github.com/morrisgame/morris/internal/server"
	"github.com/morrisgame/morris/mill"
)

// TestBrowserStudyTablebase: on a server with endgame databases (serve
// -tablebases), the study board shows, for a position inside them, its
// exact value and every move with the value it keeps, best first, the
// moves that keep the position's value marked; as the databases say.
func TestBrowserStudyTablebase(t *testing.T) {
	chromium(t)
	dir := t.TempDir()
	r := mill.MustRules("nine-mens-morris")
	if _, err := (egdb.Builder{Rules: r, Dir: dir, Keys: []egdb.Key{{White: 3, Black: 3}}}).Build(context.Background()); err != nil {
		t.Fatal(err)
	}
	db, err := egdb.Open(dir, egdb.ForRules(r))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// A won position with a choice: some moves keep the win, some do not.
	var won mill.Position
	var v egdb.Value
	var mv []egdb.MoveValue
	rng := rand.New(rand.NewPCG(3, 3))
	for tries := 0; tries < 100000 && won.Rules() == nil; tries++ {
		perm := rng.Perm(24)
		var w, b mill.Points
		for _, p := range perm[:3] {
			w |= 1 << p
		}
		for _, p := range perm[3:6] {
			b |= 1 << p
		}
		p, err := r.SetUp(w, b, mill.White, 0, 0)
		if err != nil {
			continue
		}
		pv, ok := db.Value(p)
		if !ok || pv.Result != egdb.Win || pv.Plies < 5 {
			continue
		}
		m, _ := db.MoveValues(p)
		if m[len(m)-1].Value != pv {
			won, v, mv = p, pv, m
		}
	}
	if won.Rules() == nil {
		t.Fatal("no won 3v3 position with a choice found")
	}

	s := startSiteWith(t, func(c *server.Config) { c.Tablebase = db })
	b := newBrowser(t, s, 60*time.Second)
	p := b.newPage("study")
	p.open("/study")
	p.waitVisible("study-page")
	p.click("tab-import")
	p.waitVisible("import-form")
	p.choose("import-text", won.String())
	p.click("import-submit")
	p.waitState("the position loaded", func(s debugState) bool { return s.Position == won.String() && len(s.Legal) == len(mv) })
	p.click("engine-toggle")
	p.waitVisible("engine-tablebase")
	p.waitJS("the databases' value "+v.String(), fmt.Sprintf(`(() => { const el = document.querySelector('[data-testid="engine-tablebase"]');
		return !!el && el.dataset.value === %q && el.textContent.includes(%q); })()`, v.String(), v.String()))
	type shown struct {
		Move, Text string
		Keeps      bool
	}
	got := eval[[]shown](p, `[...document.querySelectorAll('[data-testid="tablebase-moves"] li')].map(li => ({Move: li.dataset.move, Text: li.textContent, Keeps: li.dataset.keeps === 'true'}))`)
	if len(got) != len(mv) {
		b.fatalf("the page lists %d moves with their values, want %d", len(got), len(mv))
	}
	for i, m := range mv {
		want := shown{Move: won.MoveText(m.Move), Text: won.MoveText(m.Move) + " " + m.Value.String(), Keeps: m.Value == v}
		if got[i] != want {
			b.fatalf("move %d: the page shows %+v, want %+v", i, got[i], want)
		}
	}
	if dir := screenshotDir(); dir != "" {
		p.shoot(dir, "study-tablebase")
	}
}
