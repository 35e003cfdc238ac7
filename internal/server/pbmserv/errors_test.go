package pbmserv

import (
	"context"
	"database/sql"
	"log/slog"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/morrisgame/morris/internal/server"
	"github.com/morrisgame/morris/internal/server/servertest"
)

// TestStoreErrorsDoNotReachClients: a constraint violation (a unique
// index the schema does not have, on the chat) and a closed database are
// answered without the names of tables, constraints or drivers; the
// server's own failure carries a request id that the log has beside the
// detail.
func TestStoreErrorsDoNotReachClients(t *testing.T) {
	ctx := context.Background()
	s := servertest.Start(t, server.Config{PollEvery: 50 * time.Millisecond}, servertest.LogLevel(slog.LevelInfo))
	path, st, logs := s.DSN, s.Store, s.Log
	g := New(s.Service, s.Logger)
	sess := NewSession("192.0.2.1:4321", nil)
	defer sess.Close()
	runScript(t, g, sess, []step{
		{"signup ann secret-ann", []string{"ok: "}, nil},
		{"signup bob secret-bob", []string{"ok: "}, nil},
		{"nmm accept bob secret-bob", []string{"ok: "}, nil},
		{"nmm challenge ann secret-ann bob", []string{"ok: board 101 started"}, nil},
	})
	raw, err := sql.Open("sqlite", path+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.Exec(`CREATE UNIQUE INDEX leak_chat_game ON chat(game_id)`); err != nil {
		t.Fatal(err)
	}
	leaks := []string{"sqlite", "SQLite", "SQL", "UNIQUE", "constraint", "store:", "chat.", "leak_", "database is closed"}
	runScript(t, g, sess, []step{
		{"nmm chat 101 ann secret-ann hello", []string{"ok"}, []string{"error: "}},
		{"nmm chat 101 ann secret-ann again", []string{"error: "}, leaks},
	})
	// A seek of three games that fails after two have started: the two
	// are named, the failure is the server's, without its text.
	if _, err := raw.Exec(`DROP INDEX leak_chat_game`); err != nil {
		t.Fatal(err)
	}
	runScript(t, g, sess, []step{
		{"nmm seek bob secret-bob 2", []string{"ok: "}, nil},
	})
	if _, err := raw.Exec(`CREATE TRIGGER leak_seek BEFORE INSERT ON challenges BEGIN SELECT RAISE(ABORT, 'leak_trigger on challenges'); END`); err != nil {
		t.Fatal(err)
	}
	runScript(t, g, sess, []step{
		{"nmm seek ann secret-ann 3", []string{"ok: board(s) 102, 103 started; then: the server failed to do that: try again later (request "}, append(leaks, "trigger")},
	})

	st.Close()
	got := g.Exec(ctx, sess, "signup cy secret-cy")
	m := regexp.MustCompile(`^error: the server failed to do that: try again later \(request ([0-9a-f]+)\)\n$`).FindStringSubmatch(got)
	if m == nil {
		t.Fatalf("signup on a closed store: got %q, want the server's failure and a request id", got)
	}
	for _, l := range leaks {
		if strings.Contains(got, l) {
			t.Errorf("signup on a closed store: the answer %q holds %q", got, l)
		}
	}
	if log := logs.String(); !strings.Contains(log, "request="+m[1]) || !strings.Contains(log, "closed") {
		t.Errorf("the log lacks the request id %s or the detail:\n%s", m[1], log)
	}
}
