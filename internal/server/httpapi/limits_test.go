package httpapi

import (
	"context"
	"io"
	"net/http"
	"net/netip"
	"strings"
	"testing"

	"github.com/morrisgame/morris/internal/server"
	"github.com/morrisgame/morris/internal/server/pbmserv"
	"github.com/morrisgame/morris/internal/server/servertest"
)

// TestPBMBehindProxy: POST /pbm behind a trusted proxy limits each client
// by its own address (X-Forwarded-For), as the API does: one client's
// wrong passwords do not lock out another client of the same proxy. (It
// took the proxy's address, so every pbm client behind nginx shared one
// budget of failures.) IPv6 clients of one /64 share theirs.
func TestPBMBehindProxy(t *testing.T) {
	ctx := context.Background()
	s := servertest.Start(t, server.Config{Rates: server.Rates{LoginAddr: 1e-9, LoginAddrBurst: 3, Login: 1e-9, LoginBurst: 3}},
		servertest.HTTP(func(s *servertest.Server) http.Handler {
			return New(Config{Service: s.Service, PBM: pbmserv.New(s.Service, nil).HTTPHandler(),
				TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32"), netip.MustParsePrefix("::1/128")}})
		}))
	svc, ts := s.Service, s.HTTP
	if _, err := svc.SignUp(ctx, "setup", "carol", "password-carol", ""); err != nil {
		t.Fatal(err)
	}
	pbm := func(client, line string) string {
		t.Helper()
		req, _ := http.NewRequest("POST", ts.URL+"/pbm", strings.NewReader(line))
		req.Header.Set("X-Forwarded-For", client)
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	for i := range 5 {
		out := pbm("203.0.113.1", "nmm limit carol wrong-guess 3")
		if want := "wrong user id or password"; i < 3 && !strings.Contains(out, want) {
			t.Fatalf("guess %d: %q, want %q", i+1, out, want)
		}
		if want := "too many failed sign-ins"; i >= 3 && !strings.Contains(out, want) {
			t.Fatalf("guess %d: %q, want %q", i+1, out, want)
		}
	}
	if out := pbm("203.0.113.2", "nmm limit carol password-carol 3"); !strings.HasPrefix(out, "ok:") {
		t.Fatalf("another client behind the same proxy: %q, want ok", out)
	}
	// One /64 is one client.
	for range 3 {
		pbm("2001:db8:5:6::1", "nmm limit carol wrong-guess 3")
	}
	if out := pbm("2001:db8:5:6:ffff::2", "nmm limit carol password-carol 3"); !strings.Contains(out, "too many failed sign-ins") {
		t.Fatalf("another address of the same /64: %q, want it limited with the first", out)
	}
	if out := pbm("2001:db8:5:7::1", "nmm limit carol password-carol 3"); !strings.HasPrefix(out, "ok:") {
		t.Fatalf("another /64: %q, want ok", out)
	}
}
