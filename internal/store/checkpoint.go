package store

import (
	"context"
	"database/sql"
	"log/slog"
	"strconv"
	"sync"
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
//     at once and once a minute while it lasts, and its end is logged too;
//     the next tick tries again, which is all that can be done about it
//     from here.
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
	stop chan struct{}
	wg   sync.WaitGroup
	once sync.Once

	// Owned by the goroutine of run (and by tests that call tick).
	failing  int       // checkpoints failed in a row
	told     time.Time // when the log last heard of the failures
	starved  int       // checkpoints in a row that left part of a long log uncopied
	pageSize int
}

const (
	checkpointEvery = time.Second
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
	c := &checkpointer{db: db, log: log, stop: make(chan struct{})}
	c.wg.Add(1)
	go c.run()
	return c, nil
}

func (c *checkpointer) run() {
	defer c.wg.Done()
	t := time.NewTicker(checkpointEvery)
	defer t.Stop()
	for {
		select {
		case <-c.stop:
			return
		case <-t.C:
			c.tick(context.Background())
		}
	}
}

// tick runs one PASSIVE checkpoint, and a TRUNCATE one when the passive
// ones have been starved for long; it reports failures and their end.
func (c *checkpointer) tick(ctx context.Context) {
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
		err = c.truncate(ctx)
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

// truncate runs a TRUNCATE checkpoint that waits at most truncateWait for
// the readers.
func (c *checkpointer) truncate(ctx context.Context) error {
	conn, err := c.db.Conn(ctx)
	if err != nil {
		return dbError(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `PRAGMA busy_timeout = `+strconv.Itoa(int(truncateWait/time.Millisecond))); err != nil {
		return dbError(err)
	}
	defer conn.ExecContext(ctx, `PRAGMA busy_timeout = 10000`)
	var busy, logFrames, copied int
	err = conn.QueryRowContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`).Scan(&busy, &logFrames, &copied)
	if err != nil {
		return dbError(err)
	}
	if busy != 0 {
		c.log.Warn("the SQLite log could not be copied to its end: readers held it longer than the wait", "wait", truncateWait.String())
	}
	return nil
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
