package httpapi

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/morrisgame/morris/internal/server"
	"github.com/morrisgame/morris/internal/server/pbmserv"
	"github.com/morrisgame/morris/internal/server/wire"
)

// pbmGame starts a game as the pbmserv command does, white the challenger;
// black takes nine men's morris challenges from anyone first, as a player
// must have said for a pbm challenge to start a game.
func pbmGame(ts *testServer, white, black string) (server.Game, error) {
	ctx := context.Background()
	a, err := ts.svc.UserByName(ctx, white)
	if err != nil {
		return server.Game{}, err
	}
	b, err := ts.svc.UserByName(ctx, black)
	if err != nil {
		return server.Game{}, err
	}
	if err := ts.svc.SetFilter(ctx, b, "nine-mens-morris", nil, true); err != nil {
		return server.Game{}, err
	}
	return ts.svc.PbmChallenge(ctx, a, black, server.GameSpec{})
}

// TestPbmChallengePrefs: GET /api/account/pbm-challenges shows that a new
// player takes no pbm challenge in any game, and a pbm challenge to them
// (over POST /pbm, the challenger signed in) starts nothing; after POST
// with acceptAll they are challengeable in that game only, and after
// acceptAll false again they are not. Bad bodies are refused and change
// nothing.
func TestPbmChallengePrefs(t *testing.T) {
	base := newTestServer(t, server.Config{})
	ts := httptest.NewServer(New(Config{Service: base.svc, PBM: pbmserv.New(base.svc, nil).HTTPHandler()}))
	defer ts.Close()
	api := &testServer{Server: ts, svc: base.svc, st: base.st}
	bob := api.account(t, "bob")
	api.account(t, "ann")
	pbm := func(line string) string {
		t.Helper()
		resp, err := http.Post(ts.URL+"/pbm", "text/plain", strings.NewReader(line+"\n"))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	const nmm = "nine-mens-morris"
	var got struct{ Variants []wire.ChallengePrefs }
	api.must(t, 200, "GET", "/api/account/pbm-challenges", bob, nil, &got)
	if len(got.Variants) < 20 || got.Variants[0].Variant != nmm {
		t.Fatalf("GET: got %d variants, want every preset, nine men's morris first", len(got.Variants))
	}
	for _, p := range got.Variants {
		if p.AcceptAll || p.Limit != -1 || len(p.Allow) != 0 || len(p.Deny) != 0 {
			t.Errorf("a new player's prefs in %s: got %+v, want no one taken", p.Variant, p)
		}
	}
	challenge := "nmm challenge ann secret-ann bob --forfeittime=1"
	if a := pbm(challenge); !strings.Contains(a, "error: bob takes no challenges of nine-mens-morris by text command") {
		t.Errorf("%q before bob opts in: got %q", challenge, a)
	}

	for _, c := range []struct {
		name string
		body any
		want int
	}{
		{"no variant", map[string]any{"acceptAll": true}, 400},
		{"an unknown variant", map[string]any{"variant": "chess", "acceptAll": true}, 400},
		{"rule options", map[string]any{"variant": nmm + ",flying=never", "acceptAll": true}, 400},
		{"nothing to set", map[string]any{"variant": nmm}, 400},
		{"a limit too big", map[string]any{"variant": nmm, "limit": 1001}, 400},
		{"an unknown field", map[string]any{"variant": nmm, "acceptAll": true, "everyone": true}, 400},
		{"acceptAll not a bool", `{"variant": "nine-mens-morris", "acceptAll": "yes"}`, 400},
	} {
		if code, body := api.do(t, "POST", "/api/account/pbm-challenges", bob, c.body); code != c.want {
			t.Errorf("%s: got %d %s, want %d", c.name, code, body, c.want)
		}
	}
	if code, _ := api.do(t, "POST", "/api/account/pbm-challenges", "", map[string]any{"variant": nmm, "acceptAll": true}); code != 401 {
		t.Errorf("without a token: got %d, want 401", code)
	}
	if code, _ := api.do(t, "GET", "/api/account/pbm-challenges", "", nil); code != 401 {
		t.Errorf("GET without a token: got %d, want 401", code)
	}
	if a := pbm(challenge); !strings.Contains(a, "error: bob takes no challenges") {
		t.Errorf("%q after refused changes: got %q", challenge, a)
	}

	var p wire.ChallengePrefs
	api.must(t, 200, "POST", "/api/account/pbm-challenges", bob, map[string]any{"variant": nmm, "acceptAll": true}, &p)
	if want := (wire.ChallengePrefs{Variant: nmm, AcceptAll: true, Limit: -1, Allow: []string{}, Deny: []string{}}); !reflect.DeepEqual(p, want) {
		t.Errorf("POST acceptAll: got %+v, want %+v", p, want)
	}
	api.must(t, 200, "GET", "/api/account/pbm-challenges", bob, nil, &got)
	if !got.Variants[0].AcceptAll || got.Variants[1].AcceptAll {
		t.Errorf("GET after opting in to %s: got %+v, %+v", nmm, got.Variants[0], got.Variants[1])
	}
	if a := pbm(challenge); !strings.Contains(a, "ok: board 101 started: White ann, Black bob") {
		t.Errorf("%q after bob opts in: got %q", challenge, a)
	}
	if a := pbm("tmm challenge ann secret-ann bob"); !strings.Contains(a, "error: bob takes no challenges of twelve-mens-morris") {
		t.Errorf("a game bob did not opt in to: got %q", a)
	}
	if a := pbm("nmm challenge bob ann"); !strings.Contains(a, "error: nmm challenge: missing OPPONENT") {
		t.Errorf("the two-user form: got %q", a)
	}
	api.must(t, 200, "POST", "/api/account/pbm-challenges", bob, map[string]any{"variant": nmm, "acceptAll": false, "limit": 4}, &p)
	if p.AcceptAll || p.Limit != 4 {
		t.Errorf("POST acceptAll false, limit 4: got %+v", p)
	}
	if a := pbm(challenge); !strings.Contains(a, "error: bob does not take challenges from ann") {
		t.Errorf("%q after bob opts out: got %q", challenge, a)
	}
}
