package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/morrisgame/morris/internal/server/rating"
)

// Puzzle is a stored puzzle: a position, its solution line (moves in
// standard notation, the solver's first), where it came from, and its
// rating, whose R, RD and volatility are Glicko-2's.
type Puzzle struct {
	ID                int64
	Rules, Position   string
	Solution          []string
	Plies             int    // the length of the win by the databases (0 for a draw)
	Goal              string // "win", or "draw": the only move that saves the draw
	Source            string // "tablebase", or "game N"
	R, RD, Volatility float64
	Plays, Solved     int
	CreatedAt         time.Time
}

// PuzzleRating is a player's puzzle rating.
type PuzzleRating struct {
	R, RD, Volatility float64
	Plays             int
}

// PuzzleAttempt is one try of a player at a puzzle: rated is true for the
// first, which moved both ratings.
type PuzzleAttempt struct {
	Puzzle                    int64
	Solved, Rated             bool
	RatingBefore, RatingAfter float64
	At                        time.Time
}

// AddPuzzle stores a new puzzle, at the newcomer's rating (rating.Default)
// unless p has one; a puzzle of the same rules and position already
// stored is ErrDuplicate.
func (s *Store) AddPuzzle(ctx context.Context, p Puzzle) (int64, error) {
	if p.R == 0 {
		d := rating.Default()
		p.R, p.RD, p.Volatility = d.R, d.RD, d.Sigma
	}
	if p.Goal == "" {
		p.Goal = "win"
	}
	var id int64
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var err error
		if id, err = nextID(ctx, tx, "puzzles"); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO puzzles (id, rules, position, solution, plies, goal, source, rating, deviation, volatility, created_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
			id, p.Rules, p.Position, joinMoves(p.Solution), p.Plies, p.Goal, p.Source, p.R, p.RD, p.Volatility, millis(p.CreatedAt))
		return err
	})
	return id, err
}

// AddPuzzles stores the puzzles of ps that are not stored yet (by rules
// and position), in one transaction, each at the newcomer's rating, and
// returns how many it added. Processes that add the same puzzles at once
// (a new server's built-in puzzles, started on several machines) add each
// once: a position already there is skipped, not an error.
func (s *Store) AddPuzzles(ctx context.Context, ps []Puzzle) (int, error) {
	d := rating.Default()
	added := 0
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		added = 0
		for _, p := range ps {
			if p.Goal == "" {
				p.Goal = "win"
			}
			id, err := nextID(ctx, tx, "puzzles")
			if err != nil {
				return err
			}
			res, err := tx.ExecContext(ctx, `INSERT INTO puzzles (id, rules, position, solution, plies, goal, source, rating, deviation, volatility, created_at)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (rules, position) DO NOTHING`,
				id, p.Rules, p.Position, joinMoves(p.Solution), p.Plies, p.Goal, p.Source, d.R, d.RD, d.Sigma, millis(p.CreatedAt))
			if err != nil {
				return err
			}
			if n, err := res.RowsAffected(); err != nil {
				return err
			} else if n > 0 {
				added++
			}
		}
		return nil
	})
	return added, err
}

func joinMoves(m []string) string { return strings.Join(m, " ") }

func splitMoves(s string) []string { return strings.Fields(s) }

const puzzleColumns = `id, rules, position, solution, plies, goal, source, rating, deviation, volatility, plays, solved, created_at`

func scanPuzzle(row interface{ Scan(...any) error }) (Puzzle, error) {
	var p Puzzle
	var sol string
	var created int64
	err := row.Scan(&p.ID, &p.Rules, &p.Position, &sol, &p.Plies, &p.Goal, &p.Source, &p.R, &p.RD, &p.Volatility, &p.Plays, &p.Solved, &created)
	p.Solution, p.CreatedAt = splitMoves(sol), fromMillis(created)
	return p, err
}

// Puzzle returns a puzzle by id.
func (s *Store) Puzzle(ctx context.Context, id int64) (Puzzle, error) {
	p, err := scanPuzzle(s.r.QueryRowContext(ctx, `SELECT `+puzzleColumns+` FROM puzzles WHERE id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Puzzle{}, fmt.Errorf("%w: puzzle %d", ErrNotFound, id)
	}
	return p, dbError(err)
}

// PuzzleCount returns how many puzzles there are.
func (s *Store) PuzzleCount(ctx context.Context) (int, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM puzzles`).Scan(&n)
	return n, dbError(err)
}

// PuzzleAt returns the puzzle at place i (from 0) in the order of ids.
func (s *Store) PuzzleAt(ctx context.Context, i int) (Puzzle, error) {
	p, err := scanPuzzle(s.r.QueryRowContext(ctx, `SELECT `+puzzleColumns+` FROM puzzles ORDER BY id LIMIT 1 OFFSET $1`, i))
	if errors.Is(err, sql.ErrNoRows) {
		return Puzzle{}, fmt.Errorf("%w: no puzzle at %d", ErrNotFound, i)
	}
	return p, dbError(err)
}

// NextPuzzle returns the puzzle nearest in rating to r that user has not
// tried yet (user 0: anyone's), ErrNotFound when none is left.
func (s *Store) NextPuzzle(ctx context.Context, user int64, r float64) (Puzzle, error) {
	p, err := scanPuzzle(s.r.QueryRowContext(ctx, `SELECT `+puzzleColumns+` FROM puzzles
		WHERE NOT EXISTS (SELECT 1 FROM puzzle_attempts a WHERE a.puzzle_id = puzzles.id AND a.user_id = $1)
		ORDER BY abs(rating - $2), id LIMIT 1`, user, r))
	if errors.Is(err, sql.ErrNoRows) {
		return Puzzle{}, fmt.Errorf("%w: no puzzle left", ErrNotFound)
	}
	return p, dbError(err)
}

// PuzzleRatingOf returns a player's puzzle rating, and false if they have
// none yet.
func (s *Store) PuzzleRatingOf(ctx context.Context, user int64) (PuzzleRating, bool, error) {
	var r PuzzleRating
	err := s.r.QueryRowContext(ctx, `SELECT rating, deviation, volatility, plays FROM puzzle_ratings WHERE user_id = $1`, user).
		Scan(&r.R, &r.RD, &r.Volatility, &r.Plays)
	if errors.Is(err, sql.ErrNoRows) {
		return PuzzleRating{}, false, nil
	}
	return r, err == nil, dbError(err)
}

// RatePuzzle records an attempt of user at a puzzle. The first attempt is
// rated: rate gets the player's rating (the newcomer's, rating.Default, if
// they have none yet) and the puzzle's, and returns both after the
// attempt, which are stored with it in one transaction. Later attempts are
// kept, unrated, the player's rating unchanged.
func (s *Store) RatePuzzle(ctx context.Context, user, puzzle int64, solved bool, now time.Time,
	rate func(player PuzzleRating, p Puzzle) (PuzzleRating, Puzzle, error)) (PuzzleAttempt, error) {
	var at PuzzleAttempt
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		p, err := scanPuzzle(tx.QueryRowContext(ctx, `SELECT `+puzzleColumns+` FROM puzzles WHERE id = $1`, puzzle))
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("%w: puzzle %d", ErrNotFound, puzzle)
		}
		if err != nil {
			return err
		}
		var pr PuzzleRating
		err = tx.QueryRowContext(ctx, `SELECT rating, deviation, volatility, plays FROM puzzle_ratings WHERE user_id = $1`, user).
			Scan(&pr.R, &pr.RD, &pr.Volatility, &pr.Plays)
		if errors.Is(err, sql.ErrNoRows) {
			d := rating.Default()
			pr = PuzzleRating{R: d.R, RD: d.RD, Volatility: d.Sigma}
		} else if err != nil {
			return err
		}
		var tried int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM puzzle_attempts WHERE user_id = $1 AND puzzle_id = $2`, user, puzzle).Scan(&tried); err != nil {
			return err
		}
		at = PuzzleAttempt{Puzzle: puzzle, Solved: solved, Rated: tried == 0, RatingBefore: pr.R, RatingAfter: pr.R, At: now}
		if tried == 0 {
			npr, np, err := rate(pr, p)
			if err != nil {
				return err
			}
			at.RatingAfter = npr.R
			if _, err := tx.ExecContext(ctx, `INSERT INTO puzzle_ratings (user_id, rating, deviation, volatility, plays, updated_at)
				VALUES ($1, $2, $3, $4, $5, $6)
				ON CONFLICT (user_id) DO UPDATE SET rating = excluded.rating, deviation = excluded.deviation,
					volatility = excluded.volatility, plays = excluded.plays, updated_at = excluded.updated_at`,
				user, npr.R, npr.RD, npr.Volatility, npr.Plays, millis(now)); err != nil {
				return err
			}
			solvedInc := 0
			if solved {
				solvedInc = 1
			}
			if _, err := tx.ExecContext(ctx, `UPDATE puzzles SET rating = $1, deviation = $2, volatility = $3, plays = plays + 1, solved = solved + $4 WHERE id = $5`,
				np.R, np.RD, np.Volatility, solvedInc, puzzle); err != nil {
				return err
			}
		}
		// The attempt's number, not its time, is the key: a player may try
		// a puzzle twice within one millisecond. Two first attempts racing
		// on PostgreSQL cannot both be rated: the later one's number is
		// taken, and it fails.
		_, err = tx.ExecContext(ctx, `INSERT INTO puzzle_attempts (user_id, puzzle_id, attempt, solved, rated, rating_before, rating_after, at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, user, puzzle, tried+1, solved, at.Rated, at.RatingBefore, at.RatingAfter, millis(now))
		return err
	})
	return at, err
}

// PuzzleAttempts returns a player's attempts, the latest first, at most limit.
func (s *Store) PuzzleAttempts(ctx context.Context, user int64, limit int) ([]PuzzleAttempt, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT puzzle_id, solved, rated, rating_before, rating_after, at FROM puzzle_attempts
		WHERE user_id = $1 ORDER BY at DESC, puzzle_id DESC, attempt DESC LIMIT $2`, user, limit)
	if err != nil {
		return nil, dbError(err)
	}
	defer rows.Close()
	var out []PuzzleAttempt
	for rows.Next() {
		var a PuzzleAttempt
		var at int64
		if err := rows.Scan(&a.Puzzle, &a.Solved, &a.Rated, &a.RatingBefore, &a.RatingAfter, &at); err != nil {
			return nil, dbError(err)
		}
		a.At = fromMillis(at)
		out = append(out, a)
	}
	return out, dbError(rows.Err())
}

// PuzzleTried reports whether user has an attempt at a puzzle.
func (s *Store) PuzzleTried(ctx context.Context, user, puzzle int64) (bool, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM puzzle_attempts WHERE user_id = $1 AND puzzle_id = $2`, user, puzzle).Scan(&n)
	return n > 0, dbError(err)
}
