package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"
)

// The suite runs every test against each backend: SQLite always, in a
// temporary folder; PostgreSQL when MORRIS_TEST_POSTGRES holds a DSN
// (`export MORRIS_TEST_POSTGRES=$(bash .ci/postgres.sh)`), each test in a
// schema of its own that is dropped afterwards.

const postgresEnv = "MORRIS_TEST_POSTGRES"

var backendNames = []string{"sqlite", "postgres"}

// eachBackend runs fn once per backend, as subtests named after them.
func eachBackend(t *testing.T, fn func(t *testing.T, dsn string)) {
	t.Helper()
	for _, b := range backendNames {
		t.Run(b, func(t *testing.T) { fn(t, testDSN(t, b)) })
	}
}

var schemaSeq atomic.Int64

// testDSN returns the DSN of a new, empty database of the backend: a file
// in a temporary folder, or a fresh PostgreSQL schema. It skips the test
// when PostgreSQL is asked for and not configured.
func testDSN(tb testing.TB, backend string) string {
	tb.Helper()
	if backend == "sqlite" {
		return filepath.Join(tb.TempDir(), "morris.db")
	}
	base := os.Getenv(postgresEnv)
	if base == "" {
		tb.Skipf("%s is not set: skipping the PostgreSQL backend (export %s=$(bash .ci/postgres.sh) to run it)", postgresEnv, postgresEnv)
	}
	u, err := url.Parse(base)
	if err != nil {
		tb.Fatalf("%s: %v", postgresEnv, err)
	}
	schema := fmt.Sprintf("morris_test_%d_%d_%d", os.Getpid(), time.Now().UnixNano()%1e6, schemaSeq.Add(1))
	admin, err := sql.Open("pgx", base)
	if err != nil {
		tb.Fatal(err)
	}
	defer admin.Close()
	if _, err := admin.Exec(`CREATE SCHEMA ` + schema); err != nil {
		tb.Fatalf("creating schema %s: %v", schema, err)
	}
	tb.Cleanup(func() {
		admin, err := sql.Open("pgx", base)
		if err != nil {
			tb.Error(err)
			return
		}
		defer admin.Close()
		if _, err := admin.Exec(`DROP SCHEMA ` + schema + ` CASCADE`); err != nil {
			tb.Errorf("dropping schema %s: %v", schema, err)
		}
	})
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// openStore opens dsn and closes the store when the test ends.
func openStore(tb testing.TB, dsn string) *Store {
	tb.Helper()
	s, err := Open(context.Background(), dsn)
	if err != nil {
		tb.Fatalf("Open: %v", err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}

// t0 is the time of the tests' events: a whole number of milliseconds, as
// the store keeps them.
var t0 = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// fixture is a store with two players.
type fixture struct {
	s           *Store
	ann, bob    User
	ctx         context.Context
	t           testing.TB
	gameRules   string
	gameVariant string
}

func newFixture(tb testing.TB, dsn string) *fixture {
	tb.Helper()
	f := &fixture{s: openStore(tb, dsn), ctx: context.Background(), t: tb,
		gameVariant: "nine-mens-morris", gameRules: "nine-mens-morris"}
	f.ann = f.user("Ann")
	f.bob = f.user("Bob")
	return f
}

func (f *fixture) user(name string) User {
	f.t.Helper()
	u, err := f.s.CreateUser(f.ctx, User{Name: name, PasswordHash: "$argon2id$v=19$m=65536,t=3,p=2$c2FsdA$aGFzaA"})
	if err != nil {
		f.t.Fatalf("CreateUser(%q): %v", name, err)
	}
	return u
}

// game creates an active game between Ann (white) and Bob with a 5+3 clock.
func (f *fixture) game() Game {
	f.t.Helper()
	g, err := f.s.CreateGame(f.ctx, Game{Variant: f.gameVariant, Rules: f.gameRules, White: f.ann.ID, Black: f.bob.ID,
		Rated: true, Control: TimeControl{Initial: 5 * time.Minute, Increment: 3 * time.Second},
		Clocks: Clocks{Left: [2]time.Duration{5 * time.Minute, 5 * time.Minute}, Since: t0}, LastMoveAt: t0})
	if err != nil {
		f.t.Fatalf("CreateGame: %v", err)
	}
	return g
}

// move appends the move of ply to a game and fails the test on error.
func (f *fixture) move(game int64, ply int, text string) int64 {
	f.t.Helper()
	v, err := f.s.AppendMove(f.ctx, game, Append{Ply: ply, Move: text, At: t0.Add(time.Duration(ply) * time.Second),
		Clocks: Clocks{Left: [2]time.Duration{time.Minute, time.Minute}, Running: (ply + 1) % 2, Since: t0.Add(time.Duration(ply) * time.Second)}})
	if err != nil {
		f.t.Fatalf("AppendMove(game %d, ply %d, %s): %v", game, ply, text, err)
	}
	return v
}

// wantErr fails the test unless err wraps want.
func wantErr(tb testing.TB, what string, err, want error) {
	tb.Helper()
	if !errors.Is(err, want) {
		tb.Errorf("%s: got error %v, want %v", what, err, want)
	}
}

func must(tb testing.TB, what string, err error) {
	tb.Helper()
	if err != nil {
		tb.Fatalf("%s: %v", what, err)
	}
}
