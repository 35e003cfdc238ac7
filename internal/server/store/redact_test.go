package store

import (
	"context"
	"strings"
	"testing"
)

func TestRedactDSN(t *testing.T) {
	for _, c := range []struct{ dsn, want string }{
		{"postgres://morris:hunter2@db.example.org:5432/morris?sslmode=require", "postgres://morris:xxxxx@db.example.org:5432/morris?sslmode=require"},
		{"postgres://morris@db/morris?password=hunter2", "postgres://morris@db/morris?password=xxxxx"},
		{"postgresql://db/morris?sslmode=disable&password=hunter2&search_path=s", "postgresql://db/morris?sslmode=disable&password=xxxxx&search_path=s"},
		{"postgres://db/morris?PASSWORD=hunter2&sslpassword=hunter2", "postgres://db/morris?PASSWORD=xxxxx&sslpassword=xxxxx"},
		{"postgres://db/morris?pass%77ord=hunter2", "postgres://db/morris?pass%77ord=xxxxx"},
		{"postgres://m:hunter2@db/morris?password=hunter2&password=hunter2", "postgres://m:xxxxx@db/morris?password=xxxxx&password=xxxxx"},
		{"postgres://db/morris?sslkey=/etc/key.pem", "postgres://db/morris?sslkey=/etc/key.pem"},
		{"postgres://db/morris", "postgres://db/morris"},
		// url.Parse refuses these: redacted by pattern.
		{"postgres://m:hun ter2@db:99x/morris?password=hunter2", "postgres://m:xxxxx@db:99x/morris?password=xxxxx"},
		{"postgres://db:99x/morris?a=1&password=hunter2#x", "postgres://db:99x/morris?a=1&password=xxxxx#x"},
		// SQLite paths hold no secret.
		{"/var/lib/morris/morris.db", "/var/lib/morris/morris.db"},
		{"sqlite:data/morris.db", "sqlite:data/morris.db"},
	} {
		got := RedactDSN(c.dsn)
		if got != c.want {
			t.Errorf("RedactDSN(%q): got %q, want %q", c.dsn, got, c.want)
		}
		if strings.Contains(got, "hunter2") || strings.Contains(got, "hun ter2") {
			t.Errorf("RedactDSN(%q) = %q: the password is still there", c.dsn, got)
		}
	}
}

// TestOpenErrorHidesPassword: a DSN that cannot be parsed or reached is
// reported without its password (the error reaches the log and the
// terminal).
func TestOpenErrorHidesPassword(t *testing.T) {
	for _, dsn := range []string{
		"postgres://morris:hunter2@127.0.0.1:99999x/morris",
		"postgres://morris:hun ter2@127.0.0.1:1/morris",
		"postgres://morris@127.0.0.1:1/morris?password=hunter2&connect_timeout=1",
		"postgres://morris:hunter2@127.0.0.1:1/morris?connect_timeout=1",
		"postgres://morris:hunter2@127.0.0.1:1/morris?sslmode=bogus",               // pgx refuses the settings
		"postgres://morris@127.0.0.1:1/morris?sslmode=bogus&password=hunter2",      // the same, password in the query
		"postgres://morris:hunter2@127.0.0.1:1/morris?pool_max_conns=0&password=x", // the store refuses the pool
	} {
		_, err := Open(context.Background(), dsn)
		if err == nil {
			t.Fatalf("Open(%q): no error", dsn)
		}
		if strings.Contains(err.Error(), "hunter2") || strings.Contains(err.Error(), "hun ter2") {
			t.Errorf("Open(%q): the error shows the password: %v", dsn, err)
		}
	}
}
