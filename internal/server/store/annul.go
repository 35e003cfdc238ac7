package store

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pressly/goose/v3"
)

// Annulled games and the ratings computed again without them. A game's end
// rates it once (Ending): the ratings are the result of the rated games in
// the order they ended. To annul a player's games is to make them unrated
// and give every player of the variant the ratings they would have had
// without those games: the service replays the variant's rated games in
// the order they ended (RatedGames) and writes the result (ReplaceRatings).

// RatedGame is a finished rated game as the ratings replay it.
type RatedGame struct {
	ID           int64
	White, Black int64
	Result       string // "1-0", "0-1", "1/2-1/2"
	End          time.Time
}

// RatedMark is what a variant's rated games were when read: their count
// and the sum of their ids. ReplaceRatings writes only while they are the
// same, so that a game that ends (or is annulled) meanwhile is not left out.
type RatedMark struct{ Count, Sum int64 }

// AnnulGames makes every finished rated game of user unrated (the games
// against the engine are unrated already), records which in
// annulled_games under the log's line a (its Detail says how many), and
// returns them with their variants. A user without rated games to annul is
// ErrConflict, and nothing is logged; an unknown or deleted one ErrNotFound.
// The ratings are the caller's to compute again.
func (s *Store) AnnulGames(ctx context.Context, user int64, a ModAction) (games []int64, variants []string, err error) {
	a.Target = user
	err = s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		games, variants = nil, nil
		if err := liveUser(ctx, tx, user); err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, `SELECT id, variant FROM games WHERE (white_id = $1 OR black_id = $1)
			AND status = 'finished' AND rated AND engine_level = 0 ORDER BY id`, user)
		if err != nil {
			return err
		}
		for rows.Next() {
			var id int64
			var v string
			if err := rows.Scan(&id, &v); err != nil {
				rows.Close()
				return err
			}
			games = append(games, id)
			if !slices.Contains(variants, v) {
				variants = append(variants, v)
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		if len(games) == 0 {
			return fmt.Errorf("%w: user %d has no finished rated game", ErrConflict, user)
		}
		if a.Detail == "" {
			a.Detail = annulDetail(games, variants)
		}
		action, err := addAction(ctx, tx, a)
		if err != nil {
			return err
		}
		for _, id := range games {
			if _, err := tx.ExecContext(ctx, `UPDATE games SET rated = FALSE WHERE id = $1`, id); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO annulled_games (game_id, action_id) VALUES ($1, $2)`, id, action); err != nil {
				return err
			}
		}
		return nil
	})
	return games, variants, err
}

// annulDetail says in the log what an annulment made unrated: the count,
// the variants and the first ids (annulled_games holds them all).
func annulDetail(games []int64, variants []string) string {
	var b strings.Builder
	what := "rated games"
	if len(games) == 1 {
		what = "rated game"
	}
	fmt.Fprintf(&b, "%d %s made unrated (%s): ", len(games), what, strings.Join(variants, ", "))
	for i, id := range games {
		if i == 20 {
			b.WriteString(", …")
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.FormatInt(id, 10))
	}
	return b.String()
}

// AnnulledGames returns the games an annulment (a line of the log) made
// unrated.
func (s *Store) AnnulledGames(ctx context.Context, action int64) ([]int64, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT game_id FROM annulled_games WHERE action_id = $1 ORDER BY game_id`, action)
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

// ratedWhere selects the games that rate a variant: finished, rated, not
// against the engine.
const ratedWhere = `variant = $1 AND status = 'finished' AND rated AND engine_level = 0`

// RatedGames returns the rated games of a variant in the order they ended
// (the time of the end, then the id), and their mark, from one snapshot.
func (s *Store) RatedGames(ctx context.Context, variant string) ([]RatedGame, RatedMark, error) {
	var games []RatedGame
	var mark RatedMark
	err := s.read(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT id, white_id, black_id, result, updated_at FROM games WHERE `+ratedWhere+`
			ORDER BY updated_at, id`, variant)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var g RatedGame
			var at int64
			if err := rows.Scan(&g.ID, &g.White, &g.Black, &g.Result, &at); err != nil {
				return err
			}
			g.End = fromMillis(at)
			games = append(games, g)
			mark.Count++
			mark.Sum += g.ID
		}
		return rows.Err()
	})
	return games, mark, err
}

// ReplaceRatings makes the ratings of a variant exactly ratings (those of
// deleted users left out), if the variant's rated games are still those
// of mark; ErrConflict otherwise, and nothing changes. On PostgreSQL the
// variant's rows are locked in the order of the user ids first, the order
// a game's end locks its two, so the two cannot deadlock; a game's end
// waiting on a row finds it replaced, gets ErrConflict and rates again
// from the new ratings.
func (s *Store) ReplaceRatings(ctx context.Context, variant string, ratings []Rating, mark RatedMark) error {
	ratings = slices.Clone(ratings)
	slices.SortFunc(ratings, func(a, b Rating) int { return cmp.Compare(a.User, b.User) })
	return s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if s.dialect == goose.DialectPostgres {
			rows, err := tx.QueryContext(ctx, `SELECT user_id FROM ratings WHERE variant = $1 ORDER BY user_id FOR UPDATE`, variant)
			if err != nil {
				return err
			}
			for rows.Next() {
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return err
			}
		}
		var now RatedMark
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(SUM(id), 0) FROM games WHERE `+ratedWhere, variant).Scan(&now.Count, &now.Sum); err != nil {
			return err
		}
		if now != mark {
			return fmt.Errorf("%w: the rated games of %s changed meanwhile", ErrConflict, variant)
		}
		deleted := map[int64]bool{}
		rows, err := tx.QueryContext(ctx, `SELECT id FROM users WHERE deleted_at <> 0`)
		if err != nil {
			return err
		}
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return err
			}
			deleted[id] = true
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM ratings WHERE variant = $1`, variant); err != nil {
			return err
		}
		for _, r := range ratings {
			if deleted[r.User] {
				continue
			}
			if r.Variant != variant {
				return fmt.Errorf("store: a rating of %s among those of %s", r.Variant, variant)
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO ratings (user_id, variant, rating, deviation, volatility, games, updated_at)
				VALUES ($1, $2, $3, $4, $5, $6, $7)`, r.User, r.Variant, r.R, r.RD, r.Sigma, r.Games, millis(r.UpdatedAt)); err != nil {
				return err
			}
		}
		return nil
	})
}
