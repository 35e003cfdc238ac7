package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/morrisgame/morris/internal/server/pbmserv/pbm"
	"github.com/morrisgame/morris/internal/server/wire"
	"github.com/morrisgame/morris/mill"
)

// e2eWait bounds every wait for an answer or an event: generous, since the
// server runs as a process of its own and under -race.
const e2eWait = 20 * time.Second

// e2eMaxPlies is where a random game is cut short by a resignation.
const e2eMaxPlies = 300

// TestEndToEndMixed plays a whole game of every preset against a real
// `morris serve` process, the two players sending their moves in turn
// through all three doors: the pbmserv TCP port (MOVE#N), the HTTP API
// (with the ply) and the game's WebSocket. Meanwhile an NDJSON stream, a
// WebSocket without a token and a pbmserv connection subscribed to the
// board watch, and another NDJSON stream drops in the middle and comes
// back with ?since=<its last version>: each must see every move in order
// and the end. A pbm move sent twice with #N and an HTTP move retried
// with its ply are refused. Under -short only three presets play.
func TestEndToEndMixed(t *testing.T) {
	pbmAddr := freeAddr(t)
	// The later -pbm-addr wins over the one startServer picks, so that
	// the test knows the port.
	p := startServer(t, "-data", filepath.Join(t.TempDir(), "data"), "-rate", "100000", "-pbm-addr", pbmAddr)
	defer checkServerLog(t, p)
	ctx := context.Background()

	// ann signs up over the pbmserv port, bob over the HTTP API.
	if got := dialPBM(t, pbmAddr).do("signup ann secret-ann"); !strings.HasPrefix(got, "ok: signed up ann") {
		t.Fatalf("signup over pbmserv: got %q, want %q", firstLineOf(got), "ok: signed up ann...")
	}
	if _, err := p.call(ctx, "POST", "/api/account", "", map[string]string{"name": "bob", "password": "secret-bob"}, nil); err != nil {
		t.Fatal(err)
	}
	tokens := map[mill.Color]string{}
	for c, name := range map[mill.Color]string{mill.White: "ann", mill.Black: "bob"} {
		var tok struct{ Token string }
		if _, err := p.call(ctx, "POST", "/api/token", "", map[string]string{"name": name, "password": "secret-" + name}, &tok); err != nil {
			t.Fatal(err)
		}
		tokens[c] = tok.Token
	}

	short := map[string]bool{"nine-mens-morris": true, "twelve-mens-morris": true, "shah": true}
	for i, v := range mill.Variants() {
		if testing.Short() && !short[v.ID] {
			continue
		}
		t.Run(v.ID, func(t *testing.T) {
			e2eGame(t, p, pbmAddr, tokens, i, v)
		})
	}
}

// e2eGame plays one game of preset v (the i-th) for TestEndToEndMixed.
func e2eGame(t *testing.T, p *serverProc, pbmAddr string, tokens map[mill.Color]string, i int, v mill.Variant) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	game := pbm.ShortName(v.ID)
	names := map[mill.Color]string{mill.White: "ann", mill.Black: "bob"}
	label := map[mill.Color]string{mill.White: "White (W) ann", mill.Black: "Black (B) bob"}

	// The players' own connections: one to the pbmserv port each, and a
	// WebSocket with a token each once the game exists.
	pbmOf := map[mill.Color]*pbmClient{mill.White: dialPBM(t, pbmAddr), mill.Black: dialPBM(t, pbmAddr)}
	// bob takes pbm challenges of the game (an opt-in), through the API.
	if _, err := p.call(ctx, "POST", "/api/account/pbm-challenges", tokens[mill.Black], map[string]any{"variant": v.ID, "acceptAll": true}, nil); err != nil {
		t.Fatal(err)
	}
	answer := pbmOf[mill.White].do(fmt.Sprintf("%s challenge ann secret-ann bob", game))
	m := regexp.MustCompile(`^ok: board (\d+) started: White ann, Black bob`).FindStringSubmatch(answer)
	if m == nil {
		t.Fatalf("%s challenge ann secret-ann bob: got\n%s\nwant \"ok: board N started: White ann, Black bob...\"", game, answer)
	}
	id, _ := strconv.ParseInt(m[1], 10, 64)
	base := fmt.Sprintf("/api/game/%d", id)

	var full wire.GameFull
	if _, err := p.call(ctx, "GET", base, "", nil, &full); err != nil {
		t.Fatal(err)
	}
	if full.Variant != v.ID || full.White.Name != "ann" || full.Black.Name != "bob" {
		t.Fatalf("GET %s: variant %q, white %q, black %q; want %q, ann, bob", base, full.Variant, full.White.Name, full.Black.Name, v.ID)
	}
	start, err := mill.ParsePosition(full.Start)
	if err != nil {
		t.Fatalf("the start position %q: %v", full.Start, err)
	}
	g := mill.NewGame(start.Rules(), mill.FromPosition(start))
	board := start.Rules().Board()

	sockOf := map[mill.Color]*wsClient{}
	for c, tok := range tokens {
		sockOf[c] = dialWS(t, ctx, p.addr, id, tok)
	}

	// The watchers: each has seen the gameFull before the first move.
	spectator := &streamWatch{name: "NDJSON spectator"}
	spectatorLines := openStream(t, ctx, p.addr, id, -1)
	spectator.mustNext(t, spectatorLines)
	sockWatch := &streamWatch{name: "WebSocket spectator"}
	sock := dialWS(t, ctx, p.addr, id, "")
	sockWatch.mustNext(t, sock.events)
	dctx, drop := context.WithCancel(ctx)
	defer drop()
	dropper := &streamWatch{name: "reconnecting NDJSON stream"}
	dropperLines := openStream(t, dctx, p.addr, id, -1)
	dropper.mustNext(t, dropperLines)
	subscriber := dialPBM(t, pbmAddr)
	if got := subscriber.do(fmt.Sprintf("%s subscribe %d", game, id)); !strings.HasPrefix(got, fmt.Sprintf("ok: this connection follows board %d", id)) {
		t.Fatalf("%s subscribe %d: got %q", game, id, firstLineOf(got))
	}
	dropAt := 10 + i // a different moment for each preset
	dropped := false
	dropNow := func() {
		// The stream has seen every move played so far, then goes.
		for len(dropper.moves) < len(g.Moves()) {
			dropper.mustNext(t, dropperLines)
		}
		drop()
		for range dropperLines {
		}
		dropped = true
	}

	rng := rand.New(rand.NewPCG(uint64(i), 0xe2e))
	var played, pushes []string // standard notation; the pbm subscriber's lines
	for g.Outcome() == mill.NoOutcome && len(played) < e2eMaxPlies {
		pos := g.Position()
		moves := pos.Moves(nil)
		mv := moves[rng.IntN(len(moves))]
		ply, side := len(played), pos.SideToMove()
		text, pbmText := pos.MoveText(mv), board.MoveText(mv, mill.Pbm)
		switch door := (ply + i) % 3; door {
		case 0: // pbmserv, with #N: a second time it is refused
			line := fmt.Sprintf("%s move %d %s secret-%s %s#%d", game, id, names[side], names[side], pbmText, ply+1)
			want := fmt.Sprintf("ok: board %d: move %d %s played by %s\n", id, ply+1, pbmText, names[side])
			if got := pbmOf[side].do(line); !strings.HasPrefix(got, want) {
				t.Fatalf("ply %d over pbmserv, %q: got\n%s\nwant it to start %q\nafter %v", ply, line, got, want, played)
			}
			// Refused for its number (or, after the last move, for the end).
			if got := pbmOf[side].do(line); !strings.HasPrefix(got, "error: ") ||
				!strings.Contains(got, fmt.Sprintf("at move %d,", ply+2)) && !strings.Contains(got, "is over") {
				t.Fatalf("ply %d over pbmserv, %q sent again: got\n%s\nwant an error: at move %d, or over", ply, line, got, ply+2)
			}
		case 1: // HTTP, with the ply: a retry is a conflict
			var a struct {
				Ply  int
				Move string
			}
			body := map[string]any{"move": text, "ply": ply}
			if _, err := p.call(ctx, "POST", base+"/move", tokens[side], body, &a); err != nil {
				t.Fatalf("ply %d over HTTP, %s by %s: %v\nafter %v", ply, text, names[side], err, played)
			}
			if a.Ply != ply || a.Move != text {
				t.Fatalf("ply %d over HTTP, %s: got the answer ply %d move %q, want ply %d move %q", ply, text, a.Ply, a.Move, ply, text)
			}
			if code, err := p.call(ctx, "POST", base+"/move", tokens[side], body, nil); code != http.StatusConflict {
				t.Fatalf("ply %d over HTTP, %s retried: got %d (%v), want 409", ply, text, code, err)
			}
		case 2: // the player's WebSocket
			if a := sockOf[side].send(t, ctx, wsMessage{ID: int64(ply), Type: "move", Move: text, Ply: &ply}); a.Type != "ack" || a.ID != int64(ply) {
				t.Fatalf("ply %d over the WebSocket, %s by %s: got %+v, want an ack of id %d\nafter %v", ply, text, names[side], a, ply, played)
			}
		}
		if err := g.Play(mv); err != nil {
			t.Fatalf("ply %d: the local game refuses %s: %v", ply, text, err)
		}
		played = append(played, text)
		pushes = append(pushes, fmt.Sprintf("* %s board %d: move %d, %s: %s", game, id, ply+1, label[side], pbmText))
		if len(played) == dropAt {
			dropNow()
		}
	}
	resigned := g.Outcome() == mill.NoOutcome
	if resigned {
		// A long game: the side to move resigns, through a door of its own.
		side := g.Position().SideToMove()
		switch door := i % 3; door {
		case 0:
			line := fmt.Sprintf("%s move %d %s secret-%s resign", game, id, names[side], names[side])
			if got := pbmOf[side].do(line); !strings.HasPrefix(got, "ok: ") {
				t.Fatalf("%q: got %q", line, firstLineOf(got))
			}
		case 1:
			if _, err := p.call(ctx, "POST", base+"/resign", tokens[side], nil, nil); err != nil {
				t.Fatal(err)
			}
		case 2:
			if a := sockOf[side].send(t, ctx, wsMessage{ID: -1, Type: "resign"}); a.Type != "ack" {
				t.Fatalf("resign over the WebSocket: got %+v, want an ack", a)
			}
		}
	}
	if !dropped {
		dropNow()
	}

	var after wire.GameFull
	if _, err := p.call(ctx, "GET", base, "", nil, &after); err != nil {
		t.Fatal(err)
	}
	st := after.State
	if st.Status != "finished" {
		t.Errorf("GET %s after the end: status %q, want finished", base, st.Status)
	}
	if d := diffLines(st.Moves, played); d != "" {
		t.Errorf("GET %s after the end: the moves %s", base, d)
	}
	if !resigned && (st.Result != g.Outcome().String() || st.Method != g.Method().String()) {
		t.Errorf("GET %s after the end: result %s by %s, want %s by %s", base, st.Result, st.Method, g.Outcome(), g.Method())
	}
	if resigned && st.Method != "resignation" {
		t.Errorf("GET %s after a resignation: result %s by %s, want by resignation", base, st.Result, st.Method)
	}
	t.Logf("board %d: %d plies, %s by %s", id, len(played), st.Result, st.Method)

	// Every watcher saw every move in order, and the end.
	for !spectator.over {
		spectator.mustNext(t, spectatorLines)
	}
	for !sockWatch.over {
		sockWatch.mustNext(t, sock.events)
	}
	resumed := openStream(t, ctx, p.addr, id, dropper.version)
	for !dropper.over {
		dropper.mustNext(t, resumed)
	}
	for _, w := range []*streamWatch{spectator, sockWatch, dropper} {
		if d := diffLines(w.moves, played); d != "" {
			t.Errorf("the %s saw the moves %s", w.name, d)
		}
	}
	pushes = append(pushes, fmt.Sprintf("* %s board %d: game over: %s", game, id, resultWords(st.Result, st.Method)))
	var pushed []string
	for len(pushed) < len(pushes) {
		line, ok := subscriber.push()
		if !ok {
			break
		}
		pushed = append(pushed, line)
		if strings.Contains(line, ": game over: ") {
			break
		}
	}
	if d := diffLines(pushed, pushes); d != "" {
		t.Errorf("the pbmserv subscriber was pushed %s", d)
	}

	// The record and the board say it is over.
	code, rec, err := p.get(ctx, base+"/export")
	if want := fmt.Sprintf("[Variant %q]", v.ID); err != nil || code != 200 || !strings.Contains(rec, want) {
		t.Errorf("GET %s/export: %d %v\n%s\nwant 200 with %s", base, code, err, rec, want)
	}
	show := subscriber.do(fmt.Sprintf("%s show %d", game, id))
	if want := "Game over: " + resultWords(st.Result, st.Method); !strings.Contains(show, want) {
		t.Errorf("%s show %d: got\n%s\nwant %q", game, id, show, want)
	}
}

// checkServerLog fails the test when the server logged an error, a panic
// or (built with -race, as the test binary is) a data race: the process
// is killed at the end, so nothing else would tell.
func checkServerLog(t *testing.T, p *serverProc) {
	t.Helper()
	w := p.cmd.Stderr.(*syncWriter)
	w.mu.Lock()
	log := p.stderr.String()
	w.mu.Unlock()
	for _, bad := range []string{"WARNING: DATA RACE", "panic", "level=ERROR"} {
		if strings.Contains(log, bad) {
			t.Errorf("the server's log holds %q:\n%s", bad, log)
			return
		}
	}
	if t.Failed() && log != "" {
		t.Logf("the server's log:\n%s", log)
	}
}

// resultWords says how a game ended as the pbmserv gateway does.
func resultWords(result, method string) string {
	switch result {
	case "1-0":
		return fmt.Sprintf("White (W) ann wins (1-0) by %s", method)
	case "0-1":
		return fmt.Sprintf("Black (B) bob wins (0-1) by %s", method)
	}
	return fmt.Sprintf("a draw (%s) by %s", result, method)
}

// diffLines is "" when got equals want, and otherwise says where they
// part, with what came before.
func diffLines(got, want []string) string {
	n := 0
	for n < len(got) && n < len(want) && got[n] == want[n] {
		n++
	}
	if n == len(got) && n == len(want) {
		return ""
	}
	at := func(s []string) string {
		if n < len(s) {
			return fmt.Sprintf("%q", s[n])
		}
		return "nothing"
	}
	from := max(0, n-3)
	return fmt.Sprintf("%d long, want %d; at %d got %s, want %s (before it: %q)\n got: %q\nwant: %q",
		len(got), len(want), n, at(got), at(want), want[from:n], got, want)
}

func firstLineOf(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// get fetches a path and returns the status and the body as text.
func (p *serverProc) get(ctx context.Context, path string) (int, string, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", "http://"+p.addr+path, nil)
	if err != nil {
		return 0, "", err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	var b bytes.Buffer
	_, err = b.ReadFrom(resp.Body)
	return resp.StatusCode, b.String(), err
}

// pbmClient is a connection to the pbmserv port: it sends command lines
// and reads their answers (up to the dot line); the lines pushed between
// answers ("* ...") go to pushes.
type pbmClient struct {
	t       testing.TB
	c       net.Conn
	answers chan string
	pushes  chan string
	closed  chan struct{}
}

func dialPBM(t testing.TB, addr string) *pbmClient {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	r := bufio.NewReader(c)
	_ = c.SetReadDeadline(time.Now().Add(e2eWait))
	if greeting, err := r.ReadString('\n'); err != nil || !strings.HasPrefix(greeting, "morris pbmserv gateway") {
		t.Fatalf("the pbmserv greeting: got %q, %v", greeting, err)
	}
	_ = c.SetReadDeadline(time.Time{})
	cl := &pbmClient{t: t, c: c, answers: make(chan string, 16), pushes: make(chan string, 4096), closed: make(chan struct{})}
	go func() {
		defer close(cl.closed)
		var answer strings.Builder
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			switch {
			case answer.Len() == 0 && strings.HasPrefix(line, "* "):
				cl.pushes <- strings.TrimSuffix(line, "\n")
			case line == ".\n":
				cl.answers <- answer.String()
				answer.Reset()
			default:
				answer.WriteString(strings.TrimPrefix(line, ".")) // dot-stuffing undone
			}
		}
	}()
	return cl
}

// do sends a line and returns its answer.
func (cl *pbmClient) do(line string) string {
	cl.t.Helper()
	if _, err := cl.c.Write([]byte(line + "\r\n")); err != nil {
		cl.t.Fatalf("pbmserv %q: %v", line, err)
	}
	select {
	case a := <-cl.answers:
		return a
	case <-cl.closed:
		cl.t.Fatalf("pbmserv %q: the connection closed", line)
	case <-time.After(e2eWait):
		cl.t.Fatalf("pbmserv %q: no answer in %s", line, e2eWait)
	}
	return ""
}

// push returns the next pushed line, or false when none comes in time.
func (cl *pbmClient) push() (string, bool) {
	select {
	case line := <-cl.pushes:
		return line, true
	case <-time.After(e2eWait):
		return "", false
	}
}

// openStream opens GET /api/game/{id}/stream[?since=V] and returns its
// lines; the channel closes when the stream ends.
func openStream(t testing.TB, ctx context.Context, addr string, id, since int64) <-chan []byte {
	t.Helper()
	url := fmt.Sprintf("http://%s/api/game/%d/stream", addr, id)
	if since >= 0 {
		url += fmt.Sprintf("?since=%d", since)
	}
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 {
		resp.Body.Close()
		t.Fatalf("GET %s: %d", url, resp.StatusCode)
	}
	c := make(chan []byte, 4096)
	go func() {
		defer resp.Body.Close()
		defer close(c)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			if len(bytes.TrimSpace(sc.Bytes())) > 0 { // not a keep-alive
				c <- append([]byte(nil), sc.Bytes()...)
			}
		}
	}()
	return c
}

// wsMessage and wsAnswer are internal/server/httpapi's socketMessage and
// socketAnswer as a client writes and reads them.
type wsMessage struct {
	ID    int64  `json:"id"`
	Type  string `json:"type"`
	Token string `json:"token,omitempty"`
	Move  string `json:"move,omitempty"`
	Ply   *int   `json:"ply,omitempty"`
}

type wsAnswer struct {
	Type  string `json:"type"`
	ID    int64  `json:"id"`
	Error string `json:"error"`
	Code  int    `json:"code"`
}

// wsClient is a game's WebSocket: the game's lines go to events, the
// answers to what it sent to answers.
type wsClient struct {
	c       *websocket.Conn
	events  chan []byte
	answers chan wsAnswer
}

func dialWS(t testing.TB, ctx context.Context, addr string, id int64, token string) *wsClient {
	t.Helper()
	url := fmt.Sprintf("ws://%s/api/game/%d/ws", addr, id)
	c, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		t.Fatalf("WebSocket %s: %v", url, err)
	}
	c.SetReadLimit(1 << 20)
	t.Cleanup(func() { c.CloseNow() })
	w := &wsClient{c: c, events: make(chan []byte, 4096), answers: make(chan wsAnswer, 16)}
	go func() {
		defer close(w.events)
		for {
			_, data, err := c.Read(ctx)
			if err != nil {
				return
			}
			var a wsAnswer
			_ = json.Unmarshal(data, &a)
			switch a.Type {
			case "ack", "error":
				w.answers <- a
			case "keepAlive":
			default:
				select {
				case w.events <- data:
				default: // a player's socket whose events nobody reads
				}
			}
		}
	}()
	if token != "" {
		// The token goes in the first message, as the web client sends it.
		if a := w.send(t, ctx, wsMessage{Type: "auth", Token: token}); a.Type != "ack" {
			t.Fatalf("WebSocket %s: signing in: %+v", url, a)
		}
	}
	return w
}

func (w *wsClient) send(t testing.TB, ctx context.Context, m wsMessage) wsAnswer {
	t.Helper()
	b, _ := json.Marshal(m)
	if err := w.c.Write(ctx, websocket.MessageText, b); err != nil {
		t.Fatalf("WebSocket %s: %v", b, err)
	}
	select {
	case a := <-w.answers:
		return a
	case <-time.After(e2eWait):
		t.Fatalf("WebSocket %s: no answer in %s", b, e2eWait)
	}
	return wsAnswer{}
}

// streamWatch follows a game's lines (NDJSON or WebSocket): the moves in
// order, the version, whether the game is over.
type streamWatch struct {
	name    string
	moves   []string
	version int64
	over    bool
}

// mustNext reads and applies the next line of c.
func (w *streamWatch) mustNext(t testing.TB, c <-chan []byte) {
	t.Helper()
	select {
	case line, ok := <-c:
		if !ok {
			t.Fatalf("the %s ended after %d moves at version %d (over: %v)", w.name, len(w.moves), w.version, w.over)
		}
		if err := w.apply(line); err != nil {
			t.Fatalf("the %s: %v\nthe line: %s\nthe moves seen: %q", w.name, err, line, w.moves)
		}
	case <-time.After(e2eWait):
		t.Fatalf("the %s: nothing in %s after %d moves at version %d", w.name, e2eWait, len(w.moves), w.version)
	}
}

func (w *streamWatch) apply(line []byte) error {
	var e struct {
		Type    string
		Version int64
		Ply     int
		Move    string
		Status  string
		Moves   []string
		State   *wire.GameState
	}
	if err := json.Unmarshal(line, &e); err != nil {
		return err
	}
	switch e.Type {
	case "gameFull":
		if e.State == nil {
			return fmt.Errorf("a gameFull without a state")
		}
		w.moves, w.version, w.over = e.State.Moves, e.State.Version, e.State.Status == "finished"
		return nil
	case "gameState":
		w.moves, w.over = e.Moves, e.Status == "finished"
	case "move":
		if e.Ply != len(w.moves) {
			return fmt.Errorf("a move event at ply %d after %d moves", e.Ply, len(w.moves))
		}
		w.moves, w.over = append(w.moves, e.Move), e.Status == "finished"
	case "chat":
	default:
		return fmt.Errorf("an event of type %q", e.Type)
	}
	if e.Version <= w.version {
		return fmt.Errorf("%s at version %d after version %d", e.Type, e.Version, w.version)
	}
	w.version = e.Version
	return nil
}
