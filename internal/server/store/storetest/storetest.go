package storetest

import (
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver, for the schemas
)

// Env is the variable that holds the PostgreSQL DSN of the tests.
const Env = "MORRIS_TEST_POSTGRES"

// Backends are the backends' names, as subtests are named.
var Backends = []string{"sqlite", "postgres"}

// Each runs fn once per backend as subtests, with a new database's DSN;
// the PostgreSQL subtest is skipped when Env is not set.
func Each(t *testing.T, fn func(t *testing.T, dsn string)) {
	t.Helper()
	for _, b := range Backends {
		t.Run(b, func(t *testing.T) { fn(t, DSN(t, b)) })
	}
}

var seq atomic.Int64

// DSN returns the DSN of a new, empty database of the backend. It skips
// the test when PostgreSQL is asked for and not configured.
func DSN(tb testing.TB, backend string) string {
	tb.Helper()
	if backend == "sqlite" {
		return filepath.Join(tb.TempDir(), "morris.db")
	}
	base := os.Getenv(Env)
	if base == "" {
		tb.Skipf("%s is not set: skipping PostgreSQL (export %s=$(bash .ci/postgres.sh) to run it)", Env, Env)
	}
	u, err := url.Parse(base)
	if err != nil {
		tb.Fatalf("%s: %v", Env, err)
	}
	schema := fmt.Sprintf("morris_t_%d_%d_%d", os.Getpid(), time.Now().UnixNano()%1e6, seq.Add(1))
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
