package store

import (
	"context"
	"database/sql"
	"sync"
	"time"
)

// checkpointer copies the SQLite log into the database once a second, on a
// connection of its own, so that no commit waits for it (the writer does
// not checkpoint: wal_autocheckpoint=0). A PASSIVE checkpoint neither waits
// for readers nor blocks the writer; what it cannot copy now it copies
// next time.
type checkpointer struct {
	db   *sql.DB
	stop chan struct{}
	wg   sync.WaitGroup
	once sync.Once
}

const checkpointEvery = time.Second

func newCheckpointer(path, sync string) (*checkpointer, error) {
	db, err := sql.Open("sqlite", path+"?_pragma=busy_timeout(10000)&_pragma=synchronous("+sync+")")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	c := &checkpointer{db: db, stop: make(chan struct{})}
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
			_, _ = c.db.ExecContext(context.Background(), `PRAGMA wal_checkpoint(PASSIVE)`)
		}
	}
}

// close stops the checkpoints, after a last one.
func (c *checkpointer) close() {
	c.once.Do(func() {
		close(c.stop)
		c.wg.Wait()
		_, _ = c.db.Exec(`PRAGMA wal_checkpoint(PASSIVE)`)
		c.db.Close()
	})
}
