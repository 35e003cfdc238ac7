package server

import (
	"context"
	"errors"

	"github.com/morrisgame/morris/internal/server/store"
)

// FollowKind is what a follower of a game is told.
type FollowKind string

// Follow kinds: the store's, under the service's type.
const (
	FollowMoves = FollowKind(store.FollowMoves) // every move (pbmserv "subscribe")
	FollowEnd   = FollowKind(store.FollowEnd)   // only the end (pbmserv "notify")
)

// Follow makes user follow a game: every move (FollowMoves) or only its
// end (FollowEnd) comes to their account stream. Anyone may follow any
// game.
func (s *Service) Follow(ctx context.Context, user User, id int64, kind FollowKind) error {
	return s.locked(ctx, id, func(o *owner) error {
		if err := s.st.Subscribe(ctx, store.Subscription{Game: id, User: user.ID, Kind: store.SubscriptionKind(kind)}); err != nil {
			return err
		}
		fs, err := s.st.Subscribers(ctx, id)
		if err == nil {
			o.followers = fs
		}
		return err
	})
}

// Unfollow stops user following a game.
func (s *Service) Unfollow(ctx context.Context, user User, id int64) error {
	return s.locked(ctx, id, func(o *owner) error {
		err := s.st.Unsubscribe(ctx, id, user.ID)
		if errors.Is(err, store.ErrNotFound) {
			return errorf(NotFound, "%s does not follow game %d", user.Name, id)
		}
		if err != nil {
			return err
		}
		fs, err := s.st.Subscribers(ctx, id)
		if err == nil {
			o.followers = fs
		}
		return err
	})
}
