package pbmserv

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestHTTP(t *testing.T) {
	g := newGateway(t)
	srv := httptest.NewServer(g.HTTPHandler())
	defer srv.Close()

	post := func(body string) (int, http.Header, string) {
		t.Helper()
		resp, err := http.Post(srv.URL+"/pbm", "text/plain", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return resp.StatusCode, resp.Header, string(b)
	}

	for _, c := range []struct {
		name   string
		body   string
		status int
		want   []string // in this order
	}{
		{"several lines in order", "signup ann secret-ann\r\nsignup bob secret-bob\n\n  \nnmm accept bob secret-bob\nnmm challenge ann secret-ann bob\nnmm move 101 ann secret-ann D2#1",
			200, []string{"ok: signed up ann; start a game with: nmm challenge ann PASSWORD OPPONENT; to be challenged yourself: nmm accept ann PASSWORD\n.\n",
				"ok: signed up bob;", "\n.\n", "ok: bob takes challenges of nmm from anyone\n.\n", "ok: board 101 started", "\n.\n", "ok: board 101: move 1 D2 played by ann\n", "Move 2: Black (B) bob to move: place a piece\n.\n"}},
		{"a retry refused", "nmm move 101 ann secret-ann D2#1", 200, []string{"error: game 101 is at move 2, not move 1 (ply 1, not 0)\n.\n"}},
		{"show", "nmm show 101", 200, []string{"nmm board 101: nine-mens-morris\n", "Last move (#1): D2\nMove 2: Black (B) bob to move: place a piece\n.\n"}},
		{"subscribe needs a user", "nmm subscribe 101", 200, []string{"error: subscribe without USERID PASSWORD lasts as long as a connection"}},
		{"no command", "\n \r\n", 400, []string{"error: the body holds no command: try help\n.\n"}},
		{"too large", strings.Repeat("nmm history\n", MaxBody/12+10), 413, []string{"error: the body is larger than 64 KiB"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			status, h, got := post(c.body)
			if status != c.status {
				t.Errorf("status: got %d, want %d", status, c.status)
			}
			if ct := h.Get("Content-Type"); ct != "text/plain; charset=utf-8" {
				t.Errorf("Content-Type: got %q", ct)
			}
			rest := got
			for _, w := range c.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("got\n%s\nwant %q (after the strings before it)", got, w)
				}
				rest = rest[i+len(w):]
			}
		})
	}

	resp, err := http.Get(srv.URL + "/pbm")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != "POST" || !strings.HasPrefix(string(b), "error: send the command lines with POST") {
		t.Errorf("GET: got %d, Allow %q, %q", resp.StatusCode, resp.Header.Get("Allow"), b)
	}
}
