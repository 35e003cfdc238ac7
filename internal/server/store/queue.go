package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// QueuedMove is a move a player stored in advance (pbmserv "queue"), to be
// played for them when their turn comes at Ply; it is dropped if it is not
// legal then. A player has at most one queued move per game.
type QueuedMove struct {
	Game int64
	User int64
	Move string
	Ply  int // the ply the move is meant for
	At   time.Time
}

// QueueMove stores a queued move, replacing the player's earlier one in
// that game. An unknown game or user is ErrNotFound; a game over is
// ErrConflict.
func (s *Store) QueueMove(ctx context.Context, q QueuedMove) error {
	if q.Move == "" || q.Ply < 0 {
		return errors.New("store: a queued move needs its text and a ply")
	}
	return s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var status Status
		err := tx.QueryRowContext(ctx, `SELECT status FROM games WHERE id = $1`, q.Game).Scan(&status)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("%w: game %d", ErrNotFound, q.Game)
		} else if err != nil {
			return err
		}
		if status != Active {
			return fmt.Errorf("%w: game %d is %s", ErrConflict, q.Game, status)
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO queued_moves (game_id, user_id, move, ply, created_at) VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (game_id, user_id) DO UPDATE SET move = excluded.move, ply = excluded.ply, created_at = excluded.created_at`,
			q.Game, q.User, q.Move, q.Ply, millis(q.At))
		return err
	})
}

// TakeQueuedMove removes and returns a player's queued move in a game;
// ErrNotFound if there is none. Of two callers, one gets it.
func (s *Store) TakeQueuedMove(ctx context.Context, game, user int64) (QueuedMove, error) {
	q := QueuedMove{Game: game, User: user}
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var at int64
		err := tx.QueryRowContext(ctx, `DELETE FROM queued_moves WHERE game_id = $1 AND user_id = $2 RETURNING move, ply, created_at`,
			game, user).Scan(&q.Move, &q.Ply, &at)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("%w: no queued move of user %d in game %d", ErrNotFound, user, game)
		}
		q.At = fromMillis(at)
		return err
	})
	return q, err
}

// MarkNagged records that the reminder of the turn at ply was sent, if it
// was not yet: it reports false when it had been (by this process or
// another), so a reminder goes out once.
func (s *Store) MarkNagged(ctx context.Context, game int64, ply int) (bool, error) {
	var done bool
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE games SET nag_sent_ply = $2 WHERE id = $1 AND ply = $2 AND nag_sent_ply < $2 AND status = 'active'`,
			game, ply)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		done = n == 1
		return err
	})
	return done, err
}

// Vacation is a span when a player's correspondence timers stand still.
type Vacation struct {
	User     int64
	From, To time.Time
}

// AddVacation stores a vacation. One ending before it starts is an error.
func (s *Store) AddVacation(ctx context.Context, v Vacation) error {
	if !v.To.After(v.From) {
		return errors.New("store: a vacation must end after it starts")
	}
	return s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO vacations (user_id, starts_at, ends_at) VALUES ($1, $2, $3)
			ON CONFLICT (user_id, starts_at) DO UPDATE SET ends_at = excluded.ends_at`, v.User, millis(v.From), millis(v.To))
		return err
	})
}

// Vacations returns a user's vacations that end after since, by start.
func (s *Store) Vacations(ctx context.Context, user int64, since time.Time) ([]Vacation, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT starts_at, ends_at FROM vacations WHERE user_id = $1 AND ends_at > $2 ORDER BY starts_at`,
		user, millis(since))
	if err != nil {
		return nil, dbError(err)
	}
	defer rows.Close()
	var vs []Vacation
	for rows.Next() {
		v := Vacation{User: user}
		var from, to int64
		if err := rows.Scan(&from, &to); err != nil {
			return nil, dbError(err)
		}
		v.From, v.To = fromMillis(from), fromMillis(to)
		vs = append(vs, v)
	}
	return vs, dbError(rows.Err())
}

// ChallengePrefs is whom a player takes pbm challenges from in one
// variant (pbmserv "limit", "accept", "reject"). A pbm challenge starts a
// game with no step of the challenged player's, so taking them is an
// opt-in: a player without prefs (Set false, Limit -1, AcceptAll false)
// takes challenges only from the players in Allow, none at first.
type ChallengePrefs struct {
	Set       bool // a row is stored: the player has set AcceptAll or Limit
	Limit     int  // active games in the variant at most; -1 for no limit
	AcceptAll bool // challengers not named in Allow or Deny are taken
	Allow     []int64
	Deny      []int64
}

// VariantPrefs is a player's challenge preferences in one variant.
type VariantPrefs struct {
	Variant string
	ChallengePrefs
}

// Prefs returns a player's challenge preferences in a variant.
func (s *Store) Prefs(ctx context.Context, user int64, variant string) (ChallengePrefs, error) {
	all, err := s.prefs(ctx, `AND variant = $2`, user, variant)
	if err != nil || len(all) == 0 {
		return ChallengePrefs{Limit: -1}, err
	}
	return all[0].ChallengePrefs, nil
}

// AllPrefs returns a player's challenge preferences in every variant they
// set any in, by variant.
func (s *Store) AllPrefs(ctx context.Context, user int64) ([]VariantPrefs, error) {
	return s.prefs(ctx, ``, user)
}

// prefs reads the preferences of a user in the variants the condition
// (on variant) picks, in one read transaction.
func (s *Store) prefs(ctx context.Context, cond string, args ...any) ([]VariantPrefs, error) {
	byVariant := map[string]*VariantPrefs{}
	get := func(variant string) *VariantPrefs {
		p := byVariant[variant]
		if p == nil {
			p = &VariantPrefs{Variant: variant, ChallengePrefs: ChallengePrefs{Limit: -1}}
			byVariant[variant] = p
		}
		return p
	}
	err := s.read(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT variant, max_games, accept_all FROM challenge_prefs WHERE user_id = $1 `+cond, args...)
		if err != nil {
			return err
		}
		for rows.Next() {
			var variant string
			var limit int
			var all bool
			if err := rows.Scan(&variant, &limit, &all); err != nil {
				rows.Close()
				return err
			}
			p := get(variant)
			p.Set, p.Limit, p.AcceptAll = true, limit, all
		}
		if err := rows.Close(); err != nil {
			return err
		}
		if err := rows.Err(); err != nil {
			return err
		}
		rows, err = tx.QueryContext(ctx, `SELECT variant, challenger_id, allow FROM challenge_filters WHERE user_id = $1 `+cond+`
			ORDER BY challenger_id`, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var variant string
			var id int64
			var allow bool
			if err := rows.Scan(&variant, &id, &allow); err != nil {
				return err
			}
			p := get(variant)
			if allow {
				p.Allow = append(p.Allow, id)
			} else {
				p.Deny = append(p.Deny, id)
			}
		}
		return rows.Err()
	})
	if err != nil {
		return nil, err
	}
	all := make([]VariantPrefs, 0, len(byVariant))
	for _, p := range byVariant {
		all = append(all, *p)
	}
	slices.SortFunc(all, func(a, b VariantPrefs) int { return strings.Compare(a.Variant, b.Variant) })
	return all, nil
}

// SetLimit sets how many active games of a variant a player takes from
// challenges (-1 for no limit). A limit set where none was stored takes
// challenges from anyone up to it: saying how many games one takes is
// saying that one takes them.
func (s *Store) SetLimit(ctx context.Context, user int64, variant string, limit int) error {
	return s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO challenge_prefs (user_id, variant, max_games, accept_all) VALUES ($1, $2, $3, TRUE)
			ON CONFLICT (user_id, variant) DO UPDATE SET max_games = excluded.max_games`, user, variant, limit)
		return err
	})
}

// SetPrefs sets, in one transaction, whether a player takes challenges
// in a variant from the challengers not named in their lists (acceptAll)
// and the limit, each when not nil, keeping the lists. A limit set where
// no row was stored takes challenges from anyone, as SetLimit does,
// unless acceptAll says otherwise.
func (s *Store) SetPrefs(ctx context.Context, user int64, variant string, acceptAll *bool, limit *int) error {
	return s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if limit != nil {
			if _, err := tx.ExecContext(ctx, `INSERT INTO challenge_prefs (user_id, variant, max_games, accept_all) VALUES ($1, $2, $3, TRUE)
				ON CONFLICT (user_id, variant) DO UPDATE SET max_games = excluded.max_games`, user, variant, *limit); err != nil {
				return err
			}
		}
		if acceptAll != nil {
			if _, err := tx.ExecContext(ctx, `INSERT INTO challenge_prefs (user_id, variant, max_games, accept_all) VALUES ($1, $2, -1, $3)
				ON CONFLICT (user_id, variant) DO UPDATE SET accept_all = excluded.accept_all`, user, variant, *acceptAll); err != nil {
				return err
			}
		}
		return nil
	})
}

// SetFilter takes (allow) or refuses challenges in a variant from the
// challengers named; with none named it takes or refuses everyone, and
// forgets the names given before.
func (s *Store) SetFilter(ctx context.Context, user int64, variant string, challengers []int64, allow bool) error {
	return s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if len(challengers) == 0 {
			if _, err := tx.ExecContext(ctx, `DELETE FROM challenge_filters WHERE user_id = $1 AND variant = $2`, user, variant); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx, `INSERT INTO challenge_prefs (user_id, variant, max_games, accept_all) VALUES ($1, $2, -1, $3)
				ON CONFLICT (user_id, variant) DO UPDATE SET accept_all = excluded.accept_all`, user, variant, allow)
			return err
		}
		for _, c := range challengers {
			if _, err := tx.ExecContext(ctx, `INSERT INTO challenge_filters (user_id, variant, challenger_id, allow) VALUES ($1, $2, $3, $4)
				ON CONFLICT (user_id, variant, challenger_id) DO UPDATE SET allow = excluded.allow`, user, variant, c, allow); err != nil {
				return err
			}
		}
		return nil
	})
}

// QueuedMoveOf returns a player's queued move in a game without taking
// it; ok is false when there is none.
func (s *Store) QueuedMoveOf(ctx context.Context, game, user int64) (q QueuedMove, ok bool, err error) {
	q = QueuedMove{Game: game, User: user}
	var at int64
	err = s.r.QueryRowContext(ctx, `SELECT move, ply, created_at FROM queued_moves WHERE game_id = $1 AND user_id = $2`,
		game, user).Scan(&q.Move, &q.Ply, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return q, false, nil
	}
	q.At = fromMillis(at)
	return q, err == nil, dbError(err)
}

// QueuedMoves returns the queued moves of a game (at most one a player).
func (s *Store) QueuedMoves(ctx context.Context, game int64) ([]QueuedMove, error) {
	return s.queuedMoves(ctx, `WHERE game_id = $1`, game)
}

// AllQueuedMoves returns the queued moves of every game, for the sweeper.
func (s *Store) AllQueuedMoves(ctx context.Context) ([]QueuedMove, error) {
	return s.queuedMoves(ctx, ``)
}

func (s *Store) queuedMoves(ctx context.Context, where string, args ...any) ([]QueuedMove, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT game_id, user_id, move, ply, created_at FROM queued_moves `+where+` ORDER BY game_id, user_id`, args...)
	if err != nil {
		return nil, dbError(err)
	}
	defer rows.Close()
	var qs []QueuedMove
	for rows.Next() {
		var q QueuedMove
		var at int64
		if err := rows.Scan(&q.Game, &q.User, &q.Move, &q.Ply, &at); err != nil {
			return nil, dbError(err)
		}
		q.At = fromMillis(at)
		qs = append(qs, q)
	}
	return qs, dbError(rows.Err())
}
