package server

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/morrisgame/morris/internal/server/store"
	"github.com/morrisgame/morris/internal/server/wire"
	"github.com/morrisgame/morris/mill"
)

// Moderation: players report players and chat lines and block one another
// (blocks.go); moderators resolve the reports, warn, mute, close accounts
// and annul rated games (annul.go), and every action of theirs is a line
// of the moderators' log, written with it in one transaction.
//
// # Who may do what
//
// A moderator is an account the operator made one (morris admin mod NAME,
// which opens the store itself): nothing over HTTP makes or unmakes one.
// The flag is read from the store at each moderator's call, not from the
// token cache, so that it takes effect at once on every process. A closed
// or deleted moderator is none. Moderators act on players only: never on
// themselves, another moderator or the engine (a moderator gone bad is
// the operator's to unmake); a report about a moderator is resolved by
// another. Anyone else calling a moderator's endpoint gets Forbidden
// before anything is read of the call, and nothing changes.
//
// # What one client can cost
//
// A report is a row: a player has at most MaxOpenReports open at once and
// files them at Rates.Report an hour (and an address at Rates.ReportAddr),
// with a reason of ReportReasons and at most MaxReportText bytes of text;
// the same player or line is reported once while the report is open. A
// player blocks at most MaxBlocks players. Pages are at most ModPage
// lines. Warnings, notes and mutes are the moderators' (a moderator is
// trusted, and logged).

// Bounds of moderation.
const (
	MaxOpenReports = 20   // open reports per reporter
	MaxBlocks      = 500  // players one player blocks
	MaxReportText  = 500  // bytes of a report's text
	MaxModText     = 1000 // bytes of a moderator's note or warning
	ModPage        = 100  // lines of a page of the queue or the log, at most
	MaxMuteHours   = 24 * 365
	// WarningsShown is how many pending warnings a player is shown (the
	// newest): a moderator's slip that warned a hundred times does not
	// flood a page.
	WarningsShown = 20
)

// ReportReasons are the reasons a report may give; "other" needs a text.
var ReportReasons = []string{"abuse", "spam", "cheating", "name", "other"}

// checkText checks a text a person writes for the moderators: at most max
// bytes of UTF-8, without control characters but new lines; empty only
// when not required. It returns the text trimmed.
func checkText(what, text string, max int, required bool) (string, error) {
	text = strings.TrimSpace(text)
	if required && text == "" {
		return "", errorf(BadRequest, "%s is needed", what)
	}
	if len(text) > max || !utf8.ValidString(text) {
		return "", errorf(BadRequest, "%s is at most %d bytes of text", what, max)
	}
	for _, r := range text {
		if unicode.IsControl(r) && r != '\n' {
			return "", errorf(BadRequest, "%s holds no control characters", what)
		}
	}
	return text, nil
}

// AccountStatus is the signed-in player as GET /api/account shows them:
// whether a moderator, whether muted.
func (s *Service) AccountStatus(ctx context.Context, user User) (wire.Account, error) {
	u, err := s.st.User(ctx, user.ID)
	if err != nil {
		return wire.Account{}, err
	}
	a := wire.Account{ID: u.ID, Name: u.Name, Bot: u.Bot, Moderator: u.Moderator}
	a.Muted, a.MutedUntilMs = s.muted(u)
	return a, nil
}

// muted reports whether u is muted now, and until when (0: until lifted).
func (s *Service) muted(u store.User) (bool, int64) {
	switch u.Muted {
	case store.MuteForever:
		return true, 0
	case store.MuteUntil:
		if s.now().Before(u.MutedUntil) {
			return true, u.MutedUntil.UnixMilli()
		}
	}
	return false, 0
}

// mayChat refuses chat to a muted player. It reads the store, so that a
// mute takes effect at once on every process.
func (s *Service) mayChat(ctx context.Context, user User) error {
	u, err := s.st.User(ctx, user.ID)
	if err != nil {
		return err
	}
	switch on, until := s.muted(u); {
	case !on:
		return nil
	case until == 0:
		return errorf(Forbidden, "you are muted by a moderator: you cannot chat until a moderator lifts it")
	default:
		return errorf(Forbidden, "you are muted by a moderator: you cannot chat until %s", day(time.UnixMilli(until)))
	}
}

// closedError is what a closed account is told when it signs in.
func closedError(name string) error {
	return errorf(Forbidden, "the account %q was closed by a moderator", name)
}

// Reports.

// ReportSpec is what a player reports: a player by name (User), or a
// chat line of a game (Game and Version, the line's version in the
// game's chat); a reason of ReportReasons and, optionally, a text.
type ReportSpec struct {
	User    string
	Game    int64
	Version int64
	Reason  string
	Text    string
}

// Report files a report for the moderators. from is the caller's address
// (its rate of reports). A chat line is copied into the report, so that it
// stays as evidence when the game's chat no longer keeps it.
func (s *Service) Report(ctx context.Context, from string, reporter User, sp ReportSpec) (wire.Report, error) {
	if !slices.Contains(ReportReasons, sp.Reason) {
		return wire.Report{}, errorf(BadRequest, "a reason is one of %s", strings.Join(ReportReasons, ", "))
	}
	text, err := checkText("a report's text", sp.Text, MaxReportText, false)
	if err != nil {
		return wire.Report{}, err
	}
	if sp.Reason == "other" && text == "" {
		return wire.Report{}, errorf(BadRequest, "the reason other needs a text: what happened, in a few words")
	}
	r := store.Report{Reporter: reporter.ID, Reason: sp.Reason, Text: text, At: s.now()}
	switch {
	case sp.User != "" && sp.Game != 0:
		return wire.Report{}, errorf(BadRequest, "a report is of a player (user) or of a chat line (game and version), not both")
	case sp.User != "":
		u, err := s.UserByName(ctx, sp.User)
		if err != nil {
			return wire.Report{}, err
		}
		r.Target = u.ID
	case sp.Game > 0 && sp.Version > 0:
		line, err := s.st.ChatLine(ctx, sp.Game, sp.Version)
		if errors.Is(err, store.ErrNotFound) {
			return wire.Report{}, errorf(NotFound, "game %d has no chat line at version %d (or no longer keeps it)", sp.Game, sp.Version)
		}
		if err != nil {
			return wire.Report{}, err
		}
		r.Target, r.Game, r.ChatVersion, r.ChatText, r.ChatAt = line.User, line.Game, line.Version, line.Text, line.At
	default:
		return wire.Report{}, errorf(BadRequest, "a report names a player (user) or a chat line (game and version, from 1 up)")
	}
	if r.Target == reporter.ID {
		return wire.Report{}, errorf(BadRequest, "you cannot report yourself")
	}
	if r.Target == s.engineID {
		return wire.Report{}, errorf(BadRequest, "the engine is no player to report")
	}
	if err := s.spend(kindReport, userKey(reporter.ID), "too many reports lately"); err != nil {
		return wire.Report{}, err
	}
	if err := s.spend(kindReportAddr, addrKey(from), "too many reports from here lately"); err != nil {
		return wire.Report{}, err
	}
	r, err = s.st.AddReport(ctx, r, MaxOpenReports)
	switch {
	case errors.Is(err, store.ErrDuplicate):
		return wire.Report{}, errorf(Conflict, "you reported this already: the moderators have it")
	case errors.Is(err, store.ErrConflict):
		return wire.Report{}, errorf(Conflict, "you have %d reports open, the most: wait until the moderators resolve one", MaxOpenReports)
	case err != nil:
		return wire.Report{}, err
	}
	r.ReporterName = reporter.Name
	if t, err := s.st.User(ctx, r.Target); err == nil {
		r.TargetName = t.Name
	}
	s.log.Info("reported", "report", r.ID, "reporter", reporter.ID, "user", r.Target, "reason", r.Reason)
	return wireReport(r), nil
}

func wireReport(r store.Report) wire.Report {
	w := wire.Report{ID: r.ID, Reporter: player(r.Reporter, r.ReporterName), User: player(r.Target, r.TargetName),
		Reason: r.Reason, Text: r.Text, Status: string(r.Status), CreatedMs: r.At.UnixMilli(), Resolution: r.Resolution}
	if r.Game != 0 {
		w.Line = &wire.ChatReport{Game: r.Game, Version: r.ChatVersion, Text: r.ChatText, AtMs: r.ChatAt.UnixMilli()}
	}
	if r.Resolver != 0 {
		p := player(r.Resolver, r.ResolverName)
		w.ResolvedBy, w.ResolvedMs = &p, r.ResolvedAt.UnixMilli()
	}
	return w
}

// Warnings.

func wireWarning(w store.Warning) wire.Warning {
	out := wire.Warning{ID: w.ID, Text: w.Text, AtMs: w.At.UnixMilli()}
	if !w.Acknowledged.IsZero() {
		out.AcknowledgedMs = w.Acknowledged.UnixMilli()
	}
	return out
}

// Warnings returns the user's warnings not acknowledged yet, oldest first
// (at most WarningsShown, the newest).
func (s *Service) Warnings(ctx context.Context, user User) ([]wire.Warning, error) {
	ws, err := s.st.Warnings(ctx, user.ID, true, WarningsShown)
	if err != nil {
		return nil, err
	}
	out := []wire.Warning{}
	for _, w := range slices.Backward(ws) {
		out = append(out, wireWarning(w))
	}
	return out, nil
}

// AcknowledgeWarning marks a warning to user read.
func (s *Service) AcknowledgeWarning(ctx context.Context, user User, id int64) error {
	err := s.st.AckWarning(ctx, user.ID, id, s.now())
	switch {
	case errors.Is(err, store.ErrNotFound):
		return errorf(NotFound, "you have no warning %d", id)
	case errors.Is(err, store.ErrConflict):
		return errorf(Conflict, "warning %d is acknowledged already", id)
	}
	return err
}

// sendWarnings sends the user's pending warnings on their account stream
// (accountState).
func (s *Service) sendWarnings(ctx context.Context, user User, send Send) error {
	ws, err := s.Warnings(ctx, user)
	if err != nil {
		return err
	}
	for _, w := range ws {
		if err := send(mustJSON(wire.Event{Type: "warning", Warning: &w})); err != nil {
			return err
		}
	}
	return nil
}

// The moderators' side.

// ModNote is what comes with a moderator's action: their note, and the
// report it answers (0 for none), which must be about the player acted on.
type ModNote struct {
	Note   string
	Report int64
}

// moderator checks that user is a moderator now: from the store, so that
// the operator's change counts at once on every process.
func (s *Service) moderator(ctx context.Context, user User) (store.User, error) {
	u, err := s.st.User(ctx, user.ID)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return store.User{}, err
	}
	if err != nil || !u.Moderator || !u.ClosedAt.IsZero() || !u.DeletedAt.IsZero() {
		return store.User{}, errorf(Forbidden, "this is for moderators")
	}
	return u, nil
}

// RequireModerator refuses (Forbidden) a user who is not a moderator now:
// for a gateway to say so before it reads the rest of a call.
func (s *Service) RequireModerator(ctx context.Context, user User) error {
	_, err := s.moderator(ctx, user)
	return err
}

// target finds the player a moderator acts on by name: a player, not the
// moderator, another moderator or the engine.
func (s *Service) target(ctx context.Context, mod store.User, name string) (store.User, error) {
	if err := ValidName(name); err != nil {
		return store.User{}, err
	}
	u, err := s.st.UserByName(ctx, name)
	if errors.Is(err, store.ErrNotFound) {
		return store.User{}, errorf(NotFound, "no user %q", name)
	}
	if err != nil {
		return store.User{}, err
	}
	switch {
	case u.ID == mod.ID:
		return store.User{}, errorf(Forbidden, "moderators do not act on themselves")
	case u.Moderator:
		return store.User{}, errorf(Forbidden, "%s is a moderator: moderators do not act on one another (the operator does, with morris admin)", u.Name)
	case u.Bot || u.ID == s.engineID:
		return store.User{}, errorf(Forbidden, "the engine is no player to moderate")
	}
	return u, nil
}

// action checks a moderator's note and report and returns the log's line.
func (s *Service) action(ctx context.Context, mod store.User, target store.User, what string, n ModNote, required bool) (store.ModAction, error) {
	note, err := checkText("a note", n.Note, MaxModText, required)
	if err != nil {
		return store.ModAction{}, err
	}
	if n.Report < 0 {
		return store.ModAction{}, errorf(BadRequest, "a report is an id from 1 up")
	}
	if n.Report != 0 {
		r, err := s.st.Report(ctx, n.Report)
		if errors.Is(err, store.ErrNotFound) {
			return store.ModAction{}, errorf(NotFound, "no report %d", n.Report)
		}
		if err != nil {
			return store.ModAction{}, err
		}
		if r.Target != target.ID {
			return store.ModAction{}, errorf(BadRequest, "report %d is about %s, not %s", n.Report, r.TargetName, target.Name)
		}
	}
	return store.ModAction{Moderator: mod.ID, Action: what, Target: target.ID, Report: n.Report, Note: note, At: s.now()}, nil
}

// ModReports returns a page of the reports of a status (open, resolved,
// or "" for all), newest first: before an id (0: the newest), at most
// limit (1 to ModPage; 0 for 50).
func (s *Service) ModReports(ctx context.Context, mod User, status string, before int64, limit int) (wire.ReportPage, error) {
	if _, err := s.moderator(ctx, mod); err != nil {
		return wire.ReportPage{}, err
	}
	limit, err := pageLimit(before, limit)
	if err != nil {
		return wire.ReportPage{}, err
	}
	switch status {
	case "", string(store.ReportOpen), string(store.ReportResolved):
	default:
		return wire.ReportPage{}, errorf(BadRequest, "a report's status is open or resolved")
	}
	rs, err := s.st.Reports(ctx, store.ReportQuery{Status: store.ReportStatus(status), Before: before, Limit: limit + 1})
	if err != nil {
		return wire.ReportPage{}, err
	}
	p := wire.ReportPage{Reports: []wire.Report{}, More: len(rs) > limit}
	for _, r := range rs[:min(len(rs), limit)] {
		p.Reports = append(p.Reports, wireReport(r))
	}
	return p, nil
}

func pageLimit(before int64, limit int) (int, error) {
	if limit == 0 {
		limit = 50
	}
	if limit < 1 || limit > ModPage || before < 0 {
		return 0, errorf(BadRequest, "a page is 1 to %d lines before an id from 1 up", ModPage)
	}
	return limit, nil
}

// ResolveReport resolves an open report with a note (what was done, or
// why nothing).
func (s *Service) ResolveReport(ctx context.Context, mod User, id int64, note string) (wire.Report, error) {
	m, err := s.moderator(ctx, mod)
	if err != nil {
		return wire.Report{}, err
	}
	r, err := s.st.Report(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return wire.Report{}, errorf(NotFound, "no report %d", id)
	}
	if err != nil {
		return wire.Report{}, err
	}
	if r.Target == m.ID {
		return wire.Report{}, errorf(Forbidden, "report %d is about you: another moderator resolves it", id)
	}
	a, err := s.action(ctx, m, store.User{ID: r.Target}, "resolve", ModNote{Note: note}, true)
	if err != nil {
		return wire.Report{}, err
	}
	err = s.st.ResolveReport(ctx, id, a)
	if errors.Is(err, store.ErrConflict) {
		return wire.Report{}, errorf(Conflict, "report %d is resolved already", id)
	}
	if err != nil {
		return wire.Report{}, err
	}
	s.log.Info("report resolved", "report", id, "moderator", m.ID)
	if r, err = s.st.Report(ctx, id); err != nil {
		return wire.Report{}, err
	}
	return wireReport(r), nil
}

// Warn warns a player: the warning is shown to them (their account
// stream, at once and at each connection) until they acknowledge it.
func (s *Service) Warn(ctx context.Context, mod User, name, text string, report int64) (wire.Warning, error) {
	m, err := s.moderator(ctx, mod)
	if err != nil {
		return wire.Warning{}, err
	}
	if text, err = checkText("a warning", text, MaxModText, true); err != nil {
		return wire.Warning{}, err
	}
	t, err := s.target(ctx, m, name)
	if err != nil {
		return wire.Warning{}, err
	}
	a, err := s.action(ctx, m, t, "warn", ModNote{Note: text, Report: report}, true)
	if err != nil {
		return wire.Warning{}, err
	}
	w, err := s.st.AddWarning(ctx, store.Warning{User: t.ID, Moderator: m.ID, Text: a.Note, At: a.At}, a)
	if err != nil {
		return wire.Warning{}, err
	}
	ww := wireWarning(w)
	s.hub.publishUser(t.ID, Event{Data: mustJSON(wire.Event{Type: "warning", Warning: &ww})})
	s.log.Info("warned", "user", t.ID, "moderator", m.ID)
	return ww, nil
}

// Mute mutes a player for d (0: until a moderator lifts it): they cannot
// chat anywhere meanwhile. A mute replaces the one before.
func (s *Service) Mute(ctx context.Context, mod User, name string, d time.Duration, n ModNote) (wire.ModUser, error) {
	m, err := s.moderator(ctx, mod)
	if err != nil {
		return wire.ModUser{}, err
	}
	if d < 0 || d > MaxMuteHours*time.Hour {
		return wire.ModUser{}, errorf(BadRequest, "a mute is 1 to %d hours, or until lifted", MaxMuteHours)
	}
	t, err := s.target(ctx, m, name)
	if err != nil {
		return wire.ModUser{}, err
	}
	a, err := s.action(ctx, m, t, "mute", n, false)
	if err != nil {
		return wire.ModUser{}, err
	}
	kind, until := store.MuteForever, time.Time{}
	a.Detail = "until lifted"
	if d > 0 {
		kind, until = store.MuteUntil, a.At.Add(d)
		a.Detail = fmt.Sprintf("for %s, until %s", d, day(until))
	}
	if err := s.st.SetMute(ctx, t.ID, kind, until, a); err != nil {
		return wire.ModUser{}, err
	}
	s.log.Info("muted", "user", t.ID, "moderator", m.ID, "for", d)
	return s.modUser(ctx, t.ID)
}

// Unmute lifts a player's mute.
func (s *Service) Unmute(ctx context.Context, mod User, name string, n ModNote) (wire.ModUser, error) {
	m, err := s.moderator(ctx, mod)
	if err != nil {
		return wire.ModUser{}, err
	}
	t, err := s.target(ctx, m, name)
	if err != nil {
		return wire.ModUser{}, err
	}
	if on, _ := s.muted(t); !on {
		return wire.ModUser{}, errorf(Conflict, "%s is not muted", t.Name)
	}
	a, err := s.action(ctx, m, t, "unmute", n, false)
	if err != nil {
		return wire.ModUser{}, err
	}
	if err := s.st.SetMute(ctx, t.ID, store.MuteNone, time.Time{}, a); err != nil {
		return wire.ModUser{}, err
	}
	return s.modUser(ctx, t.ID)
}

// CloseAccount closes a player's account: they can no longer sign in,
// their tokens are revoked at once on every process (their streams and
// sockets end), their open challenges and seeks (and those to them) are
// cancelled, and the games they play end, won by the opponent by
// abandonment and rated as such (annul them as well if they should not
// count). The account's name, games and ratings stay; ReopenAccount opens
// it again.
func (s *Service) CloseAccount(ctx context.Context, mod User, name string, n ModNote) (wire.ModUser, error) {
	m, err := s.moderator(ctx, mod)
	if err != nil {
		return wire.ModUser{}, err
	}
	t, err := s.target(ctx, m, name)
	if err != nil {
		return wire.ModUser{}, err
	}
	a, err := s.action(ctx, m, t, "close", n, true)
	if err != nil {
		return wire.ModUser{}, err
	}
	tokens, cancelled, err := s.st.CloseUser(ctx, t.ID, a)
	if errors.Is(err, store.ErrConflict) {
		return wire.ModUser{}, errorf(Conflict, "%s is closed already", t.Name)
	}
	if err != nil {
		return wire.ModUser{}, err
	}
	// The store first, then the caches and streams of every process
	// (account.go): the closed account's calls are refused from here on.
	s.tokensRevoked(ctx, t.ID, "", "")
	for _, c := range cancelled {
		s.announceChallenge(ctx, "challengeCanceled", c)
	}
	ended, err := s.abandonAll(ctx, t.ID)
	if err != nil {
		s.log.Warn("ending the games of a closed account", "user", t.ID, "err", err)
	}
	s.log.Info("account closed", "user", t.ID, "moderator", m.ID, "tokens revoked", tokens, "games ended", ended)
	return s.modUser(ctx, t.ID)
}

// abandonAll ends every active game of user, won by the opponent by
// abandonment, and says how many. A game that ends meanwhile is no
// failure.
func (s *Service) abandonAll(ctx context.Context, user int64) (int, error) {
	games, err := s.st.Games(ctx, store.GameQuery{User: user, Status: store.Active})
	if err != nil {
		return 0, err
	}
	n := 0
	for _, g := range games {
		err := s.locked(ctx, g.ID, func(o *owner) error {
			side, err := o.activePlayer(user)
			if err != nil {
				return err
			}
			return s.finishLocked(ctx, o, mill.Won(side.Other()), mill.Abandonment)
		})
		switch {
		case err == nil:
			n++
		case KindOf(err) != Conflict && KindOf(err) != NotFound:
			return n, err
		}
	}
	return n, nil
}

// ReopenAccount opens an account a moderator closed: the player signs in
// again with their password.
func (s *Service) ReopenAccount(ctx context.Context, mod User, name string, n ModNote) (wire.ModUser, error) {
	m, err := s.moderator(ctx, mod)
	if err != nil {
		return wire.ModUser{}, err
	}
	t, err := s.target(ctx, m, name)
	if err != nil {
		return wire.ModUser{}, err
	}
	a, err := s.action(ctx, m, t, "reopen", n, true)
	if err != nil {
		return wire.ModUser{}, err
	}
	if err := s.st.ReopenUser(ctx, t.ID, a); errors.Is(err, store.ErrConflict) {
		return wire.ModUser{}, errorf(Conflict, "%s is not closed", t.Name)
	} else if err != nil {
		return wire.ModUser{}, err
	}
	s.log.Info("account reopened", "user", t.ID, "moderator", m.ID)
	return s.modUser(ctx, t.ID)
}

// ModUser returns what the moderators see of a player.
func (s *Service) ModUser(ctx context.Context, mod User, name string) (wire.ModUser, error) {
	if _, err := s.moderator(ctx, mod); err != nil {
		return wire.ModUser{}, err
	}
	if err := ValidName(name); err != nil {
		return wire.ModUser{}, err
	}
	u, err := s.st.UserByName(ctx, name)
	if errors.Is(err, store.ErrNotFound) {
		return wire.ModUser{}, errorf(NotFound, "no user %q", name)
	}
	if err != nil {
		return wire.ModUser{}, err
	}
	return s.modUser(ctx, u.ID)
}

func (s *Service) modUser(ctx context.Context, id int64) (wire.ModUser, error) {
	u, err := s.st.User(ctx, id)
	if err != nil {
		return wire.ModUser{}, err
	}
	mu := wire.ModUser{User: wire.Player{ID: u.ID, Name: u.Name, Bot: u.Bot}, Moderator: u.Moderator, Warnings: []wire.Warning{}}
	if !u.ClosedAt.IsZero() {
		mu.ClosedMs = u.ClosedAt.UnixMilli()
	}
	mu.Muted, mu.MutedUntilMs = s.muted(u)
	ws, err := s.st.Warnings(ctx, u.ID, false, 10)
	if err != nil {
		return wire.ModUser{}, err
	}
	for _, w := range ws {
		mu.Warnings = append(mu.Warnings, wireWarning(w))
	}
	if mu.OpenReports, err = s.st.CountReports(ctx, u.ID, store.ReportOpen); err != nil {
		return wire.ModUser{}, err
	}
	return mu, nil
}

// ModLog returns a page of the moderators' log, newest first, of one
// player (name, "" for everyone), as ModReports pages.
func (s *Service) ModLog(ctx context.Context, mod User, name string, before int64, limit int) (wire.ModLog, error) {
	if _, err := s.moderator(ctx, mod); err != nil {
		return wire.ModLog{}, err
	}
	limit, err := pageLimit(before, limit)
	if err != nil {
		return wire.ModLog{}, err
	}
	q := store.ActionQuery{Before: before, Limit: limit + 1}
	if name != "" {
		if err := ValidName(name); err != nil {
			return wire.ModLog{}, err
		}
		u, err := s.st.UserByName(ctx, name)
		if errors.Is(err, store.ErrNotFound) {
			return wire.ModLog{}, errorf(NotFound, "no user %q", name)
		}
		if err != nil {
			return wire.ModLog{}, err
		}
		q.Target = u.ID
	}
	as, err := s.st.ModActions(ctx, q)
	if err != nil {
		return wire.ModLog{}, err
	}
	l := wire.ModLog{Actions: []wire.ModAction{}, More: len(as) > limit}
	for _, a := range as[:min(len(as), limit)] {
		w := wire.ModAction{ID: a.ID, Action: a.Action, User: player(a.Target, a.TargetName), Report: a.Report,
			Note: a.Note, Detail: a.Detail, AtMs: a.At.UnixMilli()}
		if a.Moderator != 0 {
			p := player(a.Moderator, a.ModeratorName)
			w.Moderator = &p
		}
		l.Actions = append(l.Actions, w)
	}
	return l, nil
}
