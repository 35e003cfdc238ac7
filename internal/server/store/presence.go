package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"slices"
	"time"
)

// When players were last seen (an API call, a stream open): the service
// keeps them in memory and writes them here now and then, in one
// transaction for all (Service's presence), so that every process sharing
// the database knows who is online and a player's page says when they
// were last seen, after a restart too.

// SetSeen records when users were seen, each time kept only if it is
// later than the one stored.
func (s *Store) SetSeen(ctx context.Context, seen map[int64]time.Time) error {
	if len(seen) == 0 {
		return nil
	}
	// In the order of the ids: two processes writing at once lock the
	// rows in one order on PostgreSQL.
	ids := make([]int64, 0, len(seen))
	for id := range seen {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		for _, id := range ids {
			_, err := tx.ExecContext(ctx, `INSERT INTO last_seen (user_id, seen_at) SELECT $1, $2 FROM users WHERE id = $1 AND deleted_at = 0
				ON CONFLICT (user_id) DO UPDATE SET seen_at = excluded.seen_at WHERE last_seen.seen_at < excluded.seen_at`, id, millis(seen[id]))
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// LastSeen returns when a user was last seen (zero: never, as far as the
// store knows).
func (s *Store) LastSeen(ctx context.Context, user int64) (time.Time, error) {
	var at int64
	err := s.r.QueryRowContext(ctx, `SELECT seen_at FROM last_seen WHERE user_id = $1`, user).Scan(&at)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, nil
	}
	return fromMillis(at), dbError(err)
}

// Seen is a user seen lately.
type Seen struct {
	User  int64
	Name  string
	Guest bool // a guest account (its name starts with guest-)
	At    time.Time
}

// SeenSince returns the users seen at since or later, but bots and
// deleted or closed accounts, at most limit of them (the most recently
// seen), by name; and how many there are in all, guests and others. It
// walks the index of the times from since on: the players online, not the
// players there are.
func (s *Store) SeenSince(ctx context.Context, since time.Time, limit int) (list []Seen, players, guests int, err error) {
	err = s.read(ctx, func(tx *sql.Tx) error {
		list, players, guests = nil, 0, 0
		rows, err := tx.QueryContext(ctx, seenSinceSQL, millis(since))
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var x Seen
			var key string
			var at int64
			if err := rows.Scan(&x.User, &x.Name, &key, &at); err != nil {
				return err
			}
			x.At = fromMillis(at)
			x.Guest = len(key) > len(guestPrefix) && key[:len(guestPrefix)] == guestPrefix
			if x.Guest {
				guests++
				continue
			}
			players++
			if len(list) < limit {
				list = append(list, x)
			}
		}
		return rows.Err()
	})
	slices.SortFunc(list, func(a, b Seen) int { return cmp.Compare(nameKey(a.Name), nameKey(b.Name)) })
	return list, players, guests, err
}

// seenSinceSQL is the query of SeenSince: $1 the time since.
const seenSinceSQL = `SELECT u.id, u.name, u.name_key, l.seen_at FROM last_seen l JOIN users u ON u.id = l.user_id
	WHERE l.seen_at >= $1 AND u.deleted_at = 0 AND u.closed_at = 0 AND NOT u.bot ORDER BY l.seen_at DESC`

// guestPrefix starts the names of guest accounts (the service's
// GuestPrefix, folded).
const guestPrefix = "guest-"
