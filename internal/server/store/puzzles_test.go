package store

import (
	"io/fs"
	"testing"

	"github.com/pressly/goose/v3"
)

// TestPuzzleAttemptsSameMillisecond: a player's attempts at one puzzle
// are told apart by their number, not their time, so two attempts within
// one millisecond are both kept (the key was once the time, and a quick
// second try failed); only the first is rated, and the history lists the
// later one first.
func TestPuzzleAttemptsSameMillisecond(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		f := newFixture(t, dsn)
		id := addPuzzle(t, f)
		calls := 0
		rate := func(pr PuzzleRating, p Puzzle) (PuzzleRating, Puzzle, error) {
			calls++
			pr.R += 10
			pr.Plays++
			return pr, p, nil
		}
		for i, solved := range []bool{false, true, true} {
			a, err := f.s.RatePuzzle(f.ctx, f.ann.ID, id, solved, t0, rate)
			must(t, "RatePuzzle", err)
			if a.Rated != (i == 0) || a.Solved != solved {
				t.Errorf("attempt %d: %+v", i+1, a)
			}
		}
		if calls != 1 {
			t.Errorf("rated %d times, want once", calls)
		}
		got, err := f.s.PuzzleAttempts(f.ctx, f.ann.ID, 10)
		must(t, "PuzzleAttempts", err)
		if len(got) != 3 || !got[0].Solved || !got[1].Solved || got[2].Solved || !got[2].Rated || got[0].Rated || !got[0].At.Equal(t0) {
			t.Errorf("attempts: %+v", got)
		}
	})
}

// TestPuzzleAttemptsMigration: migration 8 keeps the attempts stored
// under the old key and numbers them in the order of their time; undone,
// it keeps them again, one millisecond apart where they were not.
func TestPuzzleAttemptsMigration(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		f := newFixture(t, dsn)
		id := addPuzzle(t, f)
		fsys, err := fs.Sub(migrations, "migrations")
		must(t, "fs.Sub", err)
		p, err := goose.NewProvider(f.s.dialect, f.s.w, fsys, goose.WithLogger(goose.NopLogger()), goose.WithDisableGlobalRegistry(true))
		must(t, "NewProvider", err)
		if f.s.batch != nil {
			f.s.batch.close() // goose needs the writer connection
		}
		_, err = p.DownTo(f.ctx, 7)
		must(t, "DownTo(7)", err)
		for _, at := range []int64{3000, 1000, 2000} {
			_, err := f.s.w.ExecContext(f.ctx, `INSERT INTO puzzle_attempts (user_id, puzzle_id, solved, rated, rating_before, rating_after, at)
				VALUES ($1, $2, $3, $4, 1500, 1500, $5)`, f.ann.ID, id, at == 3000, at == 1000, at)
			must(t, "an attempt under the old key", err)
		}
		_, err = p.Up(f.ctx)
		must(t, "Up", err)
		rows := func() map[int64]int64 {
			t.Helper()
			r, err := f.s.w.QueryContext(f.ctx, `SELECT attempt, at FROM puzzle_attempts WHERE user_id = $1 AND puzzle_id = $2`, f.ann.ID, id)
			must(t, "select", err)
			defer r.Close()
			got := map[int64]int64{}
			for r.Next() {
				var n, at int64
				must(t, "scan", r.Scan(&n, &at))
				got[n] = at
			}
			must(t, "rows", r.Err())
			return got
		}
		if got := rows(); len(got) != 3 || got[1] != 1000 || got[2] != 2000 || got[3] != 3000 {
			t.Errorf("numbered attempts (number: time): %v", got)
		}
		// Two more in one millisecond, then undone: the old key holds them
		// one millisecond apart.
		_, err = f.s.w.ExecContext(f.ctx, `INSERT INTO puzzle_attempts (user_id, puzzle_id, attempt, solved, rated, rating_before, rating_after, at)
			VALUES ($1, $2, 4, FALSE, FALSE, 1500, 1500, 5000), ($1, $2, 5, FALSE, FALSE, 1500, 1500, 5000)`, f.ann.ID, id)
		must(t, "two attempts of one millisecond", err)
		_, err = p.DownTo(f.ctx, 7)
		must(t, "DownTo(7) with data", err)
		var n, last int64
		must(t, "count", f.s.w.QueryRowContext(f.ctx, `SELECT count(*), max(at) FROM puzzle_attempts`).Scan(&n, &last))
		if n != 5 || last != 5004 {
			t.Errorf("after undoing: %d attempts, the last at %d; want 5 and 5004", n, last)
		}
	})
}

// addPuzzle stores a puzzle of one ply (its position need not be a real
// puzzle: the store keeps what it is given).
func addPuzzle(t *testing.T, f *fixture) int64 {
	t.Helper()
	id, err := f.s.AddPuzzle(f.ctx, Puzzle{Rules: "nine-mens-morris", Position: "nine-mens-morris W1W1B1B1/1W1B1B1W/8 w 0,0 - 0 18",
		Solution: []string{"d2-d3"}, Plies: 1, Source: "test", CreatedAt: t0})
	must(t, "AddPuzzle", err)
	return id
}
