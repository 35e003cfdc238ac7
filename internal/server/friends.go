package server

import (
	"context"
	"errors"
	"strconv"

	"github.com/morrisgame/morris/internal/server/store"
	"github.com/morrisgame/morris/internal/server/wire"
)

// Players following players (friends; following a game is follow.go).
//
// A player follows at most MaxFollows others, and makes follows at a rate
// (Rates.Follow: 30, then one a minute); a guest follows no one. A follow
// is refused between two players of whom one blocks the other, and a
// block ends the follows between them both ways (store.AddBlock). Whom
// one follows and who follows one are one's own business: the lists are
// the account's (GET /api/account/following, /followers); a player's page
// shows only the counts.
//
// The lobby shows the games going on of those one follows: read on load
// (FollowedGames), and live on the account stream, which is sent a
// followedGameStart when such a game starts and a followedGameFinish when
// it ends. Each account stream listens to the games of the players it
// follows (the hub's followed index, loaded when it opens and again when
// its follows or blocks change, on any process: hub.reloadFollows), and
// leaves out a game of its own and a game with a player it blocks or who
// blocks it. A game's start or end costs one event for the hub, relayed
// once to the other processes, and a send to each follower listening.

// MaxFollows is the most players one player follows.
const MaxFollows = 500

// MaxFollowedGames is the most games of followed players listed.
const MaxFollowedGames = 50

// MaxFollowersPage is the most followers a page lists.
const MaxFollowersPage = 100

// FollowPlayer makes user follow the player named.
func (s *Service) FollowPlayer(ctx context.Context, user User, name string) (wire.Follow, error) {
	if IsGuest(user) || user.Bot {
		return wire.Follow{}, errorf(Forbidden, "%s is a guest: guests follow no one (sign up to follow players)", user.Name)
	}
	if err := ValidName(name); err != nil {
		return wire.Follow{}, err
	}
	other, err := s.UserByName(ctx, name)
	if err != nil {
		return wire.Follow{}, err
	}
	switch {
	case other.ID == user.ID:
		return wire.Follow{}, errorf(BadRequest, "you cannot follow yourself")
	case other.Bot || other.ID == s.engineID:
		return wire.Follow{}, errorf(BadRequest, "the engine cannot be followed: its games are many, and on the lobby's list of games to watch")
	}
	// What the store refuses, said first and at no cost to the rate: a
	// follow made already, a block either way. (The store checks again
	// in the transaction that follows.)
	if already, err := s.st.Follows(ctx, user.ID, other.ID); err != nil {
		return wire.Follow{}, err
	} else if already {
		return wire.Follow{}, errorf(Conflict, "you follow %s already", other.Name)
	}
	if err := s.followBlocked(ctx, user, other); err != nil {
		return wire.Follow{}, err
	}
	if err := s.spend(kindFollow, strconv.FormatInt(user.ID, 10), "you have followed too many players lately"); err != nil {
		return wire.Follow{}, err
	}
	now := truncMs(s.now())
	err = s.st.AddFollow(ctx, store.Follow{User: user.ID, Followed: other.ID, At: now}, MaxFollows)
	switch {
	case errors.Is(err, store.ErrDuplicate):
		return wire.Follow{}, errorf(Conflict, "you follow %s already", other.Name)
	case errors.Is(err, store.ErrConflict):
		return wire.Follow{}, errorf(Conflict, "you follow %d players, the most: unfollow one first", MaxFollows)
	case errors.Is(err, store.ErrBlocked): // a block made since the look above
		if err := s.followBlocked(ctx, user, other); err != nil {
			return wire.Follow{}, err
		}
		return wire.Follow{}, errorf(Forbidden, "%s does not take you as a follower", other.Name)
	case errors.Is(err, store.ErrNotFound):
		return wire.Follow{}, errorf(NotFound, "no user %q", name)
	case err != nil:
		return wire.Follow{}, err
	}
	s.hub.reloadFollows(user.ID)
	online, err := s.onlineSet(ctx, []int64{other.ID})
	if err != nil {
		return wire.Follow{}, err
	}
	return wire.Follow{User: player(other.ID, other.Name), SinceMs: now.UnixMilli(), Online: online[other.ID]}, nil
}

// followBlocked refuses a follow between user and other when either
// blocks the other, in words that say which.
func (s *Service) followBlocked(ctx context.Context, user, other User) error {
	if blocks, err := s.st.Blocking(ctx, user.ID, other.ID); err != nil {
		return err
	} else if blocks {
		return errorf(Forbidden, "you block %s: unblock them first to follow them", other.Name)
	}
	if blocked, err := s.st.Blocking(ctx, other.ID, user.ID); err != nil {
		return err
	} else if blocked {
		return errorf(Forbidden, "%s does not take you as a follower", other.Name)
	}
	return nil
}

// UnfollowPlayer makes user stop following the player named.
func (s *Service) UnfollowPlayer(ctx context.Context, user User, name string) error {
	if err := ValidName(name); err != nil {
		return err
	}
	other, err := s.UserByName(ctx, name)
	if err != nil {
		return err
	}
	if err := s.st.DeleteFollow(ctx, user.ID, other.ID); errors.Is(err, store.ErrNotFound) {
		return errorf(NotFound, "you do not follow %s", other.Name)
	} else if err != nil {
		return err
	}
	s.hub.reloadFollows(user.ID)
	return nil
}

// Following returns the players user follows, by name, each marked
// online or not.
func (s *Service) Following(ctx context.Context, user User) (wire.Following, error) {
	fs, err := s.st.Following(ctx, user.ID)
	if err != nil {
		return wire.Following{}, err
	}
	ids := make([]int64, len(fs))
	for i, f := range fs {
		ids[i] = f.Followed
	}
	online, err := s.onlineSet(ctx, ids)
	if err != nil {
		return wire.Following{}, err
	}
	out := wire.Following{Following: []wire.Follow{}}
	for _, f := range fs {
		out.Following = append(out.Following, wire.Follow{User: player(f.Followed, f.Name), SinceMs: f.At.UnixMilli(), Online: online[f.Followed]})
	}
	return out, nil
}

// Followers returns a page of the players who follow user, by id: after
// the id after, at most limit (1 to MaxFollowersPage; 0: 50).
func (s *Service) Followers(ctx context.Context, user User, after int64, limit int) (wire.Followers, error) {
	if limit <= 0 {
		limit = 50
	}
	if limit > MaxFollowersPage || after < 0 {
		return wire.Followers{}, errorf(BadRequest, "a page lists 1 to %d followers after an id", MaxFollowersPage)
	}
	fs, more, err := s.st.Followers(ctx, user.ID, after, limit)
	if err != nil {
		return wire.Followers{}, err
	}
	out := wire.Followers{Followers: []wire.Follow{}, More: more}
	for _, f := range fs {
		out.Followers = append(out.Followers, wire.Follow{User: player(f.User, f.Name), SinceMs: f.At.UnixMilli()})
	}
	return out, nil
}

// FollowedGames returns the games going on of the players user follows,
// newest first (at most MaxFollowedGames), but their own and those with
// a player they block or who blocks them.
func (s *Service) FollowedGames(ctx context.Context, user User) (wire.FollowedGames, error) {
	gs, err := s.st.FollowedGames(ctx, user.ID, MaxFollowedGames+10)
	if err != nil {
		return wire.FollowedGames{}, err
	}
	out := wire.FollowedGames{Games: []wire.GameSummary{}}
	for _, g := range gs {
		if g.White == user.ID || g.Black == user.ID || len(out.Games) == MaxFollowedGames {
			continue
		}
		out.Games = append(out.Games, *s.summaryOf(g))
	}
	return out, nil
}

// FollowCounts is what a player's page shows of follows: how many they
// follow and how many follow them, and whether the viewer follows them.
type FollowCounts struct {
	Following, Followers int
	Followed             bool // by the viewer
}

// FollowCountsOf returns the follows of user, as viewer (nil: nobody
// signed in) sees them.
func (s *Service) FollowCountsOf(ctx context.Context, user User, viewer *User) (FollowCounts, error) {
	a, b, err := s.st.FollowCounts(ctx, user.ID)
	if err != nil {
		return FollowCounts{}, err
	}
	c := FollowCounts{Following: a, Followers: b}
	if viewer != nil && viewer.ID != user.ID {
		if c.Followed, err = s.st.Follows(ctx, viewer.ID, user.ID); err != nil {
			return FollowCounts{}, err
		}
	}
	return c, nil
}

// announceFollowed tells the streams of the followers of a game's players
// that it started ("followedGameStart") or ended ("followedGameFinish").
func (s *Service) announceFollowed(kind string, sum *wire.GameSummary) {
	s.hub.publishFollowed(Event{Data: mustJSON(wire.Event{Type: kind, Game: sum}), Followed: [2]int64{sum.White.ID, sum.Black.ID}})
}

// followState is what an account stream of user needs to pass on the
// games of those it follows: whom they follow, and whom they block or
// are blocked by.
func (s *Service) followState(ctx context.Context, user User) ([]int64, map[int64]bool, error) {
	ids, err := s.st.FollowedIDs(ctx, user.ID)
	if err != nil {
		return nil, nil, err
	}
	blocked, err := s.st.BlockedBetween(ctx, user.ID)
	return ids, blocked, err
}

// passFollowed reports whether an account stream of user passes on the
// event of a game of players followed.
func passFollowed(user int64, e Event, blocked map[int64]bool) bool {
	w, b := e.Followed[0], e.Followed[1]
	return w != user && b != user && !blocked[w] && !blocked[b]
}
