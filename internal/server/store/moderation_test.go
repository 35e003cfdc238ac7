package store

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"
)

// finished stores a game between white and black that ended with result
// at t0+minutes, rated as given.
func (f *fixture) finished(white, black User, result string, minutes int, rated bool) Game {
	f.t.Helper()
	g, err := f.s.CreateGame(f.ctx, Game{Variant: f.gameVariant, Rules: f.gameRules, White: white.ID, Black: black.ID, Rated: rated, LastMoveAt: t0})
	must(f.t, "CreateGame", err)
	f.s.now = func() time.Time { return t0.Add(time.Duration(minutes) * time.Minute) }
	defer func() { f.s.now = time.Now }()
	_, err = f.s.FinishGame(f.ctx, g.ID, Finish{Ply: 0, At: t0.Add(time.Duration(minutes) * time.Minute), Ending: Ending{Result: result, Method: "resignation"}})
	must(f.t, "FinishGame", err)
	return g
}

// TestModeratorFlag: the operator makes a moderator and unmakes one, each
// logged under the operator (moderator 0); doing it twice is a conflict;
// an unknown or deleted user is not found.
func TestModeratorFlag(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		f := newFixture(t, dsn)
		s := f.s
		u, err := s.SetModerator(ctx, "ANN", true, "club secretary")
		must(t, "SetModerator", err)
		if !u.Moderator || u.ID != f.ann.ID {
			t.Errorf("SetModerator: got %+v", u)
		}
		_, err = s.SetModerator(ctx, "ann", true, "")
		wantErr(t, "SetModerator twice", err, ErrConflict)
		_, err = s.SetModerator(ctx, "nobody", true, "")
		wantErr(t, "SetModerator(unknown)", err, ErrNotFound)
		mods, err := s.Moderators(ctx)
		must(t, "Moderators", err)
		if len(mods) != 1 || mods[0].Name != "Ann" || !mods[0].Moderator {
			t.Errorf("Moderators: got %+v", mods)
		}
		if u, _ := s.User(ctx, f.ann.ID); !u.Moderator {
			t.Error("User: the moderator's flag is not read")
		}
		if u, _ := s.UserByName(ctx, "bob"); u.Moderator || u.Muted != MuteNone || !u.ClosedAt.IsZero() {
			t.Errorf("Bob: got %+v, want no moderation", u)
		}
		_, err = s.SetModerator(ctx, "ann", false, "stepped down")
		must(t, "SetModerator(off)", err)
		log, err := s.ModActions(ctx, ActionQuery{Limit: 10})
		must(t, "ModActions", err)
		if len(log) != 2 || log[0].Action != "unmoderator" || log[1].Action != "moderator" || log[1].Moderator != 0 ||
			log[1].ModeratorName != "" || log[1].TargetName != "Ann" || log[1].Note != "club secretary" {
			t.Errorf("the log: got %+v", log)
		}
		must(t, "DeleteUser", s.DeleteUser(ctx, f.bob.ID, "deleted-2"))
		_, err = s.SetModerator(ctx, "bob", true, "")
		wantErr(t, "SetModerator(deleted)", err, ErrNotFound)
	})
}

// TestMuteCloseReopen: mutes read back as they were set; closing an
// account deletes its tokens, cancels its open challenges (to and from
// it), refuses a token made after it, and is logged; a second close is a
// conflict, a reopen makes it open again.
func TestMuteCloseReopen(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		f := newFixture(t, dsn)
		s := f.s
		mod := f.user("Mo")
		act := func(action string) ModAction { return ModAction{Moderator: mod.ID, Action: action, At: t0} }
		until := t0.Add(24 * time.Hour)
		must(t, "SetMute(until)", s.SetMute(ctx, f.bob.ID, MuteUntil, until, act("mute")))
		if u, _ := s.User(ctx, f.bob.ID); u.Muted != MuteUntil || !u.MutedUntil.Equal(until) {
			t.Errorf("muted until: got %v %v, want until %v", u.Muted, u.MutedUntil, until)
		}
		must(t, "SetMute(forever)", s.SetMute(ctx, f.bob.ID, MuteForever, time.Time{}, act("mute")))
		if u, _ := s.User(ctx, f.bob.ID); u.Muted != MuteForever {
			t.Errorf("muted forever: got %v", u.Muted)
		}
		must(t, "SetMute(none)", s.SetMute(ctx, f.bob.ID, MuteNone, time.Time{}, act("unmute")))
		if u, _ := s.User(ctx, f.bob.ID); u.Muted != MuteNone {
			t.Errorf("unmuted: got %v", u.Muted)
		}
		wantErr(t, "SetMute(unknown)", s.SetMute(ctx, 999, MuteForever, time.Time{}, act("mute")), ErrNotFound)

		must(t, "CreateToken", s.CreateToken(ctx, Token{Hash: "b1", User: f.bob.ID}))
		must(t, "CreateToken", s.CreateToken(ctx, Token{Hash: "b2", User: f.bob.ID}))
		must(t, "CreateToken", s.CreateToken(ctx, Token{Hash: "a1", User: f.ann.ID}))
		toBob, err := s.CreateChallenge(ctx, Challenge{From: f.ann.ID, To: f.bob.ID, Variant: "nine-mens-morris", Rules: "nine-mens-morris", Color: "white"})
		must(t, "CreateChallenge", err)
		seek, err := s.CreateChallenge(ctx, Challenge{From: f.bob.ID, Variant: "nine-mens-morris", Rules: "nine-mens-morris", Color: "random"})
		must(t, "CreateChallenge", err)
		annSeek, err := s.CreateChallenge(ctx, Challenge{From: f.ann.ID, Variant: "nine-mens-morris", Rules: "nine-mens-morris", Color: "random"})
		must(t, "CreateChallenge", err)

		a := act("close")
		a.At = t0.Add(time.Hour)
		n, cancelled, err := s.CloseUser(ctx, f.bob.ID, a)
		must(t, "CloseUser", err)
		if n != 2 || len(cancelled) != 2 || cancelled[0].ID != toBob.ID || cancelled[1].ID != seek.ID || cancelled[0].Status != ChallengeCancelled {
			t.Errorf("CloseUser: got %d tokens, cancelled %+v; want 2 and challenges %d, %d", n, cancelled, toBob.ID, seek.ID)
		}
		if c, _ := s.Challenge(ctx, annSeek.ID); c.Status != ChallengeOpen {
			t.Errorf("Ann's own seek after Bob's close: %s", c.Status)
		}
		u, err := s.User(ctx, f.bob.ID)
		must(t, "User", err)
		if !u.ClosedAt.Equal(t0.Add(time.Hour)) {
			t.Errorf("closed at: got %v", u.ClosedAt)
		}
		if _, err := s.UserByName(ctx, "bob"); err != nil {
			t.Errorf("a closed account is found by name (its page stays): %v", err)
		}
		// A token made in the instant of the close is no key.
		must(t, "CreateToken", s.CreateToken(ctx, Token{Hash: "b3", User: f.bob.ID}))
		for _, h := range []string{"b1", "b2", "b3"} {
			_, err := s.UserByToken(ctx, h, t0)
			wantErr(t, "UserByToken("+h+") of a closed account", err, ErrNotFound)
		}
		if _, err := s.UserByToken(ctx, "a1", t0); err != nil {
			t.Errorf("Ann's token after Bob's close: %v", err)
		}
		_, _, err = s.CloseUser(ctx, f.bob.ID, act("close"))
		wantErr(t, "CloseUser twice", err, ErrConflict)
		must(t, "ReopenUser", s.ReopenUser(ctx, f.bob.ID, act("reopen")))
		wantErr(t, "ReopenUser twice", s.ReopenUser(ctx, f.bob.ID, act("reopen")), ErrConflict)
		if _, err := s.UserByToken(ctx, "b3", t0); err != nil {
			t.Errorf("a token made after the close works once the account is open again (the close deleted only those before): %v", err)
		}
		log, err := s.ModActions(ctx, ActionQuery{Target: f.bob.ID, Limit: 100})
		must(t, "ModActions", err)
		var got []string
		for _, l := range log {
			got = append(got, l.Action)
			if l.ModeratorName != "Mo" || l.TargetName != "Bob" {
				t.Errorf("a line of the log: got %+v", l)
			}
		}
		if want := []string{"reopen", "close", "unmute", "mute", "mute"}; !slices.Equal(got, want) {
			t.Errorf("the log of Bob: got %v, want %v (a refused action logs nothing)", got, want)
		}
	})
}

// TestWarningsStore: a warning is pending until its user acknowledges it;
// another user cannot, and nobody can twice.
func TestWarningsStore(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		f := newFixture(t, dsn)
		s := f.s
		w, err := s.AddWarning(ctx, Warning{User: f.bob.ID, Moderator: f.ann.ID, Text: "mind your words", At: t0},
			ModAction{Moderator: f.ann.ID, Action: "warn", At: t0})
		must(t, "AddWarning", err)
		_, err = s.AddWarning(ctx, Warning{User: 999, Moderator: f.ann.ID, Text: "x", At: t0}, ModAction{Moderator: f.ann.ID, Action: "warn", At: t0})
		wantErr(t, "AddWarning(unknown)", err, ErrNotFound)
		ws, err := s.Warnings(ctx, f.bob.ID, true, 10)
		must(t, "Warnings", err)
		if len(ws) != 1 || ws[0].ID != w.ID || ws[0].Text != "mind your words" || !ws[0].At.Equal(t0) {
			t.Fatalf("pending warnings: got %+v", ws)
		}
		wantErr(t, "AckWarning by another", s.AckWarning(ctx, f.ann.ID, w.ID, t0), ErrNotFound)
		must(t, "AckWarning", s.AckWarning(ctx, f.bob.ID, w.ID, t0.Add(time.Minute)))
		wantErr(t, "AckWarning twice", s.AckWarning(ctx, f.bob.ID, w.ID, t0), ErrConflict)
		if ws, _ := s.Warnings(ctx, f.bob.ID, true, 10); len(ws) != 0 {
			t.Errorf("pending after the acknowledgement: %+v", ws)
		}
		if ws, _ := s.Warnings(ctx, f.bob.ID, false, 10); len(ws) != 1 || !ws[0].Acknowledged.Equal(t0.Add(time.Minute)) {
			t.Errorf("all warnings: %+v", ws)
		}
	})
}

// TestReportsStore: a report of a player and one of a chat line, the line
// kept as evidence after the chat is trimmed; one open report per reporter
// and line; at most maxOpen open; paged by id; resolved once.
func TestReportsStore(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		f := newFixture(t, dsn)
		s := f.s
		mod := f.user("Mo")
		g := f.game()
		v, err := s.AddChatKeeping(ctx, ChatMessage{Game: g.ID, User: f.bob.ID, Text: "you are a fool", At: t0}, 2)
		must(t, "AddChatKeeping", err)
		line, err := s.ChatLine(ctx, g.ID, v)
		must(t, "ChatLine", err)
		if line.User != f.bob.ID || line.UserName != "Bob" || line.Text != "you are a fool" {
			t.Errorf("ChatLine: got %+v", line)
		}
		_, err = s.ChatLine(ctx, g.ID, v+1)
		wantErr(t, "ChatLine(no such version)", err, ErrNotFound)

		r1, err := s.AddReport(ctx, Report{Reporter: f.ann.ID, Target: f.bob.ID, Reason: "abuse", Text: "in game chat",
			Game: g.ID, ChatVersion: v, ChatText: line.Text, ChatAt: line.At, At: t0}, 3)
		must(t, "AddReport(line)", err)
		_, err = s.AddReport(ctx, Report{Reporter: f.ann.ID, Target: f.bob.ID, Reason: "spam", Game: g.ID, ChatVersion: v, ChatText: line.Text, At: t0}, 3)
		wantErr(t, "the same line reported twice", err, ErrDuplicate)
		r2, err := s.AddReport(ctx, Report{Reporter: f.ann.ID, Target: f.bob.ID, Reason: "name", At: t0}, 3)
		must(t, "AddReport(player)", err)
		cy := f.user("Cy")
		_, err = s.AddReport(ctx, Report{Reporter: f.ann.ID, Target: cy.ID, Reason: "cheating", At: t0}, 3)
		must(t, "AddReport(third)", err)
		_, err = s.AddReport(ctx, Report{Reporter: f.ann.ID, Target: mod.ID, Reason: "other", Text: "x", At: t0}, 3)
		wantErr(t, "a fourth open report with at most 3", err, ErrConflict)
		_, err = s.AddReport(ctx, Report{Reporter: f.ann.ID, Target: 999, Reason: "abuse", At: t0}, 3)
		wantErr(t, "a report of nobody", err, ErrNotFound)

		// The chat trimmed past the line: the report keeps it.
		for i := range 3 {
			_, err := s.AddChatKeeping(ctx, ChatMessage{Game: g.ID, User: f.ann.ID, Text: "line " + string(rune('a'+i)), At: t0}, 2)
			must(t, "AddChatKeeping", err)
		}
		_, err = s.ChatLine(ctx, g.ID, v)
		wantErr(t, "ChatLine after the trim", err, ErrNotFound)
		got, err := s.Report(ctx, r1.ID)
		must(t, "Report", err)
		if got.ChatText != "you are a fool" || got.ChatVersion != v || got.Game != g.ID || got.ReporterName != "Ann" || got.TargetName != "Bob" ||
			got.Status != ReportOpen || got.Reason != "abuse" || got.Text != "in game chat" {
			t.Errorf("the report after the trim: got %+v", got)
		}

		page, err := s.Reports(ctx, ReportQuery{Status: ReportOpen, Limit: 2})
		must(t, "Reports", err)
		if len(page) != 2 || page[0].ID <= page[1].ID {
			t.Fatalf("the first page: got %+v", page)
		}
		rest, err := s.Reports(ctx, ReportQuery{Status: ReportOpen, Before: page[1].ID, Limit: 2})
		must(t, "Reports", err)
		if len(rest) != 1 || rest[0].ID != r1.ID {
			t.Errorf("the second page: got %+v, want report %d", rest, r1.ID)
		}
		if n, _ := s.CountReports(ctx, f.bob.ID, ReportOpen); n != 2 {
			t.Errorf("open reports of Bob: got %d, want 2", n)
		}

		must(t, "ResolveReport", s.ResolveReport(ctx, r2.ID, ModAction{Moderator: mod.ID, Action: "resolve", Note: "a fair name", At: t0.Add(time.Hour)}))
		wantErr(t, "ResolveReport twice", s.ResolveReport(ctx, r2.ID, ModAction{Moderator: mod.ID, Action: "resolve", At: t0}), ErrConflict)
		wantErr(t, "ResolveReport(unknown)", s.ResolveReport(ctx, 999, ModAction{Moderator: mod.ID, Action: "resolve", At: t0}), ErrNotFound)
		got, _ = s.Report(ctx, r2.ID)
		if got.Status != ReportResolved || got.Resolver != mod.ID || got.ResolverName != "Mo" || got.Resolution != "a fair name" || !got.ResolvedAt.Equal(t0.Add(time.Hour)) {
			t.Errorf("the resolved report: got %+v", got)
		}
		// A place freed: Ann may report again, the same player too.
		_, err = s.AddReport(ctx, Report{Reporter: f.ann.ID, Target: f.bob.ID, Reason: "name", At: t0}, 3)
		must(t, "AddReport after a resolution", err)
		if rs, _ := s.Reports(ctx, ReportQuery{Status: ReportResolved, Limit: 10}); len(rs) != 1 || rs[0].ID != r2.ID {
			t.Errorf("resolved reports: %+v", rs)
		}
		log, _ := s.ModActions(ctx, ActionQuery{Limit: 10})
		if len(log) != 1 || log[0].Report != r2.ID || log[0].Target != f.bob.ID || log[0].Action != "resolve" {
			t.Errorf("the log: got %+v", log)
		}
	})
}

// TestBlocksStore: blocks one way, listed and looked up both ways, bounded
// in number; a second block of the same player is a duplicate; deleting an
// account takes its blocks, both ways.
func TestBlocksStore(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		f := newFixture(t, dsn)
		s := f.s
		cy := f.user("Cy")
		must(t, "AddBlock", s.AddBlock(ctx, Block{User: f.ann.ID, Blocked: f.bob.ID, At: t0}, 2))
		wantErr(t, "AddBlock twice", s.AddBlock(ctx, Block{User: f.ann.ID, Blocked: f.bob.ID, At: t0}, 2), ErrDuplicate)
		must(t, "AddBlock", s.AddBlock(ctx, Block{User: f.ann.ID, Blocked: cy.ID, At: t0.Add(time.Second)}, 2))
		dan := f.user("Dan")
		wantErr(t, "a third block with at most 2", s.AddBlock(ctx, Block{User: f.ann.ID, Blocked: dan.ID, At: t0}, 2), ErrConflict)
		wantErr(t, "a block of nobody", s.AddBlock(ctx, Block{User: f.bob.ID, Blocked: 999, At: t0}, 2), ErrNotFound)
		must(t, "AddBlock", s.AddBlock(ctx, Block{User: dan.ID, Blocked: f.ann.ID, At: t0}, 2))
		bs, err := s.Blocks(ctx, f.ann.ID)
		must(t, "Blocks", err)
		if len(bs) != 2 || bs[0].BlockedName != "Cy" || bs[1].BlockedName != "Bob" {
			t.Errorf("Ann's blocks: got %+v", bs)
		}
		if ok, _ := s.Blocking(ctx, f.ann.ID, f.bob.ID); !ok {
			t.Error("Blocking(Ann, Bob): false")
		}
		if ok, _ := s.Blocking(ctx, f.bob.ID, f.ann.ID); ok {
			t.Error("Blocking(Bob, Ann): true")
		}
		between, err := s.BlockedBetween(ctx, f.ann.ID)
		must(t, "BlockedBetween", err)
		if len(between) != 3 || !between[f.bob.ID] || !between[cy.ID] || !between[dan.ID] {
			t.Errorf("BlockedBetween(Ann): got %v", between)
		}
		must(t, "DeleteBlock", s.DeleteBlock(ctx, f.ann.ID, cy.ID))
		wantErr(t, "DeleteBlock twice", s.DeleteBlock(ctx, f.ann.ID, cy.ID), ErrNotFound)
		must(t, "DeleteUser", s.DeleteUser(ctx, f.ann.ID, "deleted-1"))
		if bs, _ := s.Blocks(ctx, dan.ID); len(bs) != 0 {
			t.Errorf("Dan's blocks after Ann was deleted: %+v", bs)
		}
		if bs, _ := s.Blocks(ctx, f.ann.ID); len(bs) != 0 {
			t.Errorf("Ann's blocks after she was deleted: %+v", bs)
		}
	})
}

// TestAnnulGames: a player's finished rated games become unrated and are
// recorded under the annulment; their active and unrated games stay as
// they are; the rated games of a variant are read in the order they ended;
// ratings are replaced only while the rated games are those read, and
// never for a deleted user.
func TestAnnulGames(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		f := newFixture(t, dsn)
		s := f.s
		cy := f.user("Cy")
		mod := f.user("Mo")
		g1 := f.finished(f.ann, f.bob, "1-0", 3, true)
		g2 := f.finished(f.bob, cy, "0-1", 1, true)
		g3 := f.finished(cy, f.ann, "1/2-1/2", 2, true)
		f.finished(f.ann, cy, "1-0", 4, false) // unrated: not annulled, not replayed
		active := f.game()                     // Ann against Bob, rated, going on

		games, mark, err := s.RatedGames(ctx, "nine-mens-morris")
		must(t, "RatedGames", err)
		var ids []int64
		for _, g := range games {
			ids = append(ids, g.ID)
		}
		if want := []int64{g2.ID, g3.ID, g1.ID}; !slices.Equal(ids, want) || mark.Count != 3 || mark.Sum != g1.ID+g2.ID+g3.ID {
			t.Fatalf("RatedGames: got %v (%+v), want %v in the order they ended", ids, mark, want)
		}
		if games[0].White != f.bob.ID || games[0].Black != cy.ID || games[0].Result != "0-1" || !games[0].End.Equal(t0.Add(time.Minute)) {
			t.Errorf("the first rated game: %+v", games[0])
		}

		annulled, variants, err := s.AnnulGames(ctx, f.ann.ID, ModAction{Moderator: mod.ID, Action: "annul", Note: "engine use", At: t0})
		must(t, "AnnulGames", err)
		if !slices.Equal(annulled, []int64{g1.ID, g3.ID}) || !slices.Equal(variants, []string{"nine-mens-morris"}) {
			t.Errorf("AnnulGames: got %v %v", annulled, variants)
		}
		for _, id := range []int64{g1.ID, g3.ID} {
			if g, _ := s.Game(ctx, id); g.Rated {
				t.Errorf("game %d is rated after the annulment", id)
			}
		}
		for _, id := range []int64{g2.ID, active.ID} {
			if g, _ := s.Game(ctx, id); !g.Rated {
				t.Errorf("game %d was made unrated", id)
			}
		}
		log, _ := s.ModActions(ctx, ActionQuery{Limit: 1})
		if len(log) != 1 || log[0].Action != "annul" || !strings.HasPrefix(log[0].Detail, "2 rated games made unrated (nine-mens-morris)") {
			t.Fatalf("the log: %+v", log)
		}
		if ids, _ := s.AnnulledGames(ctx, log[0].ID); !slices.Equal(ids, []int64{g1.ID, g3.ID}) {
			t.Errorf("AnnulledGames: %v", ids)
		}
		_, _, err = s.AnnulGames(ctx, f.ann.ID, ModAction{Moderator: mod.ID, Action: "annul", At: t0})
		wantErr(t, "AnnulGames with none left", err, ErrConflict)
		if log, _ := s.ModActions(ctx, ActionQuery{Limit: 10}); len(log) != 1 {
			t.Errorf("a refused annulment was logged: %+v", log)
		}

		must(t, "SetRating", s.SetRating(ctx, Rating{User: f.ann.ID, Variant: "nine-mens-morris", R: 1700, RD: 80, Sigma: 0.06, Games: 2}))
		stale := mark
		err = s.ReplaceRatings(ctx, "nine-mens-morris", []Rating{{User: f.bob.ID, Variant: "nine-mens-morris", R: 1, RD: 1, Sigma: 0.06, Games: 1}}, stale)
		wantErr(t, "ReplaceRatings with the mark before the annulment", err, ErrConflict)
		_, mark, err = s.RatedGames(ctx, "nine-mens-morris")
		must(t, "RatedGames", err)
		must(t, "DeleteUser", s.DeleteUser(ctx, cy.ID, "deleted-3"))
		rs := []Rating{
			{User: f.bob.ID, Variant: "nine-mens-morris", R: 1400, RD: 300, Sigma: 0.06, Games: 1, UpdatedAt: t0},
			{User: cy.ID, Variant: "nine-mens-morris", R: 1600, RD: 300, Sigma: 0.06, Games: 1, UpdatedAt: t0},
		}
		must(t, "ReplaceRatings", s.ReplaceRatings(ctx, "nine-mens-morris", rs, mark))
		if _, err := s.Rating(ctx, f.ann.ID, "nine-mens-morris"); err == nil {
			t.Error("Ann keeps a rating with no rated game left")
		}
		if r, err := s.Rating(ctx, f.bob.ID, "nine-mens-morris"); err != nil || r.R != 1400 || r.Games != 1 {
			t.Errorf("Bob's rating: %+v, %v", r, err)
		}
		if _, err := s.Rating(ctx, cy.ID, "nine-mens-morris"); err == nil {
			t.Error("a deleted user was given a rating")
		}
	})
}
