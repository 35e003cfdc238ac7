package httpapi

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/morrisgame/morris/internal/server"
	"github.com/morrisgame/morris/internal/server/servertest"
	"github.com/morrisgame/morris/internal/server/store"
	"github.com/morrisgame/morris/internal/server/store/storetest"
	"github.com/morrisgame/morris/internal/server/wire"
	"github.com/morrisgame/morris/mif"
	"github.com/morrisgame/morris/mill"
	"github.com/morrisgame/morris/record"
)

// testServer is the API over a real socket (httptest listens on
// loopback), on a service over SQLite in a temporary folder.
type testServer struct {
	*httptest.Server
	svc *server.Service
	st  *store.Store
}

func newTestServer(t testing.TB, cfg server.Config) *testServer {
	t.Helper()
	return newTestServerOn(t, filepath.Join(t.TempDir(), "morris.db"), cfg)
}

// newTestServerOn is newTestServer on the database dsn.
// Streams send keep-alive lines every 200 ms unless cfg says otherwise.
func newTestServerOn(t testing.TB, dsn string, cfg server.Config) *testServer {
	t.Helper()
	if cfg.KeepAlive == 0 {
		cfg.KeepAlive = 200 * time.Millisecond
	}
	s := servertest.Start(t, cfg, servertest.DSN(dsn), servertest.HTTP(func(s *servertest.Server) http.Handler {
		return New(Config{Service: s.Service})
	}))
	return &testServer{Server: s.HTTP, svc: s.Service, st: s.Store}
}

// do sends a request with a JSON body (a string is sent as it is) and
// returns the status and the body.
func (ts *testServer) do(t testing.TB, method, path, token string, body any) (int, []byte) {
	t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		buf, _ := json.Marshal(b)
		rd = bytes.NewReader(buf)
	}
	req, err := http.NewRequest(method, ts.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, data
}

func (ts *testServer) must(t testing.TB, want int, method, path, token string, body, out any) {
	t.Helper()
	code, data := ts.do(t, method, path, token, body)
	if code != want {
		t.Fatalf("%s %s: got %d %s, want %d", method, path, code, data, want)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			t.Fatalf("%s %s: %v in %s", method, path, err, data)
		}
	}
}

// account signs up and returns a token.
func (ts *testServer) account(t testing.TB, name string) string {
	t.Helper()
	ts.must(t, 201, "POST", "/api/account", "", map[string]string{"name": name, "password": "secret-" + name}, nil)
	var tok tokenAnswer
	ts.must(t, 200, "POST", "/api/token", "", map[string]string{"name": name, "password": "secret-" + name}, &tok)
	return tok.Token
}

func TestAccounts(t *testing.T) {
	ts := newTestServer(t, server.Config{})
	tok := ts.account(t, "ann")
	for _, c := range []struct {
		method, path, token string
		body                any
		want                int
	}{
		{"POST", "/api/account", "", map[string]string{"name": "Ann", "password": "another-one"}, 409},
		{"POST", "/api/account", "", map[string]string{"name": "x", "password": "another-one"}, 400},
		{"POST", "/api/account", "", map[string]string{"name": "bob", "password": "a b c d"}, 400},
		{"POST", "/api/account", "", map[string]string{"name": "bob", "password": "abc"}, 400},
		{"POST", "/api/account", "", map[string]string{"name": "bob", "password": "1234567"}, 400},
		{"POST", "/api/account", "", map[string]string{"name": "engine", "password": "abcdefgh"}, 409},
		{"POST", "/api/account", "", `{"name": "bob", "password": "abcdefgh", "admin": true}`, 400},
		{"POST", "/api/account", "", `{"name": "bob"`, 400},
		{"POST", "/api/account", "", `{"name": "bob", "password": "abcdefgh"} {}`, 400},
		{"POST", "/api/token", "", map[string]string{"name": "ann", "password": "wrong"}, 401},
		{"POST", "/api/token", "", map[string]string{"name": "nobody", "password": "wrong"}, 401},
		{"POST", "/api/token", "", map[string]string{"name": "engine", "password": "anything"}, 401},
		{"GET", "/api/account", "", nil, 401},
		{"GET", "/api/account", "mt_forged", nil, 401},
		{"GET", "/api/account", tok, nil, 200},
		{"GET", "/api/nothing", "", nil, 404},
		{"GET", "/api/user/nobody", "", nil, 404},
		{"GET", "/api/user/ann", "", nil, 200},
		{"GET", "/api/ratings/nine-mens-morris", "", nil, 200},
		{"GET", "/api/ratings/chess", "", nil, 400},
	} {
		if code, body := ts.do(t, c.method, c.path, c.token, c.body); code != c.want {
			t.Errorf("%s %s %v: got %d %s, want %d", c.method, c.path, c.body, code, body, c.want)
		}
	}
	// Nothing above created bob.
	if code, _ := ts.do(t, "GET", "/api/user/bob", "", nil); code != 404 {
		t.Errorf("bob exists after refused sign-ups: %d", code)
	}
	ts.must(t, 204, "DELETE", "/api/token", tok, nil, nil)
	if code, _ := ts.do(t, "GET", "/api/account", tok, nil); code != 401 {
		t.Errorf("a revoked token: got %d, want 401", code)
	}
}

func TestRateLimits(t *testing.T) {
	// The sign-in limit as served; the command rate lowered so that a
	// slow run (-race) cannot refill the bucket as fast as it is spent.
	rates := server.DefaultRates
	rates.Command, rates.CommandBurst = 1, 10
	ts := newTestServer(t, server.Config{Rates: rates})
	ts.account(t, "ann")
	got429 := false
	for range 15 {
		code, _ := ts.do(t, "POST", "/api/token", "", map[string]string{"name": "ann", "password": "wrong"})
		if code == 429 {
			got429 = true
			break
		}
	}
	if !got429 {
		t.Error("15 wrong passwords in a row were never rate limited")
	}
	got429 = false
	for range 100 {
		if code, _ := ts.do(t, "GET", "/api/user/ann", "", nil); code == 429 {
			got429 = true
			break
		}
	}
	if !got429 {
		t.Error("100 requests in a row from one address were never rate limited")
	}
}

// stream reads an NDJSON stream into a channel of lines (keep-alives
// dropped).
func stream(t testing.TB, ctx context.Context, url, token string) <-chan []byte {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 {
		t.Fatalf("GET %s: %d", url, resp.StatusCode)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/x-ndjson" {
		t.Errorf("stream content type: %q", ct)
	}
	c := make(chan []byte, 1024)
	go func() {
		defer resp.Body.Close()
		defer close(c)
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if len(bytes.TrimSpace(sc.Bytes())) > 0 {
				c <- append([]byte(nil), sc.Bytes()...)
			}
		}
	}()
	return c
}

type event struct {
	Type    string `json:"type"`
	Version int64  `json:"version"`
	Ply     int    `json:"ply"`
	Move    string `json:"move"`
	ToMove  string `json:"toMove"`
	Status  string `json:"status"`
	Result  string `json:"result"`
	Moves   []string
	State   *wire.GameState `json:"state"`
	Game    *wire.GameSummary
}

func next(t testing.TB, c <-chan []byte) event {
	t.Helper()
	select {
	case line, ok := <-c:
		if !ok {
			t.Fatal("the stream ended")
		}
		var e event
		if err := json.Unmarshal(line, &e); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		return e
	case <-time.After(10 * time.Second):
		t.Fatal("no event within 10 s")
	}
	panic("unreachable")
}

// watcher follows the moves of a game stream: it applies move events and
// game states, and checks that versions only grow.
type watcher struct {
	moves   []string
	turns   []string // the side to move after each move event seen
	version int64
	over    bool
}

func (w *watcher) apply(t testing.TB, e event) {
	t.Helper()
	switch e.Type {
	case "gameFull":
		w.moves, w.version = e.State.Moves, e.State.Version
		w.over = e.State.Status == "finished"
		return
	case "gameState":
		w.moves = e.Moves
		w.over = e.Status == "finished"
	case "move":
		if e.Ply != len(w.moves) {
			t.Fatalf("move event at ply %d after %d moves", e.Ply, len(w.moves))
		}
		w.moves = append(w.moves, e.Move)
		w.turns = append(w.turns, e.ToMove)
		w.over = e.Status == "finished"
	case "chat":
	default:
		t.Fatalf("unexpected event %q", e.Type)
	}
	if e.Version <= w.version {
		t.Fatalf("event %s at version %d after version %d", e.Type, e.Version, w.version)
	}
	w.version = e.Version
}

// socket is a game's WebSocket.
type socket struct {
	c      *websocket.Conn
	events chan []byte
	acks   chan socketAnswer
	end    error // why the reader stopped, once events is closed
}

func dialSocket(t testing.TB, ctx context.Context, ts *testServer, game int64, token string, since int64) *socket {
	t.Helper()
	u := fmt.Sprintf("ws%s/api/game/%d/ws?since=%d", strings.TrimPrefix(ts.URL, "http"), game, since)
	if since < 0 {
		u = fmt.Sprintf("ws%s/api/game/%d/ws", strings.TrimPrefix(ts.URL, "http"), game)
	}
	c, _, err := websocket.Dial(ctx, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := &socket{c: c, events: make(chan []byte, 1024), acks: make(chan socketAnswer, 16)}
	go func() {
		defer close(s.events)
		for {
			_, data, err := c.Read(ctx)
			if err != nil {
				s.end = err
				return
			}
			var a socketAnswer
			_ = json.Unmarshal(data, &a)
			switch a.Type {
			case "ack", "error":
				s.acks <- a
			case "keepAlive":
			default:
				s.events <- data
			}
		}
	}()
	if token != "" {
		// The token goes in the first message, as the web client sends it.
		if a := s.send(t, ctx, socketMessage{Type: "auth", Token: token}); a.Type != "ack" {
			t.Fatalf("signing in on the socket: %+v", a)
		}
	}
	return s
}

func (s *socket) send(t testing.TB, ctx context.Context, m socketMessage) socketAnswer {
	t.Helper()
	b, _ := json.Marshal(m)
	if err := s.c.Write(ctx, websocket.MessageText, b); err != nil {
		t.Fatal(err)
	}
	select {
	case a := <-s.acks:
		return a
	case <-time.After(10 * time.Second):
		t.Fatal("no answer on the socket")
	}
	panic("unreachable")
}

// TestWholeGamesEveryPreset plays a whole game of every preset between two
// users, white over HTTP and black over WebSocket, while a spectator
// follows the NDJSON stream and another the WebSocket; a third stream
// drops in the middle and reconnects with its last version. Every stream
// must see every move, in order, each with the side to move after it (the
// regional presets move a side twice running); the position JSON shows
// the first marks and removals owed.
func TestWholeGamesEveryPreset(t *testing.T) {
	storetest.Each(t, testWholeGamesEveryPreset)
}

func testWholeGamesEveryPreset(t *testing.T, dsn string) {
	ts := newTestServerOn(t, dsn, server.Config{})
	ann, bob := ts.account(t, "ann"), ts.account(t, "bob")
	for i, v := range mill.Variants() {
		t.Run(v.ID, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			var c wire.Challenge
			ts.must(t, 201, "POST", "/api/challenge/bob", ann, map[string]any{"variant": v.ID, "color": "white"}, &c)
			ts.must(t, 200, "POST", fmt.Sprintf("/api/challenge/%d/accept", c.ID), bob, nil, &c)
			var full wire.GameFull
			ts.must(t, 200, "GET", fmt.Sprintf("/api/game/%d", c.Game), "", nil, &full)
			start, err := mill.ParsePosition(full.Start)
			if err != nil {
				t.Fatal(err)
			}
			spectator := stream(t, ctx, fmt.Sprintf("%s/api/game/%d/stream", ts.URL, c.Game), "")
			var sw watcher
			sw.apply(t, next(t, spectator))
			bs := dialSocket(t, ctx, ts, c.Game, bob, -1)
			var ws watcher
			ws.apply(t, event{Type: "gameFull", State: &full.State})
			var e event
			if err := json.Unmarshal(<-bs.events, &e); err != nil || e.Type != "gameFull" {
				t.Fatalf("first socket message: %v %+v", err, e)
			}
			// A stream that will drop out halfway.
			dctx, drop := context.WithCancel(ctx)
			defer drop()
			dropper := stream(t, dctx, fmt.Sprintf("%s/api/game/%d/stream", ts.URL, c.Game), "")
			var dw watcher
			dw.apply(t, next(t, dropper))

			g := mill.NewGame(start.Rules(), mill.FromPosition(start))
			rng := rand.New(rand.NewPCG(uint64(i), 7))
			var played, turns []string
			twice := 0
			shown := map[string]bool{}
			for g.Outcome() == mill.NoOutcome && len(played) < 400 {
				p := g.Position()
				// The position JSON of the first position with marks, and
				// of the first where a side owes removals.
				for what, now := range map[string]bool{"marks": p.Marked() != 0, "removals": p.Owed(mill.White)+p.Owed(mill.Black) > 0} {
					if now && !shown[what] {
						shown[what] = true
						var pv positionView
						ts.must(t, 200, "POST", "/api/position", "", map[string]any{"position": full.Start, "moves": played}, &pv)
						if pv.Position != p.String() || len(pv.Marked) != p.Marked().Len() || pv.Owed != (colorPair[int]{White: p.Owed(mill.White), Black: p.Owed(mill.Black)}) || pv.RemovesOwn != p.RemovesOwn() {
							t.Errorf("the position JSON of %s: %s, marked %v, owed %+v, own %v", p, pv.Position, pv.Marked, pv.Owed, pv.RemovesOwn)
						}
					}
				}
				moves := p.Moves(nil)
				m := moves[rng.IntN(len(moves))]
				text := p.MoveText(m)
				if p.SideToMove() == mill.White {
					var a moveAnswer
					ts.must(t, 200, "POST", fmt.Sprintf("/api/game/%d/move", c.Game), ann, map[string]any{"move": text, "ply": len(played)}, &a)
					if a.Ply != len(played) || a.Move != text {
						t.Fatalf("move answer %+v for %s at ply %d", a, text, len(played))
					}
					// The same request again: refused, not played twice.
					if code, _ := ts.do(t, "POST", fmt.Sprintf("/api/game/%d/move", c.Game), ann, map[string]any{"move": text, "ply": len(played)}); code != 409 {
						t.Fatalf("a retried move: got %d, want 409", code)
					}
				} else {
					ply := len(played)
					if a := bs.send(t, ctx, socketMessage{ID: int64(ply), Type: "move", Move: strings.ToUpper(text), Ply: &ply}); a.Type != "ack" || a.ID != int64(ply) {
						t.Fatalf("socket move %s: %+v", text, a)
					}
				}
				if err := g.Play(m); err != nil {
					t.Fatal(err)
				}
				played = append(played, text)
				turns = append(turns, colorName(g.Position().SideToMove()))
				if g.Position().SideToMove() == p.SideToMove() {
					twice++
				}
				if len(played) == 6 {
					drop()
				}
			}
			// A game shorter than six plies (a mill wins three men's
			// morris) drops the stream at its end.
			drop()
			if g.Outcome() == mill.NoOutcome {
				// A long game: bob resigns it.
				if a := bs.send(t, ctx, socketMessage{ID: 999, Type: "resign"}); a.Type != "ack" {
					t.Fatalf("resign: %+v", a)
				}
			}
			for !sw.over {
				sw.apply(t, next(t, spectator))
			}
			for !ws.over {
				var e event
				select {
				case data := <-bs.events:
					if err := json.Unmarshal(data, &e); err != nil {
						t.Fatal(err)
					}
				case <-time.After(10 * time.Second):
					t.Fatal("socket: no event")
				}
				ws.apply(t, e)
			}
			// The dropped stream reconnects with the last version it saw.
			for range dropper {
			}
			resumed := stream(t, ctx, fmt.Sprintf("%s/api/game/%d/stream?since=%d", ts.URL, c.Game, dw.version), "")
			for !dw.over {
				dw.apply(t, next(t, resumed))
			}
			for name, w := range map[string]*watcher{"spectator": &sw, "socket": &ws, "reconnected": &dw} {
				if strings.Join(w.moves, " ") != strings.Join(played, " ") {
					t.Errorf("%s saw %v, want %v", name, w.moves, played)
				}
			}
			// The side to move after each move: the same side again after
			// a removal it owes, a blocked side's removal, or the last
			// placement of da san qi. A resignation's state has the last
			// move's side.
			for name, w := range map[string]*watcher{"spectator": &sw, "socket": &ws} {
				if got := strings.Join(w.turns, " "); got != strings.Join(turns, " ") {
					t.Errorf("%s: the side to move after each move: got %s, want %s", name, got, strings.Join(turns, " "))
				}
			}
			// The rules that move a side twice running did so here.
			if o := start.Rules().Options(); o.SecondMovesFirst && len(played) > 2*o.Pieces && twice == 0 {
				t.Errorf("%s: placing ended, and the second player did not move first: %v", v.ID, played)
			}
			if o := start.Rules().Options(); o.PlacingCaptures == mill.CaptureMark && !shown["marks"] || o.PlacingCaptures == mill.CaptureCounted && !shown["removals"] {
				t.Errorf("%s: no position with marks or removals owed: %v", v.ID, played)
			}
			var after wire.GameFull
			ts.must(t, 200, "GET", fmt.Sprintf("/api/game/%d", c.Game), "", nil, &after)
			if after.State.Status != "finished" || strings.Join(after.State.Moves, " ") != strings.Join(played, " ") {
				t.Errorf("the stored game: %s, %v", after.State.Status, after.State.Moves)
			}
			code, rec := ts.do(t, "GET", fmt.Sprintf("/api/game/%d/export", c.Game), "", nil)
			if code != 200 || !bytes.Contains(rec, []byte(`[Variant "`+v.ID+`"]`)) {
				t.Errorf("export: %d %s", code, rec)
			}
			// In Sanmill's form where Sanmill has the rules: read back
			// as Sanmill's record, the same moves.
			code, srec := ts.do(t, "GET", fmt.Sprintf("/api/game/%d/export?format=sanmill", c.Game), "", nil)
			if _, err := record.SanmillName(start.Rules()); err != nil {
				if code != 400 || !bytes.Contains(srec, []byte("Sanmill has no rule set")) {
					t.Errorf("export in Sanmill's form of %s: %d %s, want 400", v.ID, code, srec)
				}
			} else {
				back, err := record.FromSanmill(string(srec), mif.ParseSanmillFEN)
				sc := record.NewScanner(strings.NewReader(back))
				if code != 200 || err != nil || !sc.Scan() {
					t.Fatalf("export in Sanmill's form: %d %v %v\n%s", code, err, sc.Err(), srec)
				}
				if g, err := sc.Record().Game(); err != nil || strings.Join(g.MoveTexts(mill.Standard), " ") != strings.Join(played, " ") {
					t.Errorf("export in Sanmill's form, read back: %v, %v; want %v", g, err, played)
				}
			}
		})
	}
}

func TestMoveErrors(t *testing.T) {
	storetest.Each(t, testMoveErrors)
}

func testMoveErrors(t *testing.T, dsn string) {
	ts := newTestServerOn(t, dsn, server.Config{})
	ann, bob, cy := ts.account(t, "ann"), ts.account(t, "bob"), ts.account(t, "cy")
	var c wire.Challenge
	ts.must(t, 201, "POST", "/api/challenge/bob", ann, map[string]any{"color": "white"}, &c)
	// Only bob accepts; ann cannot.
	if code, _ := ts.do(t, "POST", fmt.Sprintf("/api/challenge/%d/accept", c.ID), ann, nil); code != 403 {
		t.Errorf("the challenger accepts: %d", code)
	}
	ts.must(t, 200, "POST", fmt.Sprintf("/api/challenge/%d/accept", c.ID), bob, nil, &c)
	if code, _ := ts.do(t, "POST", fmt.Sprintf("/api/challenge/%d/accept", c.ID), bob, nil); code != 409 {
		t.Errorf("accepting twice: %d", code)
	}
	path := fmt.Sprintf("/api/game/%d/move", c.Game)
	for _, x := range []struct {
		token string
		body  any
		want  int
	}{
		{bob, map[string]any{"move": "d6", "ply": 0}, 403},    // not bob's turn
		{cy, map[string]any{"move": "d6", "ply": 0}, 403},     // not cy's game
		{"", map[string]any{"move": "d6", "ply": 0}, 401},     // no token
		{ann, map[string]any{"move": "d6", "ply": 3}, 409},    // wrong ply
		{ann, map[string]any{"move": "q9", "ply": 0}, 400},    // no such point
		{ann, map[string]any{"move": "", "ply": 0}, 400},      // no move
		{ann, `{"move": 5}`, 400},                             // bad JSON
		{ann, map[string]any{"move": "d6", "ply": -5}, 400},   // bad ply
		{ann, map[string]any{"move": "d6-d5", "ply": 0}, 400}, // a slide while placing
	} {
		if code, body := ts.do(t, "POST", path, x.token, x.body); code != x.want {
			t.Errorf("move %v: got %d %s, want %d", x.body, code, body, x.want)
		}
	}
	var full wire.GameFull
	ts.must(t, 200, "GET", fmt.Sprintf("/api/game/%d", c.Game), "", nil, &full)
	if full.State.Ply != 0 || full.State.Version != 0 {
		t.Errorf("refused moves changed the game: ply %d version %d", full.State.Ply, full.State.Version)
	}
	ts.must(t, 200, "POST", path+"/d6?ply=0", ann, nil, nil)
	// Offers: a draw offered and declined, a take-back granted, chat.
	ts.must(t, 200, "POST", fmt.Sprintf("/api/game/%d/draw/offer", c.Game), bob, nil, nil)
	if code, _ := ts.do(t, "POST", fmt.Sprintf("/api/game/%d/draw/accept", c.Game), bob, nil); code != 409 {
		t.Errorf("accepting one's own offer: %d", code)
	}
	ts.must(t, 200, "POST", fmt.Sprintf("/api/game/%d/draw/decline", c.Game), ann, nil, nil)
	ts.must(t, 200, "POST", fmt.Sprintf("/api/game/%d/takeback/offer", c.Game), ann, nil, nil)
	ts.must(t, 200, "POST", fmt.Sprintf("/api/game/%d/takeback/accept", c.Game), bob, nil, nil)
	ts.must(t, 200, "POST", fmt.Sprintf("/api/game/%d/chat", c.Game), bob, map[string]string{"text": "hello"}, nil)
	if code, _ := ts.do(t, "POST", fmt.Sprintf("/api/game/%d/chat", c.Game), cy, map[string]string{"text": "spam"}); code != 403 {
		t.Errorf("a spectator chats: %d", code)
	}
	if code, _ := ts.do(t, "POST", fmt.Sprintf("/api/game/%d/claim-victory", c.Game), bob, nil); code != 403 {
		t.Errorf("claiming at once: %d", code)
	}
	ts.must(t, 200, "GET", fmt.Sprintf("/api/game/%d", c.Game), "", nil, &full)
	if full.State.Ply != 0 || len(full.Chat) != 1 || full.Chat[0].Text != "hello" {
		t.Errorf("after the take-back and chat: ply %d, chat %+v", full.State.Ply, full.Chat)
	}
	ts.must(t, 200, "POST", fmt.Sprintf("/api/game/%d/resign", c.Game), ann, nil, nil)
	if code, _ := ts.do(t, "POST", path, ann, map[string]any{"move": "d6", "ply": 0}); code != 409 {
		t.Errorf("a move after resigning: %d", code)
	}
}

// TestConcurrentSameMove sends one move from many connections at once: it
// is played once, the others get 409.
func TestConcurrentSameMove(t *testing.T) {
	storetest.Each(t, testConcurrentSameMove)
}

func testConcurrentSameMove(t *testing.T, dsn string) {
	ts := newTestServerOn(t, dsn, server.Config{})
	ann, bob := ts.account(t, "ann"), ts.account(t, "bob")
	var c wire.Challenge
	ts.must(t, 201, "POST", "/api/challenge/bob", ann, map[string]any{"color": "white"}, &c)
	ts.must(t, 200, "POST", fmt.Sprintf("/api/challenge/%d/accept", c.ID), bob, nil, &c)
	var wg sync.WaitGroup
	codes := make([]int, 16)
	for i := range codes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes[i], _ = ts.do(t, "POST", fmt.Sprintf("/api/game/%d/move", c.Game), ann, map[string]any{"move": "a1", "ply": 0})
		}()
	}
	wg.Wait()
	n := 0
	for _, code := range codes {
		switch code {
		case 200:
			n++
		case 409:
		default:
			t.Errorf("a concurrent move: %d", code)
		}
	}
	if n != 1 {
		t.Errorf("16 identical moves at once: %d played, want 1", n)
	}
}

func TestEngineGame(t *testing.T) {
	ts := newTestServer(t, server.Config{EngineWorkers: 1})
	ann := ts.account(t, "ann")
	var g wire.GameSummary
	ts.must(t, 201, "POST", "/api/challenge/ai", ann, map[string]any{"level": 1, "color": "white"}, &g)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s := stream(t, ctx, fmt.Sprintf("%s/api/game/%d/stream", ts.URL, g.ID), "")
	var w watcher
	w.apply(t, next(t, s))
	ts.must(t, 200, "POST", fmt.Sprintf("/api/game/%d/move", g.ID), ann, map[string]any{"move": "d6", "ply": 0}, nil)
	for len(w.moves) < 2 {
		w.apply(t, next(t, s))
	}
	if w.moves[0] != "d6" {
		t.Errorf("moves: %v", w.moves)
	}
	// A take-back against the engine is granted at once.
	ts.must(t, 200, "POST", fmt.Sprintf("/api/game/%d/takeback/offer", g.ID), ann, nil, nil)
	var full wire.GameFull
	ts.must(t, 200, "GET", fmt.Sprintf("/api/game/%d", g.ID), "", nil, &full)
	if full.State.Ply != 0 || !full.Black.Bot || full.EngineLevel != 1 {
		t.Errorf("after the take-back: ply %d, black %+v, level %d", full.State.Ply, full.Black, full.EngineLevel)
	}
	for _, body := range []any{
		map[string]any{"level": 11}, map[string]any{"level": 3, "rated": true}, map[string]any{"variant": "chess"},
		map[string]any{"level": 3, "clock": map[string]int{"initialMs": 5}},
		map[string]any{"level": 3, "rules": []string{"flying=often"}},
	} {
		if code, _ := ts.do(t, "POST", "/api/challenge/ai", ann, body); code != 400 {
			t.Errorf("challenge/ai %v: got %d, want 400", body, code)
		}
	}
}

func TestSeeksPair(t *testing.T) {
	ts := newTestServer(t, server.Config{})
	ann, bob := ts.account(t, "ann"), ts.account(t, "bob")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	events := stream(t, ctx, ts.URL+"/api/stream/event", ann)
	if e := next(t, events); e.Type != "synced" {
		t.Errorf("ann's stream begins with %+v, want synced (she has nothing going on)", e)
	}
	var c wire.Challenge
	ts.must(t, 201, "POST", "/api/seek", ann, map[string]any{"variant": "lasker", "days": 3}, &c)
	if c.Status != "open" {
		t.Fatalf("the first seek: %+v", c)
	}
	if e := next(t, events); e.Type != "challenge" {
		t.Errorf("ann's first event: %+v", e)
	}
	ts.must(t, 201, "POST", "/api/seek", bob, map[string]any{"variant": "lasker", "days": 3}, &c)
	if c.Status != "accepted" || c.Game == 0 {
		t.Fatalf("the matching seek: %+v", c)
	}
	for {
		e := next(t, events)
		if e.Type == "gameStart" {
			if e.Game.ID != c.Game || e.Game.Control.ForfeitDays != 3 {
				t.Errorf("gameStart: %+v", e.Game)
			}
			break
		}
	}
}

// TestMaxStreams: with MaxStreams 2, a third stream (a game stream, an
// account stream or a WebSocket alike) is refused with 503 and a clear
// message; once one closes, a new one opens.
func TestMaxStreams(t *testing.T) {
	base := newTestServer(t, server.Config{})
	ts := httptest.NewServer(New(Config{Service: base.svc, MaxStreams: 2}))
	defer ts.Close()
	ann := base.account(t, "ann")
	bob := base.account(t, "bob")
	base.must(t, 200, "POST", "/api/account/pbm-challenges", bob, map[string]any{"variant": "nine-mens-morris", "acceptAll": true}, nil)
	annUser, err := base.svc.UserByName(context.Background(), "ann")
	if err != nil {
		t.Fatal(err)
	}
	g, err := base.svc.PbmChallenge(context.Background(), annUser, "bob", server.GameSpec{})
	if err != nil {
		t.Fatal(err)
	}
	open := func(path, token string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest("GET", ts.URL+path, nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	game := fmt.Sprintf("/api/game/%d/stream", g.ID)
	first, second := open(game, ""), open("/api/stream/event", ann)
	for _, r := range []*http.Response{first, second} {
		if r.StatusCode != 200 {
			t.Fatalf("the first two streams: %d", r.StatusCode)
		}
	}
	for _, path := range []string{game, "/api/stream/event", fmt.Sprintf("/api/game/%d/ws", g.ID)} {
		r := open(path, ann)
		body, _ := io.ReadAll(r.Body)
		r.Body.Close()
		if r.StatusCode != 503 || !strings.Contains(string(body), "holds 2 streams, its most") {
			t.Errorf("a third stream (%s): %d %s, want 503 and why", path, r.StatusCode, body)
		}
		if got := r.Header.Get("Retry-After"); got != "10" {
			t.Errorf("a third stream (%s): Retry-After %q, want 10", path, got)
		}
	}
	first.Body.Close()
	waitOpens(t, func() *http.Response { return open(game, "") })
	second.Body.Close()
}

// TestStreamsPerAddress: one client address holds
// server.Quotas.ConnsPerAddr streams and WebSockets at once; one more is
// answered 429 with a Retry-After and why, while another address still
// opens its own, and a place frees when a stream closes.
func TestStreamsPerAddress(t *testing.T) {
	base := newTestServer(t, server.Config{Quotas: server.Quotas{ConnsPerAddr: 2}})
	ts := httptest.NewServer(New(Config{Service: base.svc, TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}}))
	defer ts.Close()
	ann := base.account(t, "ann")
	base.account(t, "bob")
	annU, _ := base.svc.UserByName(context.Background(), "ann")
	bobU, _ := base.svc.UserByName(context.Background(), "bob")
	yes := true
	if _, err := base.svc.SetPbmPrefs(context.Background(), bobU, "nine-mens-morris", &yes, nil); err != nil {
		t.Fatal(err)
	}
	g, err := base.svc.PbmChallenge(context.Background(), annU, "bob", server.GameSpec{})
	if err != nil {
		t.Fatal(err)
	}
	open := func(path, token, from string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest("GET", ts.URL+path, nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		req.Header.Set("X-Forwarded-For", from)
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	const one, other = "198.51.100.7", "203.0.113.9"
	game := fmt.Sprintf("/api/game/%d/stream", g.ID)
	first, second := open(game, "", one), open("/api/stream/event", ann, one)
	for _, r := range []*http.Response{first, second} {
		if r.StatusCode != 200 {
			t.Fatalf("the first two streams: %d", r.StatusCode)
		}
	}
	for _, path := range []string{game, "/api/stream/event", fmt.Sprintf("/api/game/%d/ws", g.ID)} {
		r := open(path, ann, one)
		if r.StatusCode == 200 {
			r.Body.Close() // a stream: its body never ends
			t.Errorf("a third stream (%s): got 200, want 429", path)
			continue
		}
		body, _ := io.ReadAll(r.Body)
		r.Body.Close()
		if r.StatusCode != 429 || !strings.Contains(string(body), "this address holds 2 streams and connections, its most") {
			t.Errorf("a third stream (%s): got %d %s, want 429 and why", path, r.StatusCode, body)
		}
		if got := r.Header.Get("Retry-After"); got != "10" {
			t.Errorf("a third stream (%s): Retry-After %q, want 10", path, got)
		}
	}
	elsewhere := open(game, "", other)
	if elsewhere.StatusCode != 200 {
		t.Errorf("a stream from another address: got %d, want 200", elsewhere.StatusCode)
	}
	elsewhere.Body.Close()
	first.Body.Close()
	waitOpens(t, func() *http.Response { return open(game, "", one) })
	second.Body.Close()
}

// TestTokenNamesBounded: POST /api/token with a 16 KB random name, many
// times, is refused as bad input before anything is looked up or
// remembered: the limiters do not grow with the names.
func TestTokenNamesBounded(t *testing.T) {
	ts := newTestServer(t, server.Config{})
	for i := range 200 {
		name := fmt.Sprintf("%d%s", i, strings.Repeat("n", 16<<10-100))
		code, body := ts.do(t, "POST", "/api/token", "", map[string]string{"name": name, "password": "whatever"})
		if code != http.StatusBadRequest && code != http.StatusRequestEntityTooLarge {
			t.Fatalf("a %d-byte name: got %d %s, want 400", len(name), code, body)
		}
	}
	if n, _ := ts.svc.Limiters(); n > 1 {
		t.Fatalf("%d buckets after 200 bad names, want at most 1", n)
	}
}

// TestTokenEndpointLimited: POST /api/token is limited per address, wrong
// passwords and right ones alike, and the 429 says when to come back.
func TestTokenEndpointLimited(t *testing.T) {
	rates := servertest.Rates
	rates.Token, rates.TokenBurst = 1.0/60, 5
	ts := newTestServer(t, server.Config{Rates: rates})
	ts.must(t, http.StatusCreated, "POST", "/api/account", "", map[string]string{"name": "limited", "password": "password-1"}, nil)
	var resp *http.Response
	for i := range 6 {
		buf, _ := json.Marshal(map[string]string{"name": "limited", "password": "password-1"})
		r, err := ts.Client().Post(ts.URL+"/api/token", "application/json", bytes.NewReader(buf))
		if err != nil {
			t.Fatal(err)
		}
		r.Body.Close()
		if i < 5 && r.StatusCode != http.StatusOK {
			t.Fatalf("token %d: got %d, want 200", i+1, r.StatusCode)
		}
		resp = r
	}
	if resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("the 6th token request: got %d, want 429", resp.StatusCode)
	}
	if ra, _ := strconv.Atoi(resp.Header.Get("Retry-After")); ra < 30 {
		t.Fatalf("Retry-After %q, want the time to the next token (about 60 s)", resp.Header.Get("Retry-After"))
	}
}

// waitOpens opens a stream until it is let in (200), as a place freed by
// a stream that closed reaches the server a moment after the close.
func waitOpens(t *testing.T, open func() *http.Response) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		r := open()
		code := r.StatusCode
		r.Body.Close()
		if code == 200 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after one stream closed: still %d", code)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
