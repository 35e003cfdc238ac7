package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/morrisgame/morris/internal/server"
	"github.com/morrisgame/morris/internal/server/rating"
	"github.com/morrisgame/morris/internal/server/store/storetest"
	"github.com/morrisgame/morris/internal/server/wire"
)

// gameBetween starts a game between white and black by a challenge and
// its acceptance, and returns its id.
func (ts *testServer) gameBetween(t *testing.T, white, black, blackName string, rated bool) int64 {
	t.Helper()
	var c wire.Challenge
	ts.must(t, 201, "POST", "/api/challenge/"+blackName, white, map[string]any{"color": "white", "rated": rated}, &c)
	ts.must(t, 200, "POST", fmt.Sprintf("/api/challenge/%d/accept", c.ID), black, nil, &c)
	return c.Game
}

func (ts *testServer) moderator(t *testing.T, name string) {
	t.Helper()
	if _, err := ts.st.SetModerator(context.Background(), name, true, "made by the test"); err != nil {
		t.Fatal(err)
	}
}

// TestModeratorEndpointsRefused: every moderator's endpoint is 401
// without a token and 403 with a player's, whatever the body (read only
// after the check), and nothing changes; a moderator acts on neither
// themselves nor another moderator.
func TestModeratorEndpointsRefused(t *testing.T) {
	ts := newTestServer(t, server.Config{})
	ann := ts.account(t, "ann")
	mo := ts.account(t, "mo")
	mo2 := ts.account(t, "mo2")
	ts.account(t, "bob")
	ts.moderator(t, "mo")
	ts.moderator(t, "mo2")
	var rep wire.Report
	ts.must(t, 201, "POST", "/api/report", ann, map[string]any{"user": "bob", "reason": "spam"}, &rep)
	calls := []struct{ method, path, body string }{
		{"GET", "/api/mod/reports", ""},
		{"GET", "/api/mod/log", ""},
		{"GET", "/api/mod/user/bob", ""},
		{"POST", fmt.Sprintf("/api/mod/reports/%d/resolve", rep.ID), `{"note":"x"}`},
		{"POST", "/api/mod/user/bob/warn", `{"text":"x"}`},
		{"POST", "/api/mod/user/bob/mute", `{"hours":1}`},
		{"POST", "/api/mod/user/bob/unmute", `{}`},
		{"POST", "/api/mod/user/bob/close", `{"note":"x"}`},
		{"POST", "/api/mod/user/bob/reopen", `{"note":"x"}`},
		{"POST", "/api/mod/user/bob/annul", `{"note":"x"}`},
		{"POST", "/api/mod/user/bob/annul", `not json at all`},
		{"POST", "/api/mod/user/bob/nonsense", `{}`},
	}
	for _, c := range calls {
		var body any
		if c.body != "" {
			body = c.body
		}
		if code, data := ts.do(t, c.method, c.path, "", body); code != 401 {
			t.Errorf("%s %s without a token: %d %s, want 401", c.method, c.path, code, data)
		}
		if code, data := ts.do(t, c.method, c.path, ann, body); code != 403 {
			t.Errorf("%s %s by a player: %d %s, want 403", c.method, c.path, code, data)
		}
	}
	var l wire.ModLog
	ts.must(t, 200, "GET", "/api/mod/log", mo, nil, &l)
	if len(l.Actions) != 2 { // the two moderators made
		t.Errorf("the log after the refused calls: %+v", l.Actions)
	}
	var mu wire.ModUser
	ts.must(t, 200, "GET", "/api/mod/user/bob", mo, nil, &mu)
	if mu.Muted || mu.ClosedMs != 0 || len(mu.Warnings) != 0 || mu.OpenReports != 1 {
		t.Errorf("bob after the refused calls: %+v", mu)
	}
	for _, name := range []string{"mo", "mo2", "engine"} {
		if code, data := ts.do(t, "POST", "/api/mod/user/"+name+"/mute", mo, map[string]any{"hours": 1}); code != 403 {
			t.Errorf("a moderator mutes %s: %d %s, want 403", name, code, data)
		}
	}
	_ = mo2
	for _, c := range []struct {
		path, body string
		want       int
	}{
		{"/api/mod/user/bob/mute", `{"hours":-1}`, 400},
		{"/api/mod/user/bob/mute", `{"hours":100000}`, 400},
		{"/api/mod/user/bob/mute", `{"text":"x"}`, 400},
		{"/api/mod/user/bob/warn", `{"note":"x"}`, 400},
		{"/api/mod/user/bob/warn", `{"text":""}`, 400},
		{"/api/mod/user/bob/close", `{}`, 400},
		{"/api/mod/user/bob/close", `{"note":"x","extra":1}`, 400},
		{"/api/mod/user/bob/close", `{"note":"x","report":999}`, 404},
		{"/api/mod/user/nobody/close", `{"note":"x"}`, 404},
		{"/api/mod/user/bob/unmute", `{}`, 409},
		{"/api/mod/reports/999/resolve", `{"note":"x"}`, 404},
		{"/api/mod/user/bob/nonsense", `{}`, 404},
	} {
		if code, data := ts.do(t, "POST", c.path, mo, c.body); code != c.want {
			t.Errorf("POST %s %s: %d %s, want %d", c.path, c.body, code, data, c.want)
		}
	}
	for _, q := range []string{"?limit=0", "?limit=101", "?before=x", "?status=closed"} {
		if code, data := ts.do(t, "GET", "/api/mod/reports"+q, mo, nil); code != 400 {
			t.Errorf("GET /api/mod/reports%s: %d %s, want 400", q, code, data)
		}
	}
	ts.must(t, 200, "GET", "/api/mod/log", mo, nil, &l)
	if len(l.Actions) != 2 {
		t.Errorf("the log after the bad calls: %+v", l.Actions)
	}
}

// TestReportsAndQueue, over HTTP: a player reports a chat line; bad
// reports are clear errors; the moderators page the queue, resolve the
// report with a note and find it in the log; the report keeps the line.
func TestReportsAndQueue(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dsn string) {
		ts := newTestServerOn(t, dsn, server.Config{})
		ann := ts.account(t, "ann")
		bob := ts.account(t, "bob")
		mo := ts.account(t, "mo")
		ts.moderator(t, "mo")
		g := ts.gameBetween(t, ann, bob, "bob", false)
		ts.must(t, 200, "POST", fmt.Sprintf("/api/game/%d/chat", g), bob, map[string]string{"text": "loser"}, nil)
		var page wire.ChatPage
		ts.must(t, 200, "GET", fmt.Sprintf("/api/game/%d/chat", g), "", nil, &page)
		v := page.Chat[0].Version
		for _, c := range []struct {
			token, body string
			want        int
		}{
			{"", `{"user":"bob","reason":"abuse"}`, 401},
			{ann, `{"user":"bob"}`, 400},
			{ann, `{"user":"bob","reason":"rude"}`, 400},
			{ann, `{"user":"ann","reason":"abuse"}`, 400},
			{ann, fmt.Sprintf(`{"game":%d,"version":%d,"reason":"abuse"}`, g, v+7), 404},
			{ann, `{"user":"nobody","reason":"abuse"}`, 404},
			{ann, `{"user":"bob","reason":"other"}`, 400},
			{ann, `{"user":"bob","reason":"abuse","text":"` + strings.Repeat("x", 501) + `"}`, 400},
			{ann, `{"user":"bob","reason":"abuse","spam":1}`, 400},
		} {
			if code, data := ts.do(t, "POST", "/api/report", c.token, c.body); code != c.want {
				t.Errorf("POST /api/report %.80s: %d %s, want %d", c.body, code, data, c.want)
			}
		}
		var rep wire.Report
		ts.must(t, 201, "POST", "/api/report", ann, map[string]any{"game": g, "version": v, "reason": "abuse", "text": "insult"}, &rep)
		if rep.Line == nil || rep.Line.Text != "loser" || rep.User.Name != "bob" {
			t.Errorf("the report: %+v", rep)
		}
		if code, _ := ts.do(t, "POST", "/api/report", ann, map[string]any{"game": g, "version": v, "reason": "abuse"}); code != 409 {
			t.Errorf("the same line reported twice: %d, want 409", code)
		}
		var other wire.Report
		ts.must(t, 201, "POST", "/api/report", bob, map[string]any{"user": "ann", "reason": "name"}, &other)

		var q wire.ReportPage
		ts.must(t, 200, "GET", "/api/mod/reports?limit=1", mo, nil, &q)
		if len(q.Reports) != 1 || !q.More || q.Reports[0].ID != other.ID {
			t.Fatalf("the queue's first page: %+v", q)
		}
		ts.must(t, 200, "GET", fmt.Sprintf("/api/mod/reports?limit=1&before=%d", other.ID), mo, nil, &q)
		if len(q.Reports) != 1 || q.More || q.Reports[0].ID != rep.ID || q.Reports[0].Line.Text != "loser" {
			t.Fatalf("the queue's second page: %+v", q)
		}
		var resolved wire.Report
		ts.must(t, 200, "POST", fmt.Sprintf("/api/mod/reports/%d/resolve", rep.ID), mo, map[string]string{"note": "muted a day"}, &resolved)
		if resolved.Status != "resolved" || resolved.ResolvedBy == nil || resolved.ResolvedBy.Name != "mo" || resolved.Resolution != "muted a day" {
			t.Errorf("the resolved report: %+v", resolved)
		}
		if code, _ := ts.do(t, "POST", fmt.Sprintf("/api/mod/reports/%d/resolve", rep.ID), mo, map[string]string{"note": "again"}); code != 409 {
			t.Errorf("a report resolved twice: %d, want 409", code)
		}
		ts.must(t, 200, "GET", "/api/mod/reports", mo, nil, &q)
		if len(q.Reports) != 1 || q.Reports[0].ID != other.ID {
			t.Errorf("the open queue: %+v", q)
		}
		ts.must(t, 200, "GET", "/api/mod/reports?status=all", mo, nil, &q)
		if len(q.Reports) != 2 {
			t.Errorf("every report: %+v", q)
		}
		var l wire.ModLog
		ts.must(t, 200, "GET", "/api/mod/log?user=bob", mo, nil, &l)
		if len(l.Actions) != 1 || l.Actions[0].Action != "resolve" || l.Actions[0].Report != rep.ID || l.Actions[0].Moderator.Name != "mo" {
			t.Errorf("the log of bob: %+v", l)
		}
	})
}

// TestClosedAccountOverHTTP: a moderator closes an account: both its
// tokens are refused at once (one was just used, so cached), its account
// stream and game socket end, a new token is refused, its game is won by
// the opponent; reopened, it signs in again.
func TestClosedAccountOverHTTP(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dsn string) {
		ts := newTestServerOn(t, dsn, server.Config{})
		ctx := context.Background()
		ann := ts.account(t, "ann")
		bob := ts.account(t, "bob")
		var other tokenAnswer
		ts.must(t, 200, "POST", "/api/token", "", map[string]string{"name": "bob", "password": "secret-bob"}, &other)
		mo := ts.account(t, "mo")
		ts.moderator(t, "mo")
		g := ts.gameBetween(t, ann, bob, "bob", false)
		ts.must(t, 200, "GET", "/api/account", bob, nil, nil)
		ts.must(t, 200, "GET", "/api/account", other.Token, nil, nil)
		ended := streamEnds(t, ts, other.Token)
		sock := dialSocket(t, ctx, ts, g, bob, -1)

		var mu wire.ModUser
		ts.must(t, 200, "POST", "/api/mod/user/bob/close", mo, map[string]string{"note": "abuse after warnings"}, &mu)
		if mu.ClosedMs == 0 {
			t.Errorf("the closed account: %+v", mu)
		}
		for _, tok := range []string{bob, other.Token} {
			if code, _ := ts.do(t, "GET", "/api/account", tok, nil); code != 401 {
				t.Errorf("a closed account's token: %d, want 401 at once", code)
			}
		}
		wantEnded(t, "the closed account's stream", ended)
		deadline := time.After(3 * time.Second)
		for open := true; open; {
			select {
			case _, open = <-sock.events:
			case <-deadline:
				t.Error("the closed account's game socket goes on")
				open = false
			}
		}
		if code, data := ts.do(t, "POST", "/api/token", "", map[string]string{"name": "bob", "password": "secret-bob"}); code != 403 || !strings.Contains(string(data), "closed") {
			t.Errorf("a token for the closed account: %d %s, want 403", code, data)
		}
		var f wire.GameFull
		ts.must(t, 200, "GET", fmt.Sprintf("/api/game/%d", g), "", nil, &f)
		if f.State.Status != "finished" || f.State.Result != "1-0" || f.State.Method != "abandonment" {
			t.Errorf("the closed account's game: %s %s by %s", f.State.Status, f.State.Result, f.State.Method)
		}
		ts.must(t, 200, "GET", "/api/user/bob", "", nil, nil) // the page stays
		var reopened wire.ModUser
		ts.must(t, 200, "POST", "/api/mod/user/bob/reopen", mo, map[string]string{"note": "appeal"}, &reopened)
		if reopened.ClosedMs != 0 {
			t.Errorf("the reopened account: %+v", reopened)
		}
		ts.must(t, 200, "POST", "/api/token", "", map[string]string{"name": "bob", "password": "secret-bob"}, nil)
		if code, _ := ts.do(t, "GET", "/api/account", bob, nil); code != 401 {
			t.Errorf("a token of before the close, after the reopening: %d, want 401", code)
		}
	})
}

// TestAnnulOverHTTP: rated games between four players over the API; the
// annulment of one player's games makes them unrated, and the ratings
// GET /api/user shows are those of the other games replayed in order.
func TestAnnulOverHTTP(t *testing.T) {
	ts := newTestServer(t, server.Config{})
	tok := map[string]string{}
	for _, n := range []string{"ann", "bob", "cy", "dan"} {
		tok[n] = ts.account(t, n)
	}
	mo := ts.account(t, "mo")
	ts.moderator(t, "mo")
	type played struct{ white, black, loser string }
	games := []played{{"ann", "bob", "bob"}, {"bob", "cy", "cy"}, {"cy", "ann", "cy"}, {"dan", "bob", "dan"}, {"cy", "dan", "dan"}}
	var ids []int64
	for _, p := range games {
		id := ts.gameBetween(t, tok[p.white], tok[p.black], p.black, true)
		ts.must(t, 200, "POST", fmt.Sprintf("/api/game/%d/resign", id), tok[p.loser], nil, nil)
		ids = append(ids, id)
		time.Sleep(2 * time.Millisecond)
	}
	var a wire.Annulment
	ts.must(t, 200, "POST", "/api/mod/user/ann/annul", mo, map[string]string{"note": "played with the engine's help"}, &a)
	if len(a.Games) != 2 || a.Games[0] != ids[0] || a.Games[1] != ids[2] {
		t.Errorf("the annulment: %+v", a)
	}
	want := map[string]rating.Rating{}
	get := func(n string) rating.Rating {
		if r, ok := want[n]; ok {
			return r
		}
		return rating.Default()
	}
	for _, p := range games {
		if p.white == "ann" || p.black == "ann" {
			continue
		}
		score := 1.0
		if p.loser == p.white {
			score = 0
		}
		w, b, err := rating.Game(get(p.white), get(p.black), score, rating.DefaultTau)
		if err != nil {
			t.Fatal(err)
		}
		want[p.white], want[p.black] = w, b
	}
	for _, n := range []string{"ann", "bob", "cy", "dan"} {
		var u struct {
			Ratings []wire.Rating `json:"ratings"`
		}
		ts.must(t, 200, "GET", "/api/user/"+n, "", nil, &u)
		w, ok := want[n]
		switch {
		case !ok && len(u.Ratings) != 0:
			t.Errorf("%s keeps ratings %+v", n, u.Ratings)
		case ok && (len(u.Ratings) != 1 || math.Abs(u.Ratings[0].Rating-w.R) > 1e-9 || math.Abs(u.Ratings[0].Deviation-w.RD) > 1e-9):
			t.Errorf("%s: %+v, want %.4f ±%.4f", n, u.Ratings, w.R, w.RD)
		}
	}
	var f wire.GameFull
	ts.must(t, 200, "GET", fmt.Sprintf("/api/game/%d", ids[0]), "", nil, &f)
	if f.Rated {
		t.Error("an annulled game is still rated")
	}
	var l wire.ModLog
	ts.must(t, 200, "GET", "/api/mod/log?limit=1", mo, nil, &l)
	if len(l.Actions) != 1 || l.Actions[0].Action != "annul" || !strings.HasPrefix(l.Actions[0].Detail, "2 rated games") {
		t.Errorf("the log: %+v", l)
	}
}

// TestBlocksOverHTTP: a block refuses the blocked one's challenge, and
// leaves their chat lines out of what the blocker reads: the full game,
// the chat's pages, the NDJSON stream and the WebSocket signed in by its
// first message (from then on); anyone else reads them. Unblocked, all
// comes back.
func TestBlocksOverHTTP(t *testing.T) {
	ts := newTestServer(t, server.Config{})
	ctx := context.Background()
	ann := ts.account(t, "ann")
	bob := ts.account(t, "bob")
	g := ts.gameBetween(t, ann, bob, "bob", false)
	ts.must(t, 200, "POST", fmt.Sprintf("/api/game/%d/chat", g), bob, map[string]string{"text": "before the block"}, nil)
	var blk wire.Block
	ts.must(t, 201, "POST", "/api/account/blocks", ann, map[string]string{"user": "bob"}, &blk)
	if blk.User.Name != "bob" || blk.SinceMs == 0 {
		t.Errorf("the block: %+v", blk)
	}
	for _, c := range []struct {
		body string
		want int
	}{{`{"user":"bob"}`, 409}, {`{"user":"ann"}`, 400}, {`{"user":"nobody"}`, 404}, {`{"user":"engine"}`, 400}, {`{}`, 400}, {`{"name":"bob"}`, 400}} {
		if code, data := ts.do(t, "POST", "/api/account/blocks", ann, c.body); code != c.want {
			t.Errorf("POST /api/account/blocks %s: %d %s, want %d", c.body, code, data, c.want)
		}
	}
	var bs struct{ Blocks []wire.Block }
	ts.must(t, 200, "GET", "/api/account/blocks", ann, nil, &bs)
	if len(bs.Blocks) != 1 || bs.Blocks[0].User.Name != "bob" {
		t.Errorf("ann's blocks: %+v", bs)
	}
	if code, data := ts.do(t, "POST", "/api/challenge/ann", bob, map[string]any{}); code != 403 {
		t.Errorf("the blocked one's challenge: %d %s, want 403", code, data)
	}

	sctx, stop := context.WithCancel(ctx)
	defer stop()
	annStream := stream(t, sctx, fmt.Sprintf("%s/api/game/%d/stream", ts.URL, g), ann)
	anyStream := stream(t, sctx, fmt.Sprintf("%s/api/game/%d/stream", ts.URL, g), "")
	sock := dialSocket(t, sctx, ts, g, ann, -1)
	first := func(c <-chan []byte) string {
		select {
		case l := <-c:
			return string(l)
		case <-time.After(5 * time.Second):
			t.Fatal("no line within 5 s")
		}
		return ""
	}
	if l := first(annStream); !strings.Contains(l, "gameFull") || strings.Contains(l, "before the block") {
		t.Errorf("the blocker's stream's full game: %s", l)
	}
	if l := first(anyStream); !strings.Contains(l, "before the block") {
		t.Errorf("anyone's stream's full game: %s", l)
	}
	first(sock.events) // its full game, sent before the sign-in: the client hides that one
	for _, m := range []struct{ tok, text string }{{bob, "after the block"}, {ann, "bye now"}} {
		ts.must(t, 200, "POST", fmt.Sprintf("/api/game/%d/chat", g), m.tok, map[string]string{"text": m.text}, nil)
	}
	for what, c := range map[string]<-chan []byte{"the blocker's stream": annStream, "the blocker's socket": sock.events} {
		if l := first(c); !strings.Contains(l, "bye now") {
			t.Errorf("%s: got %s, want ann's line and not bob's", what, l)
		}
	}
	if l := first(anyStream); !strings.Contains(l, "after the block") {
		t.Errorf("anyone's stream: got %s, want bob's line", l)
	}
	chatOf := func(tok string) string {
		var f wire.GameFull
		ts.must(t, 200, "GET", fmt.Sprintf("/api/game/%d", g), tok, nil, &f)
		var p wire.ChatPage
		ts.must(t, 200, "GET", fmt.Sprintf("/api/game/%d/chat", g), tok, nil, &p)
		b1, _ := json.Marshal(f.Chat)
		b2, _ := json.Marshal(p.Chat)
		if string(b1) != string(b2) {
			t.Errorf("the full game's chat %s and the page %s differ", b1, b2)
		}
		var texts []string
		for _, c := range f.Chat {
			texts = append(texts, c.Text)
		}
		return strings.Join(texts, "|")
	}
	if got := chatOf(ann); got != "bye now" {
		t.Errorf("the chat as ann reads it: %q", got)
	}
	if got := chatOf(""); got != "before the block|after the block|bye now" {
		t.Errorf("the chat as anyone reads it: %q", got)
	}
	if code, _ := ts.do(t, "GET", fmt.Sprintf("/api/game/%d", g), "not-a-token", nil); code != 401 {
		t.Errorf("the game with a bad token: %d, want 401", code)
	}
	ts.must(t, 204, "DELETE", "/api/account/blocks/bob", ann, nil, nil)
	if code, _ := ts.do(t, "DELETE", "/api/account/blocks/bob", ann, nil); code != 404 {
		t.Errorf("unblocking twice: %d, want 404", code)
	}
	if got := chatOf(ann); got != "before the block|after the block|bye now" {
		t.Errorf("the chat as ann reads it once unblocked: %q", got)
	}
}

// TestMuteAndWarnOverHTTP: a muted player's chat is 403 on HTTP and on
// the socket; the warning reaches their account stream and
// GET /api/account/warnings until acknowledged.
func TestMuteAndWarnOverHTTP(t *testing.T) {
	ts := newTestServer(t, server.Config{})
	ctx := context.Background()
	ann := ts.account(t, "ann")
	bob := ts.account(t, "bob")
	mo := ts.account(t, "mo")
	ts.moderator(t, "mo")
	g := ts.gameBetween(t, ann, bob, "bob", false)
	var mu wire.ModUser
	ts.must(t, 200, "POST", "/api/mod/user/bob/mute", mo, map[string]any{"hours": 24, "note": "insults"}, &mu)
	if !mu.Muted || mu.MutedUntilMs == 0 {
		t.Errorf("the mute: %+v", mu)
	}
	if code, data := ts.do(t, "POST", fmt.Sprintf("/api/game/%d/chat", g), bob, map[string]string{"text": "hi"}); code != 403 || !strings.Contains(string(data), "muted") {
		t.Errorf("a muted player's chat: %d %s, want 403", code, data)
	}
	sock := dialSocket(t, ctx, ts, g, bob, -1)
	if a := sock.send(t, ctx, socketMessage{ID: 7, Type: "chat", Text: "hi"}); a.Type != "error" || a.Code != 403 {
		t.Errorf("a muted player's chat on the socket: %+v", a)
	}
	var acc wire.Account
	ts.must(t, 200, "GET", "/api/account", bob, nil, &acc)
	if !acc.Muted || acc.MutedUntilMs != mu.MutedUntilMs {
		t.Errorf("GET /api/account of a muted player: %+v", acc)
	}
	ts.must(t, 200, "POST", "/api/mod/user/bob/unmute", mo, map[string]any{}, nil)
	ts.must(t, 200, "POST", fmt.Sprintf("/api/game/%d/chat", g), bob, map[string]string{"text": "sorry"}, nil)

	events := stream(t, ctx, ts.URL+"/api/stream/event", bob)
	var w wire.Warning
	ts.must(t, 200, "POST", "/api/mod/user/bob/warn", mo, map[string]any{"text": "Be kind in the chat."}, &w)
	for {
		e := next(t, events)
		if e.Type == "warning" {
			break
		}
	}
	var ws struct{ Warnings []wire.Warning }
	ts.must(t, 200, "GET", "/api/account/warnings", bob, nil, &ws)
	if len(ws.Warnings) != 1 || ws.Warnings[0].Text != "Be kind in the chat." {
		t.Errorf("bob's warnings: %+v", ws)
	}
	if code, _ := ts.do(t, "POST", fmt.Sprintf("/api/account/warnings/%d/ack", w.ID), ann, nil); code != 404 {
		t.Errorf("another's acknowledgement: %d, want 404", code)
	}
	ts.must(t, 204, "POST", fmt.Sprintf("/api/account/warnings/%d/ack", w.ID), bob, nil, nil)
	if code, _ := ts.do(t, "POST", fmt.Sprintf("/api/account/warnings/%d/ack", w.ID), bob, nil); code != 409 {
		t.Errorf("a second acknowledgement: %d, want 409", code)
	}
	ts.must(t, 200, "GET", "/api/account/warnings", bob, nil, &ws)
	if len(ws.Warnings) != 0 {
		t.Errorf("bob's warnings once acknowledged: %+v", ws)
	}
	var modAcc wire.Account
	ts.must(t, 200, "GET", "/api/account", mo, nil, &modAcc)
	if !modAcc.Moderator {
		t.Errorf("GET /api/account of a moderator: %+v", modAcc)
	}
	if code, _ := ts.do(t, "GET", "/api/account", "", nil); code != http.StatusUnauthorized {
		t.Errorf("GET /api/account without a token: %d", code)
	}
}
