package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// The life cycle of credentials: a new password, signing out everywhere,
// and deleting an account. Each is one transaction, so that a password
// never changes without the other sessions ending with it, and an account
// is never half deleted.

// SetPassword replaces a user's password hash and deletes every token of
// the user but keep (the hash of the token of the session that changed
// it; "" deletes them all), and says how many it deleted. An unknown or
// deleted user is ErrNotFound.
func (s *Store) SetPassword(ctx context.Context, user int64, hash, keep string) (int64, error) {
	if hash == "" {
		return 0, errors.New("store: a password hash is needed")
	}
	var n int64
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if err := affected(tx.ExecContext(ctx, `UPDATE users SET password_hash = $1 WHERE id = $2 AND deleted_at = 0`, hash, user)); err != nil {
			return fmt.Errorf("%w: user %d", err, user)
		}
		var err error
		n, err = deleteTokens(ctx, tx, user, keep)
		return err
	})
	return n, err
}

// DeleteUserTokens deletes every token of a user but keep ("" for none)
// and says how many it deleted: signing out everywhere, or everywhere else.
func (s *Store) DeleteUserTokens(ctx context.Context, user int64, keep string) (int64, error) {
	var n int64
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) (err error) {
		n, err = deleteTokens(ctx, tx, user, keep)
		return err
	})
	return n, err
}

func deleteTokens(ctx context.Context, tx *sql.Tx, user int64, keep string) (int64, error) {
	res, err := tx.ExecContext(ctx, `DELETE FROM tokens WHERE user_id = $1 AND hash <> $2`, user, keep)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// DeleteUser deletes an account and leaves its row as a tombstone under
// the name tombstone ("deleted-42"): the games, moves and chat that
// reference the user stay, shown under that name. The password hash and
// e-mail address are emptied; the tokens, challenges and seeks (from the
// user and to them), challenge preferences and filters (the user's, and
// others' naming the user), vacations, queued moves, subscriptions,
// ratings and puzzle ratings and attempts, blocks (the user's and others'
// of the user), warnings, follows (the user's and others' of the user),
// the last time seen, the rating history and the results are deleted; the reports and the moderators'
// log that name the user stay, as evidence; the user leaves every club
// (leaveAllClubs: a club left without members is deleted, one left
// without a leader gets its longest-standing member), and their
// tournaments (leaveAllTournaments: out of the upcoming ones, withdrawn
// from the running ones). The old name stays
// taken (name_key is kept): UserByName finds no one under it and CreateUser
// refuses it, so that nobody can sign up as the player who left. The
// games the user plays are the caller's to end first. An unknown or
// already deleted user is ErrNotFound.
func (s *Store) DeleteUser(ctx context.Context, user int64, tombstone string) error {
	if tombstone == "" {
		return errors.New("store: a deleted user needs a name")
	}
	now := millis(s.now())
	return s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		err := affected(tx.ExecContext(ctx, `UPDATE users SET name = $1, password_hash = '', email = '', deleted_at = $2,
				moderator = FALSE, muted_until = 0
			WHERE id = $3 AND deleted_at = 0`, tombstone, now, user))
		if err != nil {
			return fmt.Errorf("%w: user %d", err, user)
		}
		for _, q := range []string{
			`DELETE FROM tokens WHERE user_id = $1`,
			`DELETE FROM challenges WHERE from_id = $1 OR to_id = $1`,
			`DELETE FROM challenge_prefs WHERE user_id = $1`,
			`DELETE FROM challenge_filters WHERE user_id = $1 OR challenger_id = $1`,
			`DELETE FROM vacations WHERE user_id = $1`,
			`DELETE FROM queued_moves WHERE user_id = $1`,
			`DELETE FROM subscriptions WHERE user_id = $1`,
			`DELETE FROM ratings WHERE user_id = $1`,
			`DELETE FROM puzzle_attempts WHERE user_id = $1`,
			`DELETE FROM puzzle_ratings WHERE user_id = $1`,
			`DELETE FROM blocks WHERE user_id = $1 OR blocked_id = $1`,
			`DELETE FROM warnings WHERE user_id = $1`,
			`DELETE FROM follows WHERE user_id = $1 OR followed_id = $1`,
			`DELETE FROM last_seen WHERE user_id = $1`,
			`DELETE FROM rating_history WHERE user_id = $1`,
			`DELETE FROM results WHERE user_id = $1`,
		} {
			if _, err := tx.ExecContext(ctx, q, user); err != nil {
				return err
			}
		}
		if err := s.leaveAllClubs(ctx, tx, user); err != nil {
			return err
		}
		return leaveAllTournaments(ctx, tx, user, now)
	})
}
