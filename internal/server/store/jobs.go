package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// EngineJob is a game waiting for the engine's move at a ply.
type EngineJob struct {
	Game     int64
	Ply      int
	QueuedAt time.Time
	TakenBy  string    // the process that took it last ("" if none did)
	Lease    time.Time // its lease runs until then (zero if never taken)
}

// QueueEngineJob asks for the engine's move in a game at ply. A job of the
// same game at the same ply is left as it is (taken or not); one at
// another ply (the game moved on) is replaced.
func (s *Store) QueueEngineJob(ctx context.Context, game int64, ply int, now time.Time) error {
	return s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO engine_jobs (game_id, ply, queued_at) VALUES ($1, $2, $3)
			ON CONFLICT (game_id) DO UPDATE SET ply = excluded.ply, queued_at = excluded.queued_at, taken_by = '', lease_until = 0
			WHERE engine_jobs.ply <> excluded.ply`, game, ply, millis(now))
		return err
	})
}

// EngineJobsWaiting counts the jobs free to take at now (never taken, or
// their lease run out): a read, for the workers' polls, which then take
// one with TakeEngineJob.
func (s *Store) EngineJobsWaiting(ctx context.Context, now time.Time) (int, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM engine_jobs WHERE lease_until <= $1`, millis(now)).Scan(&n)
	return n, dbError(err)
}

// TakeEngineJob takes a job that is free at now, for worker until
// now+lease; ok is false when there is none. The jobs are taken round
// robin by the players of their games: the job chosen is the one with the
// fewest jobs of the same two players before it (those running, then the
// free ones queued earlier), the oldest of those. Since one of the two is
// the engine, that is one turn for each user in turn, so that a user with
// many games against the engine waiting cannot keep the others' waiting
// behind all of them. Of several callers (in several processes), each gets
// another job: on PostgreSQL the row is locked and others skip it (FOR
// UPDATE SKIP LOCKED), on SQLite the writes are one at a time.
func (s *Store) TakeEngineJob(ctx context.Context, worker string, now time.Time, lease time.Duration) (j EngineJob, ok bool, err error) {
	lock := ""
	if s.Backend() == "postgres" {
		lock = " FOR UPDATE OF j SKIP LOCKED"
	}
	err = s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var queued, until int64
		err := tx.QueryRowContext(ctx, `WITH turns AS (
				SELECT k.game_id, ROW_NUMBER() OVER (
					PARTITION BY CASE WHEN g.white_id < g.black_id THEN g.white_id ELSE g.black_id END,
						CASE WHEN g.white_id < g.black_id THEN g.black_id ELSE g.white_id END
					ORDER BY CASE WHEN k.lease_until > $3 THEN 0 ELSE 1 END, k.queued_at, k.game_id) AS turn
				FROM engine_jobs k JOIN games g ON g.id = k.game_id)
			UPDATE engine_jobs SET taken_by = $1, lease_until = $2
			WHERE game_id = (SELECT j.game_id FROM engine_jobs j JOIN turns t ON t.game_id = j.game_id
				WHERE j.lease_until <= $3 ORDER BY t.turn, j.queued_at, j.game_id LIMIT 1`+lock+`)
			RETURNING game_id, ply, queued_at, taken_by, lease_until`,
			worker, millis(now.Add(lease)), millis(now)).Scan(&j.Game, &j.Ply, &queued, &j.TakenBy, &until)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		ok = true
		j.QueuedAt, j.Lease = fromMillis(queued), fromMillis(until)
		return nil
	})
	return j, ok, err
}

// DoneEngineJob removes a game's job at ply (played, or no longer the
// engine's turn); a job at another ply (queued since) stays.
func (s *Store) DoneEngineJob(ctx context.Context, game int64, ply int) error {
	return s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM engine_jobs WHERE game_id = $1 AND ply = $2`, game, ply)
		return err
	})
}

// ReleaseEngineJob gives back a job that worker took (at ply), free to
// take at once; a job taken since by another, or at another ply, stays.
func (s *Store) ReleaseEngineJob(ctx context.Context, game int64, ply int, worker string) error {
	return s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE engine_jobs SET taken_by = '', lease_until = 0 WHERE game_id = $1 AND ply = $2 AND taken_by = $3`, game, ply, worker)
		return err
	})
}

// EngineJobs returns every job, oldest first (for tests and operators).
func (s *Store) EngineJobs(ctx context.Context) ([]EngineJob, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT game_id, ply, queued_at, taken_by, lease_until FROM engine_jobs ORDER BY queued_at, game_id`)
	if err != nil {
		return nil, dbError(err)
	}
	defer rows.Close()
	var js []EngineJob
	for rows.Next() {
		var j EngineJob
		var queued, until int64
		if err := rows.Scan(&j.Game, &j.Ply, &queued, &j.TakenBy, &until); err != nil {
			return nil, dbError(err)
		}
		j.QueuedAt, j.Lease = fromMillis(queued), fromMillis(until)
		js = append(js, j)
	}
	return js, dbError(rows.Err())
}

// FlaggedGames returns the real-time games going on whose running clock
// ran out at or before at: a flag that should have fallen (the process
// that kept the game's timer may have died).
func (s *Store) FlaggedGames(ctx context.Context, at time.Time) ([]int64, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT id FROM games WHERE status = $1 AND clock_initial_ms > 0 AND clock_since > 0
		AND clock_since + (CASE clock_running WHEN 0 THEN white_left_ms ELSE black_left_ms END) <= $2 ORDER BY id`, Active, millis(at))
	if err != nil {
		return nil, dbError(err)
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, dbError(err)
		}
		ids = append(ids, id)
	}
	return ids, dbError(rows.Err())
}

// AnalysisJob is an analysis handed from one process to another: its
// request and, once done, its result (both opaque to the store).
type AnalysisJob struct {
	ID      int64
	Request string
	TakenBy string
	Result  string
	Done    bool
}

// QueueAnalysis stores an analysis for another process to take and
// returns its id.
func (s *Store) QueueAnalysis(ctx context.Context, request string, now time.Time) (int64, error) {
	var id int64
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var err error
		if id, err = nextID(ctx, tx, "analysis_jobs"); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO analysis_jobs (id, request, queued_at) VALUES ($1, $2, $3)`, id, request, millis(now))
		return err
	})
	return id, err
}

// AnalysesWaiting counts the analyses nobody has taken (a read, for the
// workers' polls).
func (s *Store) AnalysesWaiting(ctx context.Context) (int, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM analysis_jobs WHERE taken_by = ''`).Scan(&n)
	return n, dbError(err)
}

// TakeAnalysis takes the oldest analysis nobody has taken, for worker;
// ok is false when there is none. Of several callers each gets another.
func (s *Store) TakeAnalysis(ctx context.Context, worker string) (j AnalysisJob, ok bool, err error) {
	lock := ""
	if s.Backend() == "postgres" {
		lock = " FOR UPDATE SKIP LOCKED"
	}
	err = s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `UPDATE analysis_jobs SET taken_by = $1
			WHERE id = (SELECT id FROM analysis_jobs WHERE taken_by = '' ORDER BY queued_at, id LIMIT 1`+lock+`)
			RETURNING id, request`, worker).Scan(&j.ID, &j.Request)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		ok, j.TakenBy = true, worker
		return nil
	})
	return j, ok, err
}

// ClaimAnalysis takes analysis id for worker if nobody has; it reports
// whether worker has it.
func (s *Store) ClaimAnalysis(ctx context.Context, id int64, worker string) (bool, error) {
	var n int64
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE analysis_jobs SET taken_by = $1 WHERE id = $2 AND taken_by = ''`, worker, id)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	return n == 1, err
}

// FinishAnalysis stores the result of analysis id.
func (s *Store) FinishAnalysis(ctx context.Context, id int64, result string) error {
	return s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE analysis_jobs SET result = $1, done = TRUE WHERE id = $2`, result, id)
		return err
	})
}

// AnalysisOf reads analysis id.
func (s *Store) AnalysisOf(ctx context.Context, id int64) (AnalysisJob, error) {
	j := AnalysisJob{ID: id}
	err := s.r.QueryRowContext(ctx, `SELECT request, taken_by, result, done FROM analysis_jobs WHERE id = $1`, id).Scan(&j.Request, &j.TakenBy, &j.Result, &j.Done)
	if errors.Is(err, sql.ErrNoRows) {
		return j, fmt.Errorf("%w: analysis %d", ErrNotFound, id)
	}
	return j, dbError(err)
}

// DropAnalyses removes analysis id (0: none) and every analysis queued
// before before.
func (s *Store) DropAnalyses(ctx context.Context, id int64, before time.Time) error {
	return s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM analysis_jobs WHERE id = $1 OR queued_at < $2`, id, millis(before))
		return err
	})
}
