package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/morrisgame/morris/internal/server"
	"github.com/morrisgame/morris/internal/server/store"
	"github.com/morrisgame/morris/internal/server/store/storetest"
	"github.com/morrisgame/morris/internal/server/wire"
)

func TestCommunity(t *testing.T) { storetest.Each(t, testCommunity) }

// testCommunity: follows, who is online, the followed games on the
// account stream, a player's profile, the leaderboard, the archive and a
// player's statistics over real sockets, on each database. Follows need a
// token and a valid body; every refusal says why and changes nothing.
func testCommunity(t *testing.T, dsn string) {
	ts := newTestServerOn(t, dsn, server.Config{PresenceEvery: 20 * time.Millisecond})
	ann, bob, cy := ts.account(t, "ann"), ts.account(t, "bob"), ts.account(t, "cy")

	// following is whom ann follows and since when, without whether they
	// are online: that follows the clock (a player's presence is written
	// every few seconds), not the call refused.
	following := func() string {
		t.Helper()
		code, data := ts.do(t, "GET", "/api/account/following", ann, nil)
		if code != 200 {
			t.Fatalf("GET following: %d %s", code, data)
		}
		return followsWithoutPresence(t, data)
	}
	refused := func(what string, want int, method, path, token string, body any) string {
		t.Helper()
		before := following()
		code, data := ts.do(t, method, path, token, body)
		if code != want {
			t.Errorf("%s: got %d %s, want %d", what, code, data, want)
		}
		if after := following(); after != before {
			t.Errorf("%s: refused, but ann's follows changed from %s to %s", what, before, after)
		}
		var e wire.Error
		if err := json.Unmarshal(data, &e); err != nil || e.Error == "" {
			t.Errorf("%s: the answer %s is not an error", what, data)
		}
		return e.Error
	}
	refused("following without a token", 401, "POST", "/api/account/following", "", map[string]any{"user": "bob"})
	refused("following with a bad token", 401, "POST", "/api/account/following", "nope", map[string]any{"user": "bob"})
	refused("no body", 400, "POST", "/api/account/following", ann, nil)
	refused("an unknown field", 400, "POST", "/api/account/following", ann, map[string]any{"user": "bob", "notify": true})
	refused("a name as a number", 400, "POST", "/api/account/following", ann, `{"user": 5}`)
	refused("herself", 400, "POST", "/api/account/following", ann, map[string]any{"user": "ann"})
	refused("the engine", 400, "POST", "/api/account/following", ann, map[string]any{"user": "engine"})
	if msg := refused("nobody", 404, "POST", "/api/account/following", ann, map[string]any{"user": "nobody"}); msg != `no user "nobody"` {
		t.Errorf("following nobody: %q", msg)
	}
	var f wire.Follow
	ts.must(t, 201, "POST", "/api/account/following", ann, map[string]any{"user": "BOB"}, &f)
	if f.User.Name != "bob" || f.SinceMs == 0 || !f.Online {
		t.Errorf("ann follows bob: %+v (bob signed in a moment ago: online)", f)
	}
	if msg := refused("bob twice", 409, "POST", "/api/account/following", ann, map[string]any{"user": "bob"}); msg != "you follow bob already" {
		t.Errorf("following twice: %q", msg)
	}
	refused("unfollowing cy, not followed", 404, "DELETE", "/api/account/following/cy", ann, nil)
	refused("listing without a token", 401, "GET", "/api/account/followers", "", nil)
	refused("a bad page", 400, "GET", "/api/account/followers?limit=0", bob, nil)
	refused("a bad key", 400, "GET", "/api/account/followers?after=x", bob, nil)
	ts.must(t, 201, "POST", "/api/account/following", cy, map[string]any{"user": "bob"}, nil)
	var fs wire.Followers
	ts.must(t, 200, "GET", "/api/account/followers?limit=1", bob, nil, &fs)
	if len(fs.Followers) != 1 || fs.Followers[0].User.Name != "ann" || !fs.More {
		t.Errorf("bob's followers, page 1: %+v", fs)
	}
	ts.must(t, 200, "GET", fmt.Sprintf("/api/account/followers?limit=1&after=%d", fs.Followers[0].User.ID), bob, nil, &fs)
	if len(fs.Followers) != 1 || fs.Followers[0].User.Name != "cy" || fs.More {
		t.Errorf("bob's followers, page 2: %+v", fs)
	}

	// Bob's profile, as ann and as nobody.
	var prof userAnswer
	ts.must(t, 200, "GET", "/api/user/bob", ann, nil, &prof)
	if !prof.Online || prof.SeenMs == 0 || prof.Followers != 2 || prof.Following != 0 || !prof.Followed {
		t.Errorf("bob's profile as ann sees it: %+v", prof)
	}
	prof = userAnswer{}
	ts.must(t, 200, "GET", "/api/user/bob", "", nil, &prof)
	if prof.Followed {
		t.Errorf("bob's profile without a token says followed: %+v", prof)
	}
	if code, _ := ts.do(t, "GET", "/api/user/bob", "nope", nil); code != 401 {
		t.Errorf("a profile with a bad token: %d, want 401", code)
	}

	// Who is online: the three of them, by name; a page of one.
	var o wire.Online
	deadline := time.Now().Add(5 * time.Second)
	for {
		ts.must(t, 200, "GET", "/api/online", "", nil, &o)
		if o.Count == 3 || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if names := playerNames(o.Players); o.Count != 3 || !slices.Equal(names, []string{"ann", "bob", "cy"}) {
		t.Errorf("online: %+v", o)
	}
	ts.must(t, 200, "GET", "/api/online?after=ann&limit=1", "", nil, &o)
	if names := playerNames(o.Players); !slices.Equal(names, []string{"bob"}) || !o.More {
		t.Errorf("online after ann, 1: %+v", o)
	}
	refused("online, a page too long", 400, "GET", "/api/online?limit=101", "", nil)

	// The followed games: bob's game with cy, on ann's stream and list.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	events := stream(t, ctx, ts.URL+"/api/stream/event", ann)
	time.Sleep(100 * time.Millisecond) // the stream's follows loaded
	game := ts.gameBetween(t, bob, cy, "cy", true)
	for {
		e := next(t, events)
		if e.Type == "followedGameStart" {
			if e.Game == nil || e.Game.ID != game {
				t.Errorf("the followed game's start: %+v", e)
			}
			break
		}
	}
	var fg wire.FollowedGames
	ts.must(t, 200, "GET", "/api/account/following/games", ann, nil, &fg)
	if len(fg.Games) != 1 || fg.Games[0].ID != game || fg.Games[0].White.Name != "bob" {
		t.Errorf("ann's followed games: %+v", fg)
	}
	ts.must(t, 200, "POST", fmt.Sprintf("/api/game/%d/resign", game), cy, nil, nil)
	if e := next(t, events); e.Type != "followedGameFinish" || e.Game.ID != game || e.Game.Result != "1-0" {
		t.Errorf("the followed game's end: %+v", e)
	}
	ts.must(t, 204, "DELETE", "/api/account/following/bob", ann, nil, nil)
	if got := following(); got != `{"following":[]}` {
		t.Errorf("ann's follows after unfollowing bob: %s", got)
	}

	// The archive: bob's win, found by his name and result; a page of one
	// and its key; refusals.
	game2 := ts.gameBetween(t, cy, ann, "ann", false)
	ts.must(t, 200, "POST", fmt.Sprintf("/api/game/%d/resign", game2), cy, nil, nil)
	var a wire.Archive
	ts.must(t, 200, "GET", "/api/archive?player=bob&result=win", "", nil, &a)
	if len(a.Games) != 1 || a.Games[0].ID != game || a.Next != "" {
		t.Errorf("bob's wins: %+v", a)
	}
	ts.must(t, 200, "GET", "/api/archive?limit=1", "", nil, &a)
	if len(a.Games) != 1 || a.Games[0].ID != game2 || a.Next == "" {
		t.Fatalf("the archive's first page of 1: %+v", a)
	}
	ts.must(t, 200, "GET", "/api/archive?limit=1&before="+a.Next, "", nil, &a)
	if len(a.Games) != 1 || a.Games[0].ID != game {
		t.Errorf("the archive's second page: %+v", a)
	}
	today := time.Now().UTC().Format("2006-01-02")
	ts.must(t, 200, "GET", "/api/archive?player=cy&vs=ann&color=white&variant=nine-mens-morris&result=loss&from="+today+"&to="+today, "", nil, &a)
	if len(a.Games) != 1 || a.Games[0].ID != game2 {
		t.Errorf("cy's loss as white against ann today: %+v", a)
	}
	for _, c := range []struct {
		query, msg string
		code       int
	}{
		{"limit=101", "limit is 1 to 100, not \"101\"", 400},
		{"player=nobody", `no user "nobody"`, 404},
		{"result=win", "win is a player's result: give the player too", 400},
		{"from=2026-13-01", `from is a date, YYYY-MM-DD from 2000 on, not "2026-13-01"`, 400},
		{"before=12", `before "12" is not a key of the archive: give the next of a page`, 400},
		{"variant=chess", "", 400},
	} {
		code, data := ts.do(t, "GET", "/api/archive?"+c.query, "", nil)
		var e wire.Error
		_ = json.Unmarshal(data, &e)
		if code != c.code || c.msg != "" && e.Error != c.msg {
			t.Errorf("GET /api/archive?%s: got %d %s, want %d %q", c.query, code, data, c.code, c.msg)
		}
	}

	// Statistics and the rating history of bob's rated win.
	var st wire.PlayerStats
	ts.must(t, 200, "GET", "/api/user/bob/stats", "", nil, &st)
	if st.Total != (wire.SideResults{Wins: 1}) || len(st.Results) != 1 || st.Results[0].White.Wins != 1 {
		t.Errorf("bob's stats: %+v", st)
	}
	var h wire.RatingHistory
	ts.must(t, 200, "GET", "/api/user/bob/rating-history?variant=nine-mens-morris", "", nil, &h)
	if len(h.Points) != 1 || h.Points[0].Game != game || h.Points[0].Rating <= 1500 {
		t.Errorf("bob's history: %+v", h)
	}
	if code, data := ts.do(t, "GET", "/api/user/bob/rating-history", "", nil); code != 400 || !strings.Contains(string(data), "?variant=ID") {
		t.Errorf("a history without a preset: %d %s", code, data)
	}
	if code, _ := ts.do(t, "GET", "/api/user/nobody/stats", "", nil); code != 404 {
		t.Errorf("the stats of nobody: %d", code)
	}

	// The leaderboard: ratings set as an import would.
	for i, n := range []string{"ann", "cy"} {
		u, err := ts.st.UserByName(context.Background(), n)
		if err != nil {
			t.Fatal(err)
		}
		if err := ts.st.SetRating(context.Background(), store.Rating{User: u.ID, Variant: "lasker", R: 1600 + float64(i)*100, RD: 70, Sigma: 0.06, Games: 12}); err != nil {
			t.Fatal(err)
		}
	}
	var lb wire.Leaderboard
	ts.must(t, 200, "GET", "/api/leaderboard/lasker?limit=1", "", nil, &lb)
	if lb.Total != 2 || len(lb.Entries) != 1 || lb.Entries[0].User.Name != "cy" || lb.Entries[0].Rank != 1 || !lb.More {
		t.Errorf("the lasker leaderboard, page 1: %+v", lb)
	}
	ts.must(t, 200, "GET", "/api/leaderboard/lasker?offset=1", "", nil, &lb)
	if len(lb.Entries) != 1 || lb.Entries[0].User.Name != "ann" || lb.Entries[0].Rank != 2 {
		t.Errorf("the lasker leaderboard from rank 2: %+v", lb)
	}
	for _, q := range []string{"/api/leaderboard/chess", "/api/leaderboard/lasker?offset=-1", "/api/leaderboard/lasker?offset=1000", "/api/leaderboard/lasker?limit=x"} {
		if code, _ := ts.do(t, "GET", q, "", nil); code != 400 {
			t.Errorf("GET %s: %d, want 400", q, code)
		}
	}
}

func playerNames(ps []wire.Player) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Name)
	}
	return out
}

// followsWithoutPresence is GET /api/account/following's answer with the
// online flags dropped, for comparing what a refused call left.
func followsWithoutPresence(t testing.TB, data []byte) string {
	t.Helper()
	var f wire.Following
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatalf("following: %v in %s", err, data)
	}
	for i := range f.Following {
		f.Following[i].Online = false
	}
	out, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}
