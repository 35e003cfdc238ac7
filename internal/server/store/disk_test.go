//go:build linux

package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/morrisgame/morris/internal/server/store/storetest"
)

// logger writes a store's log to b.
func logger(b *storetest.Log) *slog.Logger { return slog.New(slog.NewTextHandler(b, nil)) }

// count returns the number of lines of the log that hold s.
func count(b *storetest.Log, s string) int { return strings.Count(b.String(), s) }

// TestFilePermissions: under a umask that lets everyone read, a new
// database's folder is 0700 and its files (the database, its log and its
// shared memory) 0600: they hold the hashes of passwords and tokens.
func TestFilePermissions(t *testing.T) {
	old := syscall.Umask(0)
	defer syscall.Umask(old)
	dir := filepath.Join(t.TempDir(), "data", "morris")
	path := filepath.Join(dir, "morris.db")
	s := openStore(t, path)
	f := &fixture{s: s, ctx: context.Background(), t: t, gameVariant: "nine-mens-morris", gameRules: "nine-mens-morris"}
	f.ann = f.user("Ann") // a write, so that the log and the shared memory exist
	for _, x := range []struct {
		path string
		want os.FileMode
	}{
		{filepath.Dir(dir), 0o700},
		{dir, 0o700},
		{path, 0o600},
		{path + "-wal", 0o600},
		{path + "-shm", 0o600},
	} {
		st, err := os.Stat(x.path)
		if err != nil {
			t.Errorf("%s: %v", x.path, err)
			continue
		}
		if got := st.Mode().Perm(); got != x.want {
			t.Errorf("%s: got mode %04o, want %04o", x.path, got, x.want)
		}
	}
	// A file that exists keeps the mode its owner gave it.
	other := filepath.Join(t.TempDir(), "mine.db")
	if err := os.WriteFile(other, nil, 0o640); err != nil {
		t.Fatal(err)
	}
	openStore(t, other)
	if st, err := os.Stat(other); err != nil || st.Mode().Perm() != 0o640 {
		t.Errorf("an existing database: got %v %v, want mode 0640 kept", st.Mode().Perm(), err)
	}
}

// TestJournalSizeLimit: a log that one large transaction grew is cut back
// to journalSizeLimit once it has been copied into the database and the
// next commit restarts it; without the limit SQLite keeps the file at its
// largest for good.
func TestJournalSizeLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a log of 38 MB: not under -short")
	}
	dsn := testDSN(t, "sqlite")
	s := openStore(t, dsn)
	ctx := context.Background()
	var limit int64
	if err := s.w.QueryRowContext(ctx, `PRAGMA journal_size_limit`).Scan(&limit); err != nil || limit != journalSizeLimit {
		t.Fatalf("PRAGMA journal_size_limit: got %d %v, want %d", limit, err, journalSizeLimit)
	}
	big := func(n int) {
		err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
			if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS ballast (b BLOB)`); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx, `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $1)
				INSERT INTO ballast SELECT randomblob(3000) FROM n`, n)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	big(journalSizeLimit/4096 + 1000) // a page a row: a log of about 1.1 times the limit
	wal := func() int64 {
		st, err := os.Stat(dsn + "-wal")
		if err != nil {
			t.Fatal(err)
		}
		return st.Size()
	}
	grown := wal()
	if grown <= journalSizeLimit {
		t.Fatalf("the log holds %d bytes after the large transaction, want more than %d", grown, journalSizeLimit)
	}
	// Copied into the database (as the checkpointer does every second),
	// the log restarts from its start at the next commit.
	if _, _, _, err := s.ckpt.checkpoint(ctx, "PASSIVE"); err != nil {
		t.Fatal(err)
	}
	f := &fixture{s: s, ctx: ctx, t: t}
	f.user("Ann")
	if got := wal(); got > journalSizeLimit {
		t.Errorf("after a checkpoint and a commit the log holds %d bytes, want at most %d", got, journalSizeLimit)
	} else {
		t.Logf("the log: %d bytes after the large transaction, %d after a checkpoint and a commit", grown, got)
	}
}

// TestDiskFull: on a disk with no room left, a write fails with ErrFull
// and stores nothing, the log says so once (not once per refusal), reads
// go on, and once there is room the next write succeeds on the same store
// and the log says that too.
func TestDiskFull(t *testing.T) {
	disk := storetest.SmallDisk(t, 8<<20)
	var log storetest.Log
	s, err := Open(context.Background(), filepath.Join(disk, "morris.db"), WithLogger(logger(&log)))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	f := &fixture{s: s, ctx: context.Background(), t: t, gameVariant: "nine-mens-morris", gameRules: "nine-mens-morris"}
	f.ann, f.bob = f.user("Ann"), f.user("Bob")
	g := f.game()
	fillers := storetest.Fill(t, disk, 1<<20)
	ply, refused := 0, 0
	for range 2000 {
		_, err := s.AppendMove(f.ctx, g.ID, Append{Ply: ply, Move: crashMove(ply), At: t0})
		switch {
		case err == nil:
			ply++ // the log had room left from before
		case errors.Is(err, ErrFull):
			refused++
		default:
			t.Fatalf("a move on a full disk: got %v, want ErrFull", err)
		}
	}
	if refused == 0 {
		t.Fatalf("2000 moves on a full disk: all stored, want ErrFull")
	}
	moves, err := s.Moves(f.ctx, g.ID)
	if err != nil || len(moves) != ply {
		t.Errorf("reading on a full disk: got %d moves, %v; want the %d stored", len(moves), err, ply)
	}
	if n := count(&log, `msg="the disk is full`); n != 1 {
		t.Errorf("the log tells of the full disk %d times for %d refusals, want once:\n%s", n, refused, log.String())
	}
	if err := os.Remove(fillers[0]); err != nil {
		t.Fatal(err)
	}
	// The checkpoint that waited for room goes first (within a tenth of a
	// second); then the moves.
	deadline := time.Now().Add(5 * time.Second)
	for {
		_, err := s.AppendMove(f.ctx, g.ID, Append{Ply: ply, Move: crashMove(ply), At: t0})
		if err == nil {
			ply++
			break
		}
		if !errors.Is(err, ErrFull) || time.Now().After(deadline) {
			t.Fatalf("a move once there is room: got %v, want it stored within 5 s", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	// The log says so once the writes have gone on succeeding for a while.
	for i := range 10 {
		if i == 9 {
			time.Sleep(fullSettle)
		}
		if _, err := s.AppendMove(f.ctx, g.ID, Append{Ply: ply, Move: crashMove(ply), At: t0}); err != nil {
			t.Fatalf("a move once there is room: %v", err)
		}
		ply++
		if n := count(&log, `msg="the disk has room again`); i < 9 && n != 0 {
			t.Fatalf("the log tells of the room after %d moves: at once, want after %v", i+2, fullSettle)
		}
	}
	if n := count(&log, `msg="the disk has room again`); n != 1 {
		t.Errorf("the log tells of the room %d times, want once:\n%s", n, log.String())
	}
	t.Logf("%d moves refused on the full disk; %d stored in all", refused, ply)
}

// TestCheckpointErrors: a checkpoint that fails (here the database file
// cannot grow on a full disk) is logged, once while it goes on, and so is
// the first one that succeeds after it.
func TestCheckpointErrors(t *testing.T) {
	disk := storetest.SmallDisk(t, 4<<20)
	path := filepath.Join(disk, "morris.db")
	s := openStore(t, path)
	// The store's own checkpointer would race with the one below.
	s.ckpt.close()
	var log storetest.Log
	db, err := sql.Open("sqlite", path+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	c := &checkpointer{db: db, log: logger(&log)}
	ctx := context.Background()
	err = s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `CREATE TABLE ballast (b BLOB)`); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300)
			INSERT INTO ballast SELECT randomblob(3000) FROM n`)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	fillers := storetest.Fill(t, disk, 64<<10)
	for range 3 {
		c.tick(ctx)
	}
	if n := count(&log, "SQLite checkpoint failed"); n != 1 {
		t.Errorf("3 checkpoints on a full disk: the log tells of %d failures, want 1:\n%s", n, log.String())
	}
	for _, f := range fillers[:min(len(fillers), 20)] {
		os.Remove(f)
	}
	c.tick(ctx)
	if n := count(&log, "SQLite checkpoints succeed again"); n != 1 || c.failing != 0 {
		t.Errorf("a checkpoint with room: the log tells of %d recoveries (failing %d), want 1:\n%s", n, c.failing, log.String())
	}
}

// TestCheckpointStarved: readers that keep a PASSIVE checkpoint from
// copying a long log to its end for starvedAfter ticks get a TRUNCATE
// checkpoint, which empties the log once they let go.
func TestCheckpointStarved(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a log of 35 MB: not under -short")
	}
	dsn := testDSN(t, "sqlite")
	s := openStore(t, dsn)
	s.ckpt.close()
	var log storetest.Log
	db, err := sql.Open("sqlite", dsn+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	c := &checkpointer{db: db, log: logger(&log)}
	ctx := context.Background()
	// A reader whose snapshot predates the long log holds the frames back.
	f := &fixture{s: s, ctx: ctx, t: t}
	f.user("Ann")
	rd, err := s.r.BeginTx(ctx, readOnly)
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if err := rd.QueryRow(`SELECT count(*) FROM users`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	err = s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `CREATE TABLE ballast (b BLOB)`); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $1)
			INSERT INTO ballast SELECT randomblob(3000) FROM n`, journalSizeLimit/4096+500)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for range starvedAfter - 1 {
		c.tick(ctx)
	}
	if c.starved != starvedAfter-1 || count(&log, "the SQLite log grows") != 0 {
		t.Fatalf("after %d starved checkpoints: starved %d, log %q", starvedAfter-1, c.starved, log.String())
	}
	// The reader ends while the TRUNCATE checkpoint waits for it.
	time.AfterFunc(50*time.Millisecond, func() { rd.Rollback() })
	c.tick(ctx)
	if count(&log, "the SQLite log grows") != 1 {
		t.Errorf("after %d starved checkpoints: no warning in the log %q", starvedAfter, log.String())
	}
	st, err := os.Stat(dsn + "-wal")
	if err != nil || st.Size() != 0 {
		t.Errorf("after the TRUNCATE checkpoint the log holds %d bytes (%v), want 0; log %q", st.Size(), err, log.String())
	}
}

// TestFullErrors: the other ways a database or the system says "no room"
// are ErrFull too: PostgreSQL's disk_full, the system's ENOSPC.
func TestFullErrors(t *testing.T) {
	for _, x := range []struct {
		err  error
		want bool
	}{
		{&pgconn.PgError{Code: "53100", Message: `could not extend file "base/16384/2619": No space left on device`}, true},
		{fmt.Errorf("writing: %w", &os.PathError{Op: "write", Path: "x", Err: syscall.ENOSPC}), true},
		{&pgconn.PgError{Code: "53200"}, false}, // out of memory
		{errors.New("no space"), false},
	} {
		if got := errors.Is(dbError(x.err), ErrFull); got != x.want {
			t.Errorf("dbError(%v) is ErrFull: got %v, want %v", x.err, got, x.want)
		}
	}
}
