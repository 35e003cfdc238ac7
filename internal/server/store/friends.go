package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Follow is a player following another (a friend): the follower sees the
// games of those they follow in the lobby. Not to be confused with
// following a game (follow.go, pbmserv subscribe).
type Follow struct {
	User     int64 // who follows
	Followed int64 // whom
	// Name is filled by reads: the followed player's name in Following,
	// the follower's in Followers.
	Name string
	At   time.Time
}

// AddFollow stores that f.User follows f.Followed. A user who follows
// maxFollows players already is ErrConflict; a pair stored already
// ErrDuplicate; an unknown, deleted or closed user ErrNotFound; a pair
// where either blocks the other ErrBlocked, and nothing is stored.
func (s *Store) AddFollow(ctx context.Context, f Follow, maxFollows int) error {
	if f.User == f.Followed {
		return errors.New("store: a user following themselves")
	}
	return s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		for _, u := range []int64{f.User, f.Followed} {
			if err := liveUser(ctx, tx, u); err != nil {
				return err
			}
		}
		var closed int64
		if err := tx.QueryRowContext(ctx, `SELECT closed_at FROM users WHERE id = $1`, f.Followed).Scan(&closed); err != nil {
			return err
		}
		if closed != 0 {
			return fmt.Errorf("%w: user %d is closed", ErrNotFound, f.Followed)
		}
		var blocks int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM blocks WHERE user_id = $1 AND blocked_id = $2 OR user_id = $2 AND blocked_id = $1`,
			f.User, f.Followed).Scan(&blocks); err != nil {
			return err
		}
		if blocks > 0 {
			return fmt.Errorf("%w: users %d and %d", ErrBlocked, f.User, f.Followed)
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM follows WHERE user_id = $1`, f.User).Scan(&n); err != nil {
			return err
		}
		if n >= maxFollows {
			return fmt.Errorf("%w: user %d follows %d players", ErrConflict, f.User, n)
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO follows (user_id, followed_id, created_at) VALUES ($1, $2, $3)`, f.User, f.Followed, millis(f.At))
		return err
	})
}

// ErrBlocked: a follow between two players of whom one blocks the other.
var ErrBlocked = errors.New("store: one of the two blocks the other")

// DeleteFollow stops user following followed: ErrNotFound if they did not.
func (s *Store) DeleteFollow(ctx context.Context, user, followed int64) error {
	return s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		return affected(tx.ExecContext(ctx, `DELETE FROM follows WHERE user_id = $1 AND followed_id = $2`, user, followed))
	})
}

// unfollowBoth deletes the follows between two players, both ways (a
// block ends them).
func unfollowBoth(ctx context.Context, tx *sql.Tx, a, b int64) error {
	_, err := tx.ExecContext(ctx, `DELETE FROM follows WHERE user_id = $1 AND followed_id = $2 OR user_id = $2 AND followed_id = $1`, a, b)
	return err
}

// Following returns the players a user follows, by name.
func (s *Store) Following(ctx context.Context, user int64) ([]Follow, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT f.followed_id, u.name, f.created_at FROM follows f JOIN users u ON u.id = f.followed_id
		WHERE f.user_id = $1 ORDER BY u.name_key`, user)
	if err != nil {
		return nil, dbError(err)
	}
	defer rows.Close()
	var out []Follow
	for rows.Next() {
		f := Follow{User: user}
		var at int64
		if err := rows.Scan(&f.Followed, &f.Name, &at); err != nil {
			return nil, dbError(err)
		}
		f.At = fromMillis(at)
		out = append(out, f)
	}
	return out, dbError(rows.Err())
}

// FollowedIDs returns the ids of the players a user follows.
func (s *Store) FollowedIDs(ctx context.Context, user int64) ([]int64, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT followed_id FROM follows WHERE user_id = $1`, user)
	if err != nil {
		return nil, dbError(err)
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, dbError(err)
		}
		out = append(out, id)
	}
	return out, dbError(rows.Err())
}

// Followers returns a page of the players who follow user, by id: those
// with ids above after, at most limit, and whether more follow.
func (s *Store) Followers(ctx context.Context, user, after int64, limit int) ([]Follow, bool, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT f.user_id, u.name, f.created_at FROM follows f JOIN users u ON u.id = f.user_id
		WHERE f.followed_id = $1 AND f.user_id > $2 ORDER BY f.user_id LIMIT $3`, user, after, limit+1)
	if err != nil {
		return nil, false, dbError(err)
	}
	defer rows.Close()
	var out []Follow
	for rows.Next() {
		f := Follow{Followed: user}
		var at int64
		if err := rows.Scan(&f.User, &f.Name, &at); err != nil {
			return nil, false, dbError(err)
		}
		f.At = fromMillis(at)
		out = append(out, f)
	}
	if err := rows.Err(); err != nil {
		return nil, false, dbError(err)
	}
	more := len(out) > limit
	if more {
		out = out[:limit]
	}
	return out, more, nil
}

// FollowCounts returns how many players user follows and how many follow
// them.
func (s *Store) FollowCounts(ctx context.Context, user int64) (following, followers int, err error) {
	err = s.read(ctx, func(tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM follows WHERE user_id = $1`, user).Scan(&following); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM follows WHERE followed_id = $1`, user).Scan(&followers)
	})
	return following, followers, err
}

// Follows reports whether user follows other.
func (s *Store) Follows(ctx context.Context, user, other int64) (bool, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM follows WHERE user_id = $1 AND followed_id = $2`, user, other).Scan(&n)
	return n > 0, dbError(err)
}

// FollowedGames returns the games going on of the players user follows,
// newest first, at most limit, but those with a player whom user blocks
// or who blocks user. Each half of the union walks the follows of user
// (its primary key) and the active games of each (games_active_white,
// games_active_black): a few hundred follows cost a few hundred index
// looks, whatever the number of finished games.
func (s *Store) FollowedGames(ctx context.Context, user int64, limit int) ([]Game, error) {
	rows, err := s.r.QueryContext(ctx, followedGamesSQL, user, limit)
	if err != nil {
		return nil, dbError(err)
	}
	defer rows.Close()
	var out []Game
	for rows.Next() {
		g, err := scanGame(rows)
		if err != nil {
			return nil, dbError(err)
		}
		out = append(out, g)
	}
	return out, dbError(rows.Err())
}

// followedGamesSQL is the query of FollowedGames: $1 the user, $2 the
// limit. The follows first (CROSS JOIN: SQLite keeps the order written),
// then each one's active games by the partial indexes.
const followedGamesSQL = gamesFirst + ` AND g.id IN (
		SELECT a.id FROM follows f CROSS JOIN games a WHERE f.user_id = $1 AND a.white_id = f.followed_id AND a.status = 'active'
		UNION
		SELECT a.id FROM follows f CROSS JOIN games a WHERE f.user_id = $1 AND a.black_id = f.followed_id AND a.status = 'active')
	AND NOT EXISTS (SELECT 1 FROM blocks k WHERE k.user_id = $1 AND k.blocked_id IN (g.white_id, g.black_id)
		OR k.blocked_id = $1 AND k.user_id IN (g.white_id, g.black_id))
	ORDER BY g.id DESC LIMIT $2`
