package store

import (
	"context"
	"database/sql"
	"errors"
)

// The statements of the hot path. SQLite compiles a statement each time it
// is given as text, which costs as much as running it; so on SQLite the
// writer connection prepares these once (Tx.Stmt then reuses them on the
// same connection). PostgreSQL's driver caches prepared statements by
// itself, so there the text is used.

type statementID int

const (
	appendUpdate statementID = iota
	appendEnd
	appendInsert
)

// The UPDATE of a move, in two forms that differ only in what they set.
// A move that does not end the game leaves status, result and method
// alone: an UPDATE that names a column rewrites the entries of every index
// on it (games_status and games_unexplored on status), even with the same
// value. Without them a move writes 1.1 to 1.6 pages to the log instead of
// 2.7 (TestWALPages: 10,000 games, 30 moves a commit).
const (
	appendSet = `UPDATE games SET ply = ply + 1, version = version + 1,
			white_left_ms = $3, black_left_ms = $4, clock_running = $5, clock_since = $6,
			last_move_at = $7, updated_at = $8`
	appendWhere = `
		WHERE id = $1 AND ply = $2 AND status = 'active' RETURNING version`
)

var statementText = [...]string{
	appendUpdate: appendSet + appendWhere,
	appendEnd:    appendSet + `, status = $9, result = $10, method = $11, ended_at = $8` + appendWhere,
	appendInsert: `INSERT INTO moves (game_id, ply, move, played_at, white_left_ms, black_left_ms, version)
		VALUES ($1, $2, $3, $4, $5, $6, $7)`,
}

type statements struct {
	byID                           []*sql.Stmt
	savepoint, rollbackTo, release *sql.Stmt
}

// prepare prepares the hot statements on the SQLite writer.
func (s *Store) prepare(ctx context.Context) error {
	st := &statements{}
	all := func(text string) (*sql.Stmt, error) { return s.w.PrepareContext(ctx, text) }
	var errs []error
	for _, text := range statementText {
		p, err := all(text)
		errs = append(errs, err)
		st.byID = append(st.byID, p)
	}
	var err error
	st.savepoint, err = all(`SAVEPOINT request`)
	errs = append(errs, err)
	st.rollbackTo, err = all(`ROLLBACK TO request`)
	errs = append(errs, err)
	st.release, err = all(`RELEASE request`)
	errs = append(errs, err)
	s.stmts = st
	return errors.Join(errs...)
}

func (st *statements) close() {
	for _, p := range append(st.byID, st.savepoint, st.rollbackTo, st.release) {
		if p != nil {
			p.Close()
		}
	}
}

// queryRow runs statement id in tx: the prepared one on SQLite, the text
// on PostgreSQL (pgx prepares and caches it per connection itself).
func (s *Store) queryRow(ctx context.Context, tx *sql.Tx, id statementID, args ...any) *sql.Row {
	if s.stmts != nil {
		return tx.StmtContext(ctx, s.stmts.byID[id]).QueryRowContext(ctx, args...)
	}
	return tx.QueryRowContext(ctx, statementText[id], args...)
}

// exec is queryRow for a statement that returns no row.
func (s *Store) exec(ctx context.Context, tx *sql.Tx, id statementID, args ...any) (sql.Result, error) {
	if s.stmts != nil {
		return tx.StmtContext(ctx, s.stmts.byID[id]).ExecContext(ctx, args...)
	}
	return tx.ExecContext(ctx, statementText[id], args...)
}
