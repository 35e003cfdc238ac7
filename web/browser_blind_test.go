package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// Blind mode (blind.js, settings.js; docs/accessibility.md): the tests
// here play and read by keys only, and check what a screen reader gets
// through the browser's accessibility tree.

// axNode is a node of the accessibility tree, its properties as plain
// values.
type axNode struct {
	Role, Name string
	Ignored    bool
	Props      map[string]any
}

// axTree reads the page's whole accessibility tree (CDP
// Accessibility.getFullAXTree).
func (p *page) axTree() []axNode {
	p.b.t.Helper()
	ctx, cancel := p.b.stepCtx(p.ctx)
	defer cancel()
	var res accessibility.GetFullAXTreeResult
	err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		var err error
		res, err = cdp.Call(ctx, tg, accessibility.GetFullAXTree, accessibility.GetFullAXTreeParams{})
		return err
	}))
	if err != nil {
		p.b.fatalf("page %s: the accessibility tree: %v", p.name, err)
	}
	val := func(v *accessibility.Value) any {
		if v == nil || len(v.Value) == 0 {
			return nil
		}
		var x any
		_ = json.Unmarshal(v.Value, &x)
		return x
	}
	var out []axNode
	for _, n := range res.Nodes {
		a := axNode{Ignored: n.Ignored, Props: map[string]any{}}
		if s, ok := val(n.Role).(string); ok {
			a.Role = s
		}
		if s, ok := val(n.Name).(string); ok {
			a.Name = s
		}
		for _, pr := range n.Properties {
			if pr.Value != nil && len(pr.Value.RelatedNodes) > 0 {
				a.Props[string(pr.Name)] = "related"
				continue
			}
			a.Props[string(pr.Name)] = val(pr.Value)
		}
		out = append(out, a)
	}
	return out
}

// liveRegions are the nodes of the tree that are live regions (polite or
// assertive): a live role, or a live property with its atomic and
// relevant (which Chromium gives the region's root, not its text).
func liveRegions(tree []axNode) []axNode {
	var out []axNode
	for _, n := range tree {
		if n.Ignored {
			continue
		}
		live, _ := n.Props["live"].(string)
		if (live == "polite" || live == "assertive") && (slices.Contains([]string{"status", "log", "alert", "timer", "marquee"}, n.Role) || n.Props["relevant"] != nil) {
			out = append(out, n)
		}
	}
	return out
}

// namedRoles are the roles a user acts on: each must have a name.
var namedRoles = []string{"button", "link", "textbox", "combobox", "checkbox", "radio", "listbox", "option", "menuitem", "tab", "slider", "spinbutton", "searchbox", "switch"}

// unnamed lists the controls of the tree without an accessible name.
func unnamed(tree []axNode) []string {
	var out []string
	for _, n := range tree {
		if !n.Ignored && slices.Contains(namedRoles, n.Role) && strings.TrimSpace(n.Name) == "" {
			out = append(out, fmt.Sprintf("%s %v", n.Role, n.Props))
		}
	}
	return out
}

// said is the live region's text now.
func (p *page) said() string {
	p.b.t.Helper()
	return strings.TrimSpace(strings.ReplaceAll(eval[string](p, `document.querySelector('[data-testid="blind-live"]').textContent`), "\u00a0", ""))
}

// saidCount is the number of announcements made on the page so far.
func (p *page) saidCount() int {
	p.b.t.Helper()
	return eval[int](p, `window.morrisDebug.announcements().length`)
}

// waitSaid waits for an announcement after the first n that matches re,
// and returns it.
func (p *page) waitSaid(n int, re string) string {
	p.b.t.Helper()
	rx := regexp.MustCompile(re)
	var got []string
	d := time.Now().Add(stepTimeout)
	for time.Now().Before(d) && time.Now().Before(p.b.deadline) {
		got = eval[[]string](p, `window.morrisDebug.announcements()`)
		for _, s := range got[min(n, len(got)):] {
			if rx.MatchString(s) {
				return s
			}
		}
		time.Sleep(40 * time.Millisecond)
	}
	p.b.fatalf("page %s: no announcement matching %q after the first %d; all: %q", p.name, re, n, got)
	return ""
}

// typeIn types text in the field that has the focus, then Enter.
func (p *page) typeIn(text string) {
	p.b.t.Helper()
	if f := eval[string](p, `document.activeElement ? document.activeElement.dataset.testid || '' : ''`); f != "blind-input" {
		p.b.fatalf("page %s: the focus is on %q, not the move field", p.name, f)
	}
	p.run("type "+text, chromedp.KeyEvent(text))
	p.key(kb.Enter)
}

// command types a command and returns what the region says of it.
func (p *page) command(cmd, re string) string {
	p.b.t.Helper()
	n := p.saidCount()
	p.typeIn(cmd)
	return p.waitSaid(n, re)
}

// tabTo presses Tab until the element of testid has the focus (at most
// limit presses): it is reachable by the keyboard.
func (p *page) tabTo(testid string, limit int) {
	p.b.t.Helper()
	var path []string
	for range limit {
		p.key(kb.Tab)
		f := eval[string](p, `(() => { const f = document.activeElement; return f ? (f.dataset.testid || f.tagName) : ''; })()`)
		path = append(path, f)
		if f == testid {
			return
		}
	}
	p.b.fatalf("page %s: %d Tabs did not reach %s: %v", p.name, limit, testid, path)
}

// board9 is a 9-point board's names and lines (GET /api/boards).
type board9 struct {
	Points []struct{ Name string } `json:"points"`
	Lines  []struct {
		Points []int `json:"points"`
	} `json:"lines"`
}

// TestBrowserBlindGame: a whole game of three men's morris between two
// players in blind mode, played by keys only: blind mode turned on from
// the header by Tab and Enter, and from the settings panel by Tab and
// Space; each move typed in the field (the standard notation, pbmserv's,
// an option chosen with the arrow keys), each announced on both pages as
// it is made (the mover's own and the opponent's), the read commands
// answered, a wrong move refused, and the end said.
func TestBrowserBlindGame(t *testing.T) {
	s := startSite(t)
	tok := map[string]string{"white": s.account(t, "ann", "annpass1"), "black": s.account(t, "bob", "bobpass1")}
	id := s.gameBetween(t, tok["white"], "bob", tok["black"], map[string]any{"variant": "three-mens-morris", "clock": map[string]int{"initialMs": 300000}})
	var list []struct {
		ID string `json:"id"`
		board9
	}
	s.call(t, "GET", "/api/boards", "", nil, &list)
	var bd board9
	for _, x := range list {
		if x.ID == "standard9" {
			bd = x.board9
		}
	}
	if len(bd.Points) != 9 {
		t.Fatalf("no board standard9 among %d boards", len(list))
	}
	// White fills a line; Black places off it.
	line := bd.Lines[0].Points
	var w, bl []string
	for _, i := range line {
		w = append(w, bd.Points[i].Name)
	}
	for i, p := range bd.Points {
		if !slices.Contains(line, i) && len(bl) < 2 {
			bl = append(bl, p.Name)
		}
	}

	b := newBrowser(t, s, 90*time.Second)
	ann := b.newPage("ann")
	ann.signIn("ann", "annpass1")
	// Blind mode from the header: Tab to the toggle, Enter.
	ann.tabTo("blind-toggle", 40)
	ann.key(kb.Enter)
	ann.waitJS("blind mode on", `document.documentElement.dataset.blind === 'on' && document.querySelector('[data-testid="blind-toggle"]').getAttribute('aria-pressed') === 'true'`)
	bob := b.newPage("bob")
	bob.signIn("bob", "bobpass1")
	// From the settings panel: Tab to its button, Enter opens it with the
	// focus on the blind-mode tick, Space ticks it.
	bob.tabTo("settings-toggle", 40)
	bob.key(kb.Enter)
	bob.waitJS("the panel open, its tick focused", `document.activeElement && document.activeElement.dataset.testid === 'settings-panel-blind'`)
	bob.key(" ")
	bob.waitJS("blind mode on", `document.documentElement.dataset.blind === 'on'`)
	bob.key(kb.Escape)

	for _, p := range []*page{ann, bob} {
		p.openGame(id)
		p.waitJS("the move field focused", `document.activeElement && document.activeElement.dataset.testid === 'blind-input'`)
		p.waitState("the position's view", func(st debugState) bool { return st.ToMove == "white" && (st.MySide == "black" || len(st.Legal) > 0) })
	}

	// Before a move: whose turn and the phase, the clocks, no moves yet.
	ann.command("s", `^Your turn\. placing$`)
	bob.command("s", `^White \(ann\) to move, not you\. placing$`)
	ann.command("c", `^White [45]:\d\d, Black 5:00$`)
	ann.command("l", `^No moves yet$`)

	// 1. White: the first letters, the arrow key to the option, Enter.
	na, nb := ann.saidCount(), bob.saidCount()
	ann.run("type "+w[0], chromedp.KeyEvent(w[0]))
	ann.waitJS("one option offered", fmt.Sprintf(`document.querySelectorAll('[data-testid="blind-options"] [role="option"]').length === 1 && !!document.querySelector('[data-testid="blind-option-%s"]')`, w[0]))
	ann.key(kb.ArrowDown)
	ann.waitJS("the option active", fmt.Sprintf(`document.querySelector('[data-testid="blind-input"]').getAttribute('aria-activedescendant') === document.querySelector('[data-testid="blind-option-%s"]').id`, w[0]))
	ann.key(kb.Enter)
	want := fmt.Sprintf("White places on %s", w[0])
	ann.waitSaid(na, "^"+want+"$")
	bob.waitSaid(nb, "^"+want+`\. Your turn$`)

	// 2. Black, in pbmserv's notation (upper case).
	na, nb = ann.saidCount(), bob.saidCount()
	bob.typeIn(strings.ToUpper(bl[0]))
	want = fmt.Sprintf("Black places on %s", bl[0])
	bob.waitSaid(nb, "^"+want+"$")
	ann.waitSaid(na, "^"+want+`\. Your turn$`)

	// A wrong move (an occupied point) is refused and said.
	ann.command(bl[0], "^Not a legal move: "+bl[0]+"$")

	// 3, 4: typed in full.
	na, nb = ann.saidCount(), bob.saidCount()
	ann.typeIn(w[1])
	bob.waitSaid(nb, fmt.Sprintf(`^White places on %s\. Your turn$`, w[1]))
	bob.typeIn(bl[1])
	ann.waitSaid(na, fmt.Sprintf(`^Black places on %s\. Your turn$`, bl[1]))

	// The read commands.
	sorted := func(a ...string) string { slices.Sort(a); return strings.Join(a, ", ") }
	got := ann.command("p", `^White has`)
	if want := fmt.Sprintf("White has 2 pieces on the board: %s, 1 in hand. Black has 2 pieces on the board: %s, 1 in hand", sorted(w[0], w[1]), sorted(bl[0], bl[1])); got != want {
		t.Errorf("p said %q, want %q", got, want)
	}
	got = ann.command("b", `^Row `)
	for _, name := range []string{w[0], w[1]} {
		if !strings.Contains(got, name+" white piece") {
			t.Errorf("b said %q: no %s white piece", got, name)
		}
	}
	if !strings.Contains(got, w[2]+" empty") || !strings.Contains(got, bl[1]+" black piece") || strings.Count(got, "Row ") != 3 {
		t.Errorf("b said %q: want three rows, %s empty, %s black", got, w[2], bl[1])
	}
	got = ann.command("l 2", `^3: `)
	if want := fmt.Sprintf("3: White places on %s. 4: Black places on %s", w[1], bl[1]); got != want {
		t.Errorf("l 2 said %q, want %q", got, want)
	}
	ann.command("m", `^\d+ legal moves: `)
	ann.command("h", `^Commands: b the board`)

	// 5. White closes the line: a mill, and the game is won.
	na, nb = ann.saidCount(), bob.saidCount()
	ann.typeIn(w[2])
	for _, p := range []*page{ann, bob} {
		n := na
		if p == bob {
			n = nb
		}
		p.waitSaid(n, fmt.Sprintf(`^White places on %s\. Game over: White wins`, w[2]))
	}
	g := s.game(t, id)
	if g.State.Status == "active" || g.State.Result != "1-0" {
		t.Fatalf("the server has the game %s %s, want it won by white", g.State.Status, g.State.Result)
	}
	if want := []string{w[0], bl[0], w[1], bl[1], w[2]}; !slices.Equal(g.State.Moves, want) {
		t.Fatalf("the server has %v, want %v", g.State.Moves, want)
	}
	bob.command("s", `^Game over: White wins`)
	bob.command(w[0], `^Game over: White wins`)

	// The live region is the one a screen reader hears, with the last
	// words: checked in the accessibility tree.
	tree := ann.axTree()
	regions := liveRegions(tree)
	if len(regions) != 1 {
		t.Fatalf("%d live regions in blind mode, want one: %+v", len(regions), regions)
	}
	if regions[0].Role != "status" || regions[0].Props["atomic"] != true {
		t.Errorf("the live region: role %q, %v; want status, atomic", regions[0].Role, regions[0].Props)
	}
}

// TestBrowserBlindAccessibility: the study board in blind mode as the
// accessibility tree gives it to a screen reader: one live region; the
// move field a combobox with a name, its list's options with theirs and
// the active one set by the arrow keys; every control of the page named
// (the header's settings open too); the board's points buttons named by
// point and content, reached by the keyboard (Shift+Tab from the field,
// the arrows), a placement made with Enter and said.
func TestBrowserBlindAccessibility(t *testing.T) {
	s := startSite(t)
	b := newBrowser(t, s, 60*time.Second)
	p := b.newPage("reader")
	p.open("/study")
	p.waitJS("the study board", `!!document.querySelector('[data-testid="point-d6"][aria-label]')`)
	p.tabTo("blind-toggle", 40)
	p.key(kb.Enter)
	p.waitJS("the field shown", `!document.querySelector('[data-testid="blind-form"]').hidden`)

	tree := p.axTree()
	if r := liveRegions(tree); len(r) != 1 {
		t.Errorf("%d live regions in blind mode, want one: %+v", len(r), r)
	}
	combo := func(tree []axNode) axNode {
		for _, n := range tree {
			if n.Role == "combobox" {
				return n
			}
		}
		b.fatalf("no combobox in the accessibility tree")
		return axNode{}
	}
	c := combo(tree)
	if c.Name != "Your move or a command (h for help)" || c.Props["autocomplete"] != "list" || c.Props["expanded"] != false {
		t.Errorf("the combobox: name %q, %v; want its label, autocomplete list, not expanded", c.Name, c.Props)
	}
	if u := unnamed(tree); len(u) > 0 {
		t.Errorf("controls without a name: %v", u)
	}
	p.key(kb.Enter) // the toggle keeps the focus: Enter again turns blind mode off
	p.waitJS("blind mode off", `document.documentElement.dataset.blind === 'off' && document.querySelector('[data-testid="blind-form"]').hidden`)
	if r := liveRegions(p.axTree()); len(r) < 2 {
		t.Errorf("%d live regions with blind mode off, want the page's own back (the status line) beside the board's", len(r))
	}
	p.key(kb.Enter)
	p.waitJS("blind mode on again", `document.documentElement.dataset.blind === 'on'`)

	// The settings panel open: every control named still.
	p.key(kb.Tab)
	p.waitJS("the settings' button focused", `document.activeElement.dataset.testid === 'settings-toggle'`)
	p.key(kb.Enter)
	p.waitJS("the settings open", `!document.getElementById('settings-box').hidden`)
	if u := unnamed(p.axTree()); len(u) > 0 {
		t.Errorf("controls without a name, the settings open: %v", u)
	}
	p.key(kb.Escape)
	p.waitJS("the settings closed", `document.getElementById('settings-box').hidden && document.activeElement.dataset.testid === 'settings-toggle'`)

	// The field: "d" offers the placements on d's points.
	p.run("focus the field", chromedp.Focus(tid("blind-input")))
	p.run("type d", chromedp.KeyEvent("d"))
	p.waitJS("options", `document.querySelectorAll('[data-testid="blind-options"] [role="option"]').length > 0`)
	p.key(kb.ArrowDown)
	p.waitJS("an active option", `!!document.querySelector('[data-testid="blind-input"]').getAttribute('aria-activedescendant')`)
	tree = p.axTree()
	c = combo(tree)
	if c.Props["expanded"] != true || c.Props["activedescendant"] != "related" {
		t.Errorf("the combobox after d and the down arrow: %v; want expanded, an active descendant", c.Props)
	}
	var opts []string
	selected := 0
	for _, n := range tree {
		if n.Role == "option" && !n.Ignored && strings.Contains(n.Name, " · ") { // not the selects' options
			opts = append(opts, n.Name)
			if n.Props["selected"] == true {
				selected++
			}
		}
	}
	if len(opts) != 6 || selected != 1 {
		t.Errorf("the options after d: %q (%d selected); want the six placements on d1..d7, one selected", opts, selected)
	}
	for _, o := range opts {
		if !strings.HasPrefix(o, "d") || !strings.Contains(o, "White places on") {
			t.Errorf("option %q: want a d-point and its words", o)
		}
	}
	p.key(kb.Escape)
	p.waitJS("the list closed", `document.querySelector('[data-testid="blind-options"]').hidden && document.querySelector('[data-testid="blind-input"]').value === ''`)

	// Shift+Tab back to the board's point in the tab order (the roving
	// tabindex), the arrows to d6, its name and role in the tree, Enter.
	for range 6 {
		p.run("shift+tab", chromedp.KeyEvent(kb.Tab, chromedp.KeyModifiers(chromedp.ModifierShift)))
		if p.focused() != "" {
			break
		}
	}
	if p.focused() == "" {
		b.fatalf("Shift+Tab from the field did not reach the board")
	}
	p.keyTo("d6")
	found := false
	for _, n := range p.axTree() {
		if n.Name == "d6, empty, legal move" {
			found = true
			if n.Role != "button" || n.Props["focused"] != true {
				t.Errorf("point d6 in the tree: role %q, %v; want a focused button", n.Role, n.Props)
			}
		}
	}
	if !found {
		t.Errorf("no node named \"d6, empty, legal move\" in the accessibility tree")
	}
	n := p.saidCount()
	p.key(kb.Enter)
	p.waitSaid(n, `^White places on d6$`)
	p.waitJS("d6 white", `document.querySelector('[data-testid="point-d6"]').dataset.piece === 'white'`)
	// Black's reply typed; then the replay's arrows (the board's focus
	// left) say the position shown.
	p.run("focus the field", chromedp.Focus(tid("blind-input")))
	p.typeIn("d2")
	p.waitSaid(n, `^Black places on d2$`)
	p.command("l", `^1: White places on d6\. 2: Black places on d2$`)
}

// TestBrowserThemes: the theme, the board's and the pieces' styles chosen
// in the settings panel change the page at once and are there after a
// reload; a theme chosen overrides the system's (dark on a light system,
// light on a dark one); high contrast makes the page black and the board
// white; marked pieces carry a ring (white) and a dot (black).
func TestBrowserThemes(t *testing.T) {
	s := startSite(t)
	b := newBrowser(t, s, 60*time.Second)
	p := b.newPage("themes")
	scheme := func(v string) {
		p.run(v+" system", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia,
				emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: v}}})
			return err
		}))
	}
	scheme("light")
	p.open("/study")
	p.waitJS("the board", `!!document.querySelector('[data-testid="point-d6"]')`)
	bg := func() string {
		return eval[string](p, `getComputedStyle(document.documentElement).getPropertyValue('--bg').trim()`)
	}
	look := func() string {
		return eval[string](p, `(() => { const d = document.documentElement.dataset; return [d.theme, d.boardStyle, d.pieceStyle].join(' '); })()`)
	}
	if got := look(); got != "auto wood plain" || bg() != "#f2efe9" {
		t.Fatalf("the defaults: %q, background %s; want auto wood plain on #f2efe9", got, bg())
	}
	p.click("settings-toggle")
	p.click("settings-panel-theme-contrast")
	p.click("settings-panel-boardStyle-plain")
	p.click("settings-panel-pieceStyle-marked")
	if got := look(); got != "contrast plain marked" {
		t.Fatalf("after the choices: %q, want contrast plain marked", got)
	}
	if bg() != "#000000" {
		t.Errorf("high contrast: background %s, want #000000", bg())
	}
	// A piece of each side to see their marks: white places, black places.
	p.waitJS("d6 playable", `document.querySelector('[data-testid="point-d6"]').classList.contains('is-target')`)
	p.click("point-d6")
	p.waitJS("d6 white", `document.querySelector('[data-testid="point-d6"]').dataset.piece === 'white'`)
	p.waitJS("d2 playable", `document.querySelector('[data-testid="point-d2"]').classList.contains('is-target')`)
	p.click("point-d2")
	p.waitJS("d2 black", `document.querySelector('[data-testid="point-d2"]').dataset.piece === 'black'`)
	check := func(when string) {
		marks := eval[[]string](p, `['d6', 'd2'].map((n) => { const c = getComputedStyle(document.querySelector('[data-testid="point-' + n + '"] .piece-inner')); return c.r + ' ' + c.fill + ' ' + c.strokeWidth; })`)
		if marks[0] != "20px none 6px" || marks[1] != "9px rgb(255, 255, 255) 2.5px" {
			t.Errorf("%s: the marks of white's and black's pieces: %q; want a ring (20px none 6px) and a dot (9px white)", when, marks)
		}
		if fill := eval[string](p, `getComputedStyle(document.querySelector('.board-bg')).fill`); fill != "rgb(18, 18, 18)" {
			t.Errorf("%s: the plain board's fill %s, want the high contrast panel's rgb(18, 18, 18)", when, fill)
		}
	}
	check("chosen")
	p.run("reload", chromedp.Reload())
	p.waitJS("the board again", `!!document.querySelector('[data-testid="point-d6"]')`)
	if got := look(); got != "contrast plain marked" || bg() != "#000000" {
		t.Errorf("after a reload: %q on %s, want contrast plain marked on #000000", got, bg())
	}
	p.click("point-d6")
	p.waitJS("d6 white", `document.querySelector('[data-testid="point-d6"]').dataset.piece === 'white'`)
	p.click("point-d2")
	p.waitJS("d2 black", `document.querySelector('[data-testid="point-d2"]').dataset.piece === 'black'`)
	check("after a reload")
	if !eval[bool](p, `document.querySelector('[data-testid="settings-panel-theme-contrast"]').checked`) {
		t.Errorf("after a reload the panel does not show high contrast chosen")
	}
	// A theme chosen wins over the system's.
	p.click("settings-toggle")
	p.click("settings-panel-theme-dark")
	if bg() != "#1b1c1e" {
		t.Errorf("dark chosen on a light system: background %s, want #1b1c1e", bg())
	}
	scheme("dark")
	p.click("settings-panel-theme-light")
	if bg() != "#f2efe9" {
		t.Errorf("light chosen on a dark system: background %s, want #f2efe9", bg())
	}
	p.click("settings-panel-theme-auto")
	if bg() != "#1b1c1e" {
		t.Errorf("auto on a dark system: background %s, want #1b1c1e", bg())
	}
}

// TestBrowserBlindScreenshot takes the README's picture of blind mode (as
// TestBrowserScreenshots, with -screenshots or MORRIS_SCREENSHOTS=DIR;
// only blind.png): a game between people in blind mode, the legal moves
// offered for what is typed, the last announcement in the live region.
func TestBrowserBlindScreenshot(t *testing.T) {
	dir := screenshotDir()
	if dir == "" {
		t.Skip("screenshots: run with -screenshots or MORRIS_SCREENSHOTS=DIR")
	}
	s := startSite(t)
	tok := map[string]string{"white": s.account(t, "ann", "annpass1"), "black": s.account(t, "bob", "bobpass1")}
	id := s.gameBetween(t, tok["white"], "bob", tok["black"], map[string]any{"variant": "nine-mens-morris", "clock": map[string]int{"initialMs": 600000, "incrementMs": 5000}})
	s.playByAPI(t, id, tok["white"], tok["black"], 9)
	b := newBrowser(t, s, 60*time.Second)
	p := b.newPage("ann")
	p.run("viewport", chromedp.EmulateViewport(1280, 1600))
	p.signIn("bob", "bobpass1")
	p.tabTo("blind-toggle", 40)
	p.key(kb.Enter)
	p.openGame(id)
	p.waitState("bob's turn", func(st debugState) bool { return len(st.Legal) > 0 })
	p.waitJS("the move field focused", `document.activeElement && document.activeElement.dataset.testid === 'blind-input'`)
	p.command("l 3", `^7: `)
	p.run("type", chromedp.KeyEvent("d"))
	p.waitJS("options", `document.querySelectorAll('[data-testid="blind-options"] [role="option"]').length > 0`)
	p.key(kb.ArrowDown)
	// shoot blurs the field, which keeps its list: the picture shows both.
	p.shoot(dir, "blind")
}

// TestBrowserBlindMoves: the moves of the moving phase typed in blind mode
// on the study board, and what is said of them: a slide that closes a
// mill and takes ("White slides d2 to d1, closes a mill, takes f4", the
// words of docs/accessibility.md), then a flight of the side left with
// three pieces, typed in pbmserv's notation, and the board read back.
func TestBrowserBlindMoves(t *testing.T) {
	s := startSite(t)
	b := newBrowser(t, s, 60*time.Second)
	p := b.newPage("reader")
	pos := setUp(t, []string{"a1", "g1", "d2", "b4"}, []string{"a7", "g7", "d6", "f4"})
	p.open("/study?position=" + strings.ReplaceAll(url.QueryEscape(pos), "+", "%20"))
	p.waitState("the position "+pos, func(st debugState) bool { return st.Page == "study" && len(st.Legal) > 0 && st.Position == pos })
	p.tabTo("blind-toggle", 40)
	p.key(kb.Enter)
	p.waitJS("blind mode on", `document.documentElement.dataset.blind === 'on' && !document.querySelector('[data-testid="blind-form"]').hidden`)
	p.run("focus the field", chromedp.Focus(tid("blind-input")))

	// "d2-" offers the slides from d2 and their captures.
	p.run("type d2-d1", chromedp.KeyEvent("d2-d1"))
	p.waitJS("the capture offered", `!!document.querySelector('[data-testid="blind-option-d2-d1xf4"]')`)
	p.key(kb.Escape)
	p.waitJS("the field cleared", `document.querySelector('[data-testid="blind-input"]').value === ''`)

	n := p.saidCount()
	p.typeIn("d2-d1xf4")
	p.waitSaid(n, `^White slides d2 to d1, closes a mill, takes f4$`)
	p.waitState("the slide played", func(st debugState) bool { return len(st.Moves) == 1 })

	n = p.saidCount()
	p.typeIn("D6-E3") // pbmserv's notation, upper case
	p.waitSaid(n, `^Black flies d6 to e3$`)
	p.waitState("the flight played", func(st debugState) bool { return len(st.Moves) == 2 })

	got := p.command("p", `^White has`)
	if want := "White has 4 pieces on the board: a1, b4, d1, g1. Black has 3 pieces on the board: a7, e3, g7"; got != want {
		t.Errorf("p said %q, want %q (no pieces in hand said once placing is over)", got, want)
	}
	got = p.command("l 2", `^1: `)
	if want := "1: White slides d2 to d1, closes a mill, takes f4. 2: Black flies d6 to e3"; got != want {
		t.Errorf("l 2 said %q, want %q", got, want)
	}
}
