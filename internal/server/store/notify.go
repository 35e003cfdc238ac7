package store

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"time"

	"github.com/jackc/pgx/v5"
)

// Notifications between the server processes that share one PostgreSQL
// database: a process says what changed (a game's move, an account's
// event) with Notify, and every process listening (Listen) hears it within
// a millisecond or two, through PostgreSQL's LISTEN/NOTIFY. Notifications
// are not durable: one sent while a listener is disconnected is lost, so
// a listener is told each time it is listening again, and the store stays
// the truth. SQLite has one process, and nothing to notify.
//
// The channel is named after the schema (current_schema()), so that the
// servers of different schemas in one database (the tests', say) do not
// hear each other.

// ErrNoNotify: the store cannot notify other processes (SQLite).
var ErrNoNotify = errors.New("store: notifications need PostgreSQL")

// MaxNotifyPayload is the longest payload Notify takes (PostgreSQL's
// limit is 8000 bytes).
const MaxNotifyPayload = 7999

// channelName is the notification channel of a schema: an identifier of
// at most 63 bytes whatever the schema's name.
func channelName(schema string) string {
	h := fnv.New64a()
	h.Write([]byte(schema))
	return fmt.Sprintf("morris_events_%016x", h.Sum64())
}

// CanNotify reports whether the store can notify other processes.
func (s *Store) CanNotify() bool { return s.channel != "" }

// NotifyChannel is the channel the store notifies and listens on ("" on
// SQLite): what an operator looks for in pg_stat_activity.
func (s *Store) NotifyChannel() string { return s.channel }

// Notify sends payloads, in order, to every process listening on this
// database and schema (this one too, if it listens), in one statement, on
// a connection kept for it. Calls are one at a time.
func (s *Store) Notify(ctx context.Context, payloads []string) error {
	if !s.CanNotify() {
		return ErrNoNotify
	}
	for _, p := range payloads {
		if len(p) > MaxNotifyPayload {
			return fmt.Errorf("store: a notification of %d bytes: at most %d", len(p), MaxNotifyPayload)
		}
	}
	if len(payloads) == 0 {
		return nil
	}
	s.notifyMu.Lock()
	defer s.notifyMu.Unlock()
	if s.notifyConn == nil {
		c, err := s.w.Conn(ctx)
		if err != nil {
			return dbError(err)
		}
		s.notifyConn = c
	}
	_, err := s.notifyConn.ExecContext(ctx, `SELECT pg_notify($1, p) FROM unnest($2::text[]) WITH ORDINALITY AS t(p, i) ORDER BY i`, s.channel, payloads)
	if err != nil {
		// A broken connection (the database restarted, say): the next
		// call takes another.
		_ = s.notifyConn.Close()
		s.notifyConn = nil
	}
	return dbError(err)
}

// Listen listens for notifications until ctx ends, and returns ctx's
// error then. It calls heard with each payload and listening each time
// it is listening (again): after a connection is made and LISTEN has run,
// so that the caller can read from the store what it may have missed
// before. Both are called from Listen's goroutine. A connection that fails
// is made again after a pause (100 ms, doubling to 5 s), and each failure
// goes to lost (if not nil).
func (s *Store) Listen(ctx context.Context, heard func(payload string), listening func(), lost func(error)) error {
	if !s.CanNotify() {
		return ErrNoNotify
	}
	pause := 100 * time.Millisecond
	for {
		err := s.listenOnce(ctx, heard, listening, func() { pause = 100 * time.Millisecond })
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if lost != nil {
			lost(err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(pause):
		}
		pause = min(2*pause, 5*time.Second)
	}
}

// listenOnce listens on one connection until it fails or ctx ends.
func (s *Store) listenOnce(ctx context.Context, heard func(string), listening, connected func()) error {
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	conn, err := pgx.Connect(cctx, s.dsn)
	cancel()
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{s.channel}.Sanitize()); err != nil {
		return err
	}
	connected()
	listening()
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		heard(n.Payload)
	}
}
