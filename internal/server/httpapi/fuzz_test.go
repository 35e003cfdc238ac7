package httpapi

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/morrisgame/morris/internal/server"
	"github.com/morrisgame/morris/internal/server/wire"
)

// fuzzServer is one server for every input of a fuzz run (in each fuzzing
// process): the handler is called directly, on a real service and store.
type fuzzServer struct {
	ts   *testServer
	h    http.Handler
	ann  string
	game int64
	club int64 // ann's, closed, bob asking to join
	tour int64 // ann's Swiss, upcoming, bob in it
}

// FuzzBodies sends arbitrary bodies to every endpoint that reads one (but
// the engine's analysis, which would search for each input). No
// input may panic or get a 5xx, and a body refused (4xx) must change
// nothing: the game's version, the challenge, ann's club, ann's
// tournament and whom she follows stay as they were. (A moderator's
// endpoint, called by a player, is 403 whatever the body.)
func FuzzBodies(f *testing.F) {
	for _, s := range []string{
		`{}`, ``, `null`, `[]`, `{"name":"zed","password":"abcdefgh"}`, `{"move":"d6","ply":0}`, `{"move":"d6","ply":-1}`,
		`{"move":"d6","ply":99999999999}`, `{"variant":"lasker","rules":["flying=never"],"color":"black"}`,
		`{"clock":{"initialMs":60000,"incrementMs":1000}}`, `{"days":3}`, `{"level":7}`, `{"text":"hi"}`,
		`{"kind":"end"}`, `{"days":0.5}`, `{"user":"bob","reason":"abuse"}`, `{"game":101,"version":1,"reason":"spam","text":"x"}`, `{"user":"bob"}`,
		`{"text":"be nice","report":1}`, `{"variant":"nine-mens-morris","acceptAll":true,"limit":3}`, `{"variant":"x","limit":-2}`, `{"rules":["x"]}`, "{\"text\":\"\x00\"}", `{"move":"d6"}{"move":"d5"}`,
		strings.Repeat(`{"a":`, 1000), `{"name":"` + strings.Repeat("x", 20000) + `"}`,
		`{"name":"Mill Club","description":"x","open":true}`, `{"name":"Mill\u202eClub"}`, `{"user":"bob"}`,
		`{"user":"bob","decline":true}`, `{"user":"bob","leader":true}`, `{"user":"ann","leader":false}`, `{"user":"bob","leader":"yes"}`,
		`{"name":"Cup","kind":"swiss","rounds":3,"clock":{"initialMs":60000}}`, `{"name":"Cup","kind":"arena","durationMs":3600000,"clock":{"initialMs":60000}}`,
		`{"name":"Cup","kind":"correspondence","days":3,"cycles":2,"engineLevel":3}`, `{"name":"Cup","kind":"roundrobin","days":3,"maxPlayers":-1}`,
		`{"name":"Cup","kind":"swiss","rounds":3,"days":3,"startsMs":9223372036854775807}`, `{"name":"Cup","kind":"arena","durationMs":-1}`,
		`{"rules":"russian-mill","moves":["a1","a4"]}`, `{"rules":"six-mens-morris","moves":["a1"]}`,
		`{"position":"MFEN/1.0 mill24-state-v1 ....WWW./....BBB./........ w m m 0,0 - 3 20 - ul=0004,0000","rules":"russian-mill"}`,
		`{"text":"[Variant \"nine-mens-morris\"]\n\n1. a1 d1 *"}`,
	} {
		for ep := range 36 {
			f.Add(uint8(ep), s)
		}
	}
	ts := newTestServer(f, server.Config{})
	fs := &fuzzServer{ts: ts, h: ts.Config.Handler, ann: ts.account(f, "ann")}
	bob := ts.account(f, "bob")
	var c wire.Challenge
	ts.must(f, 201, "POST", "/api/challenge/bob", fs.ann, map[string]any{"color": "white"}, &c)
	ts.must(f, 200, "POST", fmt.Sprintf("/api/challenge/%d/accept", c.ID), bob, nil, &c)
	fs.game = c.Game
	var club wire.ClubFull
	ts.must(f, 201, "POST", "/api/club", fs.ann, map[string]any{"name": "Fuzz Club"}, &club)
	ts.must(f, 200, "POST", fmt.Sprintf("/api/club/%d/join", club.ID), bob, nil, nil)
	fs.club = club.ID
	var tour wire.TournamentFull
	ts.must(f, 201, "POST", "/api/tournament", fs.ann, map[string]any{"name": "Fuzz Cup", "kind": "swiss", "rounds": 3, "days": 3}, &tour)
	ts.must(f, 200, "POST", fmt.Sprintf("/api/tournament/%d/join", tour.ID), bob, nil, nil)
	fs.tour = tour.ID
	tourState := func(t *testing.T) string {
		req := httptest.NewRequest("GET", fmt.Sprintf("/api/tournament/%d", fs.tour), nil)
		rec := httptest.NewRecorder()
		fs.h.ServeHTTP(rec, req)
		return rec.Body.String()
	}
	clubState := func(t *testing.T) string {
		req := httptest.NewRequest("GET", fmt.Sprintf("/api/club/%d", fs.club), nil)
		req.Header.Set("Authorization", "Bearer "+fs.ann)
		rec := httptest.NewRecorder()
		fs.h.ServeHTTP(rec, req)
		return rec.Body.String()
	}
	followState := func(t *testing.T) string {
		req := httptest.NewRequest("GET", "/api/account/following", nil)
		req.Header.Set("Authorization", "Bearer "+fs.ann)
		rec := httptest.NewRecorder()
		fs.h.ServeHTTP(rec, req)
		return followsWithoutPresence(t, rec.Body.Bytes())
	}
	f.Fuzz(func(t *testing.T, ep uint8, body string) {
		paths := []string{
			"/api/account", "/api/token", "/api/challenge/bob", "/api/seek", "/api/challenge/ai",
			fmt.Sprintf("/api/game/%d/move", fs.game), fmt.Sprintf("/api/game/%d/chat", fs.game),
			fmt.Sprintf("/api/game/%d/follow", fs.game), "/api/account/vacation", fmt.Sprintf("/api/game/%d/draw/offer", fs.game),
			"/api/account/pbm-challenges", "/api/report", "/api/account/blocks", "/api/mod/user/bob/warn",
			"/api/club", fmt.Sprintf("/api/club/%d/accept", fs.club),
			fmt.Sprintf("/api/club/%d/remove", fs.club), fmt.Sprintf("/api/club/%d/leader", fs.club), fmt.Sprintf("/api/club/%d/edit", fs.club),
			"/api/account/following",
			"/api/tournament", fmt.Sprintf("/api/tournament/%d/join", fs.tour), fmt.Sprintf("/api/tournament/%d/withdraw", fs.tour),
			fmt.Sprintf("/api/tournament/%d/start", fs.tour), fmt.Sprintf("/api/tournament/%d/pair", fs.tour),
			fmt.Sprintf("/api/tournament/%d/bye", fs.tour), fmt.Sprintf("/api/tournament/%d/unbye", fs.tour),
			"/api/position", "/api/position/mif", "/api/records",
		}
		path := paths[int(ep)%len(paths)]
		before, err := fs.ts.svc.Game(t.Context(), fs.game)
		if err != nil {
			t.Fatal(err)
		}
		clubBefore := clubState(t)
		followsBefore := followState(t)
		tourBefore := tourState(t)
		req := httptest.NewRequest("POST", path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+fs.ann)
		rec := httptest.NewRecorder()
		fs.h.ServeHTTP(rec, req)
		if rec.Code >= 500 {
			t.Fatalf("POST %s %q: %d %s", path, body, rec.Code, rec.Body)
		}
		if rec.Code >= 400 {
			after, err := fs.ts.svc.Game(t.Context(), fs.game)
			if err != nil {
				t.Fatal(err)
			}
			if after.State.Version != before.State.Version {
				t.Fatalf("POST %s %q refused with %d but the game moved from version %d to %d",
					path, body, rec.Code, before.State.Version, after.State.Version)
			}
			if clubAfter := clubState(t); clubAfter != clubBefore {
				t.Fatalf("POST %s %q refused with %d but the club changed from %s to %s", path, body, rec.Code, clubBefore, clubAfter)
			}
			if followsAfter := followState(t); followsAfter != followsBefore {
				t.Fatalf("POST %s %q refused with %d but ann's follows changed from %s to %s", path, body, rec.Code, followsBefore, followsAfter)
			}
			if tourAfter := tourState(t); tourAfter != tourBefore {
				t.Fatalf("POST %s %q refused with %d but the tournament changed from %s to %s", path, body, rec.Code, tourBefore, tourAfter)
			}
		}
	})
}
