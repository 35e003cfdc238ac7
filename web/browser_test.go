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
// go test ./web -run BrowserScreenshots -screenshots writes the README's
// screenshots to docs/screenshots (MORRIS_SCREENSHOTS=DIR: to DIR, which
// when relative is from web/).

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/morrisgame/morris/egdb/egdbtest"
	"github.com/morrisgame/morris/internal/server"
	"github.com/morrisgame/morris/internal/server/auth"
	"github.com/morrisgame/morris/internal/server/httpapi"
	"github.com/morrisgame/morris/internal/server/store"
	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/puzzle"
	"github.com/morrisgame/morris/web"
)

var screenshotsFlag = flag.Bool("screenshots", false, "TestBrowserScreenshots: write the README's screenshots to ../docs/screenshots")

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
	log *lockedBuffer
	svc *server.Service
	// requests are the method and URL (path and query) of every request
	// the site served, as a proxy's access log would hold them.
	requests *lockedBuffer
	// skew moves the server's clock forward (correspondence timers).
	skew atomic.Int64
}

type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func startSite(t *testing.T) *site { t.Helper(); return startSiteWith(t, nil) }

// startSiteWith is startSite with changes to the server's configuration.
func startSiteWith(t *testing.T, change func(*server.Config)) *site {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "morris.db"))
	if err != nil {
		t.Fatal(err)
	}
	logs := &lockedBuffer{}
	logger := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelWarn}))
	s := &site{log: logs, requests: &lockedBuffer{}}
	cfg := server.Config{
		Store:         st,
		Now:           func() time.Time { return time.Now().Add(time.Duration(s.skew.Load())) },
		Logger:        logger,
		Hash:          auth.Test,
		Rates:         server.Rates{Login: 100, LoginBurst: 100, Signup: 100, SignupBurst: 100, Command: 10000, CommandBurst: 10000},
		EngineWorkers: 1,
	}
	if change != nil {
		change(&cfg)
	}
	svc, err := server.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.Start(ctx); err != nil {
		t.Fatal(err)
	}
	h := httpapi.New(httpapi.Config{Service: svc, Web: web.Handler(), Logger: logger})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(s.requests, "%s %s\n", r.Method, r.URL.RequestURI())
		h.ServeHTTP(w, r)
	}))
	s.URL, s.svc = ts.URL, svc
	t.Cleanup(func() {
		svc.CloseStreams()
		ts.Close()
		svc.Close()
		st.Close()
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
	ActiveGames []int `json:"activeGames"`
	// the study page
	Rules    string `json:"rules"`
	Analysis *struct {
		Best  string   `json:"best"`
		Score int      `json:"score"`
		Depth int      `json:"depth"`
		PV    []string `json:"pv"`
		Error string   `json:"error"`
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

// ---- the scenarios ----

func TestBrowserSignUp(t *testing.T) {
	s := startSite(t)
	b := newBrowser(t, s, 45*time.Second)
	p := b.newPage("signup")
	p.open("/signup")
	p.waitVisible("signup-form")
	p.fill("signup-name", "ada")
	p.fill("signup-password", "lovelace")
	p.fill("signup-email", "ada@example.org")
	p.click("signup-submit")
	p.waitJS("nav-me for ada", `(() => { const me = document.querySelector('[data-testid="nav-me"]'); return !!me && me.dataset.name === 'ada' && me.textContent.includes('ada'); })()`)
	p.waitState("the lobby after signing up", func(s debugState) bool { return s.Page == "home" })
	if eval[bool](p, `!!document.querySelector('[data-testid="nav-signup"]')`) {
		b.fatalf("the header still offers to sign up after signing up")
	}
	// The account is real: the token in the page works on the API.
	tok := eval[string](p, `JSON.parse(localStorage.getItem('morris.session')).token`)
	var me struct{ Name string }
	s.call(t, "GET", "/api/account", tok, nil, &me)
	if me.Name != "ada" {
		t.Fatalf("GET /api/account with the page's token: got %q, want ada", me.Name)
	}
	// The session survives a reload.
	p.run("reload", chromedp.Reload())
	p.waitJS("nav-me after a reload", `(() => { const me = document.querySelector('[data-testid="nav-me"]'); return !!me && me.dataset.name === 'ada'; })()`)
}

// TestBrowserEngineGame: a guest starts a game against the engine from
// /play and plays it by clicks to its end (resigning after maxPlies), and
// the page and the server agree on it. The engine plays at random at level
// 1, so it may end a game in the placing phase (a blockade at the last
// placement, however the clicks choose): such a game is followed by
// another through the page's "play again" link, up to maxGames, until one
// has slides by clicks.
func TestBrowserEngineGame(t *testing.T) {
	start := time.Now()
	s := startSite(t)
	b := newBrowser(t, s, 110*time.Second)
	p := b.newPage("engine")
	p.open("/play")
	const maxGames = 4
	for game := 1; ; game++ {
		n, g := playEngineGame(t, s, p)
		t.Logf("game %d: %d plies (%d placements, %d slides and flights, %d captures by clicks), %s by %s, in %v",
			g.ID, len(g.State.Moves), n.placements, n.slides, n.captures, g.State.Result, g.State.Method, time.Since(start).Round(time.Millisecond))
		// A win by material (white is the clicks' side) needs captures.
		if n.captures == 0 && g.State.Result == "1-0" && g.State.Method == "material" {
			t.Errorf("game %d: won by material with no capture by clicks", g.ID)
		}
		if n.slides > 0 {
			return
		}
		if game == maxGames {
			t.Fatalf("%d games against the engine ended with no slide by clicks: want one that reaches the moving phase", maxGames)
		}
		p.click("play-again")
	}
}

// playEngineGame starts a game against the engine from the /play form
// (which the page shows), plays it by clicks to its end, and checks that
// the page and the server agree on it.
func playEngineGame(t *testing.T, s *site, p *page) (clickCounts, apiGame) {
	t.Helper()
	b := p.b
	p.waitVisible("engine-form")
	p.choose("engine-variant", "nine-mens-morris")
	p.choose("engine-level", "1")
	p.choose("engine-control", "none")
	p.choose("engine-color", "white")
	p.click("engine-submit")
	st := p.waitState("the new game", func(s debugState) bool { return gameLoaded(s) && s.Status == "active" })
	if st.MySide != "white" {
		b.fatalf("got side %q, want white", st.MySide)
	}
	id := st.ID
	p.waitJS("the guest's name in the header", `!!document.querySelector('[data-testid="nav-me"]')`)

	const maxPlies = 240
	n := p.playEngine(maxPlies)
	if st, _ := p.state(); st.Status == "active" {
		t.Logf("no end after %d plies: resigning", st.Ply)
		p.waitMyTurn()
		p.resign()
	}
	st = p.waitState("the end", func(s debugState) bool { return s.ID == id && s.Status == "finished" })
	g := s.game(t, id)
	if g.State.Status != "finished" || !slices.Equal(st.Moves, g.State.Moves) || st.Result != g.State.Result {
		b.fatalf("the page ended with %s %v; the server has %s %s %v", st.Result, st.Moves, g.State.Status, g.State.Result, g.State.Moves)
	}
	p.checkResultShown(g.State.Result)
	p.waitVisible("play-again")
	return n, g
}

// TestBrowserTwoPlayers: ann challenges bob from the lobby, bob accepts in
// his lobby, they play by clicks, each seeing the other's moves, while a
// third browser that is not signed in watches from the lobby's list of
// games; ann's connection drops while bob moves, bob's page is reloaded
// while ann moves, and nothing is lost; bob resigns through the UI.
func TestBrowserTwoPlayers(t *testing.T) {
	start := time.Now()
	s := startSite(t)
	s.account(t, "ann", "annpass1")
	s.account(t, "bob", "bobpass1")
	b := newBrowser(t, s, 100*time.Second)
	ann := b.newPage("ann")
	bob := b.newPage("bob")
	watcher := b.newPage("watcher")
	ann.signIn("ann", "annpass1")
	bob.signIn("bob", "bobpass1")

	// The challenge, from ann's lobby.
	ann.click("tab-challenge")
	ann.waitVisible("challenge-form")
	ann.fill("challenge-user", "bob")
	ann.choose("challenge-variant", "nine-mens-morris")
	ann.choose("challenge-control", "none")
	ann.choose("challenge-color", "white")
	ann.click("challenge-submit")
	ann.waitJS("the challenge listed as sent", `!!document.querySelector('[data-testid^="challenge-"][data-direction="out"]')`)

	// Bob sees it come in (the account stream) and accepts.
	bob.waitJS("the challenge listed as received", `!!document.querySelector('[data-testid^="challenge-accept-"]')`)
	cid := eval[string](bob, `document.querySelector('[data-testid^="challenge-"][data-direction="in"]').dataset.id`)
	bob.click("challenge-accept-" + cid)
	bs := bob.waitState("bob's game page", func(s debugState) bool { return gameLoaded(s) && s.Status == "active" })
	id := bs.ID
	// Ann is taken to the game when bob accepts.
	as := ann.waitState("ann taken to the game", func(s debugState) bool { return gameLoaded(s) && s.ID == id && s.Status == "active" })
	if as.MySide != "white" || bs.MySide != "black" {
		b.fatalf("sides: ann %q, bob %q; want white and black", as.MySide, bs.MySide)
	}

	// The watcher finds the game in the lobby's games in progress.
	watcher.open("/")
	watcher.waitVisible(fmt.Sprintf("active-game-%d", id))
	watcher.click(fmt.Sprintf("active-game-%d", id))
	ws := watcher.waitState("the watcher on the game", func(s debugState) bool { return gameLoaded(s) && s.ID == id && s.Connection == "open" })
	if ws.MySide != "" {
		b.fatalf("the watcher has side %q, want none", ws.MySide)
	}
	watcher.waitVisible("spectating")
	if eval[bool](watcher, `!!document.querySelector('[data-testid="resign"]') || !!document.querySelector('[data-testid="point-a1"].is-target')`) {
		b.fatalf("the watcher is offered moves or a resign button")
	}

	players := map[string]*page{"white": ann, "black": bob}
	var moves []string
	// move plays one ply by clicks for the side to move and waits until
	// all three pages show it and the server has it.
	move := func() {
		t.Helper()
		g := s.game(t, id)
		p := players[g.State.ToMove]
		st := p.waitMyTurn()
		m := chooseMove(st.Legal)
		p.playMove(m)
		moves = append(moves, m)
		for _, q := range []*page{ann, bob, watcher} {
			q.waitMoves(moves)
		}
		if g := s.game(t, id); !slices.Equal(g.State.Moves, moves) {
			b.fatalf("the server has %v, the pages %v", g.State.Moves, moves)
		}
	}
	for range 6 {
		move()
	}

	// Ann's connection drops (and the watcher's) just after her move;
	// bob moves before they are back (the client waits at least 375 ms
	// before it reconnects). They come back with ?since and get the move.
	move() // ann's
	ann.run("drop the connection", chromedp.Evaluate[chromedp.Void](`window.morrisDebug.dropConnection()`))
	watcher.run("drop the connection", chromedp.Evaluate[chromedp.Void](`window.morrisDebug.dropConnection()`))
	st := bob.waitMyTurn()
	m := chooseMove(st.Legal)
	bob.playMove(m)
	moves = append(moves, m)
	if st, _ := ann.state(); st.Connection == "open" || slices.Equal(st.Moves, moves) {
		t.Logf("ann was back (%s, %d moves) before bob's move: the drop did not span it", st.Connection, len(st.Moves))
	}
	for _, q := range []*page{ann, watcher} {
		q.waitState("reconnected with every move", func(s debugState) bool {
			return s.Connection == "open" && slices.Equal(s.Moves, moves)
		})
	}
	if g := s.game(t, id); !slices.Equal(g.State.Moves, moves) {
		b.fatalf("the server has %v, the pages %v", g.State.Moves, moves)
	}

	// Bob's page is reloaded while ann moves.
	st = ann.waitMyTurn()
	m = chooseMove(st.Legal)
	bob.run("reload", chromedp.Evaluate[chromedp.Void](`location.reload()`))
	ann.playMove(m)
	moves = append(moves, m)
	bob.waitState("bob back after a reload", func(s debugState) bool {
		return s.Page == "game" && s.Connection == "open" && s.MySide == "black" && slices.Equal(s.Moves, moves)
	})
	watcher.waitMoves(moves)

	// Bob's connection drops on his turn and he moves at once, before it
	// is back (the page sends the move over HTTP meanwhile).
	st = bob.waitMyTurn()
	m = chooseMove(st.Legal)
	bob.run("drop the connection", chromedp.Evaluate[chromedp.Void](`window.morrisDebug.dropConnection()`))
	bob.waitState("bob's page reconnecting", func(s debugState) bool { return s.Connection != "open" })
	bob.clickMove(m)
	if st, _ := bob.state(); st.Connection == "open" {
		t.Logf("bob was back before his last click: his move may have gone on the socket")
	}
	bob.waitPlayed(m, len(moves))
	moves = append(moves, m)
	for _, q := range []*page{ann, bob, watcher} {
		q.waitState("every move after bob's drop", func(s debugState) bool {
			return s.Connection == "open" && slices.Equal(s.Moves, moves)
		})
	}

	// A few more moves after all that, then bob resigns on his turn.
	for range 3 {
		move()
	}
	bob.waitMyTurn()
	bob.resign()
	g := s.game(t, id)
	if g.State.Status != "finished" || g.State.Result != "1-0" || g.State.Method != "resignation" {
		b.fatalf("after bob resigned the server has %s %s by %s, want finished 1-0 by resignation", g.State.Status, g.State.Result, g.State.Method)
	}
	for _, q := range []*page{ann, bob, watcher} {
		st := q.waitState("the end", func(s debugState) bool { return s.Status == "finished" })
		if st.Result != "1-0" || st.Method != "resignation" || !slices.Equal(st.Moves, g.State.Moves) {
			b.fatalf("page %s ended with %s by %s after %v; the server has 1-0 by resignation after %v", q.name, st.Result, st.Method, st.Moves, g.State.Moves)
		}
		q.checkResultShown("1-0")
	}

	// The watcher replays the game: the start is empty, the end is the
	// final position.
	watcher.click("replay-first")
	watcher.waitState("the start shown", func(s debugState) bool { return s.Cursor == 0 })
	checkBoard(b, watcher, s, g.Start, nil)
	watcher.click("replay-last")
	watcher.waitState("the end shown", func(s debugState) bool { return s.Cursor == len(moves) })
	checkBoard(b, watcher, s, g.Start, moves)
	t.Logf("game %d: %d plies by clicks between two browsers, watched from a third, in %v", id, len(moves), time.Since(start).Round(time.Millisecond))
}

// TestBrowserSeek: an open seek posted from one lobby and joined from
// another; both players land on the game with their sides.
func TestBrowserSeek(t *testing.T) {
	s := startSite(t)
	s.account(t, "gus", "guspass1")
	s.account(t, "hal", "halpass1")
	b := newBrowser(t, s, 45*time.Second)
	gus := b.newPage("gus")
	hal := b.newPage("hal")
	gus.signIn("gus", "guspass1")
	gus.click("tab-seek")
	gus.waitVisible("seek-form")
	gus.choose("seek-variant", "lasker")
	gus.choose("seek-control", "days")
	gus.choose("seek-color", "black")
	gus.click("seek-submit")
	gus.waitJS("gus's seek listed with a cancel button", `!!document.querySelector('[data-testid^="seek-cancel-"]')`)
	hal.signIn("hal", "halpass1")
	hal.waitJS("gus's seek in hal's lobby", `!!document.querySelector('[data-testid^="seek-accept-"]')`)
	id := eval[string](hal, `document.querySelector('[data-testid^="seek-accept-"]').closest('[data-id]').dataset.id`)
	hal.click("seek-accept-" + id)
	hs := hal.waitState("hal's game", func(s debugState) bool { return gameLoaded(s) })
	gs := gus.waitState("gus taken to the game", func(s debugState) bool { return gameLoaded(s) && s.ID == hs.ID })
	if gs.MySide != "black" || hs.MySide != "white" {
		b.fatalf("sides: gus %q, hal %q; want black and white", gs.MySide, hs.MySide)
	}
	for _, p := range []*page{gus, hal} {
		p.waitJS("the variant shown", `document.querySelector('[data-testid="game-variant"]').dataset.variant === 'lasker'`)
	}
	// Lasker: hal (white) may place or slide from the first move; one
	// move each by clicks.
	hal.playMove(chooseMove(hal.waitMyTurn().Legal))
	gus.playMove(chooseMove(gus.waitMyTurn().Legal))
	g := s.game(t, hs.ID)
	for _, p := range []*page{gus, hal} {
		p.waitMoves(g.State.Moves)
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

// TestBrowserReplay: a finished game replayed move by move on its page
// with the replay buttons, the move list and the keys; at every step the
// board shows the position the server computes.
func TestBrowserReplay(t *testing.T) {
	s := startSite(t)
	white := s.account(t, "cleo", "cleopass")
	black := s.account(t, "dan", "danpass1")
	g := s.finishedGame(t, white, black, "dan", 40)
	moves := g.State.Moves
	if g.State.Status != "finished" || len(moves) < 20 {
		t.Fatalf("the game to replay: %s after %d moves", g.State.Status, len(moves))
	}

	b := newBrowser(t, s, 60*time.Second)
	p := b.newPage("replay")
	p.open(fmt.Sprintf("/game/%d", g.ID))
	st := p.waitState("the finished game", func(s debugState) bool { return gameLoaded(s) && s.Status == "finished" && len(s.Moves) == len(moves) })
	if st.Cursor != len(moves) || !slices.Equal(st.Moves, moves) {
		b.fatalf("opened at cursor %d with %v; want the end of %v", st.Cursor, st.Moves, moves)
	}
	p.checkResultShown(g.State.Result)
	checkBoard(b, p, s, g.Start, moves)

	at := func(k int) {
		t.Helper()
		p.waitState(fmt.Sprintf("cursor %d", k), func(s debugState) bool { return s.Cursor == k })
		checkBoard(b, p, s, g.Start, moves[:k])
		// The move list marks the move shown.
		if k > 0 {
			p.waitJS(fmt.Sprintf("move-%d current", k-1), fmt.Sprintf(`document.querySelector('[data-testid="move-%d"]').classList.contains('current')`, k-1))
		}
	}
	p.click("replay-first")
	at(0)
	if w, bl := p.pieces(); len(w)+len(bl) != 0 {
		b.fatalf("the start has pieces: white %v, black %v", w, bl)
	}
	for k := 1; k <= len(moves); k++ {
		p.click("replay-next")
		at(k)
	}
	for k := len(moves) - 1; k >= len(moves)-5; k-- {
		p.click("replay-prev")
		at(k)
	}
	// A click on a move shows the position after it.
	p.click("move-9")
	at(10)
	// The keys: Home, the arrows, End (the focus off the board).
	p.run("blur", chromedp.Evaluate[chromedp.Void](`document.activeElement && document.activeElement.blur && document.activeElement.blur()`))
	p.run("Home", chromedp.KeyEvent(kb.Home))
	at(0)
	p.run("ArrowRight", chromedp.KeyEvent(kb.ArrowRight))
	at(1)
	p.run("End", chromedp.KeyEvent(kb.End))
	at(len(moves))
	if eval[bool](p, `document.querySelector('[data-testid="replay-next"]').disabled !== true`) {
		b.fatalf("replay-next is enabled at the end")
	}
}

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
// page with the engine's analysis, a rules page and a game on a phone.
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

	phone := b.newPage("phone")
	phone.run("phone viewport", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile))
	phone.signIn("bob", "bobpass1")
	phone.open(fmt.Sprintf("/game/%d", annBob))
	phone.waitState("the game", func(s debugState) bool { return gameLoaded(s) && s.Connection == "open" })
	phone.shoot(dir, "phone")
}
