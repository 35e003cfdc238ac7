package server

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/morrisgame/morris/internal/server/rating"
	"github.com/morrisgame/morris/internal/server/store"
	"github.com/morrisgame/morris/internal/server/store/storetest"
	"github.com/morrisgame/morris/internal/server/wire"
)

// makeModerator makes a user a moderator as the operator does (morris
// admin opens the store itself).
func makeModerator(t *testing.T, s *Service, name string) User {
	t.Helper()
	u, err := s.st.SetModerator(context.Background(), name, true, "")
	if err != nil {
		t.Fatal(err)
	}
	return userOf(u)
}

// TestReportsService: a player reports a player and a chat line, the line
// kept as evidence when the chat is trimmed; bad reports are refused with
// their reason and store nothing; one report per line while it is open;
// at most MaxOpenReports open; and the rate of reports.
func TestReportsService(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dsn string) {
		s := newServiceOn(t, dsn, Config{Rates: Rates{Report: 1e6, ReportBurst: 1e6, ReportAddr: 1e6, ReportAddrBurst: 1e6, Signup: 1e6, SignupBurst: 1e6},
			Quotas: Quotas{ChatKept: 2}})
		ctx := context.Background()
		ann, bob := signUp(t, s, "ann"), signUp(t, s, "bob")
		g, err := pbmChallenge(ctx, s, "ann", "bob", GameSpec{})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Chat(ctx, bob, g.ID, "you play like a fool"); err != nil {
			t.Fatal(err)
		}
		page, err := s.ChatHistory(ctx, g.ID, 0, 0)
		if err != nil || len(page.Chat) != 1 {
			t.Fatalf("the chat: %+v, %v", page, err)
		}
		line := page.Chat[0]
		for _, c := range []struct {
			what string
			sp   ReportSpec
			kind Kind
		}{
			{"no reason", ReportSpec{User: "bob"}, BadRequest},
			{"a reason not on the list", ReportSpec{User: "bob", Reason: "rude"}, BadRequest},
			{"other without a text", ReportSpec{User: "bob", Reason: "other"}, BadRequest},
			{"a text too long", ReportSpec{User: "bob", Reason: "abuse", Text: strings.Repeat("x", MaxReportText+1)}, BadRequest},
			{"a control character", ReportSpec{User: "bob", Reason: "abuse", Text: "a\x00b"}, BadRequest},
			{"nobody", ReportSpec{Reason: "abuse"}, BadRequest},
			{"a player and a line", ReportSpec{User: "bob", Game: g.ID, Version: line.Version, Reason: "abuse"}, BadRequest},
			{"yourself", ReportSpec{User: "ANN", Reason: "abuse"}, BadRequest},
			{"your own line", ReportSpec{Game: g.ID, Version: line.Version, Reason: "abuse"}, BadRequest},
			{"an unknown player", ReportSpec{User: "nobody", Reason: "abuse"}, NotFound},
			{"a line that does not exist", ReportSpec{Game: g.ID, Version: line.Version + 5, Reason: "abuse"}, NotFound},
			{"a game that does not exist", ReportSpec{Game: 9999, Version: 1, Reason: "abuse"}, NotFound},
			{"the engine", ReportSpec{User: EngineName, Reason: "abuse"}, BadRequest},
		} {
			reporter := ann
			if c.what == "yourself" || c.what == "your own line" {
				reporter = map[string]User{"yourself": ann, "your own line": bob}[c.what]
			}
			_, err := s.Report(ctx, "addr", reporter, c.sp)
			wantKind(t, "a report of "+c.what, err, c.kind)
		}
		if rs, _ := s.st.Reports(ctx, store.ReportQuery{Limit: 10}); len(rs) != 0 {
			t.Fatalf("refused reports stored: %+v", rs)
		}

		r, err := s.Report(ctx, "addr", ann, ReportSpec{Game: g.ID, Version: line.Version, Reason: "abuse", Text: " rude in chat "})
		if err != nil {
			t.Fatal(err)
		}
		if r.User.Name != "bob" || r.Reporter.Name != "ann" || r.Line == nil || r.Line.Text != "you play like a fool" || r.Text != "rude in chat" || r.Status != "open" {
			t.Errorf("the report: %+v", r)
		}
		_, err = s.Report(ctx, "addr", ann, ReportSpec{Game: g.ID, Version: line.Version, Reason: "spam"})
		wantKind(t, "the same line twice", err, Conflict)
		// The chat keeps 2 lines: two more trim the reported one away.
		for _, text := range []string{"gg", "thanks"} {
			if err := s.Chat(ctx, ann, g.ID, text); err != nil {
				t.Fatal(err)
			}
		}
		if p, _ := s.ChatHistory(ctx, g.ID, 0, 0); len(p.Chat) != 2 || p.Chat[0].Text != "gg" {
			t.Fatalf("the chat after the trim: %+v", p.Chat)
		}
		stored, err := s.st.Report(ctx, r.ID)
		if err != nil || stored.ChatText != "you play like a fool" {
			t.Errorf("the evidence after the trim: %+v, %v", stored, err)
		}

		// At most MaxOpenReports open: Ann has one; 19 players more, then one too many.
		for i := range MaxOpenReports {
			name := "p" + string(rune('a'+i%26)) + string(rune('a'+i/26))
			signUp(t, s, name)
			_, err := s.Report(ctx, "addr", ann, ReportSpec{User: name, Reason: "spam"})
			if i < MaxOpenReports-1 && err != nil {
				t.Fatalf("report %d: %v", i+2, err)
			}
			if i == MaxOpenReports-1 {
				wantKind(t, "a report over the open quota", err, Conflict)
			}
		}
	})
}

// TestReportRate: past Rates.Report a player's reports are refused with
// TooMany, and past Rates.ReportAddr an address's, whoever files them.
func TestReportRate(t *testing.T) {
	s := newService(t, Config{Rates: Rates{Report: 1.0 / 3600, ReportBurst: 2, ReportAddr: 1.0 / 3600, ReportAddrBurst: 3}})
	ctx := context.Background()
	ann, bob := signUp(t, s, "ann"), signUp(t, s, "bob")
	for _, n := range []string{"cy", "dan", "eve", "fay"} {
		signUp(t, s, n)
	}
	for i, c := range []struct {
		who    User
		addr   string
		target string
		kind   Kind
	}{
		{ann, "a1", "cy", 0}, {ann, "a1", "dan", 0}, {ann, "a2", "eve", TooMany},
		{bob, "a1", "cy", 0}, {bob, "a1", "dan", TooMany},
	} {
		_, err := s.Report(ctx, c.addr, c.who, ReportSpec{User: c.target, Reason: "spam"})
		if c.kind == 0 && err != nil || c.kind != 0 && KindOf(err) != c.kind {
			t.Errorf("report %d (%s from %s): got %v, want kind %d", i, c.who.Name, c.addr, err, c.kind)
		}
	}
}

// TestModeratorOnly: every moderator's call from a player who is none is
// Forbidden and changes nothing; a moderator acts neither on themselves,
// nor on another moderator, nor on the engine; a closed moderator is none.
func TestModeratorOnly(t *testing.T) {
	s := newService(t, Config{})
	ctx := context.Background()
	ann, bob := signUp(t, s, "ann"), signUp(t, s, "bob")
	signUp(t, s, "cy")
	mo := signUp(t, s, "mo")
	r, err := s.Report(ctx, "addr", bob, ReportSpec{User: "ann", Reason: "abuse"})
	if err != nil {
		t.Fatal(err)
	}
	calls := map[string]func(u User) error{
		"reports": func(u User) error { _, err := s.ModReports(ctx, u, "open", 0, 0); return err },
		"resolve": func(u User) error { _, err := s.ResolveReport(ctx, u, r.ID, "done"); return err },
		"warn":    func(u User) error { _, err := s.Warn(ctx, u, "cy", "be nice", 0); return err },
		"mute":    func(u User) error { _, err := s.Mute(ctx, u, "cy", time.Hour, ModNote{}); return err },
		"unmute":  func(u User) error { _, err := s.Unmute(ctx, u, "cy", ModNote{}); return err },
		"close":   func(u User) error { _, err := s.CloseAccount(ctx, u, "cy", ModNote{Note: "x"}); return err },
		"reopen":  func(u User) error { _, err := s.ReopenAccount(ctx, u, "cy", ModNote{Note: "x"}); return err },
		"annul":   func(u User) error { _, err := s.Annul(ctx, u, "cy", ModNote{Note: "x"}); return err },
		"user":    func(u User) error { _, err := s.ModUser(ctx, u, "cy"); return err },
		"log":     func(u User) error { _, err := s.ModLog(ctx, u, "", 0, 0); return err },
	}
	for what, call := range calls {
		wantKind(t, "a player's "+what, call(ann), Forbidden)
	}
	if rs, _ := s.st.Reports(ctx, store.ReportQuery{Status: store.ReportOpen, Limit: 10}); len(rs) != 1 {
		t.Errorf("the open reports after the players' calls: %+v", rs)
	}
	if log, _ := s.st.ModActions(ctx, store.ActionQuery{Limit: 10}); len(log) != 0 {
		t.Errorf("the log after the players' calls: %+v", log)
	}
	if u, _ := s.st.UserByName(ctx, "cy"); u.Muted != store.MuteNone || !u.ClosedAt.IsZero() {
		t.Errorf("cy after the players' calls: %+v", u)
	}

	makeModerator(t, s, "mo")
	makeModerator(t, s, "bob")
	for _, name := range []string{"mo", "bob", EngineName} {
		_, err := s.Mute(ctx, mo, name, time.Hour, ModNote{})
		wantKind(t, "a moderator mutes "+name, err, Forbidden)
		_, err = s.CloseAccount(ctx, mo, name, ModNote{Note: "x"})
		wantKind(t, "a moderator closes "+name, err, Forbidden)
	}
	// A report about oneself is another moderator's to resolve.
	r2, err := s.Report(ctx, "addr", ann, ReportSpec{User: "mo", Reason: "abuse"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.ResolveReport(ctx, mo, r2.ID, "not me")
	wantKind(t, "a moderator resolves a report about them", err, Forbidden)
	if _, err := s.ResolveReport(ctx, bob, r2.ID, "checked the game: nothing wrong"); err != nil {
		t.Errorf("another moderator resolves it: %v", err)
	}
	// Bad input from a moderator: clear errors, nothing logged.
	for what, err := range map[string]error{
		"a resolution without a note": func() error { _, err := s.ResolveReport(ctx, mo, r.ID, " "); return err }(),
		"an unknown report":           func() error { _, err := s.ResolveReport(ctx, mo, 999, "x"); return err }(),
		"a mute too long":             func() error { _, err := s.Mute(ctx, mo, "cy", 400*24*time.Hour, ModNote{}); return err }(),
		"an unknown player":           func() error { _, err := s.Warn(ctx, mo, "nobody", "x", 0); return err }(),
		"an empty warning":            func() error { _, err := s.Warn(ctx, mo, "cy", "", 0); return err }(),
		"a report about another":      func() error { _, err := s.Warn(ctx, mo, "cy", "x", r.ID); return err }(),
		"a page too long":             func() error { _, err := s.ModLog(ctx, mo, "", 0, ModPage+1); return err }(),
		"a status not known":          func() error { _, err := s.ModReports(ctx, mo, "closed", 0, 0); return err }(),
	} {
		if k := KindOf(err); k != BadRequest && k != NotFound {
			t.Errorf("%s: got %v, want a bad request or not found", what, err)
		}
	}
	if log, _ := s.st.ModActions(ctx, store.ActionQuery{Limit: 10}); len(log) != 3 { // two made moderators, one resolution
		t.Errorf("the log: %+v", log)
	}
	// A closed moderator is no moderator: the operator closes nobody
	// through here, so the store does it.
	if _, _, err := s.st.CloseUser(ctx, mo.ID, store.ModAction{Action: "close", At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	wantKind(t, "a closed moderator's call", calls["log"](mo), Forbidden)
}

// TestMuteService: a muted player cannot chat anywhere until the mute
// ends or is lifted; the others can; each action is logged.
func TestMuteService(t *testing.T) {
	clk := &fakeClock{t: time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)}
	s := newService(t, Config{Now: clk.now})
	ctx := context.Background()
	ann, bob := signUp(t, s, "ann"), signUp(t, s, "bob")
	mo := signUp(t, s, "mo")
	makeModerator(t, s, "mo")
	g, err := pbmChallenge(ctx, s, "ann", "bob", GameSpec{})
	if err != nil {
		t.Fatal(err)
	}
	mu, err := s.Mute(ctx, mo, "bob", 2*time.Hour, ModNote{Note: "insults"})
	if err != nil {
		t.Fatal(err)
	}
	if !mu.Muted || mu.MutedUntilMs != clk.now().Add(2*time.Hour).UnixMilli() {
		t.Errorf("the mute: %+v", mu)
	}
	err = s.Chat(ctx, bob, g.ID, "hello")
	wantKind(t, "a muted player's chat", err, Forbidden)
	if err != nil && !strings.Contains(err.Error(), "muted") {
		t.Errorf("the error says nothing of the mute: %v", err)
	}
	if st, _ := s.AccountStatus(ctx, bob); !st.Muted || st.MutedUntilMs == 0 {
		t.Errorf("bob's account while muted: %+v", st)
	}
	if err := s.Chat(ctx, ann, g.ID, "hello"); err != nil {
		t.Errorf("ann's chat: %v", err)
	}
	clk.add(2*time.Hour + time.Second)
	if err := s.Chat(ctx, bob, g.ID, "back"); err != nil {
		t.Errorf("bob's chat after the mute: %v", err)
	}
	_, err = s.Unmute(ctx, mo, "bob", ModNote{})
	wantKind(t, "unmuting a player whose mute ended", err, Conflict)
	if _, err := s.Mute(ctx, mo, "bob", 0, ModNote{}); err != nil {
		t.Fatal(err)
	}
	clk.add(1000 * time.Hour)
	wantKind(t, "a player muted until lifted", s.Chat(ctx, bob, g.ID, "x"), Forbidden)
	if _, err := s.Unmute(ctx, mo, "bob", ModNote{Note: "apologised"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Chat(ctx, bob, g.ID, "sorry"); err != nil {
		t.Errorf("bob's chat once unmuted: %v", err)
	}
	log, err := s.ModLog(ctx, mo, "bob", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range log.Actions {
		got = append(got, a.Action+":"+a.Detail)
	}
	if len(got) != 3 || got[0] != "unmute:" || got[1] != "mute:until lifted" || !strings.HasPrefix(got[2], "mute:for 2h0m0s") {
		t.Errorf("the log: %v", got)
	}
}

// TestWarningsService: a warning reaches the player's account stream at
// once, comes again on each connection until acknowledged, and no more
// after; only its player acknowledges it, once.
func TestWarningsService(t *testing.T) {
	s := newService(t, Config{})
	ctx := context.Background()
	ann, bob := signUp(t, s, "ann"), signUp(t, s, "bob")
	mo := signUp(t, s, "mo")
	makeModerator(t, s, "mo")
	if _, err := pbmChallenge(ctx, s, "ann", "bob", GameSpec{}); err != nil { // collect waits for its gameStart
		t.Fatal(err)
	}
	events, stop := collect(t, s, bob)
	w, err := s.Warn(ctx, mo, "bob", "Keep the chat friendly, please.", 0)
	if err != nil {
		t.Fatal(err)
	}
	waitEvent(t, events, "the warning live", func(e wire.Event) bool { return e.Type == "warning" && e.Warning.ID == w.ID })
	stop()
	events, stop = collect(t, s, bob)
	waitEvent(t, events, "the warning on connection", func(e wire.Event) bool {
		return e.Type == "warning" && e.Warning.Text == "Keep the chat friendly, please."
	})
	stop()
	wantKind(t, "another's acknowledgement", s.AcknowledgeWarning(ctx, ann, w.ID), NotFound)
	if err := s.AcknowledgeWarning(ctx, bob, w.ID); err != nil {
		t.Fatal(err)
	}
	wantKind(t, "a second acknowledgement", s.AcknowledgeWarning(ctx, bob, w.ID), Conflict)
	if ws, _ := s.Warnings(ctx, bob); len(ws) != 0 {
		t.Errorf("pending after the acknowledgement: %+v", ws)
	}
	var lines lineRecorder
	sctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); s.WatchAccount(sctx, bob, lines.send) }()
	time.Sleep(200 * time.Millisecond)
	cancel()
	<-done
	for _, l := range lines.lines {
		if strings.Contains(l, `"warning"`) {
			t.Errorf("an acknowledged warning sent again: %s", l)
		}
	}
	if mu, _ := s.ModUser(ctx, mo, "bob"); len(mu.Warnings) != 1 || mu.Warnings[0].AcknowledgedMs == 0 {
		t.Errorf("the moderators' view of bob's warnings: %+v", mu.Warnings)
	}
}

func waitEvent(t *testing.T, events func() []wire.Event, what string, ok func(wire.Event) bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		for _, e := range events() {
			if ok(e) {
				return
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("%s: not among %+v", what, events())
}

// TestCloseAccount: a closed account's cached token is refused at once,
// its streams end, its password signs in no more (pbmserv's way too), its
// seek is cancelled and its game is won by the opponent; the account stays
// findable, and a reopened one signs in again.
func TestCloseAccount(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dsn string) {
		s := newServiceOn(t, dsn, Config{})
		ctx := context.Background()
		signUp(t, s, "ann")
		signUp(t, s, "bob")
		mo := signUp(t, s, "mo")
		makeModerator(t, s, "mo")
		tok, _, bob, err := s.NewToken(ctx, "addr", "bob", "secret-bob")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Authenticate(ctx, "addr", tok); err != nil { // cached now
			t.Fatal(err)
		}
		g, err := pbmChallenge(ctx, s, "ann", "bob", GameSpec{})
		if err != nil {
			t.Fatal(err)
		}
		seek, err := s.Challenge(ctx, bob, "", GameSpec{Variant: "lasker"})
		if err != nil {
			t.Fatal(err)
		}
		sess, end := s.Session(ctx, bob, tok)
		defer end()

		mu, err := s.CloseAccount(ctx, mo, "bob", ModNote{Note: "cheating, see report"})
		if err != nil {
			t.Fatal(err)
		}
		if mu.ClosedMs == 0 {
			t.Errorf("the closed account: %+v", mu)
		}
		_, err = s.Authenticate(ctx, "addr", tok)
		wantKind(t, "the closed account's cached token", err, Unauthorized)
		select {
		case <-sess.Done():
		case <-time.After(time.Second):
			t.Error("the closed account's stream goes on")
		}
		_, err = s.Login(ctx, "addr", "bob", "secret-bob")
		wantKind(t, "the closed account's sign-in", err, Forbidden)
		_, _, _, err = s.NewToken(ctx, "addr", "bob", "secret-bob")
		wantKind(t, "a token for the closed account", err, Forbidden)
		_, err = s.Login(ctx, "addr", "bob", "wrong-password")
		wantKind(t, "a wrong password of the closed account", err, Unauthorized)
		v, err := s.View(ctx, g.ID)
		if err != nil || v.Status != Finished || v.Result != "1-0" || v.Method != "abandonment" {
			t.Errorf("bob's game after the close: %s %s by %s (%v), want 1-0 by abandonment", v.Status, v.Result, v.Method, err)
		}
		if c, _ := s.st.Challenge(ctx, seek.ID); c.Status != store.ChallengeCancelled {
			t.Errorf("bob's seek after the close: %s", c.Status)
		}
		if _, err := s.UserByName(ctx, "bob"); err != nil {
			t.Errorf("a closed account's page: %v", err)
		}
		_, err = s.CloseAccount(ctx, mo, "bob", ModNote{Note: "again"})
		wantKind(t, "a second close", err, Conflict)
		_, err = s.CloseAccount(ctx, mo, "ann", ModNote{})
		wantKind(t, "a close without a note", err, BadRequest)
		if _, err := s.ReopenAccount(ctx, mo, "bob", ModNote{Note: "appeal granted"}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Login(ctx, "addr", "bob", "secret-bob"); err != nil {
			t.Errorf("the reopened account's sign-in: %v", err)
		}
		_, err = s.Authenticate(ctx, "addr", tok)
		wantKind(t, "a token revoked by the close, after the reopening", err, Unauthorized)
	})
}

// TestAnnulRatings: the ratings after an annulment are those of the
// replay of the variant's other rated games, in the order they ended,
// for the opponents and for the players who never met the annulled one
// but met their opponents; the annulled player keeps no rating, their
// games are unrated, and the games that were unrated stay so. Before it,
// the replay of every rated game gives the ratings stored: the fold is
// what the games' ends wrote.
func TestAnnulRatings(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dsn string) {
		s := newServiceOn(t, dsn, Config{})
		ctx := context.Background()
		users := map[string]User{}
		for _, n := range []string{"ann", "bob", "cy", "dan"} {
			users[n] = signUp(t, s, n)
		}
		mo := signUp(t, s, "mo")
		makeModerator(t, s, "mo")
		type played struct {
			white, black, loser string
			rated               bool
		}
		games := []played{
			{"ann", "bob", "bob", true},
			{"bob", "cy", "bob", true},
			{"cy", "ann", "ann", true},
			{"cy", "dan", "dan", true},
			{"bob", "dan", "bob", true},
			{"ann", "dan", "dan", false},
			{"dan", "cy", "dan", true},
		}
		var ids []int64
		for _, p := range games {
			g, err := pbmChallenge(ctx, s, p.white, p.black, GameSpec{Rated: p.rated})
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Resign(ctx, users[p.loser], g.ID); err != nil {
				t.Fatal(err)
			}
			ids = append(ids, g.ID)
			time.Sleep(2 * time.Millisecond) // ends a millisecond apart at least
		}
		// expect folds the games but those involving without, as the ends rate them.
		expect := func(without string) map[string]rating.Rating {
			rs := map[string]rating.Rating{}
			get := func(n string) rating.Rating {
				if r, ok := rs[n]; ok {
					return r
				}
				return rating.Default()
			}
			for _, p := range games {
				if !p.rated || p.white == without || p.black == without {
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
				rs[p.white], rs[p.black] = w, b
			}
			return rs
		}
		check := func(when string, want map[string]rating.Rating) {
			t.Helper()
			for n, u := range users {
				got, err := s.st.Rating(ctx, u.ID, "nine-mens-morris")
				w, ok := want[n]
				switch {
				case !ok && err == nil:
					t.Errorf("%s: %s has a rating %+v, want none", when, n, got)
				case ok && err != nil:
					t.Errorf("%s: %s has no rating (%v), want %+v", when, n, err, w)
				case ok && (math.Abs(got.R-w.R) > 1e-9 || math.Abs(got.RD-w.RD) > 1e-9 || math.Abs(got.Sigma-w.Sigma) > 1e-12):
					t.Errorf("%s: %s's rating %.6f ±%.6f σ %.8f, want %.6f ±%.6f σ %.8f", when, n, got.R, got.RD, got.Sigma, w.R, w.RD, w.Sigma)
				}
			}
		}
		check("before the annulment", expect(""))

		_, err := s.Annul(ctx, mo, "ann", ModNote{})
		wantKind(t, "an annulment without a note", err, BadRequest)
		a, err := s.Annul(ctx, mo, "ann", ModNote{Note: "engine use, report 3"})
		if err != nil {
			t.Fatal(err)
		}
		if len(a.Games) != 2 || a.Games[0] != ids[0] || a.Games[1] != ids[2] || len(a.Variants) != 1 {
			t.Errorf("the annulment: %+v, want games %d and %d", a, ids[0], ids[2])
		}
		check("after the annulment", expect("ann"))
		for i, id := range ids {
			g, err := s.st.Game(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			want := games[i].rated && games[i].white != "ann" && games[i].black != "ann"
			if g.Rated != want {
				t.Errorf("game %d rated %v after the annulment, want %v", id, g.Rated, want)
			}
		}
		r, err := s.st.Rating(ctx, users["bob"].ID, "nine-mens-morris")
		if err != nil || r.Games != 2 {
			t.Errorf("bob's games counted: %+v, %v; want 2", r, err)
		}
		_, err = s.Annul(ctx, mo, "ann", ModNote{Note: "again"})
		wantKind(t, "a second annulment", err, Conflict)
		// The next rated game rates from the new ratings.
		g, err := pbmChallenge(ctx, s, "bob", "cy", GameSpec{Rated: true})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Resign(ctx, users["cy"], g.ID); err != nil {
			t.Fatal(err)
		}
		games = append(games, played{"bob", "cy", "cy", true})
		check("after a game after the annulment", expect("ann"))
	})
}

// TestBlocksService: a block keeps the two apart (challenges, pbm
// challenges, seeks taken, pairing, the lobby), cancels the challenges
// between them, and hides the blocked player's chat lines from the
// blocker in the full game, the chat's pages and the game's stream, but
// not from anyone else; unblocking undoes it.
func TestBlocksService(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dsn string) {
		s := newServiceOn(t, dsn, Config{})
		ctx := context.Background()
		ann, bob, cy := signUp(t, s, "ann"), signUp(t, s, "bob"), signUp(t, s, "cy")
		g, err := pbmChallenge(ctx, s, "ann", "bob", GameSpec{})
		if err != nil {
			t.Fatal(err)
		}
		open, err := s.Challenge(ctx, bob, "ann", GameSpec{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Block(ctx, ann, "bob"); err != nil {
			t.Fatal(err)
		}
		if c, _ := s.st.Challenge(ctx, open.ID); c.Status != store.ChallengeCancelled {
			t.Errorf("bob's challenge to ann after the block: %s", c.Status)
		}
		for what, err := range map[string]error{
			"yourself":   func() error { _, err := s.Block(ctx, ann, "ann"); return err }(),
			"twice":      func() error { _, err := s.Block(ctx, ann, "BOB"); return err }(),
			"the engine": func() error { _, err := s.Block(ctx, ann, EngineName); return err }(),
			"nobody":     func() error { _, err := s.Block(ctx, ann, "nobody"); return err }(),
			"a bad name": func() error { _, err := s.Block(ctx, ann, "no body"); return err }(),
		} {
			if k := KindOf(err); k != BadRequest && k != Conflict && k != NotFound {
				t.Errorf("blocking %s: got %v", what, err)
			}
		}
		if bs, _ := s.Blocks(ctx, ann); len(bs) != 1 || bs[0].User.Name != "bob" {
			t.Errorf("ann's blocks: %+v", bs)
		}
		_, err = s.Challenge(ctx, bob, "ann", GameSpec{})
		wantKind(t, "the blocked one's challenge", err, Forbidden)
		_, err = s.Challenge(ctx, ann, "bob", GameSpec{})
		wantKind(t, "the blocker's challenge", err, Forbidden)
		if err := s.SetFilter(ctx, ann, "nine-mens-morris", nil, true); err != nil {
			t.Fatal(err)
		}
		_, err = s.PbmChallenge(ctx, bob, "ann", GameSpec{})
		wantKind(t, "the blocked one's pbm challenge", err, Forbidden)
		// Seeks: never paired, not taken, not shown to each other.
		annSeek, err := s.Challenge(ctx, ann, "", GameSpec{})
		if err != nil {
			t.Fatal(err)
		}
		bobSeek, err := s.Challenge(ctx, bob, "", GameSpec{})
		if err != nil || bobSeek.Game != 0 {
			t.Fatalf("bob's seek against ann's: %+v, %v; want it left open", bobSeek, err)
		}
		_, err = s.Accept(ctx, bob, annSeek.ID)
		wantKind(t, "the blocked one takes the blocker's seek", err, Forbidden)
		for _, who := range []User{ann, bob} {
			_, seeks, err := s.Challenges(ctx, who)
			if err != nil || len(seeks) != 1 || seeks[0].From.ID != who.ID {
				t.Errorf("%s's lobby: %+v, %v; want their own seek only", who.Name, seeks, err)
			}
		}
		if _, seeks, _ := s.Challenges(ctx, cy); len(seeks) != 2 {
			t.Errorf("cy's lobby: %+v, want both seeks", seeks)
		}
		cySeek, err := s.Challenge(ctx, cy, "", GameSpec{})
		if err != nil || cySeek.Game == 0 || cySeek.Status != "accepted" {
			t.Errorf("cy's seek: %+v, %v; want it paired", cySeek, err)
		}

		// The chat: ann does not see bob's lines, anyone else does.
		var annSees, anyoneSees lineRecorder
		sctx, stop := context.WithCancel(ctx)
		defer stop()
		var wg sync.WaitGroup
		wg.Add(2)
		go func() { defer wg.Done(); s.WatchGameAs(sctx, g.ID, -1, NewViewer(&ann), annSees.send) }()
		go func() { defer wg.Done(); s.WatchGame(sctx, g.ID, -1, anyoneSees.send) }()
		annSees.waitFor(t, "gameFull", 5*time.Second, func(l string) bool { return strings.Contains(l, "gameFull") })
		anyoneSees.waitFor(t, "gameFull", 5*time.Second, func(l string) bool { return strings.Contains(l, "gameFull") })
		for _, m := range []struct {
			who  User
			text string
		}{{bob, "you cannot hide"}, {ann, "bye"}} {
			if err := s.Chat(ctx, m.who, g.ID, m.text); err != nil {
				t.Fatal(err)
			}
		}
		anyoneSees.waitFor(t, "ann's line", 5*time.Second, func(l string) bool { return strings.Contains(l, "bye") })
		annSees.waitFor(t, "ann's line", 5*time.Second, func(l string) bool { return strings.Contains(l, "bye") })
		anyoneSees.waitFor(t, "bob's line", time.Second, func(l string) bool { return strings.Contains(l, "you cannot hide") })
		stop()
		wg.Wait()
		for _, l := range annSees.lines {
			if strings.Contains(l, "you cannot hide") {
				t.Errorf("the blocker's stream has the blocked one's line: %s", l)
			}
		}
		chatOf := func(v *Viewer) []string {
			f, err := s.GameAs(ctx, g.ID, v)
			if err != nil {
				t.Fatal(err)
			}
			p, err := s.ChatHistoryAs(ctx, g.ID, 0, 0, v)
			if err != nil {
				t.Fatal(err)
			}
			var out []string
			for _, c := range f.Chat {
				out = append(out, c.User+": "+c.Text)
			}
			if len(p.Chat) != len(f.Chat) {
				t.Errorf("the chat's page %+v and the full game's %+v differ", p.Chat, f.Chat)
			}
			return out
		}
		if got := chatOf(NewViewer(&ann)); strings.Join(got, "|") != "ann: bye" {
			t.Errorf("the full game as ann reads it: %q", got)
		}
		for _, v := range []*Viewer{nil, NewViewer(nil), NewViewer(&bob), NewViewer(&cy)} {
			if got := chatOf(v); len(got) != 2 {
				t.Errorf("the full game as %d reads it: %q", v.user(), got)
			}
		}
		// A stream resumed with ?since passes over the hidden line too.
		var resumed lineRecorder
		rctx, rstop := context.WithCancel(ctx)
		go s.WatchGameAs(rctx, g.ID, 0, NewViewer(&ann), resumed.send)
		resumed.waitFor(t, "ann's line again", 5*time.Second, func(l string) bool { return strings.Contains(l, "bye") })
		rstop()
		resumed.mu.Lock()
		for _, l := range resumed.lines {
			if strings.Contains(l, "you cannot hide") {
				t.Errorf("a resumed stream of the blocker has the blocked one's line: %s", l)
			}
		}
		resumed.mu.Unlock()

		if err := s.Unblock(ctx, ann, "bob"); err != nil {
			t.Fatal(err)
		}
		wantKind(t, "unblocking twice", s.Unblock(ctx, ann, "bob"), NotFound)
		if got := chatOf(NewViewer(&ann)); len(got) != 2 {
			t.Errorf("the full game as ann reads it once unblocked: %q", got)
		}
		if _, err := s.Challenge(ctx, bob, "ann", GameSpec{}); err != nil {
			t.Errorf("bob's challenge once unblocked: %v", err)
		}
	})
}

// TestAccountStatus: GET /api/account's view of a moderator.
func TestAccountStatus(t *testing.T) {
	s := newService(t, Config{})
	ctx := context.Background()
	mo := signUp(t, s, "mo")
	if st, _ := s.AccountStatus(ctx, mo); st.Moderator {
		t.Errorf("a player: %+v", st)
	}
	makeModerator(t, s, "mo")
	st, err := s.AccountStatus(ctx, mo)
	if err != nil || !st.Moderator || st.Muted {
		t.Errorf("a moderator: %+v, %v", st, err)
	}
	b, _ := json.Marshal(st)
	if !strings.Contains(string(b), `"moderator":true`) {
		t.Errorf("the JSON: %s", b)
	}
}

// TestCloseAcrossProcesses: two processes on one PostgreSQL database; a
// moderator closes an account through the first while the second has its
// token cached and a stream open with it: the second refuses the token at
// once (within the relay's notice, not the cache's 30 s) and ends the
// stream.
func TestCloseAcrossProcesses(t *testing.T) {
	dsn := storetest.DSN(t, "postgres") // skips without MORRIS_TEST_POSTGRES
	a := newServiceOn(t, dsn, Config{})
	b := newServiceOn(t, dsn, Config{})
	ctx := context.Background()
	bob := signUp(t, a, "bob")
	mo := signUp(t, a, "mo")
	makeModerator(t, a, "mo")
	time.Sleep(300 * time.Millisecond) // the listeners in place, as the relay's test
	tok := token(t, a, "bob", "secret-bob")
	if !authenticates(b, tok) { // cached by b now
		t.Fatal("bob's token refused before the close")
	}
	sess, end := b.Session(ctx, bob, tok)
	defer end()
	if _, err := a.CloseAccount(ctx, mo, "bob", ModNote{Note: "abuse"}); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	for authenticates(b, tok) {
		if time.Since(start) > 2*time.Second {
			t.Fatalf("the closed account's token still taken by the other process after %v", time.Since(start))
		}
		time.Sleep(time.Millisecond)
	}
	t.Logf("refused by the other process after %v", time.Since(start))
	select {
	case <-sess.Done():
	case <-time.After(time.Second):
		t.Error("the other process's stream of the closed account goes on")
	}
	if _, err := b.Login(ctx, "addr", "bob", "secret-bob"); KindOf(err) != Forbidden {
		t.Errorf("the closed account signs in on the other process: %v", err)
	}
}
