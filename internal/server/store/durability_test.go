package store

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestSQLiteSettings: every connection, writer and readers, has the
// settings durability rests on.
func TestSQLiteSettings(t *testing.T) {
	s := openStore(t, testDSN(t, "sqlite"))
	ctx := context.Background()
	for name, want := range map[string]string{
		"journal_mode": "wal",
		"synchronous":  "2", // FULL
		"foreign_keys": "1",
		"busy_timeout": "10000",
	} {
		for _, db := range []struct {
			name string
			q    func() (string, error)
		}{
			{"writer", func() (v string, err error) {
				err = s.w.QueryRowContext(ctx, "PRAGMA "+name).Scan(&v)
				return v, err
			}},
			{"reader", func() (v string, err error) {
				err = s.r.QueryRowContext(ctx, "PRAGMA "+name).Scan(&v)
				return v, err
			}},
		} {
			got, err := db.q()
			if err != nil || got != want {
				t.Errorf("%s: PRAGMA %s = %q, %v, want %q", db.name, name, got, err, want)
			}
		}
	}
	if _, err := s.r.ExecContext(ctx, `DELETE FROM users`); err == nil {
		t.Error("a reader connection could write")
	}
}

// The crash test: a child process (this test binary again, running
// TestCrashChild) appends moves to several games as fast as it can and
// prints "ack GAME PLY" after each AppendMove has returned, which is when
// the server would acknowledge the move. The parent kills it with SIGKILL
// in the middle, reopens the database, and checks that every acknowledged
// move is stored, once, in order, with nothing after a gap. Three rounds,
// each child going on from where the last one was killed.
//
// A killed process is not a power cut: this proves the transactions, WAL
// recovery and the order of commit and acknowledgement; synchronous=FULL
// (TestSQLiteSettings) is what carries the same promise through a power cut.

const (
	crashDSNEnv   = "MORRIS_STORE_CRASH_DSN"
	crashGamesEnv = "MORRIS_STORE_CRASH_GAMES"
)

func TestCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("the crash test runs child processes: not under -short")
	}
	eachBackend(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		f := newFixture(t, dsn)
		var ids []string
		for range 4 {
			ids = append(ids, strconv.FormatInt(f.game().ID, 10))
		}
		must(t, "Close", f.s.Close())

		acked := map[int64]int{} // game -> the highest ply acknowledged, +1
		for round := range 3 {
			// On PostgreSQL the killed child's server process may still
			// be committing the move in flight: the child names its
			// connections, and the parent counts only once they are gone.
			childDSN, name := dsn, fmt.Sprintf("morris-crash-%d-%d", os.Getpid(), round)
			if u, err := url.Parse(dsn); err == nil && strings.HasPrefix(u.Scheme, "postgres") {
				q := u.Query()
				q.Set("application_name", name)
				u.RawQuery = q.Encode()
				childDSN = u.String()
			}
			n := crashRound(t, childDSN, strings.Join(ids, ","), acked, 150+100*round)
			s := openStore(t, dsn)
			if childDSN != dsn {
				waitGone(t, s, name)
			}
			stored := 0
			for _, id := range ids {
				game, _ := strconv.ParseInt(id, 10, 64)
				g, err := s.Game(ctx, game)
				must(t, "Game", err)
				moves, err := s.Moves(ctx, game)
				must(t, "Moves", err)
				if g.Ply != len(moves) {
					t.Errorf("round %d, game %d: ply %d but %d moves", round, game, g.Ply, len(moves))
				}
				for i, m := range moves {
					if m.Ply != i || m.Text != crashMove(i) {
						t.Fatalf("round %d, game %d: move %d is %+v, want ply %d %s", round, game, i, m, i, crashMove(i))
					}
				}
				if len(moves) < acked[game] {
					t.Errorf("round %d, game %d: %d moves stored, but ply %d was acknowledged", round, game, len(moves), acked[game]-1)
				}
				// A move can be committed and the process killed before it
				// said so: at most one per game, the one in flight.
				if len(moves) > acked[game]+1 {
					t.Errorf("round %d, game %d: %d moves stored, %d acknowledged: more than one in flight", round, game, len(moves), acked[game])
				}
				stored += len(moves)
				acked[game] = len(moves) // the next child goes on from there
			}
			t.Logf("round %d: killed after %d acknowledgements; %d moves stored in all", round, n, stored)
			must(t, "Close", s.Close())
		}
	})
}

// waitGone waits until no PostgreSQL server process serves a connection
// named name (a killed client's transaction is then committed or undone
// for good).
func waitGone(t *testing.T, s *Store, name string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		var n int
		err := s.r.QueryRowContext(context.Background(), `SELECT count(*) FROM pg_stat_activity WHERE application_name = $1`, name).Scan(&n)
		must(t, "pg_stat_activity", err)
		if n == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d connections named %s still open 30 s after their process was killed", n, name)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// crashRound runs a child until it has acknowledged at least killAfter
// moves, kills it, and records what it acknowledged in acked.
func crashRound(t *testing.T, dsn, games string, acked map[int64]int, killAfter int) int {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1", "-test.timeout=2m")
	cmd.Env = append(os.Environ(), crashDSNEnv+"="+dsn, crashGamesEnv+"="+games)
	out, err := cmd.StdoutPipe()
	must(t, "StdoutPipe", err)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	must(t, "starting the child", cmd.Start())
	defer func() {
		if cmd.ProcessState == nil { // the test failed before it could wait
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	}()
	killed := false
	kill := make(chan error, 1)
	n := 0
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		var game int64
		var ply int
		if _, err := fmt.Sscanf(sc.Text(), "ack %d %d", &game, &ply); err != nil {
			continue // the test framework's own lines
		}
		if ply != acked[game] {
			t.Errorf("the child acknowledged ply %d of game %d, want %d", ply, game, acked[game])
		}
		acked[game] = ply + 1
		n++
		if n == killAfter && !killed {
			// A little later, so that the kill lands anywhere: in a
			// commit, between a commit and its acknowledgement, ...
			killed = true
			time.AfterFunc(time.Duration(rand.N(3000))*time.Microsecond, func() {
				kill <- cmd.Process.Kill() // SIGKILL
			})
		}
	}
	if killed {
		must(t, "kill", <-kill)
	}
	err = cmd.Wait()
	if !killed {
		t.Fatalf("the child ended before it was killed (%v): %s", err, stderr.String())
	}
	if ws, ok := cmd.ProcessState.Sys().(interface{ Signaled() bool }); !ok || !ws.Signaled() {
		t.Errorf("the child was not killed by a signal: %v", cmd.ProcessState)
	}
	return n
}

func crashMove(ply int) string { return fmt.Sprintf("m%d", ply) }

// TestCrashChild is the child of TestCrash; it does nothing on its own.
func TestCrashChild(t *testing.T) {
	dsn := os.Getenv(crashDSNEnv)
	if dsn == "" {
		t.Skip("the child process of TestCrash")
	}
	ctx := context.Background()
	s, err := Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	deadline := time.Now().Add(time.Minute) // killed long before; bounded all the same
	for _, id := range strings.Split(os.Getenv(crashGamesEnv), ",") {
		game, err := strconv.ParseInt(id, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		wg.Go(func() {
			g, err := s.Game(ctx, game)
			if err != nil {
				t.Error(err)
				return
			}
			for ply := g.Ply; time.Now().Before(deadline); ply++ {
				if _, err := s.AppendMove(ctx, game, Append{Ply: ply, Move: crashMove(ply), At: time.Now()}); err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				fmt.Fprintf(os.Stdout, "ack %d %d\n", game, ply) // os.Stdout is unbuffered: one write(2) a line
				mu.Unlock()
			}
		})
	}
	wg.Wait()
}

// TestBatch: in one SQLite group commit, a request that fails is undone
// alone, a request whose context has ended does not run, and the others
// commit.
func TestBatch(t *testing.T) {
	s := openStore(t, testDSN(t, "sqlite"))
	ctx := context.Background()
	insert := func(name string, then error) func(context.Context, *sql.Tx) error {
		return func(ctx context.Context, tx *sql.Tx) error {
			_, err := tx.ExecContext(ctx, `INSERT INTO users (id, name, name_key, password_hash, created_at) VALUES
				((SELECT COALESCE(MAX(id), 0) + 1 FROM users), $1, $1, 'h', 0)`, name)
			if err != nil {
				return err
			}
			return then
		}
	}
	boom := errors.New("boom")
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	// A caller that gives up while its request runs: the request goes on
	// (an interrupted write would roll back the whole batch).
	late, cancelLate := context.WithCancel(ctx)
	insertV := insert("v", nil)
	batch := []*writeReq{
		{ctx: ctx, fn: insert("x", nil)},
		{ctx: ctx, fn: insert("x", nil)},  // a duplicate: the statement fails
		{ctx: ctx, fn: insert("y", boom)}, // written, then an error: undone
		{ctx: cancelled, fn: insert("w", nil)},
		{ctx: late, fn: func(ctx context.Context, tx *sql.Tx) error { cancelLate(); return insertV(ctx, tx) }},
		{ctx: ctx, fn: insert("z", nil)},
	}
	for _, r := range batch {
		r.done = make(chan error, 1)
	}
	s.batch.commit(batch)
	for i, want := range []error{nil, ErrDuplicate, boom, context.Canceled, nil, nil} {
		if err := <-batch[i].done; !errors.Is(err, want) || (want == nil && err != nil) {
			t.Errorf("request %d: got %v, want %v", i, err, want)
		}
	}
	for name, want := range map[string]bool{"x": true, "y": false, "w": false, "v": true, "z": true} {
		_, err := s.UserByName(ctx, name)
		if got := err == nil; got != want {
			t.Errorf("user %s stored: %v, want %v (%v)", name, got, want, err)
		}
	}
}

// TestCloseWhileWriting: writes that race with Close either commit (and
// are there after reopening) or fail; none is lost after it returned nil.
func TestCloseWhileWriting(t *testing.T) {
	eachBackend(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		f := newFixture(t, dsn)
		var games []int64
		for range 8 {
			games = append(games, f.game().ID)
		}
		var wg sync.WaitGroup
		var mu sync.Mutex
		acked := map[int64]int{}
		for _, g := range games {
			wg.Go(func() {
				for ply := 0; ply < 1000; ply++ {
					if _, err := f.s.AppendMove(ctx, g, Append{Ply: ply, Move: crashMove(ply), At: t0}); err != nil {
						return // closed
					}
					mu.Lock()
					acked[g] = ply + 1
					mu.Unlock()
				}
			})
		}
		time.Sleep(50 * time.Millisecond)
		must(t, "Close", f.s.Close())
		wg.Wait()
		s := openStore(t, dsn)
		for _, g := range games {
			moves, err := s.Moves(ctx, g)
			must(t, "Moves", err)
			// One more than acknowledged is allowed (committed, then the
			// answer lost to the closing pool); one fewer is a lost move.
			if len(moves) < acked[g] || len(moves) > acked[g]+1 {
				t.Errorf("game %d: %d moves stored, %d acknowledged", g, len(moves), acked[g])
			}
		}
	})
}
