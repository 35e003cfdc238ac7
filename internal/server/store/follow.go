package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// SubscriptionKind is what a follower is told.
type SubscriptionKind string

const (
	FollowMoves SubscriptionKind = "moves" // every move (pbmserv "subscribe")
	FollowEnd   SubscriptionKind = "end"   // only the end (pbmserv "notify")
)

// Subscription is a user following a game.
type Subscription struct {
	Game      int64
	User      int64
	Kind      SubscriptionKind
	CreatedAt time.Time
}

// Subscribe makes a user follow a game, or changes what they are told if
// they follow it already. An unknown user or game is ErrNotFound.
func (s *Store) Subscribe(ctx context.Context, sub Subscription) error {
	if sub.Kind != FollowMoves && sub.Kind != FollowEnd {
		return fmt.Errorf("store: %q is not a subscription", sub.Kind)
	}
	return s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO subscriptions (game_id, user_id, kind, created_at) VALUES ($1, $2, $3, $4)
			ON CONFLICT (game_id, user_id) DO UPDATE SET kind = excluded.kind`,
			sub.Game, sub.User, string(sub.Kind), millis(s.now()))
		return err
	})
}

// Unsubscribe stops a user following a game; ErrNotFound if they did not.
func (s *Store) Unsubscribe(ctx context.Context, game, user int64) error {
	return s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		err := affected(tx.ExecContext(ctx, `DELETE FROM subscriptions WHERE game_id = $1 AND user_id = $2`, game, user))
		if err != nil {
			return fmt.Errorf("%w: user %d does not follow game %d", err, user, game)
		}
		return nil
	})
}

// Subscribers returns who follows a game, in the order they subscribed.
func (s *Store) Subscribers(ctx context.Context, game int64) ([]Subscription, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT user_id, kind, created_at FROM subscriptions WHERE game_id = $1
		ORDER BY created_at, user_id`, game)
	if err != nil {
		return nil, dbError(err)
	}
	defer rows.Close()
	var subs []Subscription
	for rows.Next() {
		sub := Subscription{Game: game}
		var at int64
		if err := rows.Scan(&sub.User, &sub.Kind, &at); err != nil {
			return nil, dbError(err)
		}
		sub.CreatedAt = fromMillis(at)
		subs = append(subs, sub)
	}
	return subs, dbError(rows.Err())
}
