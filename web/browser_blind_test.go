package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/cdp"
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
