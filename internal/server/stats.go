package server

import (
	"context"
	"fmt"

	"github.com/morrisgame/morris/internal/server/wire"
	"github.com/morrisgame/morris/mill"
)

// A player's statistics: their results by preset and colour, and their
// rating after each rated game of a preset, which the player's page draws
// as a graph. Both are written by each game's end (store.ended), so a
// read costs a few rows whatever the number of games: the results at most
// two rows a preset; the history at most MaxRatingPoints points, the
// last ones, by an index.
//
// The games rated before the history was kept (a database from before
// migration 00014) get their points once, when the service starts and
// finds rated games but no history: the replay of each preset's rated
// games, in the order they ended, as an annulment replays them (annul.go),
// which gives each game's ratings exactly as its end wrote them.

// MaxRatingPoints is the most points of a rating history returned: the
// last ones.
const MaxRatingPoints = 1000

// PlayerStats returns the results of the player named.
func (s *Service) PlayerStats(ctx context.Context, name string) (wire.PlayerStats, error) {
	u, err := s.UserByName(ctx, name)
	if err != nil {
		return wire.PlayerStats{}, err
	}
	rs, err := s.st.PlayerResults(ctx, u.ID)
	if err != nil {
		return wire.PlayerStats{}, err
	}
	out := wire.PlayerStats{User: player(u.ID, u.Name), Results: []wire.PresetResults{}}
	out.User.Bot = u.Bot
	for _, r := range rs {
		if n := len(out.Results); n == 0 || out.Results[n-1].Variant != r.Variant {
			out.Results = append(out.Results, wire.PresetResults{Variant: r.Variant})
		}
		p := &out.Results[len(out.Results)-1]
		side := &p.White
		if r.Side == 1 {
			side = &p.Black
		}
		*side = wire.SideResults{Wins: r.Wins, Draws: r.Draws, Losses: r.Losses}
		out.Total.Wins += r.Wins
		out.Total.Draws += r.Draws
		out.Total.Losses += r.Losses
	}
	return out, nil
}

// RatingHistory returns the rating of the player named after each of
// their last MaxRatingPoints rated games of a preset, oldest first.
func (s *Service) RatingHistory(ctx context.Context, name, variant string) (wire.RatingHistory, error) {
	if variant == "" {
		return wire.RatingHistory{}, errorf(BadRequest, "a rating history is of one preset: ?variant=ID")
	}
	if _, err := mill.LookupVariant(variant); err != nil {
		return wire.RatingHistory{}, &Error{Kind: BadRequest, Msg: err.Error(), Err: err}
	}
	u, err := s.UserByName(ctx, name)
	if err != nil {
		return wire.RatingHistory{}, err
	}
	pts, more, err := s.st.RatingHistory(ctx, u.ID, variant, MaxRatingPoints)
	if err != nil {
		return wire.RatingHistory{}, err
	}
	out := wire.RatingHistory{Variant: variant, Points: make([]wire.RatingPoint, 0, len(pts)), More: more}
	for _, p := range pts {
		out.Points = append(out.Points, wire.RatingPoint{Game: p.Game, AtMs: p.At.UnixMilli(), Rating: p.R, Deviation: p.RD})
	}
	return out, nil
}

// backfillRatingHistory gives the rated games of a database from before
// the rating history their points, once: when there are rated games and
// no point at all. The points stored meanwhile by games that end are
// kept (store.AddRatingHistory).
func (s *Service) backfillRatingHistory(ctx context.Context) error {
	need, err := s.st.NeedsRatingHistory(ctx)
	if err != nil || !need {
		return err
	}
	total := 0
	for _, v := range mill.Variants() {
		games, _, err := s.st.RatedGames(ctx, v.ID)
		if err != nil {
			return err
		}
		if len(games) == 0 {
			continue
		}
		_, points, err := replayRatings(v.ID, games)
		if err != nil {
			return fmt.Errorf("%s: %w", v.ID, err)
		}
		if err := s.st.AddRatingHistory(ctx, points); err != nil {
			return fmt.Errorf("%s: %w", v.ID, err)
		}
		total += len(points)
	}
	s.log.Info("rating history filled in for the games rated before it", "points", total)
	return nil
}
