package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Block is a player's block of another: the blocked player cannot
// challenge them, is not paired with them, and their chat lines are not
// shown to them (the service's rules; the store keeps the pairs).
type Block struct {
	User    int64
	Blocked int64
	// BlockedName is filled by reads.
	BlockedName string
	At          time.Time
}

// AddBlock stores a block. A user who blocks maxBlocks players already is
// ErrConflict; a pair stored already ErrDuplicate; an unknown or deleted
// user ErrNotFound.
func (s *Store) AddBlock(ctx context.Context, b Block, maxBlocks int) error {
	if b.User == b.Blocked {
		return errors.New("store: a user blocking themselves")
	}
	return s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		for _, u := range []int64{b.User, b.Blocked} {
			if err := liveUser(ctx, tx, u); err != nil {
				return err
			}
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM blocks WHERE user_id = $1`, b.User).Scan(&n); err != nil {
			return err
		}
		if n >= maxBlocks {
			return fmt.Errorf("%w: user %d blocks %d players", ErrConflict, b.User, n)
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO blocks (user_id, blocked_id, created_at) VALUES ($1, $2, $3)`, b.User, b.Blocked, millis(b.At))
		return err
	})
}

// DeleteBlock lifts a block: ErrNotFound if there is none.
func (s *Store) DeleteBlock(ctx context.Context, user, blocked int64) error {
	return s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		return affected(tx.ExecContext(ctx, `DELETE FROM blocks WHERE user_id = $1 AND blocked_id = $2`, user, blocked))
	})
}

// Blocks returns the players a user blocks, newest first.
func (s *Store) Blocks(ctx context.Context, user int64) ([]Block, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT b.blocked_id, u.name, b.created_at FROM blocks b JOIN users u ON u.id = b.blocked_id
		WHERE b.user_id = $1 ORDER BY b.created_at DESC, b.blocked_id`, user)
	if err != nil {
		return nil, dbError(err)
	}
	defer rows.Close()
	var out []Block
	for rows.Next() {
		b := Block{User: user}
		var at int64
		if err := rows.Scan(&b.Blocked, &b.BlockedName, &at); err != nil {
			return nil, dbError(err)
		}
		b.At = fromMillis(at)
		out = append(out, b)
	}
	return out, dbError(rows.Err())
}

// Blocking reports whether user blocks other.
func (s *Store) Blocking(ctx context.Context, user, other int64) (bool, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM blocks WHERE user_id = $1 AND blocked_id = $2`, user, other).Scan(&n)
	return n > 0, dbError(err)
}

// BlockedBetween returns the players that user blocks or that block user:
// those user is not paired with, and whose seeks user is not shown. One
// look for a lobby's seeks, both ways through an index.
func (s *Store) BlockedBetween(ctx context.Context, user int64) (map[int64]bool, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT blocked_id FROM blocks WHERE user_id = $1
		UNION SELECT user_id FROM blocks WHERE blocked_id = $1`, user)
	if err != nil {
		return nil, dbError(err)
	}
	defer rows.Close()
	out := map[int64]bool{}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, dbError(err)
		}
		out[id] = true
	}
	return out, dbError(rows.Err())
}
