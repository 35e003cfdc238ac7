package store

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/morrisgame/morris/internal/server/store/storetest"
)

// The suite runs every test against each backend: SQLite always, in a
// temporary folder; PostgreSQL when MORRIS_TEST_POSTGRES holds a DSN
// (`export MORRIS_TEST_POSTGRES=$(bash .ci/postgres.sh)`), each test in a
// schema of its own that is dropped afterwards (storetest).

const postgresEnv = storetest.Env

var backendNames = storetest.Backends

// eachBackend runs fn once per backend, as subtests named after them.
func eachBackend(t *testing.T, fn func(t *testing.T, dsn string)) {
	t.Helper()
	storetest.Each(t, fn)
}

// testDSN returns the DSN of a new, empty database of the backend.
func testDSN(tb testing.TB, backend string) string {
	tb.Helper()
	return storetest.DSN(tb, backend)
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
