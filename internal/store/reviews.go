package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// ReviewStatus is where a game's review stands.
type ReviewStatus string

const (
	ReviewQueued  ReviewStatus = "queued"  // asked for; no process has it, or its lease ran out
	ReviewRunning ReviewStatus = "running" // a process is reviewing it
	ReviewDone    ReviewStatus = "done"    // Result holds it
)

// Review is a game's review: where it stands and, once done, its result
// (the JSON the server answers).
type Review struct {
	Game        int64
	Status      ReviewStatus
	Done, Total int // moves reviewed, of all
	TakenBy     string
	Lease       time.Time
	Result      string
	RequestedAt time.Time
	UpdatedAt   time.Time
}

// RequestReview asks for the review of a finished game, total moves long:
// a review asked for before is left as it is, and returned either way. A
// game that is not finished is ErrConflict; an unknown one ErrNotFound.
func (s *Store) RequestReview(ctx context.Context, game int64, total int, now time.Time) (Review, error) {
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var status Status
		err := tx.QueryRowContext(ctx, `SELECT status FROM games WHERE id = $1`, game).Scan(&status)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("%w: game %d", ErrNotFound, game)
		}
		if err != nil {
			return err
		}
		if status != Finished {
			return fmt.Errorf("%w: game %d is not over", ErrConflict, game)
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO reviews (game_id, status, total, requested_at, updated_at) VALUES ($1, $2, $3, $4, $4)
			ON CONFLICT (game_id) DO NOTHING`, game, string(ReviewQueued), total, millis(now))
		return err
	})
	if err != nil {
		return Review{}, err
	}
	return s.Review(ctx, game)
}

// Review returns a game's review; ErrNotFound if none was asked for.
func (s *Store) Review(ctx context.Context, game int64) (Review, error) {
	var r Review
	var lease, req, upd int64
	err := s.r.QueryRowContext(ctx, `SELECT game_id, status, done, total, taken_by, lease_until, result, requested_at, updated_at
		FROM reviews WHERE game_id = $1`, game).Scan(&r.Game, &r.Status, &r.Done, &r.Total, &r.TakenBy, &lease, &r.Result, &req, &upd)
	if errors.Is(err, sql.ErrNoRows) {
		return Review{}, fmt.Errorf("%w: no review of game %d", ErrNotFound, game)
	}
	if err != nil {
		return Review{}, dbError(err)
	}
	r.Lease, r.RequestedAt, r.UpdatedAt = fromMillis(lease), fromMillis(req), fromMillis(upd)
	return r, nil
}

// TakeReview takes the review waiting longest (queued, or running with its
// lease run out: its process died) for worker until now+lease; ok is false
// when there is none.
func (s *Store) TakeReview(ctx context.Context, worker string, now time.Time, lease time.Duration) (r Review, ok bool, err error) {
	lock := ""
	if s.Backend() == "postgres" {
		lock = " FOR UPDATE SKIP LOCKED"
	}
	var game int64
	err = s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `UPDATE reviews SET status = $1, taken_by = $2, lease_until = $3, updated_at = $4
			WHERE game_id = (SELECT game_id FROM reviews WHERE status = $5 OR (status = $1 AND lease_until <= $4)
				ORDER BY requested_at, game_id LIMIT 1`+lock+`)
			RETURNING game_id`,
			string(ReviewRunning), worker, millis(now.Add(lease)), millis(now), string(ReviewQueued)).Scan(&game)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err == nil {
			ok = true
		}
		return err
	})
	if err != nil || !ok {
		return Review{}, false, err
	}
	r, err = s.Review(ctx, game)
	return r, err == nil, err
}

// ReviewProgress records that worker has reviewed done of total moves,
// and extends its lease to until. A review no longer worker's (its lease
// ran out and another took it) is ErrConflict.
func (s *Store) ReviewProgress(ctx context.Context, game int64, worker string, done, total int, now, until time.Time) error {
	return s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE reviews SET done = $1, total = $2, lease_until = $3, updated_at = $4
			WHERE game_id = $5 AND taken_by = $6 AND status = $7`, done, total, millis(until), millis(now), game, worker, string(ReviewRunning))
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("%w: the review of game %d is not %s's", ErrConflict, game, worker)
		}
		return nil
	})
}

// FinishReview stores worker's finished review of a game.
func (s *Store) FinishReview(ctx context.Context, game int64, worker, result string, now time.Time) error {
	return s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE reviews SET status = $1, done = total, result = $2, updated_at = $3, lease_until = 0
			WHERE game_id = $4 AND taken_by = $5 AND status = $6`, string(ReviewDone), result, millis(now), game, worker, string(ReviewRunning))
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("%w: the review of game %d is not %s's", ErrConflict, game, worker)
		}
		return nil
	})
}
