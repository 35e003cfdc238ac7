package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/morrisgame/morris/internal/server"
	"github.com/morrisgame/morris/internal/server/wire"
)

// TestSocketTokenNotInURL: a game's WebSocket refuses a token in its URL
// (proxies log URLs) with a 400 that says where the token goes, before
// any upgrade; the player signs in with the first message instead.
func TestSocketTokenNotInURL(t *testing.T) {
	ts := newTestServer(t, server.Config{})
	ann, bob := ts.account(t, "ann"), ts.account(t, "bob")
	var c wire.Challenge
	ts.must(t, 201, "POST", "/api/challenge/bob", ann, map[string]any{"color": "white"}, &c)
	ts.must(t, 200, "POST", fmt.Sprintf("/api/challenge/%d/accept", c.ID), bob, nil, &c)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	base := fmt.Sprintf("ws%s/api/game/%d/ws", strings.TrimPrefix(ts.URL, "http"), c.Game)
	for _, q := range []string{"?token=" + ann, "?since=0&token=" + ann, "?token="} {
		ws, resp, err := websocket.Dial(ctx, base+q, nil)
		if err == nil {
			ws.CloseNow()
			t.Errorf("GET .../ws%s: the upgrade succeeded, want 400", strings.ReplaceAll(q, ann, "TOKEN"))
			continue
		}
		if resp == nil {
			t.Fatalf("GET .../ws%s: %v", q, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 400 || !strings.Contains(string(body), `{\"type\":\"auth\",\"token\":TOKEN} as the socket's first message`) {
			t.Errorf("GET .../ws%s: got %d %s, want 400 and where the token goes", strings.ReplaceAll(q, ann, "TOKEN"), resp.StatusCode, body)
		}
	}
}

// TestSocketSignIn: the first message {"type":"auth","token":T} makes a
// socket a player's; before it, and without it, the socket watches; a
// refused token is answered 401 and ends the socket; auth is the first
// message only; Authorization: Bearer on the upgrade still signs in
// clients that can send headers.
func TestSocketSignIn(t *testing.T) {
	ts := newTestServer(t, server.Config{})
	ann, bob := ts.account(t, "ann"), ts.account(t, "bob")
	var c wire.Challenge
	ts.must(t, 201, "POST", "/api/challenge/bob", ann, map[string]any{"color": "white"}, &c)
	ts.must(t, 200, "POST", fmt.Sprintf("/api/challenge/%d/accept", c.ID), bob, nil, &c)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	ply := func(n int) *int { return &n }

	t.Run("a spectator until signed in", func(t *testing.T) {
		s := dialSocket(t, ctx, ts, c.Game, "", -1)
		defer s.c.CloseNow()
		if a := s.send(t, ctx, socketMessage{ID: 1, Type: "move", Move: "d6", Ply: ply(0)}); a.Type != "error" || a.Code != 401 || !strings.Contains(a.Error, `sign in with {"type":"auth"`) {
			t.Errorf("a move before signing in: got %+v, want 401 and how to sign in", a)
		}
		if a := s.send(t, ctx, socketMessage{ID: 2, Type: "auth", Token: ann}); a.Type != "error" || a.Code != 400 || !strings.Contains(a.Error, "first message") {
			t.Errorf("auth as a second message: got %+v, want 400: the first message only", a)
		}
	})
	t.Run("a token refused ends the socket", func(t *testing.T) {
		s := dialSocket(t, ctx, ts, c.Game, "", -1)
		defer s.c.CloseNow()
		if a := s.send(t, ctx, socketMessage{ID: 1, Type: "auth", Token: "not-a-token"}); a.Type != "error" || a.Code != 401 || a.ID != 1 {
			t.Errorf("auth with a bad token: got %+v, want 401", a)
		}
		for range s.events { // the reader ends when the socket closes
		}
		if websocket.CloseStatus(s.end) != websocket.StatusPolicyViolation {
			t.Errorf("after a refused token: %v, want the socket closed with %d", s.end, websocket.StatusPolicyViolation)
		}
	})
	t.Run("signed in by the first message", func(t *testing.T) {
		s := dialSocket(t, ctx, ts, c.Game, ann, -1) // sends auth first
		defer s.c.CloseNow()
		if a := s.send(t, ctx, socketMessage{ID: 5, Type: "move", Move: "d6", Ply: ply(0)}); a.Type != "ack" || a.ID != 5 {
			t.Fatalf("ann's move after signing in: got %+v, want ack 5", a)
		}
		if a := s.send(t, ctx, socketMessage{ID: 6, Type: "auth", Token: ann}); a.Type != "error" || a.Code != 409 {
			t.Errorf("auth again: got %+v, want 409", a)
		}
	})
	t.Run("Authorization: Bearer on the upgrade", func(t *testing.T) {
		u := fmt.Sprintf("ws%s/api/game/%d/ws", strings.TrimPrefix(ts.URL, "http"), c.Game)
		ws, _, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer " + bob}}})
		if err != nil {
			t.Fatal(err)
		}
		defer ws.CloseNow()
		b, _ := json.Marshal(socketMessage{ID: 9, Type: "move", Move: "d5", Ply: ply(1)})
		if err := ws.Write(ctx, websocket.MessageText, b); err != nil {
			t.Fatal(err)
		}
		for {
			_, data, err := ws.Read(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var a socketAnswer
			if json.Unmarshal(data, &a) == nil && (a.Type == "ack" || a.Type == "error") {
				if a.Type != "ack" || a.ID != 9 {
					t.Errorf("bob's move with a bearer token: got %s, want ack 9", data)
				}
				break
			}
		}
		// Its token revoked: the socket is closed, as one signed in by
		// its first message is (TestAccountLifeCycle).
		ts.must(t, 204, "DELETE", "/api/token", bob, nil, nil)
		for {
			if _, _, err := ws.Read(ctx); err != nil {
				if websocket.CloseStatus(err) != websocket.StatusPolicyViolation {
					t.Errorf("bob's socket after his token was revoked: %v, want the policy-violation close", err)
				}
				break
			}
		}
	})
}

// TestSocketRevokedWhileWriting: a token revoked while a line is on its
// way to the socket still ends it with the policy-violation close, never a
// dropped connection. Keep-alives every 200 µs keep a write in flight at
// almost every moment; before the fix (the write's context was the one a
// revocation cancels, and coder/websocket drops the connection when a
// write's context ends) about one round in five ended in EOF.
func TestSocketRevokedWhileWriting(t *testing.T) {
	rates := server.DefaultRates // a hundred sign-ins of one account
	rates.TokenUserBurst, rates.TokenBurst, rates.CommandBurst = 200, 200, 1000
	ts := newTestServer(t, server.Config{KeepAlive: 200 * time.Microsecond, Rates: rates})
	ann, bob := ts.account(t, "ann"), ts.account(t, "bob")
	token := func() string { // another sign-in of bob's
		var tok tokenAnswer
		ts.must(t, 200, "POST", "/api/token", "", map[string]string{"name": "bob", "password": "secret-bob"}, &tok)
		return tok.Token
	}
	var c wire.Challenge
	ts.must(t, 201, "POST", "/api/challenge/bob", ann, map[string]any{"color": "white"}, &c)
	ts.must(t, 200, "POST", fmt.Sprintf("/api/challenge/%d/accept", c.ID), bob, nil, &c)
	u := fmt.Sprintf("ws%s/api/game/%d/ws", strings.TrimPrefix(ts.URL, "http"), c.Game)
	for round := range 100 {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		tok := token()
		ws, _, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer " + tok}}})
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := ws.Read(ctx); err != nil { // lines are flowing
			t.Fatal(err)
		}
		ts.must(t, 204, "DELETE", "/api/token", tok, nil, nil)
		for {
			if _, _, err := ws.Read(ctx); err != nil {
				if websocket.CloseStatus(err) != websocket.StatusPolicyViolation {
					t.Errorf("round %d: the socket after its token was revoked: %v, want the policy-violation close", round, err)
				}
				break
			}
		}
		ws.CloseNow()
		cancel()
	}
}
