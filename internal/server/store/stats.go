package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// A player's statistics: the results of their finished games by preset
// and colour (results), and their rating after each rated game
// (rating_history). Both are written by the game's end, in its
// transaction, so that they are what the games are: read back, they cost
// a few rows whatever the number of games.

// ended is what a game's end writes beside the game's row, in the end's
// transaction: the ratings (writeRatings), the players' results, and the
// rating each player has after it, at end (the end's time, ended_at).
func ended(ctx context.Context, tx *sql.Tx, game int64, e *Ending, at time.Time, end int64) error {
	if err := writeRatings(ctx, tx, e.Ratings, at); err != nil {
		return err
	}
	var variant string
	var white, black int64
	if err := tx.QueryRowContext(ctx, `SELECT variant, white_id, black_id FROM games WHERE id = $1`, game).Scan(&variant, &white, &black); err != nil {
		return err
	}
	if e.Result != "*" {
		var w, d, l int // white's
		switch e.Result {
		case "1-0":
			w = 1
		case "0-1":
			l = 1
		default:
			d = 1
		}
		// White's row first, then black's: two ends lock the rows of a
		// side in one order, so they cannot deadlock on PostgreSQL.
		for _, r := range []struct {
			user          int64
			side, w, d, l int
		}{{white, 0, w, d, l}, {black, 1, l, d, w}} {
			if _, err := tx.ExecContext(ctx, `INSERT INTO results (user_id, variant, side, wins, draws, losses) VALUES ($1, $2, $3, $4, $5, $6)
				ON CONFLICT (user_id, variant, side) DO UPDATE SET wins = results.wins + excluded.wins,
					draws = results.draws + excluded.draws, losses = results.losses + excluded.losses`,
				r.user, variant, r.side, r.w, r.d, r.l); err != nil {
				return err
			}
		}
	}
	for _, r := range e.Ratings {
		if _, err := tx.ExecContext(ctx, `INSERT INTO rating_history (user_id, variant, game_id, rating, deviation, at)
			VALUES ($1, $2, $3, $4, $5, $6)`, r.User, r.Variant, game, r.R, r.RD, end); err != nil {
			return err
		}
	}
	return nil
}

// Results are a player's results in one preset and colour.
type Results struct {
	Variant             string
	Side                int // 0 white, 1 black
	Wins, Draws, Losses int64
}

// PlayerResults returns a player's results, by preset then colour.
func (s *Store) PlayerResults(ctx context.Context, user int64) ([]Results, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT variant, side, wins, draws, losses FROM results WHERE user_id = $1 ORDER BY variant, side`, user)
	if err != nil {
		return nil, dbError(err)
	}
	defer rows.Close()
	var out []Results
	for rows.Next() {
		var r Results
		if err := rows.Scan(&r.Variant, &r.Side, &r.Wins, &r.Draws, &r.Losses); err != nil {
			return nil, dbError(err)
		}
		out = append(out, r)
	}
	return out, dbError(rows.Err())
}

// RatingPoint is a player's rating after a rated game.
type RatingPoint struct {
	User    int64
	Variant string
	Game    int64
	R, RD   float64
	At      time.Time // the game's end
}

// RatingHistory returns the last limit points of a player's rating in a
// preset, oldest first, and whether older ones are left.
func (s *Store) RatingHistory(ctx context.Context, user int64, variant string, limit int) ([]RatingPoint, bool, error) {
	rows, err := s.r.QueryContext(ctx, ratingHistorySQL, user, variant, limit+1)
	if err != nil {
		return nil, false, dbError(err)
	}
	defer rows.Close()
	var out []RatingPoint
	for rows.Next() {
		p := RatingPoint{User: user, Variant: variant}
		var at int64
		if err := rows.Scan(&p.Game, &p.R, &p.RD, &at); err != nil {
			return nil, false, dbError(err)
		}
		p.At = fromMillis(at)
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, false, dbError(err)
	}
	more := len(out) > limit
	if more {
		out = out[:limit]
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, more, nil
}

// ratingHistorySQL is the query of RatingHistory: $1 the user, $2 the
// variant, $3 the limit.
const ratingHistorySQL = `SELECT game_id, rating, deviation, at FROM rating_history
	WHERE user_id = $1 AND variant = $2 ORDER BY at DESC, game_id DESC LIMIT $3`

// NeedsRatingHistory reports whether rated games have ended while the
// rating history is empty: a database from before the history, whose
// points the service computes once (AddRatingHistory).
func (s *Store) NeedsRatingHistory(ctx context.Context) (bool, error) {
	var history, rated int
	err := s.read(ctx, func(tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM (SELECT 1 FROM rating_history LIMIT 1) h`).Scan(&history); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM (SELECT 1 FROM games
			WHERE status = 'finished' AND rated AND engine_level = 0 LIMIT 1) g`).Scan(&rated)
	})
	return history == 0 && rated > 0, err
}

// AddRatingHistory stores points of the rating history that are missing
// (a point already stored is kept), those of deleted users left out.
func (s *Store) AddRatingHistory(ctx context.Context, points []RatingPoint) error {
	return s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		deleted, err := deletedUsers(ctx, tx)
		if err != nil {
			return err
		}
		return insertPoints(ctx, tx, points, deleted, true)
	})
}

// deletedUsers returns the ids of the deleted accounts.
func deletedUsers(ctx context.Context, tx *sql.Tx) (map[int64]bool, error) {
	rows, err := tx.QueryContext(ctx, `SELECT id FROM users WHERE deleted_at <> 0`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	deleted := map[int64]bool{}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		deleted[id] = true
	}
	return deleted, rows.Err()
}

// insertPoints inserts points of the rating history, but deleted users';
// keep leaves a point stored already as it is (else it is an error).
func insertPoints(ctx context.Context, tx *sql.Tx, points []RatingPoint, deleted map[int64]bool, keep bool) error {
	q := `INSERT INTO rating_history (user_id, variant, game_id, rating, deviation, at) VALUES ($1, $2, $3, $4, $5, $6)`
	if keep {
		q += ` ON CONFLICT (user_id, game_id) DO NOTHING`
	}
	for _, p := range points {
		if deleted[p.User] {
			continue
		}
		if p.Variant == "" || p.Game == 0 {
			return fmt.Errorf("store: a rating point needs a variant and a game, not %+v", p)
		}
		if _, err := tx.ExecContext(ctx, q, p.User, p.Variant, p.Game, p.R, p.RD, millis(p.At)); err != nil {
			return err
		}
	}
	return nil
}

// Leaderboard returns the best ratings of a variant, best first, at most
// limit: of players with at least minGames rated games and a deviation of
// at most maxRD, whose accounts are neither deleted, closed nor bots.
func (s *Store) Leaderboard(ctx context.Context, variant string, minGames int, maxRD float64, limit int) ([]Rating, error) {
	rows, err := s.r.QueryContext(ctx, ratingSelect+` WHERE r.variant = $1 AND r.games >= $2 AND r.deviation <= $3
		AND u.deleted_at = 0 AND u.closed_at = 0 AND NOT u.bot
		ORDER BY r.rating DESC, r.user_id LIMIT $4`, variant, minGames, maxRD, limit)
	if err != nil {
		return nil, dbError(err)
	}
	defer rows.Close()
	var list []Rating
	for rows.Next() {
		r, err := scanRating(rows)
		if err != nil {
			return nil, dbError(err)
		}
		list = append(list, r)
	}
	return list, dbError(rows.Err())
}
