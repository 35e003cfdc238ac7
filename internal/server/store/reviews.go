package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// ReviewStatus is where a review stands.
type ReviewStatus string

const (
	ReviewQueued  ReviewStatus = "queued"  // asked for; no process has it, or its lease ran out
	ReviewRunning ReviewStatus = "running" // a process is reviewing it
	ReviewDone    ReviewStatus = "done"    // Result holds it
	// ReviewFailed: the review cannot be done (the engine panicked on
	// it, the game does not replay); Result says why. It is not taken
	// again: a review that fails the same way each time must not take
	// the reviewer's time at every lease, or at every restart.
	ReviewFailed ReviewStatus = "failed"
)

// Review is a review by the engine: of a game of the server (Game), or of
// moves from elsewhere (Game 0: Rules, Start and Moves); where it stands
// and, once done, its result (the JSON the server answers).
type Review struct {
	ID          int64
	Game        int64
	Rules       string
	Start       string // the start position as text; "" for the rules' start
	Moves       []string
	Status      ReviewStatus
	Done, Total int // moves reviewed, of all
	TakenBy     string
	Lease       time.Time
	Result      string
	RequestedAt time.Time
	UpdatedAt   time.Time
}

// ErrBusy: too many reviews wait already.
var ErrBusy = errors.New("store: busy")

const reviewColumns = `id, COALESCE(game_id, 0), rules, start, moves, status, done, total, taken_by, lease_until, result, requested_at, updated_at`

func scanReview(row interface{ Scan(...any) error }) (Review, error) {
	var r Review
	var moves string
	var lease, req, upd int64
	err := row.Scan(&r.ID, &r.Game, &r.Rules, &r.Start, &moves, &r.Status, &r.Done, &r.Total, &r.TakenBy, &lease, &r.Result, &req, &upd)
	r.Moves = splitMoves(moves)
	r.Lease, r.RequestedAt, r.UpdatedAt = fromMillis(lease), fromMillis(req), fromMillis(upd)
	return r, err
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
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM reviews WHERE game_id = $1`, game).Scan(&n); err != nil || n > 0 {
			return err
		}
		id, err := nextID(ctx, tx, "reviews")
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO reviews (id, game_id, status, total, requested_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5)`,
			id, game, string(ReviewQueued), total, millis(now))
		return err
	})
	if err != nil {
		return Review{}, err
	}
	return s.Review(ctx, game)
}

// RequestRecordReview asks for the review of moves from elsewhere (an
// imported record): the rules, the start ("" for the rules' start) and
// the moves, which the caller has checked. More than maxWaiting such
// reviews waiting or running already is ErrBusy.
func (s *Store) RequestRecordReview(ctx context.Context, rules, start string, moves []string, now time.Time, maxWaiting int) (Review, error) {
	var id int64
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM reviews WHERE game_id IS NULL AND status <> $1 AND status <> $2`, string(ReviewDone), string(ReviewFailed)).Scan(&n); err != nil {
			return err
		}
		if n >= maxWaiting {
			return fmt.Errorf("%w: %d reviews wait already", ErrBusy, n)
		}
		var err error
		if id, err = nextID(ctx, tx, "reviews"); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO reviews (id, rules, start, moves, status, total, requested_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $7)`,
			id, rules, start, joinMoves(moves), string(ReviewQueued), len(moves), millis(now))
		return err
	})
	if err != nil {
		return Review{}, err
	}
	return s.ReviewByID(ctx, id)
}

// Review returns a game's review; ErrNotFound if none was asked for.
func (s *Store) Review(ctx context.Context, game int64) (Review, error) {
	r, err := scanReview(s.r.QueryRowContext(ctx, `SELECT `+reviewColumns+` FROM reviews WHERE game_id = $1`, game))
	if errors.Is(err, sql.ErrNoRows) {
		return Review{}, fmt.Errorf("%w: no review of game %d", ErrNotFound, game)
	}
	return r, dbError(err)
}

// ReviewByID returns a review by its id.
func (s *Store) ReviewByID(ctx context.Context, id int64) (Review, error) {
	r, err := scanReview(s.r.QueryRowContext(ctx, `SELECT `+reviewColumns+` FROM reviews WHERE id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Review{}, fmt.Errorf("%w: no review %d", ErrNotFound, id)
	}
	return r, dbError(err)
}

// TakeReview takes the review waiting longest (queued, or running with its
// lease run out: its process died) for worker until now+lease; ok is false
// when there is none.
func (s *Store) TakeReview(ctx context.Context, worker string, now time.Time, lease time.Duration) (r Review, ok bool, err error) {
	lock := ""
	if s.Backend() == "postgres" {
		lock = " FOR UPDATE SKIP LOCKED"
	}
	var id int64
	err = s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `UPDATE reviews SET status = $1, taken_by = $2, lease_until = $3, updated_at = $4
			WHERE id = (SELECT id FROM reviews WHERE status = $5 OR (status = $1 AND lease_until <= $4)
				ORDER BY requested_at, id LIMIT 1`+lock+`)
			RETURNING id`,
			string(ReviewRunning), worker, millis(now.Add(lease)), millis(now), string(ReviewQueued)).Scan(&id)
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
	r, err = s.ReviewByID(ctx, id)
	return r, err == nil, err
}

// ReviewProgress records that worker has reviewed done of total moves of
// review id, and extends its lease to until. A review no longer worker's
// (its lease ran out and another took it) is ErrConflict.
func (s *Store) ReviewProgress(ctx context.Context, id int64, worker string, done, total int, now, until time.Time) error {
	return s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE reviews SET done = $1, total = $2, lease_until = $3, updated_at = $4
			WHERE id = $5 AND taken_by = $6 AND status = $7`, done, total, millis(until), millis(now), id, worker, string(ReviewRunning))
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("%w: review %d is not %s's", ErrConflict, id, worker)
		}
		return nil
	})
}

// FinishReview stores worker's finished review.
func (s *Store) FinishReview(ctx context.Context, id int64, worker, result string, now time.Time) error {
	return s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE reviews SET status = $1, done = total, result = $2, updated_at = $3, lease_until = 0
			WHERE id = $4 AND taken_by = $5 AND status = $6`, string(ReviewDone), result, millis(now), id, worker, string(ReviewRunning))
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("%w: review %d is not %s's", ErrConflict, id, worker)
		}
		return nil
	})
}

// FailReview marks worker's review failed for good, why saying what went
// wrong (ReviewFailed).
func (s *Store) FailReview(ctx context.Context, id int64, worker, why string, now time.Time) error {
	return s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE reviews SET status = $1, result = $2, updated_at = $3, lease_until = 0
			WHERE id = $4 AND taken_by = $5 AND status = $6`, string(ReviewFailed), why, millis(now), id, worker, string(ReviewRunning))
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("%w: review %d is not %s's", ErrConflict, id, worker)
		}
		return nil
	})
}
