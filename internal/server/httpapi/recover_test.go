package httpapi

import (
	"bytes"
	"context"
	"fmt"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/morrisgame/morris/internal/server"
	"github.com/morrisgame/morris/internal/server/wire"
)

// TestSocketCommandPanics: a WebSocket command that panics is answered
// 500 with its id, and the socket and the process go on. (The socket's
// reader is a goroutine of its own, which net/http does not recover: the
// panic used to end the process.)
func TestSocketCommandPanics(t *testing.T) {
	base := newTestServer(t, server.Config{EngineWorkers: 1})
	ann := base.account(t, "ann")
	var g wire.GameSummary
	base.must(t, 201, "POST", "/api/challenge/ai", ann, map[string]any{"level": 1, "color": "white"}, &g)
	// The same service behind a handler whose commands may panic.
	ts := &testServer{Server: httptest.NewServer(New(Config{Service: base.svc, socketHook: func(data []byte) {
		if bytes.Contains(data, []byte("boom")) {
			panic("the command fell over")
		}
	}})), svc: base.svc, st: base.st}
	t.Cleanup(ts.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s := dialSocket(t, ctx, ts, g.ID, "", -1)
	for i, tc := range []struct {
		text string
		want socketAnswer
	}{
		{"boom", socketAnswer{Type: "error", ID: 1, Error: "internal error", Code: 500}},
		{"hello", socketAnswer{Type: "error", ID: 2, Error: `spectators only watch: sign in with {"type":"auth","token":TOKEN} as the socket's first message to play`, Code: 401}},
	} {
		got := s.send(t, ctx, socketMessage{ID: int64(i + 1), Type: "chat", Text: tc.text})
		if got != tc.want {
			t.Errorf("chat %q: got %+v, want %+v", tc.text, got, tc.want)
		}
	}
	// The process is up: the API answers.
	base.must(t, 200, "GET", fmt.Sprintf("/api/game/%d", g.ID), "", nil, nil)
}
