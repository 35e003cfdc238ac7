package web_test

// The engine in the browser and the app offline (issue 49, items 1 and 2;
// docs/offline.md): the engine compiled to WebAssembly plays the same
// moves as the native engine; a game against the engine and the study
// board's analysis go on with the server stopped; the app's manifest and
// service worker are valid, and the app opens again offline and plays.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/morrisgame/morris/book"
	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/record"
	"github.com/morrisgame/morris/search"
	"github.com/morrisgame/morris/view"
)

// deviceCall calls the engine on the page's device (js/device.js) and
// decodes its answer into T; an error fails the test.
func deviceCall[T any](p *page, method string, body any) T {
	p.b.t.Helper()
	raw, err := json.Marshal(body)
	if err != nil {
		p.b.t.Fatal(err)
	}
	js := fmt.Sprintf(`import('/js/device.js').then((m) => m.deviceCall(%q, %s)).then((v) => JSON.stringify(v))`, method, raw)
	ctx, cancel := context.WithTimeout(p.ctx, 90*time.Second)
	defer cancel()
	out, err := chromedp.Run(ctx, chromedp.Evaluate[string](js, chromedp.EvalAwaitPromise))
	if err != nil {
		p.b.fatalf("page %s: the engine on the device, %s %s: %v", p.name, method, raw, err)
	}
	var v T
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		p.b.fatalf("page %s: %s's answer %s: %v", p.name, method, out, err)
	}
	return v
}

// deviceAnalysis is the engine's analysis, as cmd/morris-wasm answers.
type deviceAnalysis struct {
	Best   string   `json:"best"`
	Score  int      `json:"score"`
	Depth  int      `json:"depth"`
	Nodes  uint64   `json:"nodes"`
	PV     []string `json:"pv"`
	TimeMs int64    `json:"timeMs"`
}

// parityPositions are positions of several presets: the start, and after
// some plies of a game played by chooseMove, each with a depth.
func parityPositions(t testing.TB) []struct {
	position string
	depth    int
} {
	var out []struct {
		position string
		depth    int
	}
	for _, c := range []struct {
		variant string
		plies   []int
		depth   int
	}{
		{"nine-mens-morris", []int{0, 9, 22, 40}, 9},
		{"six-mens-morris", []int{5, 18}, 10},
		{"lasker", []int{12}, 7},
		{"morabaraba", []int{10, 30}, 7},
		{"twelve-mens-morris", []int{16}, 7},
		{"three-mens-morris", []int{4}, 12},
	} {
		r, err := mill.NewRules(c.variant)
		if err != nil {
			t.Fatal(err)
		}
		g := mill.NewGame(r, mill.WithSeed(0))
		for ply := 0; ply <= slices.Max(c.plies); ply++ {
			if slices.Contains(c.plies, ply) {
				out = append(out, struct {
					position string
					depth    int
				}{g.Position().String(), c.depth})
			}
			if g.Outcome() != mill.NoOutcome {
				t.Fatalf("%s ended at ply %d; choose fewer plies", c.variant, ply)
			}
			var texts []string
			for _, m := range g.LegalMoves() {
				texts = append(texts, g.Position().MoveText(m))
			}
			if err := g.PlayText(chooseMove(texts)); err != nil {
				t.Fatal(err)
			}
		}
	}
	return out
}

// TestBrowserDeviceParity: for each position at a fixed depth, the engine
// in the browser finds the move, the score and the node count that the
// native engine finds with the same options (cmd/morris-wasm's table
// size, one thread, a cleared table).
func TestBrowserDeviceParity(t *testing.T) {
	s := startSite(t)
	b := newBrowser(t, s, 4*time.Minute)
	p := b.newPage("parity")
	p.open("/study")
	p.waitState("the study board", func(s debugState) bool { return s.Page == "study" && len(s.Legal) > 0 })
	if st := eval[map[string]any](p, `window.morrisDebug.device()`); st["started"] != false {
		b.fatalf("the engine on the device started with the page (%v): it must start when first needed", st)
	}
	info := deviceCall[struct {
		HashMB int    `json:"hashMB"`
		Go     string `json:"go"`
	}](p, "info", nil)
	if info.HashMB <= 0 {
		b.fatalf("info: hashMB %d", info.HashMB)
	}
	native := search.New(search.Options{HashMB: info.HashMB, Threads: 1, Book: book.Default()})
	for _, pos := range parityPositions(t) {
		g, err := view.Request{Position: pos.position}.Game()
		if err != nil {
			t.Fatal(err)
		}
		native.Clear()
		res := native.Search(context.Background(), g.Positions(), search.Limits{Depth: pos.depth}, nil)
		want := g.Position().MoveText(res.Move)
		got := deviceCall[deviceAnalysis](p, "analysis", map[string]any{"position": pos.position, "depth": pos.depth, "movetimeMs": 3000, "fresh": true})
		t.Logf("%s depth %d: native %s (%d, %d nodes), browser %s (%d, %d nodes in %d ms)", pos.position, pos.depth, want, res.Score, res.Nodes, got.Best, got.Score, got.Nodes, got.TimeMs)
		if got.Depth != pos.depth {
			b.fatalf("%s: the browser reached depth %d of %d in %d ms", pos.position, got.Depth, pos.depth, got.TimeMs)
		}
		if got.Best != want || got.Score != res.Score || got.Nodes != res.Nodes {
			b.fatalf("%s at depth %d: the browser plays %s (score %d, %d nodes), native %s (score %d, %d nodes)",
				pos.position, pos.depth, got.Best, got.Score, got.Nodes, want, res.Score, res.Nodes)
		}
	}
	// A time limit stops the browser's search (search/clock_js.go): level
	// 10 thinks at most 2 s a move, and searches of the start to depth 30
	// stop in time.
	mid := "nine-mens-morris 1BWW2B1/2W3W1/BBBB2BB w 0,0 - 0 40"
	mv := deviceCall[struct {
		Move   string `json:"move"`
		Depth  int    `json:"depth"`
		TimeMs int64  `json:"timeMs"`
	}](p, "move", map[string]any{"position": mid, "level": 10, "game": "parity"})
	if pos, _ := mill.ParsePosition(mid); !slices.ContainsFunc(pos.Moves(nil), func(m mill.Move) bool { return pos.MoveText(m) == mv.Move }) || mv.TimeMs > 3000 {
		b.fatalf("level 10 in the browser: %s at depth %d in %d ms; want a legal move in 2 s", mv.Move, mv.Depth, mv.TimeMs)
	}
	// Without the clock read in the search an iteration runs to its end:
	// over 60 ms late, for one of these at least.
	for _, ms := range []int64{200, 450, 700} {
		an := deviceCall[deviceAnalysis](p, "analysis", map[string]any{"rules": "nine-mens-morris", "depth": 30, "movetimeMs": ms, "fresh": true})
		t.Logf("an analysis of %d ms in the browser: depth %d in %d ms", ms, an.Depth, an.TimeMs)
		if an.TimeMs > ms+60 || an.Depth >= 30 || an.Best == "" {
			b.fatalf("an analysis of %d ms in the browser: depth %d in %d ms, best %q", ms, an.Depth, an.TimeMs, an.Best)
		}
	}
}

// waitOfflineReady waits until the service worker controls the page and
// has kept the client and the engine.
func waitOfflineReady(p *page) {
	p.b.t.Helper()
	p.waitJS("the service worker in control, the engine kept",
		`(() => { if (!navigator.serviceWorker.controller) return false;
			if (!window.__kept) { window.__kept = 'asking'; caches.open('morris-client').then((c) => c.keys()).then((ks) => { window.__kept = ks.map((r) => new URL(r.url).pathname); }); }
			const k = window.__kept; if (!Array.isArray(k)) return false; window.__kept = null;
			return k.includes('/engine/morris.wasm') && k.includes('/index.html') && k.includes('/js/app.js'); })()`)
}

// expectOffline lets through the console errors of requests to a stopped
// server.
func expectOffline(p *page) {
	for _, e := range []string{"ERR_CONNECTION_REFUSED", "ERR_CONNECTION_RESET", "ERR_EMPTY_RESPONSE", "ERR_INCOMPLETE_CHUNKED_ENCODING", "ERR_FAILED", "Failed to fetch", "WebSocket connection"} {
		p.expectConsoleError(e)
	}
}

// playLocal plays the player's moves by clicks on a game on this device
// until it has plies moves or ends, waiting each time for the engine's
// reply; it returns the last state.
func playLocal(p *page, plies int) debugState {
	p.b.t.Helper()
	for {
		st := p.waitState("the player's turn on this device", func(s debugState) bool {
			return s.Page == "local" && (s.Status != "active" || (len(s.Legal) > 0 && s.Ply == s.Cursor))
		})
		if st.Status != "active" || st.Ply >= plies {
			return st
		}
		m := chooseMobile(p.b.t, st)
		p.clickMove(m)
		p.waitState("the move "+m+" on this device", func(s debugState) bool { return len(s.Moves) > st.Ply && s.Moves[st.Ply] == m })
	}
}

// checkRecord reads a record the page wrote and checks that it replays
// the moves.
func checkRecord(b *browser, text string, moves []string) {
	b.t.Helper()
	sc := record.NewScanner(strings.NewReader(text))
	if !sc.Scan() {
		b.fatalf("the record does not read: %v\n%s", sc.Err(), text)
	}
	g, err := sc.Record().Game()
	if err != nil {
		b.fatalf("the record does not replay: %v\n%s", err, text)
	}
	got := g.MoveTexts(mill.Standard)
	if !slices.Equal(got, moves) {
		b.fatalf("the record's moves %v, the page's %v", got, moves)
	}
}

// TestBrowserDeviceEngineGame: the page loaded, the server stops; a game
// against the engine is started, played (the worker plays its moves),
// resigned, and its record written.
func TestBrowserDeviceEngineGame(t *testing.T) {
	s := startSite(t)
	b := newBrowser(t, s, 3*time.Minute)
	p := b.newPage("device-game")
	expectOffline(p)
	p.open("/")
	p.waitVisible("lobby-play-engine")
	waitOfflineReady(p)
	s.stop()
	p.open("/play")
	p.waitVisible("engine-form")
	p.choose("engine-variant", "nine-mens-morris")
	p.choose("engine-level", "4")
	p.choose("engine-color", "white")
	p.click("engine-submit")
	st := p.waitState("a game on this device", func(s debugState) bool { return s.Page == "local" && s.MySide == "white" })
	if st.LocalLevel != 4 {
		b.fatalf("the game on this device: level %d, want 4", st.LocalLevel)
	}
	// Level 4 errs at random: the game may end early (a blockade), but
	// not before both sides have placed pieces.
	st = playLocal(p, 24)
	if len(st.Moves) < 8 || (st.Status == "active" && len(st.Moves) < 24) {
		b.fatalf("the game has %d moves (%s): %v", len(st.Moves), st.Status, st.Moves)
	}
	// Every move is legal: the native rules replay them.
	g := mill.NewGame(mill.MustRules("nine-mens-morris"), mill.WithSeed(0))
	for _, m := range st.Moves {
		if err := g.PlayText(m); err != nil {
			b.fatalf("the game's move %s: %v (moves %v)", m, err, st.Moves)
		}
	}
	if d := eval[map[string]any](p, `window.morrisDebug.device()`); d["started"] != true || d["device"].(float64) < float64(len(st.Moves)/2) {
		b.fatalf("the engine on the device: %v; want it started, a call at least for each of its %d moves", d, len(st.Moves)/2)
	}
	if st.Status == "active" {
		p.click("resign")
		st = p.waitState("the resignation", func(s debugState) bool { return s.Status == "finished" })
		if st.Result != "0-1" || st.Method != "resignation" {
			b.fatalf("resigned as white: result %s by %s", st.Result, st.Method)
		}
	}
	p.click("local-export")
	st = p.waitState("the record", func(s debugState) bool { return s.LocalRecord != "" })
	checkRecord(b, st.LocalRecord, st.Moves)
	if !strings.Contains(st.LocalRecord, `[Result "`+st.Result+`"]`) {
		b.fatalf("the record does not give the result %s:\n%s", st.Result, st.LocalRecord)
	}
}

// TestBrowserDeviceStudy: the analysis by the setting "on this device";
// then the study board loaded, the server stops: the engine's analysis of
// the position shown comes from the worker, as does the view of a move
// played, and the set-up tab's game against the engine is played here.
func TestBrowserDeviceStudy(t *testing.T) {
	s := startSite(t)
	b := newBrowser(t, s, 2*time.Minute)
	p := b.newPage("device-study")
	expectOffline(p)
	p.open("/study")
	before := p.waitState("the study board", func(s debugState) bool { return s.Page == "study" && len(s.Legal) > 0 })
	waitOfflineReady(p)
	// The setting first, the server up: the analysis runs here, and the
	// server is not asked for it.
	p.click("engine-device")
	p.click("engine-toggle")
	st := p.waitState("the analysis by the setting", func(s debugState) bool { return s.Analysis != nil && (s.Analysis.Best != "" || s.Analysis.Error != "") })
	if st.Analysis.Where != "device" || !slices.Contains(st.Legal, st.Analysis.Best) {
		b.fatalf("with \"on this device\": the analysis %+v, want a legal move from the device", *st.Analysis)
	}
	if strings.Contains(s.requests.String(), "/api/analysis") {
		b.fatalf("with \"on this device\" the server was asked for the analysis:\n%s", s.requests.String())
	}
	p.click("engine-device")
	p.click("engine-toggle")
	s.stop()
	m := chooseMove(before.Legal)
	p.clickMove(m)
	p.waitState("the move played with the server stopped", func(s debugState) bool { return len(s.Moves) == 1 && s.Cursor == 1 && len(s.Legal) > 0 })
	p.click("engine-toggle")
	st = p.waitState("the analysis on this device", func(s debugState) bool {
		return s.Analysis != nil && (s.Analysis.Best != "" || s.Analysis.Error != "")
	})
	if st.Analysis.Error != "" || st.Analysis.Where != "device" || !slices.Contains(st.Legal, st.Analysis.Best) || st.Analysis.Depth < 4 {
		b.fatalf("the analysis on this device: best %q at depth %d (error %q); want one of %v", st.Analysis.Best, st.Analysis.Depth, st.Analysis.Error, st.Legal)
	}
	p.waitJS("the analysis says where it ran", `document.querySelector('[data-testid="engine-where"]').dataset.where === 'device'`)
	p.waitJS("the best move drawn", fmt.Sprintf(`document.querySelector('[data-testid="board-hint"]') && document.querySelector('[data-testid="board-hint"]').dataset.move === %q`, st.Analysis.Best))

	// The set-up tab plays the engine from the position shown: here, the
	// server being out of reach. Black is to move: the engine begins.
	from := st.Position
	p.click("tab-setup")
	p.choose("setup-level", "2")
	p.choose("setup-color", "white")
	p.click("setup-play")
	st = p.waitState("the game from the position, on this device", func(s debugState) bool { return s.Page == "local" && len(s.Moves) >= 1 })
	pos, err := mill.ParsePosition(from)
	if err != nil {
		t.Fatal(err)
	}
	if m, err := pos.ParseMove(st.Moves[0]); err != nil || !pos.Legal(m) {
		b.fatalf("the engine's first move %q is not legal in %s: %v", st.Moves[0], from, err)
	}
}

// TestBrowserOfflineApp: the manifest and the service worker are what
// Chromium installs; a game played on this device by the setting (the
// server is not asked to play it) is kept; the server stops, the page
// reloads from the service worker, the game goes on, and the records of
// the games kept are written.
func TestBrowserOfflineApp(t *testing.T) {
	s := startSite(t)
	// The manifest and its icons, as served.
	var man struct {
		Name      string `json:"name"`
		ShortName string `json:"short_name"`
		StartURL  string `json:"start_url"`
		Display   string `json:"display"`
		Icons     []struct{ Src, Sizes, Type string }
	}
	s.call(t, "GET", "/manifest.webmanifest", "", nil, &man)
	sizes := map[string]bool{}
	for _, ic := range man.Icons {
		if ic.Type != "image/png" {
			continue
		}
		res, err := http.Get(s.URL + ic.Src)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(res.Body)
		res.Body.Close()
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil || res.Header.Get("Content-Type") != "image/png" {
			t.Fatalf("%s: %v (%s)", ic.Src, err, res.Header.Get("Content-Type"))
		}
		if got := fmt.Sprintf("%dx%d", img.Bounds().Dx(), img.Bounds().Dy()); got != ic.Sizes {
			t.Fatalf("%s is %s, the manifest says %s", ic.Src, got, ic.Sizes)
		}
		sizes[ic.Sizes] = true
	}
	if man.Name == "" || man.ShortName == "" || man.Display != "standalone" || !sizes["192x192"] || !sizes["512x512"] {
		t.Fatalf("the manifest: %+v; want names, standalone, PNG icons of 192 and 512", man)
	}

	b := newBrowser(t, s, 3*time.Minute)
	p := b.newPage("app")
	expectOffline(p)
	p.open("/play")
	p.waitVisible("engine-form")
	waitOfflineReady(p)
	// Chromium's own judgement of the app: the manifest read without
	// errors, and no installability errors but "in-incognito", which is
	// the test's browser context (a fresh one for each page), not the app.
	var errs []string
	p.run("installability", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		m, err := cdp.Call(ctx, tg, cdppage.GetAppManifest, cdppage.GetAppManifestParams{})
		if err != nil {
			return err
		}
		if m.Data == "" || !strings.HasSuffix(m.URL, "/manifest.webmanifest") {
			errs = append(errs, "no manifest read: "+m.URL)
		}
		for _, e := range m.Errors {
			errs = append(errs, "manifest: "+e.Message)
		}
		res, err := cdp.Call(ctx, tg, cdppage.GetInstallabilityErrors, cdp.Empty{})
		for _, e := range res.InstallabilityErrors {
			if e.ErrorID != "in-incognito" {
				errs = append(errs, e.ErrorID)
			}
		}
		return err
	}))
	if len(errs) > 0 {
		b.fatalf("Chromium would not install the app: %v", errs)
	}
	// The setting "on this device": the game is played here, though the
	// server is up.
	p.click("engine-device")
	p.choose("engine-level", "2")
	p.choose("engine-color", "black")
	p.click("engine-submit")
	st := p.waitState("a game on this device", func(s debugState) bool { return s.Page == "local" && s.MySide == "black" })
	id := st.LocalGame
	st = playLocal(p, 8)
	for _, line := range strings.Split(s.requests.String(), "\n") {
		if strings.Contains(line, "/api/challenge/ai") || strings.Contains(line, "/api/guest") {
			b.fatalf("the game on this device asked the server: %s", line)
		}
	}
	played := st.Moves

	s.stop()
	p.run("reload offline", chromedp.Reload())
	p.open("/play") // the page is loaded: the hash changes
	p.waitVisible("local-game-" + id)
	p.run("open the game", chromedp.Click(chromedp.CSS(fmt.Sprintf(`[data-testid="local-game-%s"] a`, id))))
	st = p.waitState("the game kept, after the reload", func(s debugState) bool { return s.Page == "local" && s.LocalGame == id && len(s.Moves) >= len(played) })
	if !slices.Equal(st.Moves[:len(played)], played) {
		b.fatalf("after the reload the game has %v, before %v", st.Moves, played)
	}
	st = playLocal(p, len(played)+4)
	if len(st.Moves) <= len(played) && st.Status == "active" {
		b.fatalf("no move played offline: %v", st.Moves)
	}
	p.click("local-new")
	p.waitVisible("local-export-all")
	p.click("local-export-all")
	p.waitVisible("local-export-text")
	text := eval[string](p, `document.querySelector('[data-testid="local-export-text"]').value`)
	checkRecord(b, text, st.Moves)
}
