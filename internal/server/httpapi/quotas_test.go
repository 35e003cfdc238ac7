package httpapi

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/morrisgame/morris/internal/server"
	"github.com/morrisgame/morris/internal/server/servertest"
	"github.com/morrisgame/morris/internal/server/wire"
)

// post sends a JSON body and returns the status, the Retry-After and the body.
func (ts *testServer) post(t *testing.T, path, token, send string) (int, string, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", ts.URL+path, strings.NewReader(send))
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Retry-After"), string(body)
}

// TestQuotaAnswers: over HTTP the quotas are 429 (the caller's) or 503
// (the server's) with a Retry-After in seconds that says when to come
// back: the chat's second, the review rate's hour, the analysis queue's
// 3 s.
func TestQuotaAnswers(t *testing.T) {
	rates := servertest.Rates
	rates.Review, rates.ReviewBurst = 1.0/3600, 2
	ts := newTestServer(t, server.Config{Rates: rates, Quotas: server.Quotas{AnalysisQueue: 1}})
	ann := ts.account(t, "ann")
	ts.account(t, "bob")
	g, err := pbmGame(ts, "ann", "bob")
	if err != nil {
		t.Fatal(err)
	}
	chat := fmt.Sprintf("/api/game/%d/chat", g.ID)
	for i := range 10 {
		if code, _, body := ts.post(t, chat, ann, fmt.Sprintf(`{"text":"hello %d"}`, i)); code != 200 {
			t.Fatalf("chat %d: got %d %s", i+1, code, body)
		}
	}
	if code, retry, body := ts.post(t, chat, ann, `{"text":"one too many"}`); code != 429 || retry != "1" {
		t.Errorf("the 11th chat message at once: got %d, Retry-After %q (%s), want 429 and 1", code, retry, body)
	}

	review := `{"moves":["a1","d6"]}`
	for i := range 2 {
		if code, _, body := ts.post(t, "/api/review", "", review); code != 202 {
			t.Fatalf("review %d: got %d %s", i+1, code, body)
		}
	}
	if code, retry, body := ts.post(t, "/api/review", "", review); code != 429 || retry != "3600" {
		t.Errorf("a third review at once: got %d, Retry-After %q (%s), want 429 and 3600", code, retry, body)
	}

	// An analysis of 1.5 s, the queue's one: another is 503 at once.
	analysis := `{"movetimeMs":1500}`
	done := make(chan int, 1)
	go func() {
		code, _, _ := ts.post(t, "/api/analysis", "", analysis)
		done <- code
	}()
	time.Sleep(300 * time.Millisecond)
	start := time.Now()
	if code, retry, body := ts.post(t, "/api/analysis", "", analysis); code != 503 || retry != "3" {
		t.Errorf("an analysis with the queue full: got %d, Retry-After %q (%s), want 503 and 3", code, retry, body)
	}
	if waited := time.Since(start); waited > 500*time.Millisecond {
		t.Errorf("the full queue answered after %v, want at once", waited)
	}
	if code := <-done; code != 200 {
		t.Errorf("the analysis in the queue: got %d, want 200", code)
	}
}

// TestChatPages: GET /api/game/{id}/chat pages a game's chat back from the
// newest; bad pages are 400, an unknown game 404.
func TestChatPages(t *testing.T) {
	ts := newTestServer(t, server.Config{})
	ann := ts.account(t, "ann")
	ts.account(t, "bob")
	g, err := pbmGame(ts, "ann", "bob")
	if err != nil {
		t.Fatal(err)
	}
	for i := range 7 {
		ts.must(t, 200, "POST", fmt.Sprintf("/api/game/%d/chat", g.ID), ann, map[string]string{"text": fmt.Sprintf("m%d", i)}, nil)
	}
	var page wire.ChatPage
	ts.must(t, 200, "GET", fmt.Sprintf("/api/game/%d/chat?limit=3", g.ID), "", nil, &page)
	if len(page.Chat) != 3 || !page.More || page.Chat[0].Text != "m4" || page.Chat[2].Text != "m6" {
		t.Fatalf("the newest 3: got %+v, want m4..m6 and more", page)
	}
	var older wire.ChatPage
	ts.must(t, 200, "GET", fmt.Sprintf("/api/game/%d/chat?limit=3&before=%d", g.ID, page.Chat[0].Version), "", nil, &older)
	if len(older.Chat) != 3 || !older.More || older.Chat[0].Text != "m1" {
		t.Errorf("the 3 before: got %+v, want m1..m3 and more", older)
	}
	var all wire.ChatPage
	ts.must(t, 200, "GET", fmt.Sprintf("/api/game/%d/chat", g.ID), "", nil, &all)
	if len(all.Chat) != 7 || all.More {
		t.Errorf("the whole chat: got %d messages (more %v), want 7", len(all.Chat), all.More)
	}
	for _, q := range []string{"?limit=0", "?limit=201", "?limit=x", "?before=0", "?before=-3", "?before=x"} {
		if code, body := ts.do(t, "GET", fmt.Sprintf("/api/game/%d/chat%s", g.ID, q), "", nil); code != 400 {
			t.Errorf("%s: got %d %s, want 400", q, code, body)
		}
	}
	if code, body := ts.do(t, "GET", "/api/game/99999/chat", "", nil); code != 404 {
		t.Errorf("an unknown game: got %d %s, want 404", code, body)
	}
}
