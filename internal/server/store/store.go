package store

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" database/sql driver
	"github.com/pressly/goose/v3"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Errors. Every error the store returns for one of these reasons wraps the
// sentinel, so callers test with errors.Is.
var (
	// ErrNotFound: no such user, game, token, offer, challenge or rating,
	// including a reference to a user or game that does not exist.
	ErrNotFound = errors.New("store: not found")
	// ErrConflict: the stored state is not the one the caller expected:
	// another move was stored at that ply, the game is over, the challenge
	// was already answered, a rating changed meanwhile. Re-read and decide.
	ErrConflict = errors.New("store: conflict")
	// ErrDuplicate: a user name (in any case) or a token hash already taken.
	ErrDuplicate = errors.New("store: already exists")
	// ErrFull: the disk (or PostgreSQL's) has no room left: nothing was
	// written. Reads go on meanwhile, and writes succeed again by
	// themselves once there is room (disk.go).
	ErrFull = errors.New("store: the disk is full")
)

// Store is the durable storage of the game server. Its methods are safe for
// concurrent use; each one is a transaction of its own, committed (and so
// durable) when it returns without error.
type Store struct {
	dialect goose.Dialect
	// w runs the transactions that write, r those that only read. On
	// SQLite w is one connection, owned by the batcher: SQLite has one
	// writer at a time anyway, and handing the writes to one goroutine is
	// faster than connections sleeping on SQLITE_BUSY; r is a pool of
	// readers, which WAL lets run beside the writer. On PostgreSQL both
	// are one pool.
	w, r *sql.DB
	// batch commits the SQLite writes of concurrent callers together
	// (batch.go); nil on PostgreSQL.
	batch *batcher
	// ckpt checkpoints the SQLite log beside the writes (checkpoint.go);
	// nil on PostgreSQL.
	ckpt *checkpointer
	// stmts are the hot statements prepared once on the SQLite writer;
	// nil on PostgreSQL, whose driver keeps prepared statements itself.
	stmts *statements
	// now gives the bookkeeping times (created_at, updated_at); the times
	// that matter to the game (moves, clocks, offers) come from the caller.
	now func() time.Time
	// dsn and channel (PostgreSQL only): the URL a listener connects
	// with, and the channel of the notifications between the processes
	// that share this database and schema (notify.go).
	dsn, channel string
	// notifyConn is the connection Notify keeps for itself (PostgreSQL),
	// so that a notification never waits in line with the moves for the
	// pool: under load the relay then stays as fast as the moves.
	notifyMu   sync.Mutex
	notifyConn *sql.Conn
	// log is told when the disk fills up and has room again, and of the
	// checkpoints that fail (disk.go, checkpoint.go).
	log *slog.Logger
	// full follows whether the writes fail for want of room (disk.go).
	full fullState
}

// Option is an option of Open.
type Option func(*options)

type options struct {
	log *slog.Logger
}

// WithLogger gives the store a logger for what goes wrong beside the
// calls, which no caller would hear of otherwise: checkpoints of the
// SQLite log that fail, the disk filling up and having room again.
func WithLogger(l *slog.Logger) Option { return func(o *options) { o.log = l } }

//go:embed migrations/*.sql
var migrations embed.FS

// Open opens the database named by dsn and brings its schema up to date.
//
// A dsn starting with postgres:// or postgresql:// is a PostgreSQL URL in
// the form pgx takes (key=value parameters such as sslmode and
// search_path go in the query). Anything else is an SQLite database file:
// a path, or a path after "sqlite:" ("sqlite:data/morris.db",
// "sqlite:///var/lib/morris/morris.db"); the file and its folder are
// created if missing.
//
// A new SQLite file is made readable by its owner alone (0600, whatever the
// umask), as are its -wal and -shm files, which SQLite creates with the
// database's mode; a new folder is 0700. The database holds password
// hashes and tokens' hashes.
func Open(ctx context.Context, dsn string, opts ...Option) (*Store, error) {
	return open(ctx, dsn, "FULL", opts...)
}

// open is Open with SQLite's synchronous setting as a parameter, so that the
// benchmarks can measure what FULL costs against NORMAL.
func open(ctx context.Context, dsn, sync string, opts ...Option) (*Store, error) {
	o := options{log: slog.New(slog.DiscardHandler)}
	for _, opt := range opts {
		opt(&o)
	}
	if o.log == nil {
		o.log = slog.New(slog.DiscardHandler)
	}
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		return openPostgres(ctx, dsn, o)
	}
	path := strings.TrimPrefix(dsn, "sqlite:")
	if path != dsn && strings.HasPrefix(path, "//") {
		path = path[2:] // sqlite:///abs/path or sqlite://rel/path
	}
	if path == "" || strings.ContainsAny(path, "?#") {
		return nil, fmt.Errorf("store: %q: an SQLite database is a file path without ? or #", dsn)
	}
	return openSQLite(ctx, path, sync, o)
}

// The settings of every SQLite connection:
//
//   - journal_mode=WAL: readers do not block the writer nor it them, and a
//     commit appends to one file instead of rewriting pages twice;
//   - synchronous=FULL: with WAL, each commit waits until the log is on the
//     disk (fsync). The server acknowledges a move only after AppendMove
//     returns, so a move it has acknowledged must survive a power cut, not
//     only a killed process. NORMAL would sync only at checkpoints: a
//     killed process loses nothing either way, but an operating system crash
//     or a power cut could lose the last moves acknowledged before it;
//   - busy_timeout: a connection waits (10 s) for a lock held by another,
//     for instance a checkpoint or another process on the same file,
//     instead of failing at once with SQLITE_BUSY;
//   - foreign_keys=ON: SQLite does not check REFERENCES otherwise;
//   - _txlock=immediate on the writer: a write transaction takes the write
//     lock at BEGIN, so it cannot fail later when it upgrades from reading;
//   - journal_size_limit on the writer: SQLite reuses its log from the
//     start after a checkpoint instead of shrinking it, so a log that a
//     burst, a long reader or a full disk grew would keep its size for
//     good; with the limit, the first commit after the log restarts cuts
//     it back to journalSizeLimit.
func sqliteDSN(path string, write bool, sync string) string {
	q := []string{
		"_pragma=busy_timeout(10000)",
		"_pragma=foreign_keys(1)",
		"_pragma=synchronous(" + sync + ")",
	}
	if write {
		// The writer does not checkpoint at commit (the commit that
		// crossed the threshold would wait for the copy and its fsync):
		// the checkpointer does it beside the writes (checkpoint.go).
		q = append(q, "_pragma=journal_mode(WAL)", "_pragma=wal_autocheckpoint(0)",
			"_pragma=journal_size_limit("+strconv.Itoa(journalSizeLimit)+")", "_txlock=immediate")
	} else {
		q = append(q, "_query_only=1")
	}
	return path + "?" + strings.Join(q, "&")
}

// journalSizeLimit is the size (bytes) the SQLite log is cut back to when
// it restarts: 32 MiB, a few seconds of the heaviest load measured (about
// 1.5 pages of 4 KiB a move), so that the log is seldom cut and grown again.
const journalSizeLimit = 32 << 20

func openSQLite(ctx context.Context, path, sync string, o options) (s *Store, err error) {
	if err := createPrivate(path); err != nil {
		return nil, err
	}
	w, err := sql.Open("sqlite", sqliteDSN(path, true, sync))
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	w.SetConnMaxIdleTime(0)
	r, err := sql.Open("sqlite", sqliteDSN(path, false, sync))
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("store: %w", err)
	}
	n := max(4, 2*runtime.GOMAXPROCS(0))
	r.SetMaxOpenConns(n)
	r.SetMaxIdleConns(n)
	s = &Store{dialect: goose.DialectSQLite3, w: w, r: r, now: time.Now, log: o.log}
	if err := s.migrate(ctx, w); err != nil {
		s.Close()
		return nil, err
	}
	if err := s.prepare(ctx); err != nil {
		s.Close()
		return nil, err
	}
	s.batch = newBatcher(w, s.stmts)
	if s.ckpt, err = newCheckpointer(path, sync, o.log); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// DefaultPoolSize is the number of PostgreSQL connections of a store; a
// pool_max_conns parameter in the URL (as pgxpool names it) sets another.
const DefaultPoolSize = 16

func openPostgres(ctx context.Context, dsn string, o options) (*Store, error) {
	u, err := url.Parse(dsn)
	if err != nil {
		// url.Error quotes the whole URL, password included: say it
		// again with the password hidden.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, fmt.Errorf("store: bad PostgreSQL URL %s: %v", RedactDSN(dsn), err)
	}
	pool := DefaultPoolSize
	q := u.Query()
	if v := q.Get("pool_max_conns"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 1000 {
			return nil, fmt.Errorf("store: pool_max_conns=%q: want 1 to 1000", v)
		}
		pool = n
		q.Del("pool_max_conns") // PostgreSQL would take it for a setting of its own
		u.RawQuery = q.Encode()
		dsn = u.String()
	}
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	db.SetMaxOpenConns(pool)
	db.SetMaxIdleConns(pool)
	db.SetConnMaxIdleTime(5 * time.Minute)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: %w", err)
	}
	s := &Store{dialect: goose.DialectPostgres, w: db, r: db, now: time.Now, dsn: dsn, log: o.log}
	if err := s.migrate(ctx, db); err != nil {
		db.Close()
		return nil, err
	}
	var schema string
	if err := db.QueryRowContext(ctx, `SELECT current_schema()`).Scan(&schema); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: %w", err)
	}
	s.channel = channelName(schema)
	return s, nil
}

// migrate runs the embedded migrations that have not run yet. On
// PostgreSQL it holds an advisory lock meanwhile, so that several server
// processes starting together migrate one after the other. (goose has a
// locker of its own, but it polls every few seconds and takes the lock
// after goose has looked for its version table, which processes starting
// together then race to create; this lock is held around everything and
// waits in pg_advisory_lock, so the next process goes on at once.)
func (s *Store) migrate(ctx context.Context, db *sql.DB) error {
	fsys, err := fs.Sub(migrations, "migrations")
	if err != nil {
		return err
	}
	return s.migrateFS(ctx, db, fsys)
}

// migrateFS is migrate with the migrations of fsys (the tests add one).
func (s *Store) migrateFS(ctx context.Context, db *sql.DB, fsys fs.FS) error {
	// Out of order: migrations are numbered on branches that merge in
	// any order (00013 came before 00012), so a database may have a
	// later one before an earlier one arrives; goose then runs the
	// earlier one instead of refusing to go on.
	p, err := goose.NewProvider(s.dialect, db, fsys, goose.WithLogger(goose.NopLogger()), goose.WithDisableGlobalRegistry(true),
		goose.WithAllowOutofOrder(true))
	if err != nil {
		return fmt.Errorf("store: migrations: %w", err)
	}
	if s.dialect == goose.DialectPostgres {
		conn, err := db.Conn(ctx)
		if err != nil {
			return fmt.Errorf("store: migrations: %w", err)
		}
		defer conn.Close()
		if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock($1)`, int64(migrationLock)); err != nil {
			return fmt.Errorf("store: migrations: waiting for the lock: %w", err)
		}
		defer conn.ExecContext(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, int64(migrationLock))
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("store: migrations: %w", err)
	}
	return nil
}

// migrationLock is the key of the migrations' advisory lock: "morris" in ASCII.
const migrationLock = 0x6d6f72726973

// Close closes the database, once the writes under way have committed.
func (s *Store) Close() error {
	if s.batch != nil {
		s.batch.close()
	}
	s.notifyMu.Lock()
	if s.notifyConn != nil {
		_ = s.notifyConn.Close()
		s.notifyConn = nil
	}
	s.notifyMu.Unlock()
	if s.ckpt != nil {
		s.ckpt.close()
	}
	if s.stmts != nil {
		s.stmts.close()
	}
	err := s.w.Close()
	if s.r != s.w {
		err = errors.Join(err, s.r.Close())
	}
	return err
}

// Backend returns "sqlite" or "postgres".
func (s *Store) Backend() string {
	if s.dialect == goose.DialectPostgres {
		return "postgres"
	}
	return "sqlite"
}

// write runs fn in a write transaction and commits it; an error from fn
// rolls back what fn did. It returns once the transaction has committed:
// fn's error, mapped to the sentinels, or the error that kept it from
// committing. fn runs once, and runs its statements under the context it
// is given: on SQLite that is ctx without its cancellation, since fn
// shares its transaction with the writes of other callers (batch.go),
// inside a savepoint; it must not end the transaction nor use savepoints
// of its own.
func (s *Store) write(ctx context.Context, fn func(ctx context.Context, tx *sql.Tx) error) error {
	if s.batch != nil {
		if s.ckpt != nil && s.ckpt.full.Load() {
			return s.noteWrite(errLogFull)
		}
		return s.noteWrite(s.batch.do(ctx, fn))
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return s.noteWrite(dbError(err))
	}
	defer func() {
		// A panic of fn is the caller's to recover, but its transaction
		// must not keep a connection of the pool until the process ends.
		if v := recover(); v != nil {
			_ = tx.Rollback()
			panic(v)
		}
	}()
	if err := fn(ctx, tx); err != nil {
		_ = tx.Rollback()
		return s.noteWrite(dbError(err))
	}
	return s.noteWrite(dbError(tx.Commit()))
}

// errLogFull refuses the SQLite writes while the log cannot be copied into
// the database for want of room (checkpoint.go).
var errLogFull = fmt.Errorf("%w: the SQLite log cannot be copied into the database until there is room", ErrFull)

// readOnly is a read-only transaction that sees one snapshot: repeatable
// read on PostgreSQL (its default, read committed, would give each statement
// its own); SQLite's read transactions see one snapshot anyway.
var readOnly = &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true}

// read runs fn in a read-only transaction.
func (s *Store) read(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := s.r.BeginTx(ctx, readOnly)
	if err != nil {
		return dbError(err)
	}
	defer tx.Rollback()
	return dbError(fn(tx))
}

// dbError maps the drivers' constraint violations to the sentinels: a
// unique key taken to ErrDuplicate, a reference to a missing row to
// ErrNotFound; and a disk without room to ErrFull. Errors that already wrap
// a sentinel pass unchanged.
func dbError(err error) error {
	if err == nil || errors.Is(err, ErrNotFound) || errors.Is(err, ErrConflict) || errors.Is(err, ErrDuplicate) || errors.Is(err, ErrFull) {
		return err
	}
	if isFull(err) {
		return fmt.Errorf("%w: %v", ErrFull, err)
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch pe.Code {
		case "23505": // unique_violation
			return fmt.Errorf("%w: %s", ErrDuplicate, pe.Message)
		case "23503": // foreign_key_violation
			return fmt.Errorf("%w: %s", ErrNotFound, pe.Message)
		}
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() {
		case sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
			return fmt.Errorf("%w: %v", ErrDuplicate, se)
		case sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY:
			return fmt.Errorf("%w: %v", ErrNotFound, se)
		}
	}
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("%w: %v", ErrNotFound, err)
	}
	return fmt.Errorf("store: %w", err)
}

// nextID takes the next id of a counter: rows of every table get their ids
// here, the same way on both databases. On PostgreSQL the counter's row
// stays locked until the transaction ends, so ids follow commits without
// gaps; creating users, games and challenges is rare enough for that.
func nextID(ctx context.Context, tx *sql.Tx, counter string) (int64, error) {
	var id int64
	err := tx.QueryRowContext(ctx, `UPDATE counters SET last_id = last_id + 1 WHERE name = $1 RETURNING last_id`, counter).Scan(&id)
	return id, err
}

// Times are stored as milliseconds since the Unix epoch, 0 for none, and
// durations as milliseconds.

func millis(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

func fromMillis(ms int64) time.Time {
	if ms == 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms).UTC()
}

func durMillis(d time.Duration) int64 { return d.Milliseconds() }

func fromDurMillis(ms int64) time.Duration { return time.Duration(ms) * time.Millisecond }
