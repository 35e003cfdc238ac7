package web_test

// The browser tests: the web client in real headless Chromium, driven by
// chromedp, against a real server started in-process (SQLite in a temp
// directory, the HTTP API and the embedded client behind httptest). Each
// scenario is its own test with its own server and browser; each browser
// session is a separate browser context (its own localStorage, so its own
// user). The tests act as a person would, by clicks on the board's points
// and the buttons named by the data-testid values of web/doc.go, and read
// the page's state through window.morrisDebug.state().
//
// They are skipped when no Chromium is found, unless MORRIS_BROWSER_TESTS=1
// (set by .ci/run), and under -short. A failure saves a screenshot of every
// page of the test and names it in the message; any console error or
// uncaught exception in a page fails the test.
//
// This file is the harness: the server (site), the browser and its pages,
// moves by clicks, games made through the API; the browser_*_test.go files
// hold the scenarios, a file a feature.

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/morrisgame/morris/internal/server"
	"github.com/morrisgame/morris/internal/server/httpapi"
	"github.com/morrisgame/morris/internal/server/servertest"
	"github.com/morrisgame/morris/internal/server/store/storetest"
	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/web"
)

const (
	// stepTimeout bounds one browser action or one wait.
	stepTimeout = 15 * time.Second
	// desktopW and desktopH are the tests' viewport (the screenshots of
	// desktop pages are taller).
	desktopW, desktopH = 1280, 860
)

// ---- the server ----

// site is a real server: the service on SQLite, the HTTP API and the web
// client, on 127.0.0.1.
type site struct {
	URL string
	log *storetest.Log
	svc *server.Service
	// requests are the method and URL (path and query) of every request
	// the site served, as a proxy's access log would hold them.
	requests *storetest.Log
	// skew moves the server's clock forward (correspondence timers).
	skew atomic.Int64
	// http is the site's HTTP server (stop closes it).
	http *httptest.Server
}

// stop stops the site as a server that goes down does: no new
// connections (they are refused), and the open ones cut. The service
// stays up behind it, for the test to read.
func (s *site) stop() {
	s.http.Listener.Close()
	s.http.CloseClientConnections()
}

func startSite(t *testing.T) *site { t.Helper(); return startSiteWith(t, nil) }

// startSiteWith is startSite with changes to the server's configuration.
func startSiteWith(t *testing.T, change func(*server.Config)) *site {
	t.Helper()
	s := &site{requests: &storetest.Log{}}
	// Registered before the server's start, so that it runs after the
	// server is closed (cleanups run last first) and reads the whole log.
	t.Cleanup(func() {
		if s.log == nil {
			return
		}
		// The server logs warnings and errors only: a test that makes
		// none is a test where the client did nothing the server refused
		// unexpectedly or could not serve.
		if l := s.log.String(); strings.Contains(l, "level=ERROR") {
			t.Errorf("the server logged errors:\n%s", l)
		}
		// No URL the client asked for holds a token: URLs are what
		// proxies write to their access logs.
		for _, line := range strings.Split(s.requests.String(), "\n") {
			if strings.Contains(line, "token=") {
				t.Errorf("the client sent a token in a URL: %s", line)
			}
		}
	})
	cfg := server.Config{
		Now:           func() time.Time { return time.Now().Add(time.Duration(s.skew.Load())) },
		EngineWorkers: 1,
	}
	if change != nil {
		change(&cfg)
	}
	srv := servertest.Start(t, cfg, servertest.HTTP(func(srv *servertest.Server) http.Handler {
		h := httpapi.New(httpapi.Config{Service: srv.Service, Web: web.Handler(), Logger: srv.Logger})
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprintf(s.requests, "%s %s\n", r.Method, r.URL.RequestURI())
			h.ServeHTTP(w, r)
		})
	}))
	s.URL, s.svc, s.log, s.http = srv.URL, srv.Service, srv.Log, srv.HTTP
	return s
}

// call sends a JSON request to the API and decodes the answer into out;
// anything but a 2xx fails the test.
func (s *site) call(t *testing.T, method, path, token string, body, out any) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, s.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	if res.StatusCode/100 != 2 {
		t.Fatalf("%s %s: got %d %s", method, path, res.StatusCode, data)
	}
	if out == nil {
		return
	}
	if s, ok := out.(*string); ok {
		*s = string(data)
		return
	}
	if err := json.Unmarshal(data, out); err != nil {
		t.Fatalf("%s %s: %v in %s", method, path, err, data)
	}
}

// account makes a user and returns a token for it.
func (s *site) account(t *testing.T, name, password string) string {
	t.Helper()
	s.call(t, "POST", "/api/account", "", map[string]string{"name": name, "password": password}, nil)
	var tok struct{ Token string }
	s.call(t, "POST", "/api/token", "", map[string]string{"name": name, "password": password}, &tok)
	return tok.Token
}

type apiGame struct {
	ID    int    `json:"id"`
	Start string `json:"start"`
	White struct {
		Name string `json:"name"`
	} `json:"white"`
	Black struct {
		Name string `json:"name"`
	} `json:"black"`
	State struct {
		Version  int      `json:"version"`
		Moves    []string `json:"moves"`
		Position string   `json:"position"`
		ToMove   string   `json:"toMove"`
		Status   string   `json:"status"`
		Result   string   `json:"result"`
		Method   string   `json:"method"`
	} `json:"state"`
}

func (s *site) game(t *testing.T, id int) apiGame {
	t.Helper()
	var g apiGame
	s.call(t, "GET", fmt.Sprintf("/api/game/%d", id), "", nil, &g)
	return g
}

type legalMove struct {
	Text     string `json:"text"`
	Kind     string `json:"kind"`
	From     int    `json:"from"`
	To       int    `json:"to"`
	Captures []int  `json:"captures"`
}

type positionView struct {
	Position string `json:"position"`
	Board    string `json:"board"`
	ToMove   string `json:"toMove"`
	Status   string `json:"status"`
	Pieces   struct {
		White []int `json:"white"`
		Black []int `json:"black"`
	} `json:"pieces"`
	Marked  []int       `json:"marked"`
	Legal   []legalMove `json:"legal"`
	Moves   []string    `json:"moves"`
	History []string    `json:"history"`
}

// position asks the server for the view of a position after moves.
func (s *site) position(t *testing.T, start string, moves []string) positionView {
	t.Helper()
	if moves == nil {
		moves = []string{}
	}
	var v positionView
	s.call(t, "POST", "/api/position", "", map[string]any{"position": start, "moves": moves}, &v)
	return v
}

type boardData struct {
	ID     string `json:"id"`
	Points []struct {
		Name string `json:"name"`
	} `json:"points"`
}

func (s *site) boards(t *testing.T) map[string]boardData {
	t.Helper()
	var list []boardData
	s.call(t, "GET", "/api/boards", "", nil, &list)
	m := map[string]boardData{}
	for _, b := range list {
		m[b.ID] = b
	}
	return m
}

// playByAPI plays a game between the tokens white and black through the
// HTTP API, choosing as chooseMove does, until it ends or has plies moves.
func (s *site) playByAPI(t *testing.T, id int, white, black string, plies int) apiGame {
	t.Helper()
	for {
		g := s.game(t, id)
		if g.State.Status != "active" || len(g.State.Moves) >= plies {
			return g
		}
		tok := white
		if g.State.ToMove == "black" {
			tok = black
		}
		v := s.position(t, g.State.Position, nil)
		var texts []string
		for _, m := range v.Legal {
			texts = append(texts, m.Text)
		}
		m := chooseMove(texts)
		s.call(t, "POST", fmt.Sprintf("/api/game/%d/move", id), tok, map[string]any{"move": m, "ply": len(g.State.Moves)}, nil)
	}
}

// finishedGame is a game between white and black (tokens) played through
// the API for at most plies moves, then resigned by white if it goes on.
func (s *site) finishedGame(t *testing.T, white, black, blackName string, plies int) apiGame {
	t.Helper()
	var c struct{ ID int }
	s.call(t, "POST", "/api/challenge/"+blackName, white, map[string]any{"variant": "nine-mens-morris", "color": "white"}, &c)
	var acc struct{ Game int }
	s.call(t, "POST", fmt.Sprintf("/api/challenge/%d/accept", c.ID), black, nil, &acc)
	if g := s.playByAPI(t, acc.Game, white, black, plies); g.State.Status != "active" {
		return g
	}
	s.call(t, "POST", fmt.Sprintf("/api/game/%d/resign", acc.Game), white, nil, nil)
	return s.game(t, acc.Game)
}

// chooseMove picks a move deterministically: the first capture, else the
// first move.
func chooseMove(legal []string) string {
	for _, m := range legal {
		if strings.Contains(m, "x") {
			return m
		}
	}
	return legal[0]
}

// chooseMobile picks a move for a game against the engine, which must
// reach the moving phase to show slides by clicks: the first capture, else
// the move that leaves this side the most moves after the opponent's best
// reply (so the clicks do not walk into a blockade at the end of placing,
// which the engine, even at level 1, may play for).
func chooseMobile(t testing.TB, st debugState) string {
	t.Helper()
	pos, err := mill.ParsePosition(st.Position)
	if err != nil {
		t.Fatalf("the page's position %q: %v", st.Position, err)
	}
	best, bestScore := "", -1
	var replies []mill.Move
	for _, text := range st.Legal {
		if strings.Contains(text, "x") {
			return text
		}
		m, err := pos.ParseMove(text)
		if err != nil {
			t.Fatalf("the page's legal move %q in %s: %v", text, st.Position, err)
		}
		after := pos.Play(m)
		score := 1 << 30 // no reply: the game is over
		if o, _ := after.Status(); o == mill.NoOutcome {
			replies = after.Moves(replies[:0])
			for _, r := range replies {
				score = min(score, after.Play(r).NumMoves())
			}
		}
		if score > bestScore {
			best, bestScore = text, score
		}
	}
	return best
}

// ---- the browser ----

// chromium finds the browser, or skips the test (fails it when
// MORRIS_BROWSER_TESTS=1).
func chromium(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("browser tests: skipped under -short (the full run has them)")
	}
	required := os.Getenv("MORRIS_BROWSER_TESTS") == "1"
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "headless-shell", "headless_shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if required {
		t.Fatal("MORRIS_BROWSER_TESTS=1 but no Chromium was found (chromium, chromium-browser, google-chrome): apt-get install chromium")
	}
	t.Skip("browser tests: no Chromium found (apt-get install chromium; MORRIS_BROWSER_TESTS=1 makes this a failure)")
	return ""
}

// browser is one Chromium process for one test; its pages are separate
// browser contexts.
type browser struct {
	t        *testing.T
	site     *site
	ctx      context.Context // the browser's: no deadline, so that a timeout leaves it able to take screenshots
	deadline time.Time       // the test's
	pages    []*page
	shotDir  string
}

func newBrowser(t *testing.T, s *site, timeout time.Duration) *browser {
	t.Helper()
	path := chromium(t)
	// Chromium leaves its own folder (org.chromium.Chromium.*, a socket and
	// a cookie) in TMPDIR: this one is the test's, removed after the
	// browser is stopped (cleanups run last registered first).
	tmp := t.TempDir()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.Env("TMPDIR="+tmp),
		// The flags this machine needs (its network is closed: without them
		// Chromium stalls on its background services). chromedp starts it
		// with a fresh temporary user-data-dir and removes it after.
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.WindowSize(desktopW, desktopH),
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(allocCtx)
	t.Cleanup(func() {
		cancel()
		cancelAlloc()
	})
	// The first Do starts the browser and binds its life to ctx, so it
	// gets no deadline; a timer stops a browser that never comes up.
	timer := time.AfterFunc(30*time.Second, cancel)
	err := chromedp.Do(ctx)
	if !timer.Stop() || err != nil {
		t.Fatalf("starting %s: %v", path, err)
	}
	return &browser{t: t, site: s, ctx: ctx, deadline: time.Now().Add(timeout)}
}

// stepCtx bounds one step by stepTimeout and the test's deadline.
func (b *browser) stepCtx(parent context.Context) (context.Context, context.CancelFunc) {
	d := time.Now().Add(stepTimeout)
	if b.deadline.Before(d) {
		d = b.deadline
	}
	return context.WithDeadline(parent, d)
}

// evidenceDir is where failure screenshots go: under -artifacts the test's
// artifact directory; otherwise a temporary directory that is kept (a
// t.TempDir would be gone by the time anyone reads the message).
func (b *browser) evidenceDir() string {
	if b.shotDir != "" {
		return b.shotDir
	}
	if f := flag.Lookup("test.artifacts"); f != nil && f.Value.String() == "true" {
		b.shotDir = b.t.ArtifactDir()
		return b.shotDir
	}
	dir, err := os.MkdirTemp("", "morris-browser-"+strings.ReplaceAll(b.t.Name(), "/", "_")+"-")
	if err != nil {
		return os.TempDir()
	}
	b.shotDir = dir
	return dir
}

// evidence saves a screenshot of every page and returns their paths, each
// page's URL, state and console errors, and the server's log, as text.
func (b *browser) evidence() string {
	var sb strings.Builder
	dir := b.evidenceDir()
	for _, p := range b.pages {
		ctx, cancel := context.WithTimeout(p.ctx, 5*time.Second)
		png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		loc, _ := chromedp.Run(ctx, chromedp.Location())
		raw, _ := chromedp.Run(ctx, chromedp.Evaluate[[]byte](`window.morrisDebug ? window.morrisDebug.state() : null`))
		cancel()
		fmt.Fprintf(&sb, "\n  page %s at %s", p.name, loc)
		if err != nil {
			fmt.Fprintf(&sb, "\n    no screenshot: %v", err)
		} else {
			file := filepath.Join(dir, p.name+".png")
			if err := os.WriteFile(file, png, 0o644); err != nil {
				fmt.Fprintf(&sb, "\n    no screenshot: %v", err)
			} else {
				fmt.Fprintf(&sb, "\n    screenshot: %s", file)
			}
		}
		fmt.Fprintf(&sb, "\n    state: %s", raw)
		for _, m := range p.consoleErrors() {
			fmt.Fprintf(&sb, "\n    console: %s", m)
		}
	}
	if l := b.site.log.String(); l != "" {
		fmt.Fprintf(&sb, "\n  server log:\n%s", l)
	}
	return sb.String()
}

func (b *browser) fatalf(format string, args ...any) {
	b.t.Helper()
	b.t.Fatalf(format+"%s", append(args, b.evidence())...)
}

// page is a tab in a browser context of its own.
type page struct {
	b      *browser
	name   string
	ctx    context.Context
	loaded bool

	mu      sync.Mutex
	console []string
	// expected are console errors a test provokes on purpose (a request
	// the server refuses, which the browser logs): the text they contain.
	expected []string
}

// expectConsoleError lets console errors containing text through: a test
// that sends a request meant to be refused calls it first.
func (p *page) expectConsoleError(text string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.expected = append(p.expected, text)
}

func (b *browser) newPage(name string) *page {
	b.t.Helper()
	ctx, cancel := chromedp.NewContext(b.ctx, chromedp.WithNewBrowserContext())
	p := &page{b: b, name: name, ctx: ctx}
	b.pages = append(b.pages, p)
	// Subscribe before the first navigation, so that nothing is missed.
	msgs := chromedp.Console(ctx)
	go func() {
		for m, err := range msgs {
			if err != nil {
				return
			}
			if m.Type != chromedp.ConsoleError && !m.IsException() {
				continue
			}
			text := m.String()
			if m.URL != "" {
				text += fmt.Sprintf(" (%s:%d)", m.URL, m.Line+1)
			}
			p.mu.Lock()
			p.console = append(p.console, text)
			p.mu.Unlock()
		}
	}()
	b.t.Cleanup(func() {
		// Any console error or exception fails the test: the client must
		// not throw, and must not make requests that fail.
		if errs := p.consoleErrors(); len(errs) > 0 && !b.t.Failed() {
			b.t.Errorf("page %s: %d console errors or exceptions (console: below)%s", p.name, len(errs), b.evidence())
		}
		cancel()
	})
	p.run("viewport", chromedp.EmulateViewport(desktopW, desktopH))
	return p
}

func (p *page) consoleErrors() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []string
	for _, c := range p.console {
		if !slices.ContainsFunc(p.expected, func(e string) bool { return strings.Contains(c, e) }) {
			out = append(out, c)
		}
	}
	return out
}

// run runs actions as one step; an error fails the test.
func (p *page) run(what string, actions ...chromedp.Action[chromedp.Void]) {
	p.b.t.Helper()
	ctx, cancel := p.b.stepCtx(p.ctx)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		p.b.fatalf("page %s: %s: %v", p.name, what, err)
	}
}

// eval evaluates a JavaScript expression into out.
func eval[T any](p *page, js string) T {
	p.b.t.Helper()
	ctx, cancel := p.b.stepCtx(p.ctx)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		p.b.fatalf("page %s: %s: %v", p.name, js, err)
	}
	return v
}

// open shows a route of the client: the first time by loading the page,
// then by changing the hash as a link does.
func (p *page) open(route string) {
	p.b.t.Helper()
	if !p.loaded {
		p.run("open "+route, chromedp.Navigate(p.b.site.URL+"/#"+route))
		p.loaded = true
		return
	}
	q, _ := json.Marshal("#" + route)
	p.run("open "+route, chromedp.Evaluate[chromedp.Void]("location.hash = "+string(q)))
}

func tid(id string) chromedp.CSS {
	return chromedp.CSS(fmt.Sprintf("[data-testid=%q]", id))
}

func (p *page) click(id string) {
	p.b.t.Helper()
	p.run("click "+id, chromedp.Click(tid(id)))
}

func (p *page) waitVisible(id string) {
	p.b.t.Helper()
	p.run("wait for "+id, chromedp.WaitVisible(tid(id)))
}

// fill types text into a field (cleared first).
func (p *page) fill(id, text string) {
	p.b.t.Helper()
	p.run("fill "+id, chromedp.Clear(tid(id)), chromedp.SendKeys(tid(id), text))
}

// choose sets a select's or an input's value as a script would, and tells
// the page with an input and a change event.
func (p *page) choose(id, value string) {
	p.b.t.Helper()
	q, _ := json.Marshal(value)
	js := fmt.Sprintf(`(() => { const el = document.querySelector('[data-testid=%q]'); if (!el) return false;
		el.value = %s; el.dispatchEvent(new Event('input', {bubbles: true})); el.dispatchEvent(new Event('change', {bubbles: true}));
		return el.value === %s; })()`, id, q, q)
	p.run("wait for "+id, chromedp.WaitVisible(tid(id)))
	if !eval[bool](p, js) {
		p.b.fatalf("page %s: %s has no option %s", p.name, id, value)
	}
}

// debugState is window.morrisDebug.state() (web/doc.go).
type debugState struct {
	Page       string   `json:"page"`
	ID         int      `json:"id"`
	Version    int      `json:"version"`
	Moves      []string `json:"moves"`
	Ply        int      `json:"ply"`
	Status     string   `json:"status"`
	Result     string   `json:"result"`
	Method     string   `json:"method"`
	ToMove     string   `json:"toMove"`
	Position   string   `json:"position"`
	MySide     string   `json:"mySide"`
	Connection string   `json:"connection"`
	Cursor     int      `json:"cursor"`
	Legal      []string `json:"legal"`
	Sent       int      `json:"sent"`
	LastError  string   `json:"lastError"`
	// the lobby
	ActiveGames   []int `json:"activeGames"`
	MyGames       []int `json:"myGames"`
	FollowedGames []int `json:"followedGames"`
	// the archive (and a player's page): the games listed
	Games []int `json:"games"`
	// a game on this device (#/local/ID)
	LocalGame   string `json:"localGame"`
	LocalLevel  int    `json:"localLevel"`
	LocalRecord string `json:"localRecord"`
	// the study page
	Rules    string `json:"rules"`
	Analysis *struct {
		Best  string   `json:"best"`
		Score int      `json:"score"`
		Depth int      `json:"depth"`
		PV    []string `json:"pv"`
		Error string   `json:"error"`
		Where string   `json:"where"` // "server" or "device"
	} `json:"analysis"`
}

// state reads the page's state; ok is false while the client is not up
// (loading, or between pages).
func (p *page) state() (debugState, bool) {
	ctx, cancel := context.WithTimeout(p.ctx, 5*time.Second)
	defer cancel()
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[[]byte](`window.morrisDebug ? window.morrisDebug.state() : null`))
	if err != nil || len(raw) == 0 || string(raw) == "null" {
		return debugState{}, false
	}
	var s debugState
	if err := json.Unmarshal(raw, &s); err != nil {
		return debugState{}, false
	}
	return s, true
}

// waitState waits until ok holds for the page's state, and returns it.
func (p *page) waitState(what string, ok func(s debugState) bool) debugState {
	p.b.t.Helper()
	s, done := p.pollState(stepTimeout, ok)
	if !done {
		p.b.fatalf("page %s: timed out waiting for %s; last state %+v", p.name, what, s)
	}
	return s
}

// pollState polls the page's state for up to d (and never past the test's
// deadline) until ok holds; it returns the last state read and whether ok
// held.
func (p *page) pollState(d time.Duration, ok func(s debugState) bool) (debugState, bool) {
	end := time.Now().Add(d)
	if p.b.deadline.Before(end) {
		end = p.b.deadline
	}
	var last debugState
	for {
		s, up := p.state()
		if up {
			if ok(s) {
				return s, true
			}
			last = s
		}
		if time.Now().After(end) {
			return last, false
		}
		time.Sleep(40 * time.Millisecond)
	}
}

// waitJS waits until a JavaScript expression is true.
func (p *page) waitJS(what, js string) {
	p.b.t.Helper()
	d := time.Now().Add(stepTimeout)
	if p.b.deadline.Before(d) {
		d = p.b.deadline
	}
	for {
		ctx, cancel := context.WithTimeout(p.ctx, 5*time.Second)
		v, err := chromedp.Run(ctx, chromedp.Evaluate[bool](js))
		cancel()
		if err == nil && v {
			return
		}
		if time.Now().After(d) {
			p.b.fatalf("page %s: timed out waiting for %s (%s); last error %v", p.name, what, js, err)
		}
		time.Sleep(40 * time.Millisecond)
	}
}

// pieces reads the board: the point names holding white and black pieces
// (data-piece), in board order.
func (p *page) pieces() (white, black []string) {
	p.b.t.Helper()
	type pt struct{ Name, Piece string }
	list := eval[[]pt](p, `[...document.querySelectorAll('[data-testid="board"] [data-point]')].map((g) => ({Name: g.dataset.name, Piece: g.dataset.piece}))`)
	for _, x := range list {
		switch x.Piece {
		case "white":
			white = append(white, x.Name)
		case "black":
			black = append(black, x.Name)
		}
	}
	return white, black
}

// signIn signs in through the sign-in form and waits for the name in the
// header.
func (p *page) signIn(name, password string) {
	p.b.t.Helper()
	p.open("/signin")
	p.fill("signin-name", name)
	p.fill("signin-password", password)
	p.click("signin-submit")
	p.waitJS("the name in the header", fmt.Sprintf(`(() => { const me = document.querySelector('[data-testid="nav-me"]'); return !!me && me.dataset.name === %q; })()`, name))
	p.waitState("the lobby after signing in", func(s debugState) bool { return s.Page == "home" })
}

// ---- moves by clicks ----

// clicksOf splits a move in standard notation ("d6", "d6-d5", "a4-a7xd2",
// "xd2", "pass") into the points to click.
func clicksOf(move string) (from, to string, captures []string, pass bool) {
	if move == "pass" {
		return "", "", nil, true
	}
	parts := strings.Split(move, "x")
	main, captures := parts[0], parts[1:]
	if a, b, ok := strings.Cut(main, "-"); ok {
		return a, b, captures, false
	}
	return "", main, captures, false
}

func hasClassJS(point, class string) string {
	return fmt.Sprintf(`(() => { const g = document.querySelector('[data-testid="point-%s"]'); return !!g && g.classList.contains(%q); })()`, point, class)
}

// playMove makes move on the board by clicks and waits until the page has
// the move (the server's answer).
//
// A page that is still at the same ply, its turn, with the move legal
// after a few seconds did not take the clicks (a click that met a board
// redrawn under it, or a send that failed and was shown as an error): it is
// clicked again once, as a player would, and the test log says why.
func (p *page) playMove(move string) {
	p.b.t.Helper()
	before, _ := p.state()
	p.clickMove(move)
	played := func(s debugState) bool { return len(s.Moves) > before.Ply && s.Moves[before.Ply] == move }
	s, ok := p.pollState(5*time.Second, played)
	if !ok && s.Ply == before.Ply && s.ToMove == s.MySide && slices.Contains(s.Legal, move) {
		p.b.t.Logf("page %s: %s not played after its clicks (moves sent %d before, %d now; last error %q): clicking again",
			p.name, move, before.Sent, s.Sent, s.LastError)
		p.clickMove(move)
	}
	p.waitPlayed(move, before.Ply)
}

// clickMove makes move on the board by clicks, checking at each click that
// the board marks the point as it should (a target, a movable or selected
// piece, a piece that can be taken).
func (p *page) clickMove(move string) {
	p.b.t.Helper()
	from, to, captures, pass := clicksOf(move)
	switch {
	case pass:
		p.click("pass")
	case from != "":
		p.waitJS(from+" movable for "+move, hasClassJS(from, "movable"))
		p.click("point-" + from)
		p.waitJS(from+" selected for "+move, hasClassJS(from, "selected"))
		p.waitJS(to+" a target for "+move, hasClassJS(to, "is-target"))
		p.click("point-" + to)
	case to != "":
		p.waitJS(to+" a target for "+move, hasClassJS(to, "is-target"))
		p.click("point-" + to)
	}
	for _, c := range captures {
		p.waitJS(c+" capturable for "+move, hasClassJS(c, "capturable"))
		p.click("point-" + c)
	}
}

// slideFrom is the first legal slide (or flight) from point that takes
// nothing.
func slideFrom(b *browser, st debugState, point string) string {
	for _, m := range st.Legal {
		if strings.HasPrefix(m, point+"-") && !strings.Contains(m, "x") {
			return m
		}
	}
	b.fatalf("no slide from %s in %v", point, st.Legal)
	return ""
}

// waitPlayed waits until the page has move as its move of ply.
func (p *page) waitPlayed(move string, ply int) {
	p.b.t.Helper()
	p.waitState("the move "+move+" played", func(s debugState) bool {
		return len(s.Moves) > ply && s.Moves[ply] == move
	})
}

// clickCounts counts the moves a page made by kind.
type clickCounts struct{ placements, slides, captures int }

// playEngine plays this side's moves by clicks, waiting for the engine's
// answers, until the game ends or has maxPly moves.
func (p *page) playEngine(maxPly int) clickCounts {
	p.b.t.Helper()
	var n clickCounts
	for {
		st := p.waitMyTurn()
		if st.Status != "active" || st.Ply >= maxPly {
			return n
		}
		m := chooseMobile(p.b.t, st)
		if from, _, _, _ := clicksOf(m); from != "" {
			n.slides++
		} else {
			n.placements++
		}
		if strings.Contains(m, "x") {
			n.captures++
		}
		p.playMove(m)
	}
}

// gameLoaded reports whether a game page has its game (the state holds
// defaults until the first gameFull).
func gameLoaded(s debugState) bool {
	return s.Page == "game" && s.Version >= 0 && s.Position != ""
}

// waitMyTurn waits until the page may move: its side to move, the
// connection open, the legal moves known; or the game is over.
func (p *page) waitMyTurn() debugState {
	p.b.t.Helper()
	return p.waitState("this side's turn", func(s debugState) bool {
		return gameLoaded(s) && (s.Status != "active" ||
			(s.ToMove == s.MySide && s.Connection == "open" && len(s.Legal) > 0))
	})
}

// waitMoves waits until the page shows exactly moves.
func (p *page) waitMoves(moves []string) debugState {
	p.b.t.Helper()
	return p.waitState(fmt.Sprintf("the moves %v", moves), func(s debugState) bool {
		return s.Page == "game" && slices.Equal(s.Moves, moves)
	})
}

// resign resigns through the UI: resign, then its confirmation.
func (p *page) resign() {
	p.b.t.Helper()
	p.click("resign")
	p.click("resign-confirm")
	p.waitState("the game over after resigning", func(s debugState) bool { return s.Status == "finished" })
}

// checkResultShown checks that a finished game shows its result.
func (p *page) checkResultShown(result string) {
	p.b.t.Helper()
	p.waitVisible("result")
	p.waitJS("the result "+result, fmt.Sprintf(`(() => { const r = document.querySelector('[data-testid="result"]'); return !!r && !r.hidden && r.dataset.result === %q && r.textContent.includes(%q); })()`, result, result))
	if eval[bool](p, `!!document.querySelector('[data-testid="resign"]')`) {
		p.b.fatalf("page %s: the resign button is still there after the end", p.name)
	}
}

// checkBoard checks that the page's board shows the position after moves
// from start, as the server computes it.
func checkBoard(b *browser, p *page, s *site, start string, moves []string) {
	b.t.Helper()
	v := s.position(b.t, start, moves)
	bd := s.boards(b.t)[v.Board]
	var want [2][]string
	for i, list := range [][]int{v.Pieces.White, v.Pieces.Black} {
		for _, pt := range list {
			want[i] = append(want[i], bd.Points[pt].Name)
		}
	}
	deadline := time.Now().Add(3 * time.Second)
	for {
		w, bl := p.pieces()
		if slices.Equal(w, want[0]) && slices.Equal(bl, want[1]) {
			return
		}
		if time.Now().After(deadline) {
			b.fatalf("page %s after %d moves: the board has white %v, black %v; want white %v, black %v (%s)",
				p.name, len(moves), w, bl, want[0], want[1], v.Position)
		}
		time.Sleep(30 * time.Millisecond)
	}
}

// ---- games between players ----

// gameBetween makes a game between two users through the API: a challenge
// from white (whiteTok) to blackName, with body's settings and white's
// colour, accepted by blackTok. It returns the game's id.
func (s *site) gameBetween(t *testing.T, whiteTok, blackName, blackTok string, body map[string]any) int {
	t.Helper()
	body["color"] = "white"
	var c struct{ ID int }
	s.call(t, "POST", "/api/challenge/"+blackName, whiteTok, body, &c)
	var acc struct{ Game int }
	s.call(t, "POST", fmt.Sprintf("/api/challenge/%d/accept", c.ID), blackTok, nil, &acc)
	return acc.Game
}

// fullGame is GET /api/game/ID with the offers, the chat and the clocks.
type fullGame struct {
	Variant string `json:"variant"`
	State   struct {
		Moves  []string `json:"moves"`
		ToMove string   `json:"toMove"`
		Status string   `json:"status"`
		Result string   `json:"result"`
		Method string   `json:"method"`
		Offers []struct {
			Kind string `json:"kind"`
			By   string `json:"by"`
		} `json:"offers"`
		Clocks *struct {
			WhiteMs int64  `json:"whiteMs"`
			BlackMs int64  `json:"blackMs"`
			Running string `json:"running"`
		} `json:"clocks"`
	} `json:"state"`
	Chat []struct {
		User string `json:"user"`
		Text string `json:"text"`
	} `json:"chat"`
}

func (s *site) fullGame(t *testing.T, id int) fullGame {
	t.Helper()
	var g fullGame
	s.call(t, "GET", fmt.Sprintf("/api/game/%d", id), "", nil, &g)
	return g
}

// playAPI plays one move for the side to move through the API (chooseMove
// over the server's legal moves) and returns it.
func (s *site) playAPI(t *testing.T, id int, tokens map[string]string) string {
	t.Helper()
	g := s.game(t, id)
	v := s.position(t, g.State.Position, nil)
	var texts []string
	for _, m := range v.Legal {
		texts = append(texts, m.Text)
	}
	m := chooseMove(texts)
	s.call(t, "POST", fmt.Sprintf("/api/game/%d/move", id), tokens[g.State.ToMove], map[string]any{"move": m, "ply": len(g.State.Moves)}, nil)
	return m
}

// waitGame waits until the server's game satisfies ok (a click's command
// may still be on its way when the page's click returns).
func (s *site) waitGame(b *browser, id int, what string, ok func(g apiGame) bool) apiGame {
	b.t.Helper()
	d := time.Now().Add(stepTimeout)
	for {
		g := s.game(b.t, id)
		if ok(g) {
			return g
		}
		if time.Now().After(d) {
			b.fatalf("the server's game %d: timed out waiting for %s; it has %s %s %v", id, what, g.State.Status, g.State.Result, g.State.Moves)
		}
		time.Sleep(40 * time.Millisecond)
	}
}

// gameExtras is the part of morrisDebug.state() on a game page that
// debugState leaves out.
type gameExtras struct {
	Offers []struct {
		Kind string `json:"kind"`
		By   string `json:"by"`
	} `json:"offers"`
	Chat []struct {
		User string `json:"user"`
		Text string `json:"text"`
	} `json:"chat"`
	Clocks *struct {
		White float64 `json:"white"`
		Black float64 `json:"black"`
	} `json:"clocks"`
}

func (p *page) extras() gameExtras {
	p.b.t.Helper()
	raw := eval[[]byte](p, `window.morrisDebug.state()`)
	var x gameExtras
	if err := json.Unmarshal(raw, &x); err != nil {
		p.b.fatalf("page %s: state %s: %v", p.name, raw, err)
	}
	return x
}

// openGame opens a game's page and waits until it has the game over an
// open connection.
func (p *page) openGame(id int) debugState {
	p.b.t.Helper()
	p.open(fmt.Sprintf("/game/%d", id))
	return p.waitState(fmt.Sprintf("game %d open", id), func(s debugState) bool {
		return gameLoaded(s) && s.ID == id && s.Connection == "open"
	})
}

// ---- reading the page ----

// existsJS is a script true when an element with the test id exists.
func existsJS(id string) string {
	return fmt.Sprintf(`!!document.querySelector('[data-testid=%q]')`, id)
}

// clockMs reads a clock's data-ms (-1 when it has none yet).
func (p *page) clockMs(side string) float64 {
	p.b.t.Helper()
	return eval[float64](p, fmt.Sprintf(`(() => { const c = document.querySelector('[data-testid="clock-%s"]'); return c && c.dataset.ms !== '' && c.dataset.ms !== undefined ? Number(c.dataset.ms) : -1; })()`, side))
}

// xy is a point in the viewport, in CSS pixels.
type xy struct{ X, Y float64 }

// center is the centre of an element in the viewport.
func (p *page) center(id string) xy {
	p.b.t.Helper()
	c := eval[*xy](p, fmt.Sprintf(`(() => { const el = document.querySelector('[data-testid=%q]'); if (!el) return null;
		const r = el.getBoundingClientRect(); return {X: r.left + r.width / 2, Y: r.top + r.height / 2}; })()`, id))
	if c == nil {
		p.b.fatalf("page %s: no %s", p.name, id)
	}
	return *c
}
