package server

import (
	"context"
	"math"
	"sync"
	"time"

	"github.com/morrisgame/morris/internal/server/rating"
	"github.com/morrisgame/morris/internal/server/store"
	"github.com/morrisgame/morris/internal/server/wire"
	"github.com/morrisgame/morris/mill"
)

// The leaderboard of each preset, as lichess has them: the best ratings
// of the players who are established in it, at least LeaderboardMinGames
// rated games and a rating that is not provisional (a deviation of at
// most rating.ProvisionalRD: the same rule as the "?" by a rating), of
// accounts neither closed, deleted nor bots. The first LeaderboardSize
// are listed, in pages.
//
// A process reads a preset's leaderboard from the store (one query by the
// index of the ratings, ratings_standings) at most every
// Config.LeaderboardEvery (30 s) and serves its pages from that copy, so
// that a million readers cost it the store once every 30 s per preset;
// the ranks of a copy are exact as of its reading.
//
// Glicko-2 here has one rating period per game, so a deviation does not
// grow while a player is away: an absent player stays listed (lichess
// lets the deviation grow with time, and so drops them).

// LeaderboardMinGames is the fewest rated games of a player listed.
const LeaderboardMinGames = 10

// LeaderboardSize is the most players a leaderboard lists.
const LeaderboardSize = 1000

// MaxLeaderboardPage is the most lines a page of a leaderboard holds.
const MaxLeaderboardPage = 100

// leaderboards are the copies of the leaderboards a process read.
type leaderboards struct {
	mu sync.Mutex
	m  map[string]leaderboardCopy
}

type leaderboardCopy struct {
	at   time.Time
	list []store.Rating
}

// board returns the copy of a preset's leaderboard, read again when older
// than LeaderboardEvery.
func (s *Service) board(ctx context.Context, variant string) ([]store.Rating, error) {
	b := &s.leaderboards
	b.mu.Lock()
	defer b.mu.Unlock()
	now := s.now()
	if c, ok := b.m[variant]; ok && now.Sub(c.at) < s.cfg.LeaderboardEvery && !now.Before(c.at) {
		return c.list, nil
	}
	list, err := s.st.Leaderboard(ctx, variant, LeaderboardMinGames, rating.ProvisionalRD, LeaderboardSize)
	if err != nil {
		return nil, err
	}
	if b.m == nil {
		b.m = map[string]leaderboardCopy{}
	}
	b.m[variant] = leaderboardCopy{at: now, list: list}
	return list, nil
}

// Leaderboard returns a page of a preset's leaderboard: the lines from
// rank offset+1, at most limit (1 to MaxLeaderboardPage; 0: 50).
func (s *Service) Leaderboard(ctx context.Context, variant string, offset, limit int) (wire.Leaderboard, error) {
	if _, err := mill.LookupVariant(variant); err != nil {
		return wire.Leaderboard{}, &Error{Kind: BadRequest, Msg: err.Error(), Err: err}
	}
	if limit == 0 {
		limit = 50
	}
	if limit < 1 || limit > MaxLeaderboardPage {
		return wire.Leaderboard{}, errorf(BadRequest, "a page of a leaderboard has 1 to %d lines", MaxLeaderboardPage)
	}
	if offset < 0 || offset >= LeaderboardSize {
		return wire.Leaderboard{}, errorf(BadRequest, "a leaderboard lists the first %d players: offset is 0 to %d", LeaderboardSize, LeaderboardSize-1)
	}
	list, err := s.board(ctx, variant)
	if err != nil {
		return wire.Leaderboard{}, err
	}
	out := wire.Leaderboard{Variant: variant, MinGames: LeaderboardMinGames, MaxDeviation: rating.ProvisionalRD,
		Total: len(list), Entries: []wire.LeaderboardEntry{}}
	for i := offset; i < len(list) && i < offset+limit; i++ {
		r := list[i]
		out.Entries = append(out.Entries, wire.LeaderboardEntry{Rank: i + 1, User: player(r.User, r.Name),
			Rating: math.Round(r.R), Deviation: math.Round(r.RD), Games: r.Games})
	}
	out.More = offset+limit < len(list)
	return out, nil
}
