package httpapi

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/morrisgame/morris/internal/server"
	"github.com/morrisgame/morris/internal/server/store/storetest"
	"github.com/morrisgame/morris/internal/server/wire"
)

func TestTournaments(t *testing.T) { storetest.Each(t, testTournaments) }

// testTournaments: a Swiss over real sockets, on each database. Not
// signed in nobody creates, joins or withdraws (401); bad bodies are 400,
// another's start or pairing 403, a second entry or a start the field
// cannot have 409, an unknown event 404, and each refusal changes
// nothing; the event's stream sends it in full and then its rounds and
// results; the exports answer their types.
func testTournaments(t *testing.T, dsn string) {
	ts := newTestServerOn(t, dsn, server.Config{TournamentSweepEvery: 20 * time.Millisecond})
	ann, bob, cy := ts.account(t, "ann"), ts.account(t, "bob"), ts.account(t, "cy")

	// state is what every refusal must leave as it was: the list, and
	// each event in full.
	state := func() string {
		t.Helper()
		var list wire.TournamentList
		ts.must(t, 200, "GET", "/api/tournaments", "", nil, &list)
		var b strings.Builder
		for _, tr := range list.Tournaments {
			code, data := ts.do(t, "GET", fmt.Sprintf("/api/tournament/%d", tr.ID), "", nil)
			if code != 200 {
				t.Fatalf("GET tournament %d: %d %s", tr.ID, code, data)
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
			t.Errorf("%s: refused, but the tournaments changed from\n%s to\n%s", what, before, after)
		}
		var e wire.Error
		if err := json.Unmarshal(data, &e); err != nil || e.Error == "" {
			t.Errorf("%s: the answer %s is not an error", what, data)
		}
		return e.Error
	}

	swiss := map[string]any{"name": "Tuesday Swiss", "kind": "swiss", "rounds": 2, "clock": map[string]any{"initialMs": 60000}}
	refused("creating without a token", 401, "POST", "/api/tournament", "", swiss)
	for _, c := range []struct {
		what string
		body any
		says string
	}{
		{"no body", nil, "a name and a kind"},
		{"no kind", map[string]any{"name": "Cup"}, "a name and a kind"},
		{"an unknown kind", map[string]any{"name": "Cup", "kind": "knockout", "days": 3}, "unknown kind"},
		{"an unknown field", map[string]any{"name": "Cup", "kind": "swiss", "rounds": 2, "days": 3, "prize": 100}, "unknown field"},
		{"rounds as text", `{"name": "Cup", "kind": "swiss", "rounds": "two", "days": 3}`, "rounds"},
		{"a clock and days", map[string]any{"name": "Cup", "kind": "swiss", "rounds": 2, "days": 3, "clock": map[string]any{"initialMs": 60000}}, "not both"},
		{"rule options", map[string]any{"name": "Cup", "kind": "swiss", "rounds": 2, "days": 3, "rules": []string{"flying=never"}}, "preset's own rules"},
		{"an unknown preset", map[string]any{"name": "Cup", "kind": "swiss", "rounds": 2, "days": 3, "variant": "chess"}, "chess"},
		{"no clock", map[string]any{"name": "Cup", "kind": "swiss", "rounds": 2}, "clock or days"},
		{"too many rounds", map[string]any{"name": "Cup", "kind": "swiss", "rounds": 99, "days": 3}, "1 to 20 rounds"},
		{"an arena of a year", map[string]any{"name": "Cup", "kind": "arena", "durationMs": 1 << 50, "clock": map[string]any{"initialMs": 60000}}, "durationMs"},
		{"a start before 1970", map[string]any{"name": "Cup", "kind": "swiss", "rounds": 2, "days": 3, "startsMs": -5}, "startsMs"},
		{"a huge field", map[string]any{"name": "Cup", "kind": "roundrobin", "days": 3, "maxPlayers": 1000}, "2 to 20 players"},
		{"a name of spaces", map[string]any{"name": "   ", "kind": "swiss", "rounds": 2, "days": 3}, "3 to 60"},
		{"two bodies", `{"name": "Cup", "kind": "swiss"}{}`, "more than one"},
	} {
		if msg := refused(c.what, 400, "POST", "/api/tournament", ann, c.body); !strings.Contains(msg, c.says) {
			t.Errorf("%s: the error %q does not say %q", c.what, msg, c.says)
		}
	}

	var full wire.TournamentFull
	ts.must(t, 201, "POST", "/api/tournament", ann, swiss, &full)
	if full.Name != "Tuesday Swiss" || full.Status != "upcoming" || full.Organiser.Name != "ann" || full.Rounds != 2 ||
		full.Control.InitialMs != 60000 || full.Variant != "nine-mens-morris" || len(full.Entrants) != 0 || full.TieBreaks[0] != "Buchholz" {
		t.Errorf("the new event: %+v", full)
	}
	ev := func(action string) string { return fmt.Sprintf("/api/tournament/%d/%s", full.ID, action) }
	refused("joining without a token", 401, "POST", ev("join"), "", nil)
	refused("joining no event", 404, "POST", "/api/tournament/999/join", bob, nil)
	refused("joining event abc", 400, "POST", "/api/tournament/abc/join", bob, nil)
	refused("joining with a body", 400, "POST", ev("join"), bob, map[string]any{"rating": 3000})
	refused("reading event 0", 400, "GET", "/api/tournament/0", "", nil)
	refused("reading no event", 404, "GET", "/api/tournament/999", "", nil)
	refused("withdrawing when not in", 404, "POST", ev("withdraw"), bob, nil)
	var e wire.TournamentEntry
	ts.must(t, 200, "POST", ev("join"), bob, nil, &e)
	if want := (wire.TournamentEntry{Tournament: full.ID, User: "bob", Status: "entered"}); !reflect.DeepEqual(e, want) {
		t.Errorf("bob joins: got %+v, want %+v", e, want)
	}
	refused("joining twice", 409, "POST", ev("join"), bob, nil)
	ts.must(t, 200, "POST", ev("join"), cy, nil, nil)
	if msg := refused("a start the field cannot have", 409, "POST", ev("start"), ann, nil); !strings.Contains(msg, "at most 1 rounds") {
		t.Errorf("a Swiss of 2 rounds for 2: %q", msg)
	}
	ts.must(t, 200, "POST", ev("join"), ann, nil, nil)
	refused("a start by another", 403, "POST", ev("start"), bob, nil)
	refused("a pairing of an event not started", 409, "POST", ev("pair"), ann, nil)
	refused("a pairing by another", 403, "POST", ev("pair"), bob, nil)
	refused("berserk in a Swiss", 400, "POST", ev("berserk"), bob, nil)

	// Half-point byes: asked for and taken back; the refusals.
	one := map[string]any{"round": 1}
	refused("a bye without a token", 401, "POST", ev("bye"), "", one)
	refused("a bye without its round", 400, "POST", ev("bye"), cy, nil)
	refused("a bye of round 0", 400, "POST", ev("bye"), cy, map[string]any{"round": 0})
	refused("a bye with a prize", 400, "POST", ev("bye"), cy, map[string]any{"round": 1, "prize": 1})
	if msg := refused("a bye in the last round", 400, "POST", ev("bye"), cy, map[string]any{"round": 2}); !strings.Contains(msg, "not the last") {
		t.Errorf("a bye in the last round: %q", msg)
	}
	refused("taking back a bye not asked for", 404, "POST", ev("unbye"), cy, one)
	ts.must(t, 200, "POST", ev("bye"), cy, one, &e)
	if e.Status != "entered" || len(e.HalfByes) != 1 || e.HalfByes[0] != 1 {
		t.Errorf("cy's bye: %+v", e)
	}
	refused("a bye asked for twice", 409, "POST", ev("bye"), cy, one)
	e = wire.TournamentEntry{}
	ts.must(t, 200, "POST", ev("unbye"), cy, one, &e)
	if len(e.HalfByes) != 0 {
		t.Errorf("cy's bye taken back: %+v", e)
	}

	// The stream, from before the start.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", ts.URL+ev("stream"), nil)
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/x-ndjson" {
		t.Fatalf("the stream: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	lines := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			if sc.Text() != "" {
				lines <- sc.Text()
			}
		}
		close(lines)
	}()
	// next returns the first line received of a type that holds has and
	// was not returned before (lines of one change may come in any
	// order, those of two changes read at once too).
	var got []string
	used := map[int]bool{}
	next := func(typ, has string) string {
		t.Helper()
		timeout := time.After(10 * time.Second)
		for {
			for i, l := range got {
				if !used[i] && strings.HasPrefix(l, `{"type":"`+typ+`"`) && strings.Contains(l, has) {
					used[i] = true
					return l
				}
			}
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("the stream ended before a %s line with %s: %q", typ, has, got)
				}
				got = append(got, l)
			case <-timeout:
				t.Fatalf("no %s line with %s within 10 s: %q", typ, has, got)
			}
		}
	}
	next("tournament", "")

	ts.must(t, 200, "POST", ev("start"), ann, nil, &full)
	if full.Status != "running" || full.Round != 1 || full.Seed == nil || len(full.Pairings) != 1 || full.Pairings[0].Bye == nil {
		t.Fatalf("after the start: %+v", full)
	}
	next("status", `"status":"running"`)
	round := next("round", `"round":1,`)
	var r wire.TournamentRound
	if err := json.Unmarshal([]byte(round), &r); err != nil || r.Round != 1 || len(r.Games) != 1 {
		t.Errorf("the round line %s: %+v, %v", round, r, err)
	}
	refused("a pairing with a game going on", 409, "POST", ev("pair"), ann, nil)
	refused("a second start", 409, "POST", ev("start"), ann, nil)
	g := r.Games[0]
	tokens := map[string]string{"ann": ann, "bob": bob, "cy": cy}
	ts.must(t, 200, "POST", fmt.Sprintf("/api/game/%d/resign", g.Game), tokens[g.Black.Name], nil, nil)
	res := next("result", `"round":1,`)
	if !strings.Contains(res, `"result":"1-0"`) {
		t.Errorf("the result line: %s", res)
	}
	next("standings", "")
	round2 := next("round", `"round":2,`)
	if err := json.Unmarshal([]byte(round2), &r); err != nil {
		t.Fatal(err)
	}
	ts.must(t, 200, "POST", fmt.Sprintf("/api/game/%d/resign", r.Games[0].Game), tokens[r.Games[0].White.Name], nil, nil)
	next("status", `"status":"finished"`)

	// The exports.
	for _, c := range []struct{ path, ctype, has string }{
		{ev("records"), "application/x-morris-record; charset=utf-8", `[Event "Tuesday Swiss"]`},
		{ev("standings.csv"), "text/csv; charset=utf-8", "rank,player,rating,points,Buchholz,median Buchholz,performance,games,r1,r2\n"},
		{ev("standings.json"), "application/json", `"tieBreaks":["Buchholz","median Buchholz","performance"]`},
	} {
		resp, err := ts.Client().Get(ts.URL + c.path)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		_, _ = bufio.NewReader(resp.Body).WriteTo(&b)
		resp.Body.Close()
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != c.ctype || !strings.Contains(b.String(), c.has) {
			t.Errorf("GET %s: %d %s\n%s", c.path, resp.StatusCode, resp.Header.Get("Content-Type"), b.String())
		}
	}
	refused("the records of no event", 404, "GET", "/api/tournament/999/records", "", nil)
	refused("withdrawing from an event over", 409, "POST", ev("withdraw"), bob, nil)
	refused("joining an event over", 409, "POST", ev("join"), ts.account(t, "dee"), nil)

	// The list, by status and pages.
	var other wire.TournamentFull
	ts.must(t, 201, "POST", "/api/tournament", bob, map[string]any{"name": "Bob's Arena", "kind": "arena", "durationMs": 3600000, "clock": map[string]any{"initialMs": 180000, "incrementMs": 2000}}, &other)
	var list wire.TournamentList
	ts.must(t, 200, "GET", "/api/tournaments?limit=1", "", nil, &list)
	if len(list.Tournaments) != 1 || list.Tournaments[0].ID != other.ID || !list.More {
		t.Errorf("the first page of one: %+v", list)
	}
	ts.must(t, 200, "GET", fmt.Sprintf("/api/tournaments?limit=1&before=%d", other.ID), "", nil, &list)
	if len(list.Tournaments) != 1 || list.Tournaments[0].ID != full.ID || list.More {
		t.Errorf("the second page: %+v", list)
	}
	ts.must(t, 200, "GET", "/api/tournaments?status=finished", "", nil, &list)
	if len(list.Tournaments) != 1 || list.Tournaments[0].ID != full.ID {
		t.Errorf("the finished ones: %+v", list)
	}
	for _, q := range []string{"limit=0", "limit=101", "status=paused", "before=x", "club=-1", "variant=chess"} {
		refused("listing with "+q, 400, "GET", "/api/tournaments?"+q, "", nil)
	}

	// Cancelling: the organiser's, before the start.
	cancelOther := fmt.Sprintf("/api/tournament/%d/cancel", other.ID)
	refused("a cancellation by another", 403, "POST", cancelOther, ann, nil)
	refused("a cancellation of an event over", 409, "POST", ev("cancel"), ann, nil)
	ts.must(t, 200, "POST", cancelOther, bob, nil, &other)
	if other.Status != "finished" || !other.Cancelled || other.Note != "cancelled by its organiser" {
		t.Errorf("the cancelled event: %+v", other.Tournament)
	}
	refused("a second cancellation", 409, "POST", cancelOther, bob, nil)
}
