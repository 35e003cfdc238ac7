package store

import (
	"context"
	"database/sql"
	"strings"
	"sync"
	"testing"
)

// TestWritePanics: a write whose function panics fails alone. On SQLite
// it runs on the batcher's goroutine, where a panic used to end the
// process: it is that caller's error now, and the writes batched with it
// commit. On PostgreSQL it runs on the caller's goroutine, where the panic
// stays the caller's, and its transaction is rolled back.
func TestWritePanics(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		s := openStore(t, dsn)
		ctx := context.Background()
		touch := func(ctx context.Context, tx *sql.Tx) error {
			_, err := tx.ExecContext(ctx, `UPDATE counters SET last_id = last_id + 1 WHERE name = 'reviews'`)
			return err
		}
		var before int64
		if err := s.r.QueryRowContext(ctx, `SELECT last_id FROM counters WHERE name = 'reviews'`).Scan(&before); err != nil {
			t.Fatal(err)
		}
		const writers = 8
		errs := make([]error, writers)
		panics := make([]any, writers)
		var wg sync.WaitGroup
		for i := range writers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer func() { panics[i] = recover() }()
				errs[i] = s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
					if err := touch(ctx, tx); err != nil {
						return err
					}
					if i == 0 {
						panic("the write fell over")
					}
					return nil
				})
			}()
		}
		wg.Wait()
		if s.Backend() == "postgres" {
			if panics[0] != "the write fell over" {
				t.Errorf("the panicking write on PostgreSQL: recovered %v, want its panic", panics[0])
			}
		} else if panics[0] != nil || errs[0] == nil || !strings.Contains(errs[0].Error(), "a write panicked: the write fell over") {
			t.Errorf("the panicking write on SQLite: panic %v, error %v; want the error of its panic", panics[0], errs[0])
		}
		for i := 1; i < writers; i++ {
			if errs[i] != nil || panics[i] != nil {
				t.Errorf("write %d beside the panicking one: %v, %v; want it committed", i, errs[i], panics[i])
			}
		}
		var after int64
		if err := s.r.QueryRowContext(ctx, `SELECT last_id FROM counters WHERE name = 'reviews'`).Scan(&after); err != nil {
			t.Fatal(err)
		}
		if after-before != writers-1 {
			t.Errorf("the counter moved by %d, want %d (every write but the one that panicked)", after-before, writers-1)
		}
	})
}
