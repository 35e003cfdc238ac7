package httpapi

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/morrisgame/morris/internal/server"
	"github.com/morrisgame/morris/internal/server/wire"
)

// streamEnds opens the account stream with tok and returns a channel
// closed when the stream ends.
func streamEnds(t *testing.T, ts *testServer, tok string) <-chan struct{} {
	t.Helper()
	req, _ := http.NewRequest("GET", ts.URL+"/api/stream/event", nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 {
		t.Fatalf("the account stream: got %d, want 200", resp.StatusCode)
	}
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
		}
	}()
	return ended
}

func wantEnded(t *testing.T, what string, ended <-chan struct{}) {
	t.Helper()
	select {
	case <-ended:
	case <-time.After(3 * time.Second):
		t.Errorf("%s goes on after its token was revoked", what)
	}
}

// TestAccountLifeCycle, over a real socket: a new password refuses the
// other session's token at once (it was just used, so cached) and ends
// its account stream and WebSocket; the caller's goes on; the old password
// is refused. Signing out everywhere refuses every token. Deleting the
// account refuses sign-in and its tokens, keeps its games under a neutral
// name, and frees nobody to sign up as it. Bad requests change nothing.
func TestAccountLifeCycle(t *testing.T) {
	ts := newTestServer(t, server.Config{})
	ctx := context.Background()
	mine := ts.account(t, "ann")
	bobTok := ts.account(t, "bob")
	var other tokenAnswer
	ts.must(t, 200, "POST", "/api/token", "", map[string]string{"name": "ann", "password": "secret-ann"}, &other)
	ts.must(t, 200, "GET", "/api/account", other.Token, nil, nil) // cached now
	ts.must(t, 200, "POST", "/api/account/pbm-challenges", bobTok, map[string]any{"variant": "nine-mens-morris", "acceptAll": true}, nil)
	annUser, err := ts.svc.UserByName(ctx, "ann")
	if err != nil {
		t.Fatal(err)
	}
	g, err := ts.svc.PbmChallenge(ctx, annUser, "bob", server.GameSpec{})
	if err != nil {
		t.Fatal(err)
	}
	stream := streamEnds(t, ts, other.Token)
	wsURL := fmt.Sprintf("ws%s/api/game/%d/ws", strings.TrimPrefix(ts.URL, "http"), g.ID)
	ws, _, err := websocket.Dial(ctx, wsURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.CloseNow()
	// Signed in by its first message, as the web client does.
	if err := ws.Write(ctx, websocket.MessageText, []byte(`{"id":1,"type":"auth","token":"`+other.Token+`"}`)); err != nil {
		t.Fatal(err)
	}
	for {
		_, msg, err := ws.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(msg), `"type":"error"`) {
			t.Fatalf("signing in on the socket: %s", msg)
		}
		if strings.Contains(string(msg), `"type":"ack"`) {
			break
		}
	}
	wsEnded := make(chan error, 1)
	go func() {
		for {
			if _, _, err := ws.Read(ctx); err != nil {
				wsEnded <- err
				return
			}
		}
	}()

	for _, c := range []struct {
		what, token string
		body        any
		want        int
	}{
		{"no token", "", map[string]string{"password": "secret-ann", "new": "new-secret"}, 401},
		{"a wrong password", mine, map[string]string{"password": "wrong-one", "new": "new-secret"}, 401},
		{"a short new password", mine, map[string]string{"password": "secret-ann", "new": "1234567"}, 400},
		{"a new password with a space", mine, map[string]string{"password": "secret-ann", "new": "new secret"}, 400},
		{"no new password", mine, map[string]string{"password": "secret-ann"}, 400},
		{"an unknown field", mine, `{"password": "secret-ann", "new": "new-secret", "user": "bob"}`, 400},
	} {
		if code, body := ts.do(t, "POST", "/api/account/password", c.token, c.body); code != c.want {
			t.Errorf("a new password with %s: got %d %s, want %d", c.what, code, body, c.want)
		}
	}
	ts.must(t, 200, "GET", "/api/account", other.Token, nil, nil) // nothing changed

	ts.must(t, 204, "POST", "/api/account/password", mine, map[string]string{"password": "secret-ann", "new": "new-secret"}, nil)
	if code, _ := ts.do(t, "GET", "/api/account", other.Token, nil); code != 401 {
		t.Errorf("the other session's token after a new password: got %d, want 401", code)
	}
	ts.must(t, 200, "GET", "/api/account", mine, nil, nil)
	if code, _ := ts.do(t, "POST", "/api/token", "", map[string]string{"name": "ann", "password": "secret-ann"}); code != 401 {
		t.Errorf("the old password: got %d, want 401", code)
	}
	wantEnded(t, "the other session's account stream", stream)
	select {
	case err := <-wsEnded:
		if websocket.CloseStatus(err) != websocket.StatusPolicyViolation {
			t.Errorf("the other session's WebSocket ended with %v, want the policy-violation close (signed out)", err)
		}
	case <-time.After(3 * time.Second):
		t.Error("the other session's WebSocket goes on after a new password")
	}

	// Signing out everywhere: the caller's token and a new one.
	var third tokenAnswer
	ts.must(t, 200, "POST", "/api/token", "", map[string]string{"name": "ann", "password": "new-secret"}, &third)
	if code, _ := ts.do(t, "POST", "/api/account/signout-all", "", nil); code != 401 {
		t.Errorf("signing out everywhere without a token: got %d, want 401", code)
	}
	var out struct{ Revoked int64 }
	ts.must(t, 200, "POST", "/api/account/signout-all", mine, nil, &out)
	if out.Revoked != 2 {
		t.Errorf("signing out everywhere: %d tokens revoked, want 2", out.Revoked)
	}
	for _, tok := range []string{mine, third.Token} {
		if code, _ := ts.do(t, "GET", "/api/account", tok, nil); code != 401 {
			t.Errorf("a token after signing out everywhere: got %d, want 401", code)
		}
	}

	// Deleting the account.
	var tok tokenAnswer
	ts.must(t, 200, "POST", "/api/token", "", map[string]string{"name": "ann", "password": "new-secret"}, &tok)
	for _, c := range []struct {
		what, token string
		body        any
		want        int
	}{
		{"no token", "", map[string]string{"password": "new-secret"}, 401},
		{"a wrong password", tok.Token, map[string]string{"password": "secret-ann"}, 401},
		{"no password", tok.Token, nil, 400},
		{"an unknown field", tok.Token, `{"password": "new-secret", "name": "bob"}`, 400},
	} {
		if code, body := ts.do(t, "DELETE", "/api/account", c.token, c.body); code != c.want {
			t.Errorf("deleting with %s: got %d %s, want %d", c.what, code, body, c.want)
		}
	}
	ts.must(t, 200, "GET", "/api/user/ann", "", nil, nil) // nothing changed
	var gone wire.Player
	ts.must(t, 200, "DELETE", "/api/account", tok.Token, map[string]string{"password": "new-secret"}, &gone)
	if gone.Name != fmt.Sprintf("deleted-%d", gone.ID) {
		t.Errorf("the deleted account: got %+v, want the name deleted-ID", gone)
	}
	for _, c := range []struct {
		method, path, token string
		body                any
		want                int
	}{
		{"GET", "/api/account", tok.Token, nil, 401},
		{"POST", "/api/token", "", map[string]string{"name": "ann", "password": "new-secret"}, 401},
		{"GET", "/api/user/ann", "", nil, 404},
		{"GET", "/api/user/" + gone.Name, "", nil, 404},
		{"POST", "/api/account", "", map[string]string{"name": "Ann", "password": "a-password"}, 409},
		{"POST", "/api/account", "", map[string]string{"name": gone.Name, "password": "a-password"}, 400},
	} {
		if code, body := ts.do(t, c.method, c.path, c.token, c.body); code != c.want {
			t.Errorf("after the deletion, %s %s: got %d %s, want %d", c.method, c.path, code, body, c.want)
		}
	}
	var full wire.GameFull
	ts.must(t, 200, "GET", fmt.Sprintf("/api/game/%d", g.ID), "", nil, &full)
	if full.White.Name != gone.Name || full.Black.Name != "bob" || full.State.Result != "0-1" || full.State.Method != "resignation" {
		b, _ := json.Marshal(full.State)
		t.Errorf("the game after the deletion: %s against %s, %s; want %s against bob, 0-1 by resignation", full.White.Name, full.Black.Name, b, gone.Name)
	}
}
