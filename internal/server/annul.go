package server

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/morrisgame/morris/internal/server/rating"
	"github.com/morrisgame/morris/internal/server/store"
	"github.com/morrisgame/morris/internal/server/wire"
)

// Annulment: a moderator makes a player's finished rated games unrated,
// and every rating of their variants becomes what it would have been
// without them.
//
// # What is exact
//
// A game rates its two players when it ends, from their ratings of that
// moment, one Glicko-2 period per game (ending, play.go). So a player's
// rating is the fold of the variant's rated games, in the order they
// ended, from the newcomer's rating; and taking games out changes not
// only the ratings of the annulled player's opponents but, through them,
// of everyone who played them afterwards, and so on. The recomputation is
// therefore the fold itself: every rated game of the variant replayed in
// the order it ended (its end's time, then its id), the annulled ones
// left out, and the variant's ratings replaced by the result, in one
// transaction. Everyone's rating is then exactly what the games give, as
// if the annulled games had been unrated from the start.
//
// What it rests on, and its edges:
//   - the order of the ends is the time stored with each end (the
//     store's clock, to the millisecond), then the id; two games that end
//     in the same millisecond were rated in the order their ends
//     committed, which the store does not keep, and are replayed by id;
//   - a rating written by hand (store.SetRating, for imports) is not a
//     game's, and the replay does not keep it;
//   - the replay writes no rating for a deleted account (theirs went
//     with it) but counts their games, as their opponents' were;
//   - a game that ends while the replay runs is not lost: the ratings
//     are written only if the variant's rated games are still those
//     replayed (store.RatedMark), else the replay runs again (at most
//     replayTries times); and it runs again when a game ended between the
//     read and the write, so that a game's end rated from the ratings
//     before the replacement is replayed too. On PostgreSQL a game's end
//     waiting on a rating row the replacement holds finds it replaced and
//     rates again from the new ratings.
//   - the games a player is still playing are not annulled: they are
//     rated when they end. Close the account first (its games end) and
//     annul then, or annul again later.
//
// Its cost: one read of the variant's rated games (a few dozen bytes
// each) and one transaction that rewrites the variant's ratings: for a
// club's server, thousands of games, milliseconds; a moderator's action,
// rare, never a player's.

// replayTries bounds how often a recomputation starts again because
// games ended meanwhile.
const replayTries = 5

// Annul makes the finished rated games of the player named unrated, and
// computes the ratings of their variants again.
func (s *Service) Annul(ctx context.Context, mod User, name string, n ModNote) (wire.Annulment, error) {
	m, err := s.moderator(ctx, mod)
	if err != nil {
		return wire.Annulment{}, err
	}
	t, err := s.target(ctx, m, name)
	if err != nil {
		return wire.Annulment{}, err
	}
	a, err := s.action(ctx, m, t, "annul", n, true)
	if err != nil {
		return wire.Annulment{}, err
	}
	games, variants, err := s.st.AnnulGames(ctx, t.ID, a)
	if errors.Is(err, store.ErrConflict) {
		return wire.Annulment{}, errorf(Conflict, "%s has no finished rated game to annul", t.Name)
	}
	if err != nil {
		return wire.Annulment{}, err
	}
	s.log.Info("games annulled", "user", t.ID, "moderator", m.ID, "games", len(games), "variants", variants)
	for _, v := range variants {
		// The games are unrated now whatever happens here: a failure is
		// the server's, and the next recomputation of the variant (any
		// annulment in it) makes its ratings exact again.
		if err := s.recomputeRatings(ctx, v); err != nil {
			return wire.Annulment{}, fmt.Errorf("server: the ratings of %s after annulling games of user %d: %w", v, t.ID, err)
		}
	}
	return wire.Annulment{Games: games, Variants: variants}, nil
}

// recomputeRatings replaces the ratings of a variant by the replay of its
// rated games (see the top of this file).
func (s *Service) recomputeRatings(ctx context.Context, variant string) error {
	for try := 0; ; try++ {
		games, mark, err := s.st.RatedGames(ctx, variant)
		if err != nil {
			return err
		}
		ratings, err := replayRatings(variant, games)
		if err != nil {
			return err
		}
		err = s.st.ReplaceRatings(ctx, variant, ratings, mark)
		if err == nil {
			// A game whose end read the ratings before the replacement
			// and was stored after it shows in the mark: replay again.
			_, now, err := s.st.RatedGames(ctx, variant)
			if err != nil || now == mark {
				return err
			}
		} else if !errors.Is(err, store.ErrConflict) && !errors.Is(err, store.ErrDuplicate) {
			return err
		}
		if try == replayTries-1 {
			return fmt.Errorf("the rated games of %s kept changing: %d replays", variant, replayTries)
		}
	}
}

// replayRatings folds rated games, in order, from the newcomer's rating:
// what their ends wrote, game by game (Service.ending).
func replayRatings(variant string, games []store.RatedGame) ([]store.Rating, error) {
	type state struct {
		r     rating.Rating
		games int
		at    time.Time
	}
	players := map[int64]*state{}
	get := func(id int64) *state {
		p := players[id]
		if p == nil {
			p = &state{r: rating.Default()}
			players[id] = p
		}
		return p
	}
	for _, g := range games {
		score := 0.5
		switch g.Result {
		case "1-0":
			score = 1
		case "0-1":
			score = 0
		}
		w, b := get(g.White), get(g.Black)
		nw, nb, err := rating.Game(w.r, b.r, score, rating.DefaultTau)
		if err != nil {
			return nil, fmt.Errorf("game %d: %w", g.ID, err)
		}
		w.r, b.r = nw, nb
		w.games++
		b.games++
		w.at, b.at = g.End, g.End
	}
	out := make([]store.Rating, 0, len(players))
	for id, p := range players {
		out = append(out, store.Rating{User: id, Variant: variant, R: p.r.R, RD: p.r.RD, Sigma: p.r.Sigma, Games: p.games, UpdatedAt: p.at})
	}
	return out, nil
}
