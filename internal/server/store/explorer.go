package store

import (
	"context"
	"database/sql"
	"fmt"
)

// Explored is one position of a finished game for the opening explorer:
// the position's key, the move played from it and the ply of that move.
type Explored struct {
	Key  uint64
	Ply  int
	Move string
}

// ExplorerMove is what the games of this server played from a position:
// a move, in how many games, and how those games ended.
type ExplorerMove struct {
	Move                       string
	Games, White, Draws, Black int
}

// UnexploredGames returns up to limit finished games whose positions are
// not yet in the explorer, oldest first.
func (s *Store) UnexploredGames(ctx context.Context, limit int) ([]int64, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT id FROM games WHERE status = 'finished' AND NOT explored ORDER BY id LIMIT $1`, limit)
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

// AddExplored puts the positions of a finished game into the explorer,
// under its rules and result, and marks the game explored, in one
// transaction. Positions already there (another process explored the game
// at the same time) are left as they are. A game that is not finished is
// ErrConflict and changes nothing.
func (s *Store) AddExplored(ctx context.Context, game int64, positions []Explored) error {
	return s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var rules, result string
		var status Status
		err := tx.QueryRowContext(ctx, `SELECT rules, result, status FROM games WHERE id = $1`, game).Scan(&rules, &result, &status)
		if err == sql.ErrNoRows {
			return fmt.Errorf("%w: game %d", ErrNotFound, game)
		}
		if err != nil {
			return err
		}
		if status != Finished {
			return fmt.Errorf("%w: game %d is %s, not finished", ErrConflict, game, status)
		}
		for _, p := range positions {
			if _, err := tx.ExecContext(ctx, `INSERT INTO explorer (rules, pos_key, game_id, ply, move, result) VALUES ($1, $2, $3, $4, $5, $6)
				ON CONFLICT (game_id, ply) DO NOTHING`, rules, int64(p.Key), game, p.Ply, p.Move, result); err != nil {
				return err
			}
		}
		_, err = tx.ExecContext(ctx, `UPDATE games SET explored = TRUE WHERE id = $1`, game)
		return err
	})
}

// Explore returns the moves the finished games of rules played from the
// position of key, the most played first.
func (s *Store) Explore(ctx context.Context, rules string, key uint64) ([]ExplorerMove, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT move, count(*),
			sum(CASE WHEN result = '1-0' THEN 1 ELSE 0 END),
			sum(CASE WHEN result = '1/2-1/2' THEN 1 ELSE 0 END),
			sum(CASE WHEN result = '0-1' THEN 1 ELSE 0 END)
		FROM explorer WHERE rules = $1 AND pos_key = $2 GROUP BY move ORDER BY count(*) DESC, move`, rules, int64(key))
	if err != nil {
		return nil, dbError(err)
	}
	defer rows.Close()
	var out []ExplorerMove
	for rows.Next() {
		var m ExplorerMove
		if err := rows.Scan(&m.Move, &m.Games, &m.White, &m.Draws, &m.Black); err != nil {
			return nil, dbError(err)
		}
		out = append(out, m)
	}
	return out, dbError(rows.Err())
}
