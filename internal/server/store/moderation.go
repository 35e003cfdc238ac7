package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Moderation: the moderator's flag, mutes, closed accounts, warnings,
// reports and the moderators' log (mod_actions). Each moderator's action
// and its line in the log are one transaction: nothing a moderator did is
// missing from the log, and the log holds nothing that was not done. The
// store has no method that deletes a line of the log.

// Mute is how a user is muted (User.Muted).
type Mute uint8

const (
	MuteNone    Mute = iota // may chat
	MuteUntil               // muted until User.MutedUntil
	MuteForever             // muted until a moderator lifts it
)

// mutedForever is users.muted_until of MuteForever.
const mutedForever = -1

// ModAction is a line of the moderators' log: who did what to whom, when,
// and why.
type ModAction struct {
	ID        int64
	Moderator int64 // 0: the operator (morris admin)
	// ModeratorName and TargetName are filled by reads.
	ModeratorName string
	Action        string // "resolve", "warn", "mute", "unmute", "close", "reopen", "annul", "moderator", "unmoderator"
	Target        int64
	TargetName    string
	Report        int64  // the report it answered, 0 for none
	Note          string // the moderator's words
	Detail        string // what the action was, in the server's words ("for 24h", "12 games")
	At            time.Time
}

// addAction writes a line of the log in tx and returns its id.
func addAction(ctx context.Context, tx *sql.Tx, a ModAction) (int64, error) {
	if a.Action == "" || a.Target == 0 {
		return 0, errors.New("store: a moderator's action needs an action and a target")
	}
	id, err := nextID(ctx, tx, "mod_actions")
	if err != nil {
		return 0, err
	}
	var mod any
	if a.Moderator != 0 {
		mod = a.Moderator
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO mod_actions (id, moderator_id, action, target_id, report_id, note, detail, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, id, mod, a.Action, a.Target, a.Report, a.Note, a.Detail, millis(a.At))
	return id, err
}

// liveUser checks in tx that a user exists and is not deleted:
// ErrNotFound otherwise.
func liveUser(ctx context.Context, tx *sql.Tx, user int64) error {
	var deleted int64
	err := tx.QueryRowContext(ctx, `SELECT deleted_at FROM users WHERE id = $1`, user).Scan(&deleted)
	if errors.Is(err, sql.ErrNoRows) || err == nil && deleted != 0 {
		return fmt.Errorf("%w: user %d", ErrNotFound, user)
	}
	return err
}

// SetModerator makes the user named a moderator or not (the operator's
// command, morris admin), and logs it under the operator. A user already
// so is ErrConflict; an unknown or deleted one ErrNotFound.
func (s *Store) SetModerator(ctx context.Context, name string, on bool, note string) (User, error) {
	u, err := s.UserByName(ctx, name)
	if err != nil {
		return User{}, err
	}
	action := "unmoderator"
	if on {
		action = "moderator"
	}
	err = s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE users SET moderator = $1 WHERE id = $2 AND deleted_at = 0 AND moderator <> $1`, on, u.ID)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return fmt.Errorf("%w: %s is %s already", ErrConflict, u.Name, map[bool]string{true: "a moderator", false: "no moderator"}[on])
		}
		_, err = addAction(ctx, tx, ModAction{Action: action, Target: u.ID, Note: note, At: s.now()})
		return err
	})
	if err != nil {
		return User{}, err
	}
	u.Moderator = on
	return u, nil
}

// Moderators returns the moderators, by name.
func (s *Store) Moderators(ctx context.Context) ([]User, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+userColumns+` FROM users WHERE moderator AND deleted_at = 0 ORDER BY name_key`)
	if err != nil {
		return nil, dbError(err)
	}
	defer rows.Close()
	var out []User
	for rows.Next() {
		u, err := scanUser(rows)
		if err != nil {
			return nil, dbError(err)
		}
		out = append(out, u)
	}
	return out, dbError(rows.Err())
}

// SetMute mutes a user (MuteUntil until, or MuteForever) or lifts a mute
// (MuteNone), and logs a. An unknown or deleted user is ErrNotFound.
func (s *Store) SetMute(ctx context.Context, user int64, m Mute, until time.Time, a ModAction) error {
	var v int64
	switch m {
	case MuteNone:
	case MuteForever:
		v = mutedForever
	case MuteUntil:
		if v = millis(until); v <= 0 {
			return errors.New("store: a mute until no time")
		}
	default:
		return fmt.Errorf("store: mute %d", m)
	}
	a.Target = user
	return s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if err := affected(tx.ExecContext(ctx, `UPDATE users SET muted_until = $1 WHERE id = $2 AND deleted_at = 0`, v, user)); err != nil {
			return fmt.Errorf("%w: user %d", err, user)
		}
		_, err := addAction(ctx, tx, a)
		return err
	})
}

// CloseUser closes an account at a.At and logs a: the user signs in no
// more, their tokens are deleted, and their open challenges and seeks
// (and those to them) are cancelled, which it returns. An account closed
// already is ErrConflict, an unknown or deleted one ErrNotFound. The games
// the user plays are the caller's to end.
func (s *Store) CloseUser(ctx context.Context, user int64, a ModAction) (tokens int64, cancelled []Challenge, err error) {
	a.Target = user
	err = s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		tokens, cancelled = 0, nil
		if err := liveUser(ctx, tx, user); err != nil {
			return err
		}
		if err := affected(tx.ExecContext(ctx, `UPDATE users SET closed_at = $1 WHERE id = $2 AND closed_at = 0`, millis(a.At), user)); err != nil {
			return fmt.Errorf("%w: user %d is closed already", ErrConflict, user)
		}
		var err error
		if tokens, err = deleteTokens(ctx, tx, user, ""); err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, challengeSelect+` WHERE status = 'open' AND (from_id = $1 OR to_id = $1)`, user)
		if err != nil {
			return err
		}
		for rows.Next() {
			c, err := scanChallenge(rows)
			if err != nil {
				rows.Close()
				return err
			}
			c.Status = ChallengeCancelled
			cancelled = append(cancelled, c)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE challenges SET status = 'cancelled', updated_at = $2
			WHERE status = 'open' AND (from_id = $1 OR to_id = $1)`, user, millis(s.now())); err != nil {
			return err
		}
		_, err = addAction(ctx, tx, a)
		return err
	})
	return tokens, cancelled, err
}

// ReopenUser opens an account a moderator closed, and logs a: the user
// signs in again with their password. An account not closed is
// ErrConflict.
func (s *Store) ReopenUser(ctx context.Context, user int64, a ModAction) error {
	a.Target = user
	return s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if err := liveUser(ctx, tx, user); err != nil {
			return err
		}
		if err := affected(tx.ExecContext(ctx, `UPDATE users SET closed_at = 0 WHERE id = $1 AND closed_at <> 0`, user)); err != nil {
			return fmt.Errorf("%w: user %d is not closed", ErrConflict, user)
		}
		_, err := addAction(ctx, tx, a)
		return err
	})
}

// Warning is a moderator's warning to a player, shown to them until they
// acknowledge it.
type Warning struct {
	ID           int64
	User         int64
	Moderator    int64
	Text         string
	At           time.Time
	Acknowledged time.Time // zero: not yet
}

// AddWarning stores a warning to w.User and logs a (its Detail is the
// warning's text when it has none). An unknown or deleted user is
// ErrNotFound.
func (s *Store) AddWarning(ctx context.Context, w Warning, a ModAction) (Warning, error) {
	if w.Text == "" {
		return Warning{}, errors.New("store: an empty warning")
	}
	a.Target = w.User
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if err := liveUser(ctx, tx, w.User); err != nil {
			return err
		}
		id, err := nextID(ctx, tx, "warnings")
		if err != nil {
			return err
		}
		w.ID = id
		if _, err := tx.ExecContext(ctx, `INSERT INTO warnings (id, user_id, moderator_id, body, created_at) VALUES ($1, $2, $3, $4, $5)`,
			w.ID, w.User, w.Moderator, w.Text, millis(w.At)); err != nil {
			return err
		}
		_, err = addAction(ctx, tx, a)
		return err
	})
	if err != nil {
		return Warning{}, err
	}
	w.At = fromMillis(millis(w.At))
	return w, nil
}

// Warnings returns the newest warnings to a user, at most limit: only
// those not acknowledged yet with pending.
func (s *Store) Warnings(ctx context.Context, user int64, pending bool, limit int) ([]Warning, error) {
	q := `SELECT id, user_id, moderator_id, body, created_at, acknowledged_at FROM warnings WHERE user_id = $1`
	if pending {
		q += ` AND acknowledged_at = 0`
	}
	rows, err := s.r.QueryContext(ctx, q+` ORDER BY id DESC LIMIT $2`, user, max(limit, 1))
	if err != nil {
		return nil, dbError(err)
	}
	defer rows.Close()
	var out []Warning
	for rows.Next() {
		var w Warning
		var at, ack int64
		if err := rows.Scan(&w.ID, &w.User, &w.Moderator, &w.Text, &at, &ack); err != nil {
			return nil, dbError(err)
		}
		w.At, w.Acknowledged = fromMillis(at), fromMillis(ack)
		out = append(out, w)
	}
	return out, dbError(rows.Err())
}

// AckWarning marks a warning to user acknowledged at at. A warning that is
// not the user's is ErrNotFound; one acknowledged already ErrConflict.
func (s *Store) AckWarning(ctx context.Context, user, id int64, at time.Time) error {
	return s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var ack int64
		err := tx.QueryRowContext(ctx, `SELECT acknowledged_at FROM warnings WHERE id = $1 AND user_id = $2`, id, user).Scan(&ack)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return fmt.Errorf("%w: warning %d", ErrNotFound, id)
		case err != nil:
			return err
		case ack != 0:
			return fmt.Errorf("%w: warning %d is acknowledged already", ErrConflict, id)
		}
		_, err = tx.ExecContext(ctx, `UPDATE warnings SET acknowledged_at = $1 WHERE id = $2`, millis(at), id)
		return err
	})
}

// ReportStatus is where a report is.
type ReportStatus string

const (
	ReportOpen     ReportStatus = "open"
	ReportResolved ReportStatus = "resolved"
)

// Report is a player's report of another player, or of a chat line.
type Report struct {
	ID       int64
	Reporter int64
	Target   int64
	// ReporterName, TargetName and ResolverName are filled by reads.
	ReporterName, TargetName, ResolverName string
	Reason                                 string
	Text                                   string
	// The chat line reported (Game 0: the player is reported), as it was.
	Game        int64
	ChatVersion int64
	ChatText    string
	ChatAt      time.Time
	Status      ReportStatus
	At          time.Time
	Resolver    int64
	ResolvedAt  time.Time
	Resolution  string
}

// ChatLine returns one line of a game's chat: ErrNotFound if the game has
// none at that version (never written, or trimmed since).
func (s *Store) ChatLine(ctx context.Context, game, version int64) (ChatMessage, error) {
	m := ChatMessage{Game: game, Version: version}
	var at int64
	err := s.r.QueryRowContext(ctx, `SELECT c.user_id, u.name, c.body, c.created_at FROM chat c JOIN users u ON u.id = c.user_id
		WHERE c.game_id = $1 AND c.version = $2`, game, version).Scan(&m.User, &m.UserName, &m.Text, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return ChatMessage{}, fmt.Errorf("%w: no chat line %d in game %d", ErrNotFound, version, game)
	}
	m.At = fromMillis(at)
	return m, dbError(err)
}

// AddReport stores an open report and returns it with its id. A reporter
// with maxOpen open reports already is ErrConflict; the same reporter's
// open report of the same player or line ErrDuplicate; an unknown or
// deleted user ErrNotFound.
func (s *Store) AddReport(ctx context.Context, r Report, maxOpen int) (Report, error) {
	if r.Reason == "" || r.Reporter == 0 || r.Target == 0 {
		return Report{}, errors.New("store: a report needs a reporter, a target and a reason")
	}
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		for _, u := range []int64{r.Reporter, r.Target} {
			if err := liveUser(ctx, tx, u); err != nil {
				return err
			}
		}
		var open int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM reports WHERE reporter_id = $1 AND status = 'open'`, r.Reporter).Scan(&open); err != nil {
			return err
		}
		if open >= maxOpen {
			return fmt.Errorf("%w: user %d has %d open reports", ErrConflict, r.Reporter, open)
		}
		id, err := nextID(ctx, tx, "reports")
		if err != nil {
			return err
		}
		r.ID = id
		_, err = tx.ExecContext(ctx, `INSERT INTO reports (id, reporter_id, target_id, reason, body, game_id, chat_version, chat_body, chat_at, status, created_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'open', $10)`,
			r.ID, r.Reporter, r.Target, r.Reason, r.Text, r.Game, r.ChatVersion, r.ChatText, millis(r.ChatAt), millis(r.At))
		return err
	})
	if err != nil {
		return Report{}, err
	}
	r.Status = ReportOpen
	r.At, r.ChatAt = fromMillis(millis(r.At)), fromMillis(millis(r.ChatAt))
	return r, nil
}

const reportSelect = `SELECT r.id, r.reporter_id, ru.name, r.target_id, tu.name, r.reason, r.body, r.game_id, r.chat_version, r.chat_body,
	r.chat_at, r.status, r.created_at, COALESCE(r.resolved_by, 0), COALESCE(mu.name, ''), r.resolved_at, r.resolution
	FROM reports r JOIN users ru ON ru.id = r.reporter_id JOIN users tu ON tu.id = r.target_id LEFT JOIN users mu ON mu.id = r.resolved_by`

func scanReport(row interface{ Scan(...any) error }) (Report, error) {
	var r Report
	var chatAt, at, resolved int64
	err := row.Scan(&r.ID, &r.Reporter, &r.ReporterName, &r.Target, &r.TargetName, &r.Reason, &r.Text, &r.Game, &r.ChatVersion,
		&r.ChatText, &chatAt, &r.Status, &at, &r.Resolver, &r.ResolverName, &resolved, &r.Resolution)
	r.ChatAt, r.At, r.ResolvedAt = fromMillis(chatAt), fromMillis(at), fromMillis(resolved)
	return r, err
}

// Report returns a report.
func (s *Store) Report(ctx context.Context, id int64) (Report, error) {
	r, err := scanReport(s.r.QueryRowContext(ctx, reportSelect+` WHERE r.id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Report{}, fmt.Errorf("%w: report %d", ErrNotFound, id)
	}
	return r, dbError(err)
}

// ReportQuery selects reports: by status ("" for all), of a target (0
// for all), by a reporter (0 for all), ids below Before (0: from the
// newest), at most Limit (at least 1).
type ReportQuery struct {
	Status   ReportStatus
	Target   int64
	Reporter int64
	Before   int64
	Limit    int
}

// Reports returns the reports q selects, newest first.
func (s *Store) Reports(ctx context.Context, q ReportQuery) ([]Report, error) {
	var where []string
	var args []any
	arg := func(v any) string {
		args = append(args, v)
		return fmt.Sprintf("$%d", len(args))
	}
	if q.Status != "" {
		where = append(where, "r.status = "+arg(string(q.Status)))
	}
	if q.Target != 0 {
		where = append(where, "r.target_id = "+arg(q.Target))
	}
	if q.Reporter != 0 {
		where = append(where, "r.reporter_id = "+arg(q.Reporter))
	}
	if q.Before != 0 {
		where = append(where, "r.id < "+arg(q.Before))
	}
	query := reportSelect
	if len(where) > 0 {
		query += " WHERE " + strings.Join(where, " AND ")
	}
	query += " ORDER BY r.id DESC LIMIT " + arg(max(q.Limit, 1))
	rows, err := s.r.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, dbError(err)
	}
	defer rows.Close()
	var out []Report
	for rows.Next() {
		r, err := scanReport(rows)
		if err != nil {
			return nil, dbError(err)
		}
		out = append(out, r)
	}
	return out, dbError(rows.Err())
}

// CountReports counts the reports of a status about a target.
func (s *Store) CountReports(ctx context.Context, target int64, status ReportStatus) (int, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM reports WHERE target_id = $1 AND status = $2`, target, string(status)).Scan(&n)
	return n, dbError(err)
}

// ResolveReport resolves an open report with a moderator's note, and logs
// a (its Report, Target and Note set here). A report resolved already is
// ErrConflict, an unknown one ErrNotFound.
func (s *Store) ResolveReport(ctx context.Context, id int64, a ModAction) error {
	return s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var target int64
		var status ReportStatus
		err := tx.QueryRowContext(ctx, `SELECT target_id, status FROM reports WHERE id = $1`, id).Scan(&target, &status)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return fmt.Errorf("%w: report %d", ErrNotFound, id)
		case err != nil:
			return err
		case status != ReportOpen:
			return fmt.Errorf("%w: report %d is %s already", ErrConflict, id, status)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE reports SET status = 'resolved', resolved_by = $1, resolved_at = $2, resolution = $3 WHERE id = $4`,
			a.Moderator, millis(a.At), a.Note, id); err != nil {
			return err
		}
		a.Report, a.Target = id, target
		_, err = addAction(ctx, tx, a)
		return err
	})
}

// ActionQuery selects lines of the moderators' log: of a target (0 for
// all), ids below Before (0: from the newest), at most Limit (at least 1).
type ActionQuery struct {
	Target int64
	Before int64
	Limit  int
}

// ModActions returns the lines of the log q selects, newest first.
func (s *Store) ModActions(ctx context.Context, q ActionQuery) ([]ModAction, error) {
	var where []string
	var args []any
	arg := func(v any) string {
		args = append(args, v)
		return fmt.Sprintf("$%d", len(args))
	}
	if q.Target != 0 {
		where = append(where, "a.target_id = "+arg(q.Target))
	}
	if q.Before != 0 {
		where = append(where, "a.id < "+arg(q.Before))
	}
	query := `SELECT a.id, COALESCE(a.moderator_id, 0), COALESCE(m.name, ''), a.action, a.target_id, t.name, a.report_id, a.note, a.detail, a.created_at
		FROM mod_actions a JOIN users t ON t.id = a.target_id LEFT JOIN users m ON m.id = a.moderator_id`
	if len(where) > 0 {
		query += " WHERE " + strings.Join(where, " AND ")
	}
	query += " ORDER BY a.id DESC LIMIT " + arg(max(q.Limit, 1))
	rows, err := s.r.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, dbError(err)
	}
	defer rows.Close()
	var out []ModAction
	for rows.Next() {
		var a ModAction
		var at int64
		if err := rows.Scan(&a.ID, &a.Moderator, &a.ModeratorName, &a.Action, &a.Target, &a.TargetName, &a.Report, &a.Note, &a.Detail, &at); err != nil {
			return nil, dbError(err)
		}
		a.At = fromMillis(at)
		out = append(out, a)
	}
	return out, dbError(rows.Err())
}
