package web_test

// go test ./web -run BrowserScreenshots -screenshots writes the README's
// screenshots to docs/screenshots (MORRIS_SCREENSHOTS=DIR: to DIR, which
// when relative is from web/).

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/morrisgame/morris/egdb/egdbtest"
	"github.com/morrisgame/morris/internal/server/store"
	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/puzzle"
)

var screenshotsFlag = flag.Bool("screenshots", false, "TestBrowserScreenshots: write the README's screenshots to ../docs/screenshots")

// screenshotDir is where TestBrowserScreenshots writes: MORRIS_SCREENSHOTS,
// or docs/screenshots with -screenshots; "" when neither is set.
func screenshotDir() string {
	if d := os.Getenv("MORRIS_SCREENSHOTS"); d != "" {
		return d
	}
	if *screenshotsFlag {
		return filepath.Join("..", "docs", "screenshots")
	}
	return ""
}

// shoot saves a screenshot of the page's viewport as dir/name.png.
func (p *page) shoot(dir, name string) {
	p.b.t.Helper()
	// Close the notice (a welcome), keep the mouse and the focus from
	// marking anything, and let transitions settle.
	p.run("settle", chromedp.Evaluate[chromedp.Void](`(() => {
			const n = document.querySelector('[data-testid="notice"]');
			if (n && !n.hidden) n.querySelector('.notice-close').click();
			if (document.activeElement && document.activeElement.blur) document.activeElement.blur();
		})()`),
		chromedp.MouseEvent("mouseMoved", 1, 1), chromedp.Sleep(400*time.Millisecond))
	ctx, cancel := p.b.stepCtx(p.ctx)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		p.b.fatalf("screenshot %s: %v", name, err)
	}
	file := filepath.Join(dir, name+".png")
	if err := os.WriteFile(file, png, 0o644); err != nil {
		p.b.t.Fatal(err)
	}
	p.b.t.Logf("wrote %s", file)
}

// TestBrowserScreenshots takes the README's pictures of the main pages:
// the lobby, a game against the engine, a game between people, the study
// page with the engine's analysis, a rules page, a game on a phone, and a
// game on this device on a phone with the server stopped.
func TestBrowserScreenshots(t *testing.T) {
	dir := screenshotDir()
	if dir == "" {
		t.Skip("screenshots: run with -screenshots or MORRIS_SCREENSHOTS=DIR")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	s := startSite(t)
	tok := map[string]string{}
	for _, name := range []string{"ann", "bob", "cleo", "dan", "eve"} {
		tok[name] = s.account(t, name, name+"pass1")
	}
	newGame := func(white, black string, body map[string]any) int {
		var c struct{ ID int }
		body["color"] = "white"
		s.call(t, "POST", "/api/challenge/"+black, tok[white], body, &c)
		var acc struct{ Game int }
		s.call(t, "POST", fmt.Sprintf("/api/challenge/%d/accept", c.ID), tok[black], nil, &acc)
		return acc.Game
	}
	// The people: a game between ann and bob in the middle, with a
	// chat; a game between dan and eve to watch; an open seek by cleo;
	// a challenge from dan to ann.
	annBob := newGame("ann", "bob", map[string]any{"variant": "nine-mens-morris", "clock": map[string]int{"initialMs": 600000, "incrementMs": 5000}})
	s.playByAPI(t, annBob, tok["ann"], tok["bob"], 23)
	s.call(t, "POST", fmt.Sprintf("/api/game/%d/chat", annBob), tok["bob"], map[string]string{"text": "good game so far!"}, nil)
	s.call(t, "POST", fmt.Sprintf("/api/game/%d/chat", annBob), tok["ann"], map[string]string{"text": "thanks, you too"}, nil)
	danEve := newGame("dan", "eve", map[string]any{"variant": "morabaraba", "days": 3})
	s.playByAPI(t, danEve, tok["dan"], tok["eve"], 8)
	s.call(t, "POST", "/api/seek", tok["cleo"], map[string]any{"variant": "lasker", "clock": map[string]int{"initialMs": 300000, "incrementMs": 3000}, "rated": true}, nil)
	var challenge struct{ ID int }
	s.call(t, "POST", "/api/challenge/ann", tok["dan"], map[string]any{"variant": "twelve-mens-morris", "days": 2}, &challenge)
	var record string
	s.call(t, "GET", fmt.Sprintf("/api/game/%d/export", annBob), "", nil, &record)
	club, event := clubAndEvent(t, s, tok)

	b := newBrowser(t, s, 100*time.Second)
	// Taller than the tests' viewport: a game page with both players' cards.
	desktop := chromedp.EmulateViewport(1280, 1050)
	ann := b.newPage("ann")
	ann.run("viewport", desktop)
	ann.signIn("ann", "annpass1")
	ann.waitState("the lobby filled", func(s debugState) bool { return slices.Contains(s.ActiveGames, danEve) })
	ann.waitVisible("challenge-accept-" + strconv.Itoa(challenge.ID))
	ann.waitVisible("my-game-" + strconv.Itoa(annBob))
	ann.shoot(dir, "lobby")

	ann.open(fmt.Sprintf("/game/%d", annBob))
	ann.waitState("the game", func(s debugState) bool { return gameLoaded(s) && s.Connection == "open" && s.ToMove == "black" })
	ann.waitVisible("chat-message")
	ann.shoot(dir, "game")

	engine := b.newPage("engine")
	engine.run("viewport", desktop)
	engine.open("/play")
	engine.waitVisible("engine-form")
	engine.choose("engine-level", "2")
	engine.choose("engine-control", "realtime")
	engine.choose("engine-color", "white")
	engine.click("engine-submit")
	engine.waitState("the engine game", func(s debugState) bool { return gameLoaded(s) })
	engine.playEngine(22)
	engine.waitMyTurn()
	engine.shoot(dir, "engine")

	study := b.newPage("study")
	study.run("viewport", desktop)
	study.open("/study")
	study.waitState("the study board", func(s debugState) bool { return s.Page == "study" && len(s.Legal) > 0 })
	study.click("tab-import")
	study.choose("import-text", record)
	study.click("import-submit")
	study.waitState("the record", func(s debugState) bool { return len(s.Moves) == 23 })
	study.click("move-19")
	study.waitState("move 20", func(s debugState) bool { return s.Cursor == 20 && len(s.Legal) > 0 })
	study.click("engine-toggle")
	study.waitState("the analysis", func(s debugState) bool { return s.Analysis != nil && s.Analysis.Best != "" })
	study.waitVisible("engine-pv")
	study.shoot(dir, "study")

	rules := b.newPage("rules")
	rules.run("viewport", desktop)
	rules.open("/rules/nine-mens-morris")
	rules.waitVisible("rules-text")
	rules.shoot(dir, "rules")
	// The client in another language, chosen with the header's switch.
	rules.choose("lang-select", "de")
	rules.waitJS("the page in German", `window.morrisDebug && window.morrisDebug.language() === 'de'`)
	rules.waitVisible("rules-text")
	rules.shoot(dir, "rules-de")
	rules.choose("lang-select", "en")
	rules.waitJS("the page in English", `window.morrisDebug && window.morrisDebug.language() === 'en'`)

	// A finished game reviewed by the engine, and the study page's
	// explorer and board editor.
	done := newGame("cleo", "dan", map[string]any{"variant": "nine-mens-morris"})
	s.playByAPI(t, done, tok["cleo"], tok["dan"], 30)
	if g := s.game(t, done); g.State.Status == "active" {
		s.call(t, "POST", fmt.Sprintf("/api/game/%d/resign", done), tok["dan"], nil, nil)
	}
	s.call(t, "POST", fmt.Sprintf("/api/game/%d/review", done), "", nil, nil)
	rev := b.newPage("review")
	rev.run("viewport", desktop)
	rev.open(fmt.Sprintf("/game/%d", done))
	rev.waitVisible("review-graph")
	rev.shoot(dir, "review")
	rev.open("/study")
	rev.waitState("the study board", func(s debugState) bool { return s.Page == "study" && len(s.Legal) > 0 })
	rev.waitVisible("explorer-total")
	rev.shoot(dir, "explorer")
	rev.click("tab-setup")
	rev.click("setup-clear")
	for _, pt := range []string{"a1", "d2", "g1", "b4", "f6"} {
		rev.click("point-" + pt)
	}
	rev.click("setup-tool-black")
	for _, pt := range []string{"a7", "d6", "g7", "f4"} {
		rev.click("point-" + pt)
	}
	rev.choose("setup-hand-white", "0")
	rev.choose("setup-hand-black", "0")
	rev.shoot(dir, "editor")

	// A puzzle from the 3v3 databases.
	r := mill.MustRules("nine-mens-morris")
	tbs, _ := egdbtest.Build(t, r)
	po := puzzle.Defaults
	po.Sectors = [][2]int{{3, 3}}
	pz, err := puzzle.Find(tbs, r, rand.New(rand.NewPCG(5, 6)), po)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := s.svc.Store().AddPuzzle(context.Background(), store.Puzzle{Rules: r.String(), Position: pz.Position.String(), Solution: pz.Texts(),
		Plies: pz.Plies, Source: "tablebase", CreatedAt: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	rev.open(fmt.Sprintf("/puzzle/%d", pid))
	rev.waitVisible("puzzle-status")
	rev.waitJS("the puzzle to solve", `document.querySelector('[data-testid="puzzle-status"]').dataset.status === 'solving'`)
	rev.shoot(dir, "puzzle")

	rules.choose("lang-select", "zh")
	rules.waitJS("the page in Chinese", `window.morrisDebug && window.morrisDebug.language() === 'zh'`)
	rules.open("/")
	rules.waitVisible("lobby-play-engine")
	rules.shoot(dir, "lobby-zh")

	// A club as its leader sees it, and an event in its second round.
	ann.open(fmt.Sprintf("/club/%d", club))
	ann.waitVisible("club-request-fay")
	ann.waitVisible(fmt.Sprintf("club-event-%d", event))
	ann.shoot(dir, "club")
	ann.open(fmt.Sprintf("/tournament/%d", event))
	ann.waitVisible("crosstable")
	ann.waitJS("the event live", `document.querySelector('[data-testid="tournament-live"]').dataset.connection === 'open'`)
	ann.shoot(dir, "tournament")

	phone := b.newPage("phone")
	phone.run("phone viewport", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile))
	phone.signIn("bob", "bobpass1")
	phone.open(fmt.Sprintf("/game/%d", annBob))
	phone.waitState("the game", func(s debugState) bool { return gameLoaded(s) && s.Connection == "open" })
	phone.shoot(dir, "phone")

	// The app offline on a phone: a game on this device, the server
	// stopped, the page reloaded from the service worker (last: the site
	// is down after it).
	off := b.newPage("offline")
	expectOffline(off)
	off.run("phone viewport", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile))
	off.open("/play")
	off.waitVisible("engine-form")
	waitOfflineReady(off)
	off.click("engine-device")
	off.choose("engine-level", "5")
	off.choose("engine-color", "white")
	off.click("engine-submit")
	id := off.waitState("a game on this device", func(s debugState) bool { return s.Page == "local" }).LocalGame
	playLocal(off, 14)
	for _, pg := range b.pages { // the other pages lose the server too
		expectOffline(pg)
	}
	s.stop()
	off.run("reload offline", chromedp.Reload())
	off.open("/local/" + id)
	off.waitState("the game after the reload", func(s debugState) bool { return s.Page == "local" && len(s.Legal) > 0 })
	off.shoot(dir, "offline")
}

// clubAndEvent makes the screenshots' club and event: Mill Friends, a
// closed club led by ann and bob, with cleo, dan and eve, and fay's request
// waiting; and the club's Swiss of three rounds, its first round played (a
// win each way, with a bye) and its second going on with a game drawn.
func clubAndEvent(t *testing.T, s *site, tok map[string]string) (club, event int) {
	t.Helper()
	var c struct{ ID int }
	s.call(t, "POST", "/api/club", tok["ann"], map[string]any{"name": "Mill Friends",
		"description": "Nine men's morris on Tuesday evenings, and a Swiss every month. All levels welcome."}, &c)
	fay := s.account(t, "fay", "faypass1")
	for _, name := range []string{"bob", "cleo", "dan", "eve", "fay"} {
		tk := tok[name]
		if name == "fay" {
			tk = fay
		}
		s.call(t, "POST", fmt.Sprintf("/api/club/%d/join", c.ID), tk, nil, nil)
		if name != "fay" {
			s.call(t, "POST", fmt.Sprintf("/api/club/%d/accept", c.ID), tok["ann"], map[string]any{"user": name}, nil)
		}
	}
	s.call(t, "POST", fmt.Sprintf("/api/club/%d/leader", c.ID), tok["ann"], map[string]any{"user": "bob", "leader": true}, nil)
	var ev struct{ ID int }
	s.call(t, "POST", "/api/tournament", tok["ann"], map[string]any{"name": "Tuesday Swiss", "kind": "swiss", "rounds": 3, "rated": true,
		"club": c.ID, "clock": map[string]int{"initialMs": 600000, "incrementMs": 5000}}, &ev)
	for _, name := range []string{"ann", "bob", "cleo", "dan", "eve"} {
		s.call(t, "POST", fmt.Sprintf("/api/tournament/%d/join", ev.ID), tok[name], nil, nil)
	}
	s.call(t, "POST", fmt.Sprintf("/api/tournament/%d/start", ev.ID), tok["ann"], nil, nil)
	type game struct {
		Game   int    `json:"game"`
		Status string `json:"status"`
		White  struct{ Name string }
		Black  struct{ Name string }
	}
	var full struct {
		Round    int `json:"round"`
		Pairings []struct {
			Games []game `json:"games"`
		} `json:"pairings"`
	}
	read := func() { s.call(t, "GET", fmt.Sprintf("/api/tournament/%d", ev.ID), "", nil, &full) }
	// end plays a few moves, then ends the game: white resigns, black
	// resigns, or a draw.
	end := func(g game, how int) {
		s.playByAPI(t, g.Game, tok[g.White.Name], tok[g.Black.Name], 8+2*how)
		switch how {
		case 0:
			s.call(t, "POST", fmt.Sprintf("/api/game/%d/resign", g.Game), tok[g.Black.Name], nil, nil)
		case 1:
			s.call(t, "POST", fmt.Sprintf("/api/game/%d/resign", g.Game), tok[g.White.Name], nil, nil)
		default:
			s.call(t, "POST", fmt.Sprintf("/api/game/%d/draw/offer", g.Game), tok[g.White.Name], nil, nil)
			s.call(t, "POST", fmt.Sprintf("/api/game/%d/draw/accept", g.Game), tok[g.Black.Name], nil, nil)
		}
	}
	read()
	for i, g := range full.Pairings[0].Games {
		end(g, i)
	}
	deadline := time.Now().Add(10 * time.Second)
	for read(); full.Round < 2; read() {
		if time.Now().After(deadline) {
			t.Fatalf("event %d: round 2 not paired: %+v", ev.ID, full)
		}
		time.Sleep(50 * time.Millisecond)
	}
	// One game of round 2 over, the other (ann's if she plays) going on.
	for _, g := range full.Pairings[1].Games {
		if g.White.Name != "ann" && g.Black.Name != "ann" {
			end(g, 2)
			break
		}
	}
	return c.ID, ev.ID
}
