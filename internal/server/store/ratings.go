package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"
)

// Rating is a player's Glicko-2 rating in one variant (Glickman's r, RD
// and σ, on the Glicko scale: 1500, 350, 0.06 for a newcomer).
type Rating struct {
	User      int64
	Name      string // the user's name, filled by reads
	Variant   string
	R         float64
	RD        float64
	Sigma     float64
	Games     int // rated games played
	UpdatedAt time.Time
}

const ratingSelect = `SELECT r.user_id, u.name, r.variant, r.rating, r.deviation, r.volatility, r.games, r.updated_at
	FROM ratings r JOIN users u ON u.id = r.user_id`

func scanRating(row interface{ Scan(...any) error }) (Rating, error) {
	var r Rating
	var at int64
	if err := row.Scan(&r.User, &r.Name, &r.Variant, &r.R, &r.RD, &r.Sigma, &r.Games, &at); err != nil {
		return Rating{}, err
	}
	r.UpdatedAt = fromMillis(at)
	return r, nil
}

// Rating returns a user's rating in a variant; ErrNotFound if the user has
// none there yet (the caller starts from the newcomer's rating).
func (s *Store) Rating(ctx context.Context, user int64, variant string) (Rating, error) {
	r, err := scanRating(s.r.QueryRowContext(ctx, ratingSelect+` WHERE r.user_id = $1 AND r.variant = $2`, user, variant))
	if errors.Is(err, sql.ErrNoRows) {
		return Rating{}, fmt.Errorf("%w: no %s rating for user %d", ErrNotFound, variant, user)
	}
	return r, dbError(err)
}

// SetRating writes a rating as it is, whatever was stored: for corrections
// and imports. Games rate through Ending, which guards against two games
// rating from the same old rating.
func (s *Store) SetRating(ctx context.Context, r Rating) error {
	if r.Variant == "" {
		return errors.New("store: a rating needs a variant")
	}
	return s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO ratings (user_id, variant, rating, deviation, volatility, games, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7)
			ON CONFLICT (user_id, variant) DO UPDATE SET rating = excluded.rating, deviation = excluded.deviation,
				volatility = excluded.volatility, games = excluded.games, updated_at = excluded.updated_at`,
			r.User, r.Variant, r.R, r.RD, r.Sigma, r.Games, millis(r.UpdatedAt))
		return err
	})
}

// writeRatings writes the ratings a game's end gives, each only if the
// stored one has r.Games-1 games. It writes them in the order of the user
// ids, so that two games ending at once lock the rows in the same order
// on PostgreSQL and cannot deadlock.
func writeRatings(ctx context.Context, tx *sql.Tx, ratings []Rating, at time.Time) error {
	ratings = slices.Clone(ratings)
	slices.SortFunc(ratings, func(a, b Rating) int { return cmp.Compare(a.User, b.User) })
	for _, r := range ratings {
		if r.Variant == "" || r.Games < 1 {
			return fmt.Errorf("store: a rating after a game needs a variant and at least one game, not %+v", r)
		}
		res, err := tx.ExecContext(ctx, `UPDATE ratings SET rating = $3, deviation = $4, volatility = $5, games = $6, updated_at = $7
			WHERE user_id = $1 AND variant = $2 AND games = $8`,
			r.User, r.Variant, r.R, r.RD, r.Sigma, r.Games, millis(at), r.Games-1)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 1 {
			continue
		}
		if r.Games != 1 {
			return fmt.Errorf("%w: the %s rating of user %d is not at %d games", ErrConflict, r.Variant, r.User, r.Games-1)
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO ratings (user_id, variant, rating, deviation, volatility, games, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7)`, r.User, r.Variant, r.R, r.RD, r.Sigma, r.Games, millis(at))
		if err = dbError(err); errors.Is(err, ErrDuplicate) {
			return fmt.Errorf("%w: the %s rating of user %d is not at 0 games", ErrConflict, r.Variant, r.User)
		} else if err != nil {
			return err
		}
	}
	return nil
}

// Standings returns the ratings in a variant, best first (pbmserv
// "standings"), at most limit of them (0 for all).
func (s *Store) Standings(ctx context.Context, variant string, limit int) ([]Rating, error) {
	// A deleted account's ratings are deleted with it; the condition also
	// hides one written by a game that ended as it was being deleted.
	query := ratingSelect + ` WHERE r.variant = $1 AND u.deleted_at = 0 ORDER BY r.rating DESC, r.user_id`
	args := []any{variant}
	if limit > 0 {
		query += ` LIMIT $2`
		args = append(args, limit)
	}
	rows, err := s.r.QueryContext(ctx, query, args...)
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
