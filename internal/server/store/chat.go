package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// AddChatKeeping stores a message in the chat of m.Game, over or not, as
// AddChat does, and, with keep above 0, drops the game's oldest messages
// beyond the newest keep in the same transaction, so that no game's chat
// grows without bound. It returns the game's new version, the message's.
func (s *Store) AddChatKeeping(ctx context.Context, m ChatMessage, keep int) (int64, error) {
	if m.Text == "" {
		return 0, errors.New("store: an empty chat message")
	}
	var version int64
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `UPDATE games SET version = version + 1 WHERE id = $1 RETURNING version`, m.Game).Scan(&version)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("%w: game %d", ErrNotFound, m.Game)
		}
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO chat (game_id, version, user_id, body, created_at) VALUES ($1, $2, $3, $4, $5)`,
			m.Game, version, m.User, m.Text, millis(m.At))
		if err != nil || keep <= 0 {
			return err
		}
		// The keep-th newest message, and every older one goes: one
		// look down the key (game_id, version).
		_, err = tx.ExecContext(ctx, `DELETE FROM chat WHERE game_id = $1 AND version < (
			SELECT version FROM chat WHERE game_id = $1 ORDER BY version DESC LIMIT 1 OFFSET $2)`, m.Game, keep-1)
		return err
	})
	return version, err
}

// ChatPage returns the newest limit messages of a game's chat with a
// version above after and below before, oldest first, and whether older
// ones in that range are left (more): the page of a bounded history.
func (s *Store) ChatPage(ctx context.Context, game, after, before int64, limit int) (msgs []ChatMessage, more bool, err error) {
	if limit < 1 {
		return nil, false, errors.New("store: a chat page of no message")
	}
	rows, err := s.r.QueryContext(ctx, `SELECT c.version, c.user_id, u.name, c.body, c.created_at
		FROM chat c JOIN users u ON u.id = c.user_id WHERE c.game_id = $1 AND c.version > $2 AND c.version < $3
		ORDER BY c.version DESC LIMIT $4`, game, after, before, limit+1)
	if err != nil {
		return nil, false, dbError(err)
	}
	defer rows.Close()
	for rows.Next() {
		m := ChatMessage{Game: game}
		var at int64
		if err := rows.Scan(&m.Version, &m.User, &m.UserName, &m.Text, &at); err != nil {
			return nil, false, dbError(err)
		}
		m.At = fromMillis(at)
		msgs = append(msgs, m)
	}
	if err := rows.Err(); err != nil {
		return nil, false, dbError(err)
	}
	if len(msgs) > limit {
		msgs, more = msgs[:limit], true
	}
	for i, j := 0, len(msgs)-1; i < j; i, j = i+1, j-1 {
		msgs[i], msgs[j] = msgs[j], msgs[i]
	}
	return msgs, more, nil
}
