package store

import (
	"context"
	"database/sql"
	"math/rand/v2"
	"os"
	"sync"
	"testing"
)

// TestWALPages: the pages a move writes to SQLite's log, the cost of every
// commit (each page is written and then synced). 10,000 games, moves in
// random games, 30 a transaction as the batcher commits them under load.
// The statement of a move that does not end its game (appendUpdate) must
// write clearly fewer pages than the one that also sets the status
// (appendEnd), which rewrites the entries of the indexes on status.
func TestWALPages(t *testing.T) {
	if testing.Short() {
		t.Skip("creates 10,000 games")
	}
	dsn := testDSN(t, "sqlite")
	s, err := Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{s: s, ctx: context.Background(), t: t, gameVariant: "nine-mens-morris", gameRules: "nine-mens-morris"}
	f.ann, f.bob = f.user("Ann"), f.user("Bob")
	const games, batch, commits = 10000, 30, 50
	ids := make([]int64, games)
	var wg sync.WaitGroup
	for i := range ids {
		wg.Go(func() { ids[i] = f.game().ID })
	}
	wg.Wait()
	s.Close()
	db, err := sql.Open("sqlite", sqliteDSN(dsn, true, "FULL"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	plies := make([]int, games)
	rng := rand.New(rand.NewPCG(1, 2))
	pages := func(update statementID) float64 {
		if _, err := db.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
			t.Fatal(err)
		}
		for range commits {
			tx, err := db.Begin()
			if err != nil {
				t.Fatal(err)
			}
			for range batch {
				i := rng.IntN(games)
				args := []any{ids[i], plies[i], 1000, 1000, 0, 5, 6, 7}
				if update == appendEnd {
					args = append(args, string(Active), "*", "") // a move that does not end the game
				}
				var v int64
				if err := tx.QueryRow(statementText[update], args...).Scan(&v); err != nil {
					t.Fatal(err)
				}
				if _, err := tx.Exec(statementText[appendInsert], ids[i], plies[i], "a1-a4", 5, 6, 7, v); err != nil {
					t.Fatal(err)
				}
				plies[i]++
			}
			if err := tx.Commit(); err != nil {
				t.Fatal(err)
			}
		}
		st, err := os.Stat(dsn + "-wal")
		if err != nil {
			t.Fatal(err)
		}
		const header, frame = 32, 24 + 4096 // the log's header; a frame's header and its page
		return float64(st.Size()-header) / frame / (commits * batch)
	}
	move, end := pages(appendUpdate), pages(appendEnd)
	t.Logf("pages written to the log a move: %.2f, %.2f with the status set", move, end)
	if move > 0.75*end {
		t.Errorf("a move writes %.2f pages to the log, not clearly fewer than the %.2f of the statement that sets the status", move, end)
	}
}
