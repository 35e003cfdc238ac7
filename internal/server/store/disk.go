package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// A full disk.
//
// When the disk has no room, SQLite's write of its log fails with ENOSPC
// and the transaction with SQLITE_FULL; PostgreSQL's with disk_full
// (53100). Nothing of the transaction is stored, and the writer connection
// stays usable: the next write that finds room commits, with no restart.
// The store answers ErrFull (which the service turns into a 503 with a
// Retry-After), and says so in its log once when the disk fills up, once a
// minute while it stays full, and once when it has room again, rather than
// once per refused move: a log on the same disk would only fill it faster.

// isFull reports whether err is a driver's or the system's "no room left".
func isFull(err error) bool {
	var se *sqlite.Error
	if errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_FULL {
		return true
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "53100" { // disk_full
		return true
	}
	return errors.Is(err, syscall.ENOSPC)
}

// fullState follows whether the writes fail for want of room.
type fullState struct {
	on      atomic.Bool // read on every write, so a mutex is not taken when all is well
	mu      sync.Mutex
	since   time.Time
	told    time.Time // when the log last heard of it
	refused int64     // writes refused since
	okSince time.Time // the first of the writes that have succeeded since the last refusal
}

const (
	// fullReminder is how often the log is reminded that the disk is
	// still full.
	fullReminder = time.Minute
	// fullSettle is how long writes must go on succeeding before the disk
	// counts as having room again. A nearly full disk lets some writes
	// through (those that fit in the log's pages already on the disk) and
	// refuses others; without it the log would say "full", "room" and
	// "full" again for each of them.
	fullSettle = time.Second
)

// noteWrite follows the outcome of a write and passes it on: a write
// refused for want of room turns the state to full, writes that have gone
// on committing for fullSettle turn it back. Other errors (a conflict, a
// missing row) say nothing about the disk.
func (s *Store) noteWrite(err error) error {
	full := errors.Is(err, ErrFull)
	if !full && (err != nil || !s.full.on.Load()) {
		return err
	}
	if full && s.ckpt != nil {
		s.ckpt.noRoom() // the room made next goes to the checkpoint first
	}
	f := &s.full
	f.mu.Lock()
	defer f.mu.Unlock()
	now := time.Now()
	switch {
	case full && !f.on.Load():
		f.on.Store(true)
		f.since, f.told, f.refused, f.okSince = now, now, 1, time.Time{}
		s.log.Error("the disk is full: writes (moves, games, accounts) are refused with 503 until there is room again; nothing refused is stored, reads go on", "err", err)
	case full:
		f.refused++
		f.okSince = time.Time{}
		if now.Sub(f.told) >= fullReminder {
			f.told = now
			s.log.Error("the disk is still full: writes are refused", "since", f.since.Format(time.RFC3339), "refused", f.refused, "err", err)
		}
	case f.okSince.IsZero():
		f.okSince = now
	case now.Sub(f.okSince) >= fullSettle:
		f.on.Store(false)
		s.log.Warn("the disk has room again: writes succeed", "full for", f.okSince.Sub(f.since).Round(time.Millisecond).String(), "refused", f.refused)
	}
	return err
}

// createPrivate makes the folder of an SQLite database (0700) and the
// database file (0600) when they do not exist, so that the umask does not
// decide who may read the password and token hashes. SQLite gives the -wal
// and -shm files the database's mode. A folder or file that exists is left
// as it is: its mode is the owner's choice.
func createPrivate(path string) error {
	if dir := filepath.Dir(path); dir != "." {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return fmt.Errorf("store: %w", err)
		}
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	// The umask takes bits away, never adds them; but it may have taken
	// the owner's own.
	err = f.Chmod(0o600)
	return dbError(errors.Join(err, f.Close()))
}
