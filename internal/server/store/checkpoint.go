package store

import (
	"context"
	"database/sql"
	"errors"
	"log/slog"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// checkpointer copies the SQLite log into the database once a second, on a
// connection of its own, so that no commit waits for it (the writer does
// not checkpoint: wal_autocheckpoint=0). A PASSIVE checkpoint neither waits
// for readers nor blocks the writer; what it cannot copy now it copies
// next time.
//
// Two things can keep it from keeping up, and neither may go unseen:
//
//   - a checkpoint that fails (the database file cannot grow on a full
//     disk, an I/O error): the log then only grows. The failure is logged
//     at once and once a minute while it lasts, and its end is logged too.
//     A write or a checkpoint that fails for want of room stops the
//     writes (Store.write answers ErrFull) until a checkpoint succeeds,
//     tried at once and then ten times a second: otherwise the writes
//     would take whatever room is made, a page at a time, the log would
//     only grow, and the checkpoint that must grow the database file would
//     never find room again (TestServeDiskFull saw it: room made, taken by
//     the log within a second, the server refusing every move for good).
//     Once the log is copied, it starts again from its beginning, in the
//     room it already has. On a disk with less than tightRoom left the log
//     is copied (RESTART) ten times a second, so that it need not grow.
//   - readers that never all let go: a PASSIVE checkpoint copies only the
//     frames older than the oldest reader's snapshot, and the log restarts
//     from its start only when every frame has been copied, so under a
//     steady stream of overlapping reads the log grows without end. When
//     the log has grown past journalSizeLimit and starvedAfter checkpoints
//     in a row have left part of it uncopied, one TRUNCATE checkpoint
//     waits for the readers of the moment to end (each read is short),
//     copies all, and empties the file. It holds the writer back while it
//     waits, so it waits at most truncateWait.
type checkpointer struct {
	db   *sql.DB
	log  *slog.Logger
	dir  string // the database's folder, whose disk's room is watched
	stop chan struct{}
	wg   sync.WaitGroup
	once sync.Once

	// full is set while the checkpoints fail for want of room: the
	// writes wait for one to succeed.
	full atomic.Bool
	wake chan struct{} // a checkpoint now, please (buffered)

	// Owned by the goroutine of run (and by tests that call tick).
	failing  int       // checkpoints failed in a row
	told     time.Time // when the log last heard of the failures
	starved  int       // checkpoints in a row that left part of a long log uncopied
	pageSize int
}

const (
	checkpointEvery = time.Second
	// checkpointRetryFull is how often a checkpoint that failed for want
	// of room is tried again (soon after room is made, play resumes), and
	// how often the log is copied on a disk with less than tightRoom left.
	checkpointRetryFull = 100 * time.Millisecond
	tightRoom           = 64 << 20
	// starvedAfter: ten seconds of a long log never copied to its end.
	starvedAfter = 10
	// truncateWait bounds how long a TRUNCATE checkpoint waits for
	// readers, and so how long it can hold the moves back.
	truncateWait = 250 * time.Millisecond
	// checkpointReminder is how often the log hears of failures that go on.
	checkpointReminder = time.Minute
)

func newCheckpointer(path, sync string, log *slog.Logger) (*checkpointer, error) {
	db, err := sql.Open("sqlite", path+"?_pragma=busy_timeout(10000)&_pragma=synchronous("+sync+")")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	c := &checkpointer{db: db, log: log, dir: filepath.Dir(path), stop: make(chan struct{}), wake: make(chan struct{}, 1)}
	c.wg.Add(1)
	go c.run()
	return c, nil
}

func (c *checkpointer) run() {
	defer c.wg.Done()
	first := checkpointEvery
	if c.tight() {
		first = checkpointRetryFull
	}
	t := time.NewTimer(first)
	defer t.Stop()
	for {
		select {
		case <-c.stop:
			return
		case <-t.C:
		case <-c.wake:
			t.Stop()
		}
		c.tick(context.Background())
		if c.full.Load() || c.tight() {
			t.Reset(checkpointRetryFull)
		} else {
			t.Reset(checkpointEvery)
		}
	}
}

// tight reports whether the disk has less than tightRoom left. Then the
// log is copied ten times a second, and started again from its beginning
// each time, so that it need not grow: at a thousand moves a second a
// second's log is a few megabytes, which a nearly full disk may not have
// for it and for the database too.
func (c *checkpointer) tight() bool {
	free, ok := freeBytes(c.dir)
	return ok && free < tightRoom
}

// noRoom stops the writes until a checkpoint succeeds, and asks for one
// now: a write failed for want of room.
func (c *checkpointer) noRoom() {
	if c.full.CompareAndSwap(false, true) {
		select {
		case c.wake <- struct{}{}:
		default:
		}
	}
}

// tick runs one PASSIVE checkpoint, and a TRUNCATE one when the passive
// ones have been starved for long; while the writes wait for room or the
// disk is tight, a RESTART one. It reports failures and their end.
func (c *checkpointer) tick(ctx context.Context) {
	if c.full.Load() || c.tight() {
		// RESTART copies the whole log and sees that the next write
		// starts it again from its beginning, in the room the log has,
		// instead of growing it into the room the database needs. It
		// waits for the readers of the moment (at most truncateWait),
		// and holds the writer back meanwhile; while the writes wait for
		// room that costs nothing, and on a tight disk it is worth it.
		busy, err := c.blocking(ctx, "RESTART")
		if err == nil && busy == 0 {
			c.full.Store(false)
		}
		c.report(err)
		return
	}
	busy, logFrames, copied, err := c.checkpoint(ctx, "PASSIVE")
	if err == nil && busy == 0 && copied < logFrames && c.longLog(ctx, logFrames) {
		c.starved++
	} else {
		c.starved = 0
	}
	if err == nil && c.starved >= starvedAfter {
		c.log.Warn("the SQLite log grows: readers kept the checkpoints from copying it to its end; waiting for them once",
			"frames", logFrames, "copied", copied, "checkpoints", c.starved)
		c.starved = 0
		if busy, err = c.blocking(ctx, "TRUNCATE"); err == nil && busy != 0 {
			c.log.Warn("the SQLite log could not be copied to its end: readers held it longer than the wait", "wait", truncateWait.String())
		}
	}
	if errors.Is(err, ErrFull) {
		c.full.Store(true)
	}
	c.report(err)
}

// checkpoint runs PRAGMA wal_checkpoint(mode): busy is 1 when it could not
// run to the end, logFrames the frames in the log, copied those in the
// database now.
func (c *checkpointer) checkpoint(ctx context.Context, mode string) (busy, logFrames, copied int, err error) {
	err = c.db.QueryRowContext(ctx, `PRAGMA wal_checkpoint(`+mode+`)`).Scan(&busy, &logFrames, &copied)
	return busy, logFrames, copied, dbError(err)
}

// longLog reports whether a log of n frames is longer than the limit the
// writer cuts it back to.
func (c *checkpointer) longLog(ctx context.Context, n int) bool {
	if c.pageSize == 0 {
		if err := c.db.QueryRowContext(ctx, `PRAGMA page_size`).Scan(&c.pageSize); err != nil || c.pageSize <= 0 {
			c.pageSize = 4096
		}
	}
	return n*(c.pageSize+24) > journalSizeLimit // a frame is its page and a header of 24 bytes
}

// blocking runs a RESTART or TRUNCATE checkpoint, which waits at most
// truncateWait for the readers (and holds the writer back meanwhile); busy
// is 1 when they held it longer.
func (c *checkpointer) blocking(ctx context.Context, mode string) (busy int, err error) {
	conn, err := c.db.Conn(ctx)
	if err != nil {
		return 0, dbError(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `PRAGMA busy_timeout = `+strconv.Itoa(int(truncateWait/time.Millisecond))); err != nil {
		return 0, dbError(err)
	}
	defer conn.ExecContext(ctx, `PRAGMA busy_timeout = 10000`)
	var logFrames, copied int
	err = conn.QueryRowContext(ctx, `PRAGMA wal_checkpoint(`+mode+`)`).Scan(&busy, &logFrames, &copied)
	return busy, dbError(err)
}

// report logs a failed checkpoint at once, then once a minute while they
// go on, and the first one that succeeds after them.
func (c *checkpointer) report(err error) {
	now := time.Now()
	switch {
	case err != nil && c.failing == 0:
		c.failing, c.told = 1, now
		c.log.Error("SQLite checkpoint failed: the log cannot be copied into the database and grows until it can", "err", err)
	case err != nil:
		c.failing++
		if now.Sub(c.told) >= checkpointReminder {
			c.told = now
			c.log.Error("SQLite checkpoints still fail", "failed", c.failing, "err", err)
		}
	case c.failing > 0:
		c.log.Warn("SQLite checkpoints succeed again", "failed", c.failing)
		c.failing = 0
	}
}

// close stops the checkpoints, after a last one.
func (c *checkpointer) close() {
	c.once.Do(func() {
		close(c.stop)
		c.wg.Wait()
		if _, _, _, err := c.checkpoint(context.Background(), "PASSIVE"); err != nil {
			c.log.Warn("the last SQLite checkpoint failed: the log is copied at the next start", "err", err)
		}
		c.db.Close()
	})
}
