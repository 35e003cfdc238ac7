package web_test

// What a player notices (issue 49): the header on a phone, the contrast of
// black's pieces off the board in the dark theme, scores said in pieces
// for a side, counts with their singular, the move list's columns named,
// the engine's hint in a game against it. The puzzle's answer on the board
// and its retry are in TestBrowserPuzzles.

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

const phoneW, phoneH = 390, 844

// phone makes p a phone held upright.
func (p *page) phone() {
	p.b.t.Helper()
	p.run("phone viewport", chromedp.EmulateViewport(phoneW, phoneH, chromedp.EmulateScale(2), chromedp.EmulateMobile))
}

// setLanguage chooses a language as the switch does, and loads the page again.
func (p *page) setLanguage(code string) {
	p.b.t.Helper()
	p.run("language "+code, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`window.reloading = true; localStorage.setItem('morris.lang', %q); location.reload()`, code)))
	p.waitJS("the page in "+code, fmt.Sprintf(`!window.reloading && document.readyState === 'complete' && !!window.morrisDebug && window.morrisDebug.language() === %q &&
		!!document.querySelector('[data-testid="topbar"]') && document.querySelector('[data-testid="main"] .loading') === null`, code))
}

// visibleJS is true when the element of id is shown (it has a box).
func visibleJS(id string) string {
	return fmt.Sprintf(`(() => { const e = document.querySelector('[data-testid=%q]'); if (!e) return false; const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; })()`, id)
}

// TestBrowserPhoneHeader: on a phone held upright the header is one line,
// at most a fifth of the screen, in every language: the site's name
// shown, the links, the language and the account folded behind the menu's
// button, which opens and closes them; the study page and a game's page
// show the whole board without scrolling, the study page's first; and no
// page is wider than the phone.
func TestBrowserPhoneHeader(t *testing.T) {
	s := startSite(t)
	b := newBrowser(t, s, 90*time.Second)
	p := b.newPage("phone")
	p.phone()
	p.open("/")
	p.waitVisible("lobby-seeks")
	for _, code := range []string{"en", "de", "nl", "fr", "es", "zh"} {
		p.setLanguage(code)
		h := eval[float64](p, `document.querySelector('[data-testid="topbar"]').getBoundingClientRect().height`)
		if h > phoneH/5 {
			b.fatalf("%s: the header is %.0f px high on a %d px screen; want at most a fifth (%d)", code, h, phoneH, phoneH/5)
		}
		if !eval[bool](p, `(() => { const e = document.querySelector('.brand span'); const r = e.getBoundingClientRect(); return r.width > 0 && r.right <= innerWidth; })()`) {
			b.fatalf("%s: the site's name is hidden in the header", code)
		}
		for _, id := range []string{"lang-select", "nav-study"} {
			if eval[bool](p, visibleJS(id)) {
				b.fatalf("%s: %s is shown in the header before the menu is opened", code, id)
			}
		}
		if w := eval[float64](p, `document.documentElement.scrollWidth`); w > phoneW {
			b.fatalf("%s: the lobby is %.0f px wide on a %d px screen", code, w, phoneW)
		}
		// The study page, its explorer's table the widest thing in it.
		p.open("/study")
		p.waitJS("the explorer", `!!document.querySelector('[data-testid^="explorer-row-"]')`)
		if w := eval[float64](p, `document.documentElement.scrollWidth`); w > phoneW {
			b.fatalf("%s: the study page is %.0f px wide on a %d px screen", code, w, phoneW)
		}
		p.open("/")
	}
	p.setLanguage("en")
	p.click("nav-menu")
	for _, id := range []string{"lang-select", "nav-study", "nav-signin"} {
		p.waitJS(id+" in the open menu", visibleJS(id))
	}
	if got := eval[string](p, `document.querySelector('[data-testid="nav-menu"]').getAttribute('aria-expanded')`); got != "true" {
		b.fatalf("the open menu's button has aria-expanded=%q", got)
	}
	p.click("nav-study")
	p.waitState("the study page", func(s debugState) bool { return s.Page == "study" })
	p.waitJS("the menu folded after a link", `!(`+visibleJS("lang-select")+`)`)
	p.waitVisible("board-svg")
	// The board first: its top within the first fifth of the screen, and
	// all of it on the screen without scrolling.
	if top := eval[float64](p, `document.querySelector('[data-testid="board-svg"]').getBoundingClientRect().top + scrollY`); top > phoneH/5 {
		b.fatalf("the study board starts %.0f px down a %d px screen; want it first", top, phoneH)
	}
	p.run("scrolled to the top", chromedp.Evaluate[chromedp.Void](`scrollTo(0, 0)`))
	if !eval[bool](p, boardOnScreenJS) {
		b.fatalf("the study board is not wholly on a %d×%d screen: %s", phoneW, phoneH, eval[string](p, boardRectJS))
	}
	// A game between people, as its players see it: the same.
	ann, bob := s.account(t, "ann", "annpass1"), s.account(t, "bob", "bobpass1")
	g := s.finishedGame(t, ann, bob, "bob", 12)
	p.openGame(g.ID)
	p.waitVisible("board-svg")
	p.run("scrolled to the top", chromedp.Evaluate[chromedp.Void](`scrollTo(0, 0)`))
	if !eval[bool](p, boardOnScreenJS) {
		b.fatalf("a game's board is not wholly on a %d×%d screen: %s", phoneW, phoneH, eval[string](p, boardRectJS))
	}
	for _, code := range []string{"en", "de", "fr", "es", "nl", "zh"} {
		if code != "en" {
			p.setLanguage(code)
		}
		for _, route := range []string{"/play", "/rules", "/rules/nine-mens-morris", "/tournaments", "/tournaments/new", "/clubs", "/leaderboard", "/archive", "/signin", "/signup"} {
			p.open(route)
			p.waitJS("the page "+route, `document.querySelector('[data-testid="main"]').children.length > 0 && !document.querySelector('[data-testid="main"] .loading')`)
			time.Sleep(150 * time.Millisecond)
			if w := eval[float64](p, `document.documentElement.scrollWidth`); w > phoneW {
				b.fatalf("%s: %s is %.0f px wide on a %d px screen", code, route, w, phoneW)
			}
		}
	}
	p.setLanguage("en")
	// A server without puzzles says so first, not under an empty board.
	p.open("/puzzle")
	p.waitState("the puzzle page's error", func(s debugState) bool { return s.Page == "puzzle" && s.Status == "error" })
	if eval[bool](p, visibleJS("board-holder")) {
		b.fatalf("with no puzzle the page shows an empty board above its message")
	}
}

// boardOnScreenJS is true when the board lies wholly on the screen as the
// page opens (scrolled to the top); boardRectJS says where it lies.
const (
	boardOnScreenJS = `(() => { const r = document.querySelector('[data-testid="board-svg"]').getBoundingClientRect(); return r.width > 0 && r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight; })()`
	boardRectJS     = `(() => { const r = document.querySelector('[data-testid="board-svg"]').getBoundingClientRect(); return JSON.stringify({left: r.left, top: r.top, right: r.right, bottom: r.bottom, innerWidth, innerHeight}); })()`
)

// contrastJS returns the contrast ratio (WCAG) between the border of the
// first element matching sel and the background it lies on.
func contrastJS(sel string) string {
	return fmt.Sprintf(`(() => {
	const rgb = (c) => (c.match(/[\d.]+/g) || []).map(Number);
	const lum = ([r, g, b]) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }; return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
	const e = document.querySelector(%q);
	if (!e) return -1;
	const edge = rgb(getComputedStyle(e).borderTopColor);
	let bg = null;
	for (let a = e.parentElement; a; a = a.parentElement) {
		const c = rgb(getComputedStyle(a).backgroundColor);
		if (c.length === 3 || (c.length === 4 && c[3] > 0.5)) { bg = c; break; }
	}
	if (!bg) bg = rgb(getComputedStyle(document.body).backgroundColor);
	const [l1, l2] = [lum(edge), lum(bg)].sort((x, y) => y - x);
	return (l1 + 0.05) / (l2 + 0.05);
})()`, sel)
}

// TestBrowserDarkStones: in either theme black's pieces in hand and its
// colour dot stand out from the panel they lie on (3:1, WCAG's contrast
// for graphics), the dark theme's as well as the light one's.
func TestBrowserDarkStones(t *testing.T) {
	s := startSite(t)
	b := newBrowser(t, s, 60*time.Second)
	p := b.newPage("dark")
	for _, scheme := range []string{"light", "dark"} {
		p.run(scheme+" theme", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia,
				emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
			return err
		}))
		p.open("/study")
		p.waitJS("the hands", `!!document.querySelector('[data-testid="study-hands"] .stone.black')`)
		if got := eval[bool](p, `matchMedia('(prefers-color-scheme: dark)').matches`); got != (scheme == "dark") {
			b.fatalf("the page's theme: dark %v, want %s", got, scheme)
		}
		for _, sel := range []string{`[data-testid="study-hands"] .stone.black`, `[data-testid="study-hands"] .stone-icon.black`} {
			if c := eval[float64](p, contrastJS(sel)); c < 3 {
				b.fatalf("%s theme: %s has a contrast of %.2f:1 with its background; want at least 3:1", scheme, sel, c)
			}
		}
	}
}

// TestBrowserScoreWords: the study board's engine says its score in
// pieces for the side it is for (the side to move), as morris play does,
// in English and in German, never in the protocol's "cp".
func TestBrowserScoreWords(t *testing.T) {
	s := startSite(t)
	b := newBrowser(t, s, 60*time.Second)
	p := b.newPage("study")
	words := map[string]*regexp.Regexp{
		"en": regexp.MustCompile(`^[+-]\d+\.\d\d pieces for (White|Black)$|^(White|Black) (wins|loses) `),
		"de": regexp.MustCompile(`^[+-]\d+,\d\d Steine für (Weiß|Schwarz)$|^(Weiß|Schwarz) (gewinnt|verliert) `),
	}
	p.open("/study")
	for _, code := range []string{"en", "de"} {
		p.setLanguage(code)
		p.waitVisible("engine-toggle")
		p.click("engine-toggle")
		p.waitVisible("engine-score")
		text := eval[string](p, `document.querySelector('[data-testid="engine-score"]').textContent`)
		side := eval[string](p, `document.querySelector('[data-testid="engine-score"]').dataset.side`)
		if !words[code].MatchString(text) || strings.Contains(text, "cp") {
			b.fatalf("%s: the score reads %q; want it in pieces for a side", code, text)
		}
		if side != "white" {
			b.fatalf("%s: the score at the start is for %q; want white, the side to move", code, side)
		}
		if eval[string](p, `document.querySelector('[data-testid="engine-score"]').title`) == "" {
			b.fatalf("%s: the score does not say what it means", code)
		}
		// The opening explorer's book values are pieces too: "+0.39", not "+39".
		p.waitJS("the book's values", `!!document.querySelector('[data-testid^="explorer-row-"]:not([data-book=""])')`)
		cell := eval[string](p, `document.querySelector('[data-testid^="explorer-row-"]:not([data-book=""])').lastElementChild.textContent`)
		if !regexp.MustCompile(`^[+-]\d+[.,]\d\d$`).MatchString(cell) {
			b.fatalf("%s: a book value reads %q; want pieces (+0.39)", code, cell)
		}
	}
}

// TestBrowserCounts: the lobby numbers a game's moves as its record does
// (a move is white's and black's turn: "move 1" while black answers the
// first, "move 2" after it), in every language, never a count of plies.
func TestBrowserCounts(t *testing.T) {
	s := startSite(t)
	ann := s.account(t, "ann", "secret-ann")
	bob := s.account(t, "bob", "secret-bob")
	one := s.gameBetween(t, ann, "bob", bob, map[string]any{"variant": "nine-mens-morris"})
	s.playByAPI(t, one, ann, bob, 1)
	three := s.gameBetween(t, ann, "bob", bob, map[string]any{"variant": "nine-mens-morris"})
	s.playByAPI(t, three, ann, bob, 3)
	b := newBrowser(t, s, 60*time.Second)
	p := b.newPage("ann") // bob is to move: ann's rows number the moves
	p.signIn("ann", "secret-ann")
	for code, want := range map[string][2]string{
		"en": {"move 1", "move 2"}, "de": {"Zug 1", "Zug 2"}, "fr": {"coup 1", "coup 2"},
		"nl": {"zet 1", "zet 2"}, "es": {"jugada 1", "jugada 2"}, "zh": {"第1回合", "第2回合"},
	} {
		p.setLanguage(code)
		p.open("/")
		for i, id := range []int{one, three} {
			row := fmt.Sprintf("my-game-%d", id)
			p.waitVisible(row)
			text := eval[string](p, fmt.Sprintf(`document.querySelector('[data-testid=%q]').textContent`, row))
			if !strings.Contains(text, want[i]) {
				b.fatalf("%s: ann's game %d plies old reads %q; want %q", code, 2*i+1, text, want[i])
			}
		}
	}
}

// TestBrowserMoveListHeads: the move list names its columns; when black
// moves first (a set-up position on the study board, and a game whose lot
// let black start) the left column, the first mover's as the record
// numbers moves, says so.
func TestBrowserMoveListHeads(t *testing.T) {
	s := startSite(t)
	b := newBrowser(t, s, 60*time.Second)
	p := b.newPage("study")
	for _, c := range []struct{ position, left, right string }{
		{"nine-mens-morris 8/8/8 w 9,9 - 0 0", "White", "Black"},
		{"nine-mens-morris 8/8/8 b 9,9 - 0 0", "Black", "White"},
	} {
		p.open("/study?position=" + url.QueryEscape(c.position))
		st := p.waitState("the study board", func(s debugState) bool { return s.Page == "study" && len(s.Legal) > 0 })
		p.click("point-" + strings.Split(chooseMove(st.Legal), "x")[0])
		p.waitVisible("move-head")
		heads := eval[[]string](p, `[...document.querySelectorAll('[data-testid="move-head"] .side')].map((e) => e.textContent)`)
		if len(heads) != 2 || heads[0] != c.left || heads[1] != c.right {
			b.fatalf("from %q the move list's columns are %q; want %s then %s", c.position, heads, c.left, c.right)
		}
		if got := eval[string](p, `document.querySelector('[data-testid="move-0"]').closest('li').querySelector('.num').textContent`); got != "1." {
			b.fatalf("from %q the first move is numbered %q; want 1. as the record numbers it", c.position, got)
		}
	}

	// A game whose lot let black start (twelve men's morris draws the
	// first player): the game page's list says so too.
	ann := s.account(t, "ann", "secret-ann")
	bob := s.account(t, "bob", "secret-bob")
	id := 0
	for range 30 {
		g := s.gameBetween(t, ann, "bob", bob, map[string]any{"variant": "twelve-mens-morris"})
		if s.game(t, g).State.ToMove == "black" {
			id = g
			break
		}
	}
	if id == 0 {
		t.Fatal("30 lots of twelve men's morris, none let black start")
	}
	s.playByAPI(t, id, ann, bob, 1)
	p.signIn("ann", "secret-ann")
	p.openGame(id)
	p.waitVisible("move-head")
	heads := eval[[]string](p, `[...document.querySelectorAll('[data-testid="move-head"] .side')].map((e) => e.textContent)`)
	if len(heads) != 2 || heads[0] != "Black" || heads[1] != "White" {
		b.fatalf("a game black started by lot: the move list's columns are %q; want Black then White", heads)
	}
}

// TestBrowserEngineHint: in a game against the engine the player's turn
// offers a hint: the engine's move drawn on the board and said with its
// score in pieces; the move played, the hint is gone.
func TestBrowserEngineHint(t *testing.T) {
	s := startSite(t)
	b := newBrowser(t, s, 90*time.Second)
	p := b.newPage("engine")
	p.open("/play")
	p.waitVisible("engine-form")
	p.choose("engine-variant", "nine-mens-morris")
	p.choose("engine-level", "1")
	p.choose("engine-control", "none")
	p.choose("engine-color", "white")
	p.click("engine-submit")
	p.waitState("the new game", func(s debugState) bool { return gameLoaded(s) && s.Status == "active" })
	st := p.waitMyTurn()
	p.waitVisible("hint")
	p.click("hint")
	p.waitJS("the hint", `!!document.querySelector('[data-testid="hint-text"]')`)
	move := eval[string](p, `document.querySelector('[data-testid="hint-text"]').dataset.move`)
	text := eval[string](p, `document.querySelector('[data-testid="hint-text"]').textContent`)
	if move == "" || !slices.Contains(st.Legal, move) {
		b.fatalf("the hint is %q (%q); want one of the legal moves %v", move, text, st.Legal)
	}
	if !regexp.MustCompile(`^Hint: \S+ \([+-]\d+\.\d\d pieces for White\)$|^Hint: \S+ \(White wins`).MatchString(text) {
		b.fatalf("the hint reads %q; want the move and its score in pieces for white", text)
	}
	if got := eval[string](p, `document.querySelector('[data-testid="board-hint"]').dataset.move`); got != move {
		b.fatalf("the board shows the hint %q, want %q", got, move)
	}
	p.playMove(move)
	p.waitJS("the hint gone once played", `document.querySelector('[data-testid="board-hint"]').dataset.move === '' && !document.querySelector('[data-testid="hint-text"]')`)
}

// textContrastJS lists the visible texts of the page whose colour has
// less contrast with the background behind them than WCAG AA asks (4.5:1,
// 3:1 for large text), as "text (ratio)"; and the page's width beyond the
// viewport's, if it scrolls sideways. The background is the first opaque
// one of the element or its ancestors (an element over a picture is left
// out: its background is not a colour).
const textContrastJS = `(() => {
	const rgba = (c) => { const v = (c.match(/[\d.]+/g) || []).map(Number); return v.length === 3 ? v.concat(1) : v; };
	const lum = ([r, g, b]) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }; return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
	const over = (top, under) => { const a = top[3]; return [0, 1, 2].map((i) => top[i] * a + under[i] * (1 - a)).concat(1); };
	const bad = [];
	for (const e of document.querySelectorAll('body *')) {
		if (!Array.from(e.childNodes).some((n) => n.nodeType === 3 && n.textContent.trim() !== '')) continue;
		const st = getComputedStyle(e);
		const box = e.getBoundingClientRect();
		if (st.visibility !== 'visible' || st.display === 'none' || box.width === 0 || box.height === 0 || Number(st.opacity) === 0) continue;
		// Hidden texts, and disabled controls (WCAG leaves inactive
		// components out of its contrast rule).
		if (e.closest('[hidden], [aria-hidden="true"], svg, .sr-only, .visually-hidden, :disabled')) continue;
		let layers = [], picture = false;
		for (let a = e; a; a = a.parentElement) {
			const s = getComputedStyle(a);
			if (s.backgroundImage !== 'none') { picture = true; break; }
			const c = rgba(s.backgroundColor);
			if (c[3] > 0) layers.push(c);
			if (c[3] >= 1) break;
		}
		if (picture) continue;
		let bg = [255, 255, 255, 1];
		for (let i = layers.length - 1; i >= 0; i--) bg = over(layers[i], bg);
		let opacity = 1;
		for (let a = e; a; a = a.parentElement) opacity *= Number(getComputedStyle(a).opacity);
		const fg = over(rgba(st.color).slice(0, 3).concat(rgba(st.color)[3] * opacity), bg);
		const [l1, l2] = [lum(fg), lum(bg)].sort((x, y) => y - x);
		const ratio = (l1 + 0.05) / (l2 + 0.05);
		const size = parseFloat(st.fontSize), bold = Number(st.fontWeight) >= 700;
		const want = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
		if (ratio < want - 0.005) bad.push(e.textContent.trim().slice(0, 40) + ' (' + ratio.toFixed(2) + ')');
	}
	const wide = document.documentElement.scrollWidth - document.documentElement.clientWidth;
	return { bad, wide };
})()`

// TestBrowserTextContrast visits every page of the site on a phone held
// upright, in the light theme and the dark one, as a visitor and signed
// in: no text is fainter than WCAG AA allows against what lies behind it,
// and no page scrolls sideways.
func TestBrowserTextContrast(t *testing.T) {
	s, routes := siteTour(t)
	b := newBrowser(t, s, 4*time.Minute)
	p := b.newPage("ann")
	p.phone()
	for _, who := range []string{"a visitor", "ann"} {
		if who == "ann" {
			p.signIn("ann", "secret-ann")
		}
		for _, scheme := range []string{"light", "dark"} {
			p.run(scheme+" theme", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
				_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia,
					emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
				return err
			}))
			for _, r := range routes {
				if who == "ann" && r.testid == "account-none" {
					r.testid = "account-page"
				}
				if who == "ann" && (r.route == "/signin" || r.route == "/signup" || r.route == "/tournaments/new") {
					continue // pages for visitors
				}
				p.visit(r)
				time.Sleep(300 * time.Millisecond) // what loads after the page shows
				got := eval[struct {
					Bad  []string `json:"bad"`
					Wide int      `json:"wide"`
				}](p, textContrastJS)
				if len(got.Bad) > 0 {
					t.Errorf("%s, %s theme, %s: text too faint: %q", who, scheme, r.route, got.Bad)
				}
				if got.Wide > 0 {
					t.Errorf("%s, %s theme, %s: the page is %d px wider than a phone's screen", who, scheme, r.route, got.Wide)
				}
			}
		}
	}
}
