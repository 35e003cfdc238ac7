package httpapi

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/morrisgame/morris/internal/server"
	"github.com/morrisgame/morris/internal/server/servertest"
	"github.com/morrisgame/morris/internal/server/wire"
)

// leaks are words of Go's decoder, the drivers and the schema that must
// never reach a client.
var leaks = []string{"Go struct", "Go value", "unmarshal", "json: ", "gameBody", "int64", "sqlite", "SQLite", "SQL", "UNIQUE", "constraint", "store:", "chat.", "leak_", "database is closed"}

func checkNoLeak(t *testing.T, what, answer string) {
	t.Helper()
	for _, l := range leaks {
		if strings.Contains(answer, l) {
			t.Errorf("%s: the answer %q holds %q", what, answer, l)
		}
	}
}

// TestDecoderErrorsInOurWords: a body that is not what the endpoint
// takes is answered 400 with what is wrong in the API's words, never in
// Go's (struct names, Go types).
func TestDecoderErrorsInOurWords(t *testing.T) {
	ts := newTestServer(t, server.Config{})
	ann := ts.account(t, "ann")
	ts.account(t, "bob")
	for _, c := range []struct {
		path, body, want string
	}{
		{"/api/challenge/ai", `{"level": "5"}`, "level: a number is expected, not a string"},
		{"/api/challenge/ai", `{"level": 1.5}`, "level: a whole number is expected, not 1.5"},
		{"/api/challenge/ai", `{"level": 1e30}`, "level: 1e30 is out of range"},
		{"/api/challenge/bob", `{"clock": {"initialMs": "300000"}}`, "clock.initialMs: a number is expected, not a string"},
		{"/api/challenge/bob", `{"clock": 5}`, "clock: an object is expected, not a number"},
		{"/api/challenge/bob", `{"rated": "yes"}`, "rated: true or false is expected, not a string"},
		{"/api/challenge/bob", `{"rules": "nine-mens-morris"}`, "rules: a list is expected, not a string"},
		{"/api/challenge/bob", `{"rules": [5]}`, "rules: a string is expected, not a number"},
		{"/api/challenge/bob", `{"variant": 9}`, "variant: a string is expected, not a number"},
		{"/api/challenge/bob", `[1, 2]`, "the body: an object is expected, not a list"},
		{"/api/challenge/bob", `"hello"`, "the body: an object is expected, not a string"},
		{"/api/challenge/bob", `{"colour": "white"}`, `unknown field "colour"`},
		{"/api/challenge/bob", `{"color": "white"`, "the body ends before its JSON does"},
		{"/api/challenge/bob", `{"color": white}`, "the body is not valid JSON: invalid character 'w' looking for beginning of value (at byte 11)"},
		{"/api/challenge/bob", `{"color": "white"} {}`, "the body holds more than one JSON value"},
	} {
		code, body := ts.do(t, "POST", c.path, ann, c.body)
		var e wire.Error
		_ = json.Unmarshal(body, &e)
		if code != 400 || e.Error != c.want {
			t.Errorf("POST %s %s: got %d %q, want 400 %q", c.path, c.body, code, e.Error, c.want)
		}
		checkNoLeak(t, "POST "+c.path+" "+c.body, string(body))
	}
}

// TestStoreErrorsDoNotReachClients forces the store to fail in two ways,
// a constraint violation (a unique index the schema does not have, on
// the chat) and a closed database, and checks that the answers, over HTTP
// and the WebSocket, name no table, constraint or driver: a refusal in the
// service's words, or "internal error" with a request id that the log
// holds beside the detail.
func TestStoreErrorsDoNotReachClients(t *testing.T) {
	ctx := context.Background()
	s := servertest.Start(t, server.Config{KeepAlive: 200 * time.Millisecond}, servertest.LogLevel(slog.LevelInfo),
		servertest.HTTP(func(s *servertest.Server) http.Handler { return New(Config{Service: s.Service, Logger: s.Logger}) }))
	ts := &testServer{Server: s.HTTP, svc: s.Service, st: s.Store}
	path, st, logs := s.DSN, s.Store, s.Log

	ann, bob := ts.account(t, "ann"), ts.account(t, "bob")
	var c wire.Challenge
	ts.must(t, 201, "POST", "/api/challenge/bob", ann, map[string]any{"color": "white"}, &c)
	ts.must(t, 200, "POST", fmt.Sprintf("/api/challenge/%d/accept", c.ID), bob, nil, &c)
	chat := fmt.Sprintf("/api/game/%d/chat", c.Game)
	ts.must(t, 200, "POST", chat, ann, map[string]string{"text": "hello"}, nil)

	// A unique index on chat(game_id): the second line of a game breaks it.
	raw, err := sql.Open("sqlite", path+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.Exec(`DELETE FROM chat; CREATE UNIQUE INDEX leak_chat_game ON chat(game_id)`); err != nil {
		t.Fatal(err)
	}
	ts.must(t, 200, "POST", chat, ann, map[string]string{"text": "first"}, nil)
	code, body := ts.do(t, "POST", chat, ann, map[string]string{"text": "second"})
	if code < 400 {
		t.Fatalf("a chat line against the unique index: got %d %s, want a refusal", code, body)
	}
	checkNoLeak(t, "chat against a unique index (HTTP)", string(body))

	sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	ws := dialSocket(t, sctx, ts, c.Game, ann, -1)
	defer ws.c.CloseNow()
	a := ws.send(t, sctx, socketMessage{ID: 7, Type: "chat", Text: "third"})
	if a.Type != "error" {
		t.Fatalf("a chat line against the unique index (WebSocket): got %+v, want an error", a)
	}
	b, _ := json.Marshal(a)
	checkNoLeak(t, "chat against a unique index (WebSocket)", string(b))
	if err := ws.c.Write(sctx, websocket.MessageText, []byte(`{"id": "7", "type": "chat"}`)); err != nil {
		t.Fatal(err)
	}
	select {
	case a := <-ws.acks:
		b, _ := json.Marshal(a)
		if a.Type != "error" || a.Code != 400 || !strings.Contains(a.Error, "id: a number is expected") {
			t.Errorf("a socket message with a string id: got %s, want a 400 that says id is a number", b)
		}
		checkNoLeak(t, "a socket message with a string id", string(b))
	case <-sctx.Done():
		t.Fatal("no answer to a socket message with a string id")
	}

	// The database closed under the service: every answer is "internal
	// error" and a request id, and the log has the id and the detail.
	st.Close()
	code, body = ts.do(t, "GET", "/api/user/ann", "", nil)
	var e wire.Error
	if err := json.Unmarshal(body, &e); err != nil {
		t.Fatalf("GET /api/user/ann on a closed store: %d %s", code, body)
	}
	if code != 500 || !strings.HasPrefix(e.Error, "internal error") || e.Request == "" || !strings.Contains(e.Error, e.Request) {
		t.Errorf("GET /api/user/ann on a closed store: got %d %s, want 500, internal error and a request id", code, body)
	}
	checkNoLeak(t, "a closed store", string(body))
	if e.Request != "" && !strings.Contains(logs.String(), "request="+e.Request) || !strings.Contains(logs.String(), "database is closed") {
		t.Errorf("the log lacks the request id %q or the detail:\n%s", e.Request, logs.String())
	}
}

// TestRequestIDFromProxy: the request id of a failure is the one a
// trusted proxy sent (nginx's $request_id, so that both logs name the
// request alike); anyone else's, or one that is not a short word, is not
// believed and a new one is made.
func TestRequestIDFromProxy(t *testing.T) {
	a := &api{cfg: Config{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}}}
	for _, c := range []struct {
		peer, id string
		kept     bool
	}{
		{"127.0.0.1:4000", "0123456789abcdef0123456789abcdef", true},
		{"192.0.2.7:4000", "0123456789abcdef0123456789abcdef", false},
		{"127.0.0.1:4000", "abc def", false},
		{"127.0.0.1:4000", "abc\nlevel=ERROR", false},
		{"127.0.0.1:4000", strings.Repeat("a", 65), false},
		{"127.0.0.1:4000", "", false},
	} {
		r := httptest.NewRequest("GET", "/api/games", nil)
		r.RemoteAddr = c.peer
		if c.id != "" {
			r.Header.Set("X-Request-Id", c.id)
		}
		got := a.requestID(r)
		if (got == c.id) != c.kept || got == "" || !isWord(got) {
			t.Errorf("X-Request-Id %q from %s: got %q, want kept %v (and a word)", c.id, c.peer, got, c.kept)
		}
	}
}
