package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
)

// Group commit on SQLite.
//
// SQLite has one writer at a time, and with synchronous=FULL each commit
// waits for an fsync of the log (about a quarter of a millisecond on this
// machine, more on many disks), which alone would cap the store at a few
// thousand commits a second however many games are played. So the write
// transactions of concurrent callers are committed together: one goroutine
// owns the writer connection; it takes every request waiting, runs each in
// a savepoint of one transaction (a request that fails is rolled back to
// its savepoint and does not disturb the others), commits once, and only
// then answers them all. Every caller still returns after its writes are
// on the disk; under load a commit carries many of them. Nothing waits to
// fill a batch: a request alone is committed at once, and the requests that
// arrive during a commit make up the next one.
//
// PostgreSQL does the same thing itself (concurrent commits share WAL
// flushes), so there each call is its own transaction on the pool.

// maxBatch bounds a batch, so one commit does not hold many callers back.
const maxBatch = 256

type writeReq struct {
	ctx  context.Context
	fn   func(ctx context.Context, tx *sql.Tx) error
	done chan error // buffered: the writer never blocks on a caller
}

// batcher is the goroutine that owns the SQLite writer connection.
type batcher struct {
	db    *sql.DB
	stmts *statements
	reqs  chan *writeReq
	mu    sync.RWMutex // held to send on reqs; Lock to close it
	shut  bool
	gone  chan struct{} // closed when the goroutine has returned
}

func newBatcher(db *sql.DB, stmts *statements) *batcher {
	b := &batcher{db: db, stmts: stmts, reqs: make(chan *writeReq), gone: make(chan struct{})}
	go b.run()
	return b
}

var errClosed = errors.New("store: closed")

// do runs fn in a write transaction, with others, and returns fn's error
// once the transaction has committed, or the error that kept it from
// committing.
func (b *batcher) do(ctx context.Context, fn func(ctx context.Context, tx *sql.Tx) error) error {
	req := &writeReq{ctx: ctx, fn: fn, done: make(chan error, 1)}
	b.mu.RLock()
	if b.shut {
		b.mu.RUnlock()
		return errClosed
	}
	select {
	case b.reqs <- req:
	case <-ctx.Done():
		b.mu.RUnlock()
		return ctx.Err()
	}
	b.mu.RUnlock()
	// Once handed over, the request is waited for even if ctx ends: it
	// may be committing, and the caller must know whether it did.
	return <-req.done
}

// close lets the requests handed over finish, refuses new ones, and waits
// for the goroutine to end.
func (b *batcher) close() {
	b.mu.Lock()
	if !b.shut {
		b.shut = true
		close(b.reqs)
	}
	b.mu.Unlock()
	<-b.gone
}

func (b *batcher) run() {
	defer close(b.gone)
	batch := make([]*writeReq, 0, maxBatch)
	for req := range b.reqs {
		batch = append(batch[:0], req)
	more:
		for len(batch) < maxBatch {
			select {
			case r, ok := <-b.reqs:
				if !ok {
					break more
				}
				batch = append(batch, r)
			default:
				break more
			}
		}
		b.commit(batch)
	}
}

// commit runs a batch in one transaction and answers each request.
func (b *batcher) commit(batch []*writeReq) {
	errs := make([]error, len(batch))
	fail := func(err error) {
		for _, r := range batch {
			r.done <- err
		}
	}
	// The transaction does not end with one caller's context; each
	// request's statements run under its own.
	tx, err := b.db.BeginTx(context.Background(), nil)
	if err != nil {
		fail(dbError(err))
		return
	}
	if len(batch) == 1 {
		if err := batch[0].run(tx); err != nil {
			_ = tx.Rollback()
			fail(err)
			return
		}
	} else {
		for i, r := range batch {
			if _, err := tx.Stmt(b.stmts.savepoint).Exec(); err != nil {
				_ = tx.Rollback()
				fail(dbError(err))
				return
			}
			if errs[i] = r.run(tx); errs[i] != nil {
				if _, err := tx.Stmt(b.stmts.rollbackTo).Exec(); err != nil {
					// The transaction is gone (SQLite rolls back the
					// whole of it after some errors): nothing commits.
					_ = tx.Rollback()
					fail(dbError(errors.Join(errs[i], err)))
					return
				}
			}
			if _, err := tx.Stmt(b.stmts.release).Exec(); err != nil {
				_ = tx.Rollback()
				fail(dbError(err))
				return
			}
		}
	}
	if err := tx.Commit(); err != nil {
		fail(dbError(err))
		return
	}
	for i, r := range batch {
		r.done <- errs[i]
	}
}

// run runs a request that its caller has not given up on yet. Once it
// runs, its statements are not interrupted when the caller's context ends:
// SQLite answers an interrupted write inside a transaction by rolling back
// the whole transaction, the other callers' writes with it. The caller
// waits for the answer all the same (batcher.do), and the statements are
// short.
//
// A request that panics (its fn is the caller's code, run on the writer's
// goroutine) fails alone, with the panic and its stack as its error: the
// others of the batch commit, and the process, which net/http's recovery
// does not cover here, goes on.
func (r *writeReq) run(tx *sql.Tx) (err error) {
	if err := r.ctx.Err(); err != nil {
		return err
	}
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("store: a write panicked: %v\n%s", v, debug.Stack())
		}
	}()
	return dbError(r.fn(context.WithoutCancel(r.ctx), tx))
}
