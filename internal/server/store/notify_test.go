package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestNotify: on PostgreSQL, what one store notifies, every store of the
// same database and schema hears, in order (the one that sent it too);
// a store of another schema hears nothing; a payload over the limit is
// refused and sends nothing. A listener whose connection is killed
// (pg_terminate_backend) connects again by itself, says it is listening
// again, and hears what comes after. SQLite cannot notify.
func TestNotify(t *testing.T) {
	sq := openStore(t, testDSN(t, "sqlite"))
	if sq.CanNotify() || !errors.Is(sq.Notify(context.Background(), []string{"x"}), ErrNoNotify) ||
		!errors.Is(sq.Listen(context.Background(), nil, nil, nil), ErrNoNotify) {
		t.Fatal("SQLite: want CanNotify false and ErrNoNotify")
	}
	dsn := testDSN(t, "postgres")
	a, b, other := openStore(t, dsn), openStore(t, dsn), openStore(t, testDSN(t, "postgres"))
	if !a.CanNotify() || a.channel != b.channel || a.channel == other.channel {
		t.Fatalf("channels: %q %q %q", a.channel, b.channel, other.channel)
	}

	type listener struct {
		mu        sync.Mutex
		heard     []string
		listening int
		lost      []error
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	listen := func(s *Store) *listener {
		l := &listener{}
		done := make(chan error, 1)
		go func() {
			done <- s.Listen(ctx,
				func(p string) { l.mu.Lock(); l.heard = append(l.heard, p); l.mu.Unlock() },
				func() { l.mu.Lock(); l.listening++; l.mu.Unlock() },
				func(err error) { l.mu.Lock(); l.lost = append(l.lost, err); l.mu.Unlock() })
		}()
		t.Cleanup(func() {
			cancel()
			if err := <-done; !errors.Is(err, context.Canceled) {
				t.Errorf("Listen ended with %v, want context.Canceled", err)
			}
		})
		return l
	}
	// wait waits until l has been listening n times and has heard want.
	wait := func(name string, l *listener, n int, want []string) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			l.mu.Lock()
			ok := l.listening >= n && slices.Equal(l.heard, want)
			heard, listening := slices.Clone(l.heard), l.listening
			l.mu.Unlock()
			if ok {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: listening %d times, heard %q; want %d times and %q", name, listening, heard, n, want)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	la, lb, lo := listen(a), listen(b), listen(other)
	wait("a", la, 1, nil)
	wait("b", lb, 1, nil)
	wait("other", lo, 1, nil)

	first := []string{"g:101:1", `{"json":"with 'quotes' and \"more\""}`, strings.Repeat("é", 100), "g:101:2"}
	if err := b.Notify(ctx, first); err != nil {
		t.Fatal(err)
	}
	wait("a", la, 1, first)
	wait("b (the sender)", lb, 1, first)
	if err := a.Notify(ctx, []string{"ok", strings.Repeat("x", MaxNotifyPayload+1)}); err == nil {
		t.Fatal("a payload over the limit: no error")
	}
	if err := a.Notify(ctx, nil); err != nil {
		t.Fatalf("no payloads: %v", err)
	}

	// Kill a's listening connection: it comes back and hears what follows.
	admin, err := sql.Open("pgx", os.Getenv(postgresEnv))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	var killed int
	if err := admin.QueryRow(`SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE query = $1`,
		fmt.Sprintf("LISTEN %q", a.channel)).Scan(&killed); err != nil {
		t.Fatal(err)
	}
	if killed != 2 { // a's and b's listeners: the same channel
		t.Fatalf("killed %d listening connections, want 2", killed)
	}
	wait("a, after its connection was killed", la, 2, first)
	wait("b, after its connection was killed", lb, 2, first)
	second := append(slices.Clone(first), "after")
	if err := a.Notify(ctx, []string{"after"}); err != nil {
		t.Fatal(err)
	}
	wait("a", la, 2, second)
	wait("b", lb, 2, second)
	la.mu.Lock()
	if len(la.lost) != 1 {
		t.Errorf("a: lost %v, want one failure told", la.lost)
	}
	la.mu.Unlock()
	time.Sleep(50 * time.Millisecond)
	lo.mu.Lock()
	defer lo.mu.Unlock()
	if len(lo.heard) != 0 {
		t.Errorf("another schema's store heard %q", lo.heard)
	}
}
