package httpapi

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/morrisgame/morris/internal/server"
	"github.com/morrisgame/morris/internal/server/servertest"
	"github.com/morrisgame/morris/internal/server/store/storetest"
	"github.com/morrisgame/morris/internal/server/wire"
)

func TestClubs(t *testing.T) { storetest.Each(t, testClubs) }

// testClubs: a closed club over real sockets, on each database. Not
// signed in nobody creates or joins; bad input is refused with 400 and
// changes nothing; a member who is no leader accepts, removes and
// promotes nobody (403); a request is seen by the leaders only and
// accepted or declined; the last leader can neither leave nor step down
// (409, in words that say what to do); the club shows on its members'
// profiles; the last member leaving dissolves it.
func testClubs(t *testing.T, dsn string) {
	ts := newTestServerOn(t, dsn, server.Config{})
	ann, bob, cy := ts.account(t, "ann"), ts.account(t, "bob"), ts.account(t, "cy")

	// state is what every refusal must leave as it was.
	state := func() string {
		t.Helper()
		var list wire.ClubList
		ts.must(t, 200, "GET", "/api/clubs", "", nil, &list)
		var b strings.Builder
		for _, c := range list.Clubs {
			code, data := ts.do(t, "GET", fmt.Sprintf("/api/club/%d", c.ID), ann, nil)
			if code != 200 {
				t.Fatalf("GET club %d: %d %s", c.ID, code, data)
			}
			b.Write(data)
		}
		return b.String()
	}
	refused := func(what string, want int, method, path, token string, body any) string {
		t.Helper()
		before := state()
		code, data := ts.do(t, method, path, token, body)
		if code != want {
			t.Errorf("%s: got %d %s, want %d", what, code, data, want)
		}
		if after := state(); after != before {
			t.Errorf("%s: refused, but the clubs changed from\n%s to\n%s", what, before, after)
		}
		var e wire.Error
		if err := json.Unmarshal(data, &e); err != nil || e.Error == "" {
			t.Errorf("%s: the answer %s is not an error", what, data)
		}
		return e.Error
	}

	refused("creating without a token", 401, "POST", "/api/club", "", map[string]any{"name": "Mill Club"})
	refused("creating with a bad token", 401, "POST", "/api/club", "nope", map[string]any{"name": "Mill Club"})
	for _, c := range []struct {
		what string
		body any
	}{
		{"no body", nil},
		{"no name", map[string]any{"description": "x"}},
		{"a short name", map[string]any{"name": "ab"}},
		{"a name of markup", map[string]any{"name": "<script>"}},
		{"mixed scripts", map[string]any{"name": "Mill Сlub"}},
		{"a long description", map[string]any{"name": "Mill Club", "description": strings.Repeat("x", 1001)}},
		{"an unknown field", map[string]any{"name": "Mill Club", "private": true}},
		{"open as text", `{"name": "Mill Club", "open": "no"}`},
		{"two bodies", `{"name": "Mill Club"}{"name": "Mill Club 2"}`},
	} {
		refused(c.what, 400, "POST", "/api/club", ann, c.body)
	}

	var mill wire.ClubFull
	ts.must(t, 201, "POST", "/api/club", ann, map[string]any{"name": "Mill Club", "description": "Nine men's morris on Tuesdays."}, &mill)
	if mill.Name != "Mill Club" || mill.Open || mill.Members != 1 || mill.Role != "leader" || len(mill.Leaders) != 1 || mill.Leaders[0].Name != "ann" {
		t.Errorf("the new club: got %+v", mill)
	}
	club := func(action string) string { return fmt.Sprintf("/api/club/%d/%s", mill.ID, action) }
	refused("a name taken", 409, "POST", "/api/club", bob, map[string]any{"name": "mill-club"})
	refused("joining without a token", 401, "POST", club("join"), "", nil)
	refused("joining no club", 404, "POST", "/api/club/999/join", bob, nil)
	refused("joining club abc", 400, "POST", "/api/club/abc/join", bob, nil)
	refused("reading club 0", 400, "GET", "/api/club/0", "", nil)

	// The closed club's requests.
	var m wire.ClubMembership
	ts.must(t, 200, "POST", club("join"), bob, nil, &m)
	if want := (wire.ClubMembership{Club: mill.ID, User: "bob", Role: "requested"}); m != want {
		t.Errorf("bob joins: got %+v, want %+v", m, want)
	}
	ts.must(t, 200, "POST", club("join"), cy, nil, nil)
	refused("bob asks again", 409, "POST", club("join"), bob, nil)
	var seen wire.ClubFull
	ts.must(t, 200, "GET", fmt.Sprintf("/api/club/%d", mill.ID), ann, nil, &seen)
	if seen.Requests == nil || seen.Requests.Count != 2 || len(seen.Requests.Oldest) != 2 || seen.Requests.Oldest[0].Name != "bob" {
		t.Errorf("the requests a leader sees: got %+v, want bob's and cy's", seen.Requests)
	}
	for _, who := range []struct{ name, token, role string }{{"bob", bob, "requested"}, {"nobody", "", ""}} {
		code, data := ts.do(t, "GET", fmt.Sprintf("/api/club/%d", mill.ID), who.token, nil)
		var v wire.ClubFull
		if err := json.Unmarshal(data, &v); code != 200 || err != nil || v.Role != who.role || v.Requests != nil || strings.Contains(string(data), `"requests"`) {
			t.Errorf("the club as %s sees it: got %d %s, want role %q and no requests", who.name, code, data, who.role)
		}
	}
	refused("cy, who asked, accepts bob", 403, "POST", club("accept"), cy, map[string]any{"user": "bob"})
	refused("accepting without a name", 400, "POST", club("accept"), ann, map[string]any{})
	refused("accepting with leader", 400, "POST", club("accept"), ann, map[string]any{"user": "bob", "leader": true})
	refused("accepting no one", 404, "POST", club("accept"), ann, map[string]any{"user": "nobody"})
	refused("accepting a bad name", 400, "POST", club("accept"), ann, map[string]any{"user": "x"})
	ts.must(t, 200, "POST", club("accept"), ann, map[string]any{"user": "bob"}, &m)
	if m.Role != "member" || m.User != "bob" {
		t.Errorf("ann accepts bob: got %+v", m)
	}
	ts.must(t, 200, "POST", club("accept"), ann, map[string]any{"user": "cy", "decline": true}, &m)
	if m.Role != "none" || m.User != "cy" {
		t.Errorf("ann declines cy: got %+v", m)
	}
	refused("declining cy again", 404, "POST", club("accept"), ann, map[string]any{"user": "cy", "decline": true})

	// A member is no leader.
	refused("bob removes ann", 403, "POST", club("remove"), bob, map[string]any{"user": "ann"})
	refused("bob makes himself a leader", 403, "POST", club("leader"), bob, map[string]any{"user": "bob", "leader": true})
	refused("cy, not in, removes bob", 403, "POST", club("remove"), cy, map[string]any{"user": "bob"})
	refused("leader without saying what", 400, "POST", club("leader"), ann, map[string]any{"user": "bob"})
	refused("remove with decline", 400, "POST", club("remove"), ann, map[string]any{"user": "bob", "decline": true})

	// The last leader.
	msg := refused("ann, the last leader, leaves", 409, "POST", club("leave"), ann, nil)
	if want := fmt.Sprintf("you are the last leader of club %d: make another member a leader first", mill.ID); !strings.HasPrefix(msg, want) {
		t.Errorf("ann leaves: got %q, want it to start %q", msg, want)
	}
	refused("ann steps down", 409, "POST", club("leader"), ann, map[string]any{"user": "ann", "leader": false})
	refused("ann removes herself", 409, "POST", club("remove"), ann, map[string]any{"user": "ann"})
	ts.must(t, 200, "POST", club("leader"), ann, map[string]any{"user": "bob", "leader": true}, &m)
	if m.Role != "leader" {
		t.Errorf("ann makes bob a leader: got %+v", m)
	}
	ts.must(t, 200, "POST", club("leader"), ann, map[string]any{"user": "ann", "leader": false}, &m)
	if m.Role != "member" {
		t.Errorf("ann steps down: got %+v", m)
	}
	refused("ann, no longer a leader, removes bob", 403, "POST", club("remove"), ann, map[string]any{"user": "bob"})

	// A leader edits the club: its description, and opening it takes
	// those who asked to join as members.
	ts.must(t, 200, "POST", club("join"), cy, nil, nil)
	about := map[string]any{"description": "Tuesdays and Thursdays."}
	refused("editing without a token", 401, "POST", club("edit"), "", about)
	refused("ann, no longer a leader, edits", 403, "POST", club("edit"), ann, about)
	refused("cy, who asked, edits", 403, "POST", club("edit"), cy, about)
	refused("editing nothing", 400, "POST", club("edit"), bob, map[string]any{})
	refused("renaming", 400, "POST", club("edit"), bob, map[string]any{"name": "Morris Club"})
	refused("a long description", 400, "POST", club("edit"), bob, map[string]any{"description": strings.Repeat("x", 1001)})
	refused("a description that turns the text", 400, "POST", club("edit"), bob, map[string]any{"description": "ab‮cd"})
	refused("editing no club", 404, "POST", "/api/club/999/edit", bob, about)
	var edited wire.ClubFull
	ts.must(t, 200, "POST", club("edit"), bob, about, &edited)
	if edited.Description != "Tuesdays and Thursdays." || edited.Open || edited.Name != "Mill Club" || edited.Requests == nil || edited.Requests.Count != 1 {
		t.Errorf("the club after its description changed: %+v", edited)
	}
	ts.must(t, 200, "POST", club("edit"), bob, map[string]any{"open": true}, &edited)
	if !edited.Open || edited.Members != 3 || edited.Requests != nil && edited.Requests.Count != 0 || edited.Description != "Tuesdays and Thursdays." {
		t.Errorf("the club opened: %+v, want cy a member", edited)
	}
	ts.must(t, 200, "POST", club("leave"), cy, nil, nil)

	// Profiles.
	var profile struct {
		Name  string          `json:"name"`
		Clubs []wire.UserClub `json:"clubs"`
	}
	ts.must(t, 200, "GET", "/api/user/bob", "", nil, &profile)
	if want := []wire.UserClub{{ID: mill.ID, Name: "Mill Club", Leader: true}}; !reflect.DeepEqual(profile.Clubs, want) {
		t.Errorf("bob's profile: clubs %+v, want %+v", profile.Clubs, want)
	}
	code, data := ts.do(t, "GET", "/api/user/cy", "", nil)
	if code != 200 || !strings.Contains(string(data), `"clubs":[]`) {
		t.Errorf("cy's profile: got %d %s, want \"clubs\":[]", code, data)
	}

	// Leaving, removal, and the end.
	ts.must(t, 200, "POST", club("remove"), bob, map[string]any{"user": "ann"}, &m)
	if m.Role != "none" || m.Dissolved {
		t.Errorf("bob removes ann: got %+v", m)
	}
	refused("ann leaves a club she is not in", 404, "POST", club("leave"), ann, nil)
	ts.must(t, 200, "POST", club("leave"), bob, nil, &m)
	if !m.Dissolved || m.Role != "none" {
		t.Errorf("bob, the last member, leaves: got %+v, want the club dissolved", m)
	}
	if code, data := ts.do(t, "GET", fmt.Sprintf("/api/club/%d", mill.ID), "", nil); code != 404 || !strings.Contains(string(data), fmt.Sprintf("no club %d", mill.ID)) {
		t.Errorf("the dissolved club: got %d %s, want 404", code, data)
	}
	ts.must(t, 201, "POST", "/api/club", cy, map[string]any{"name": "MILL CLUB", "open": true}, nil)
}

// TestClubPaging: the members of a club and the list of clubs come page
// by page, and bad pages are 400; an open club takes members at once.
func TestClubPaging(t *testing.T) {
	ts := newTestServer(t, server.Config{})
	ann := ts.account(t, "ann")
	var c wire.ClubFull
	ts.must(t, 201, "POST", "/api/club", ann, map[string]any{"name": "Open Mill", "open": true}, &c)
	var names []string
	for i := range 5 {
		tok := ts.account(t, fmt.Sprintf("p%d", i))
		var m wire.ClubMembership
		ts.must(t, 200, "POST", fmt.Sprintf("/api/club/%d/join", c.ID), tok, nil, &m)
		if m.Role != "member" {
			t.Fatalf("p%d joins an open club: got %+v, want member", i, m)
		}
		names = append(names, fmt.Sprintf("p%d", i))
		var club wire.ClubFull
		ts.must(t, 201, "POST", "/api/club", tok, map[string]any{"name": fmt.Sprintf("Club %c", 'A'+i)}, &club)
	}
	var got []string
	path := fmt.Sprintf("/api/club/%d?limit=2", c.ID)
	for pages := 1; ; pages++ {
		var v wire.ClubFull
		ts.must(t, 200, "GET", path, "", nil, &v)
		for _, m := range v.Page {
			got = append(got, m.Name)
		}
		if !v.More {
			if pages != 3 || v.Members != 6 {
				t.Errorf("6 members by 2: %d pages, %d members; want 3 and 6", pages, v.Members)
			}
			break
		}
		path = fmt.Sprintf("/api/club/%d?limit=2&after=%d", c.ID, v.Page[len(v.Page)-1].ID)
	}
	if want := append([]string{"ann"}, names...); !reflect.DeepEqual(got, want) {
		t.Errorf("the members page by page: got %q, want %q", got, want)
	}

	got = nil
	path = "/api/clubs?limit=4"
	for {
		var list wire.ClubList
		ts.must(t, 200, "GET", path, "", nil, &list)
		for _, c := range list.Clubs {
			got = append(got, c.Name)
		}
		if !list.More {
			break
		}
		path = "/api/clubs?limit=4&after=" + strings.ReplaceAll(list.Clubs[len(list.Clubs)-1].Name, " ", "+")
	}
	if want := []string{"Club A", "Club B", "Club C", "Club D", "Club E", "Open Mill"}; !reflect.DeepEqual(got, want) {
		t.Errorf("the clubs page by page: got %q, want %q", got, want)
	}
	var list wire.ClubList
	ts.must(t, 200, "GET", "/api/clubs?q=OPEN-mill", "", nil, &list)
	if len(list.Clubs) != 1 || list.Clubs[0].ID != c.ID || list.More {
		t.Errorf("searching open-mill: got %+v", list)
	}
	for _, p := range []string{
		"/api/clubs?limit=0", "/api/clubs?limit=101", "/api/clubs?limit=x", "/api/clubs?q=" + strings.Repeat("m", 41),
		fmt.Sprintf("/api/club/%d?after=-1", c.ID), fmt.Sprintf("/api/club/%d?after=x", c.ID), fmt.Sprintf("/api/club/%d?limit=500", c.ID),
	} {
		if code, data := ts.do(t, "GET", p, "", nil); code != 400 {
			t.Errorf("GET %s: got %d %s, want 400", p, code, data)
		}
	}
}

// TestClubLimits: guests join no club (403); a user leads 5 clubs at
// most (409), and creates clubs at a rate (429 with a Retry-After), each
// refusal storing nothing.
func TestClubLimits(t *testing.T) {
	rates := servertest.Rates
	rates.Club, rates.ClubBurst = 1.0/3600, 6
	ts := newTestServer(t, server.Config{Rates: rates})
	ann := ts.account(t, "ann")
	var g tokenAnswer
	ts.must(t, 201, "POST", "/api/guest", "", nil, &g)
	if code, data := ts.do(t, "POST", "/api/club", g.Token, map[string]any{"name": "Guests"}); code != 403 || !strings.Contains(string(data), "guest") {
		t.Errorf("a guest creates a club: got %d %s, want 403", code, data)
	}
	var ids []int64
	for i := range 5 {
		var c wire.ClubFull
		ts.must(t, 201, "POST", "/api/club", ann, map[string]any{"name": fmt.Sprintf("Ann %d", i), "open": true}, &c)
		ids = append(ids, c.ID)
	}
	if code, data := ts.do(t, "GET", "/api/club/"+fmt.Sprint(ids[0]), "", nil); code != 200 {
		t.Fatalf("GET the first club: %d %s", code, data)
	}
	if code, _, body := ts.post(t, "/api/club", ann, `{"name": "Ann 5"}`); code != 409 || !strings.Contains(body, "you lead 5 clubs already") {
		t.Errorf("a sixth club led: got %d %s, want 409", code, body)
	}
	if code, data := ts.do(t, "POST", fmt.Sprintf("/api/club/%d/join", ids[0]), g.Token, nil); code != 403 {
		t.Errorf("a guest joins an open club: got %d %s, want 403", code, data)
	}
	// Dissolving one frees a place; the sixth creation spends the burst,
	// the seventh waits an hour.
	ts.must(t, 200, "POST", fmt.Sprintf("/api/club/%d/leave", ids[0]), ann, nil, nil)
	ts.must(t, 201, "POST", "/api/club", ann, map[string]any{"name": "Ann 5"}, nil)
	ts.must(t, 200, "POST", fmt.Sprintf("/api/club/%d/leave", ids[1]), ann, nil, nil)
	if code, retry, body := ts.post(t, "/api/club", ann, `{"name": "Ann 6"}`); code != 429 || retry != "3600" {
		t.Errorf("a seventh club created at once: got %d, Retry-After %q (%s), want 429 and 3600", code, retry, body)
	}
	var list wire.ClubList
	ts.must(t, 200, "GET", "/api/clubs?q=ann", "", nil, &list)
	if len(list.Clubs) != 4 {
		t.Errorf("ann's clubs after the refusals: got %+v, want 4", list.Clubs)
	}
}
