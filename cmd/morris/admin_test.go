package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/morrisgame/morris/internal/server/store"
)

// TestAdminCommand: morris admin makes a player a moderator in a server's
// store and no longer, lists them, logs each change under the operator,
// and refuses what it cannot do with a usage error that changes nothing.
func TestAdminCommand(t *testing.T) {
	ctx := context.Background()
	data := t.TempDir()
	st, err := store.Open(ctx, filepath.Join(data, "morris.db"))
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range []store.User{{Name: "Ann", PasswordHash: "x"}, {Name: "engine", PasswordHash: "x", Bot: true}, {Name: "guest-1a2b", PasswordHash: "x"}} {
		if _, err := st.CreateUser(ctx, u); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	admin := func(args ...string) (int, string) {
		var out, errb bytes.Buffer
		code := run(ctx, append([]string{"admin"}, args...), nil, &out, &errb)
		return code, out.String() + errb.String()
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-data", data, "mods"}, exitOK, "no moderators"},
		{[]string{"-data", data, "-note", "club secretary", "mod", "ann"}, exitOK, "Ann is a moderator now"},
		{[]string{"-data", data, "mod", "ann"}, exitUsage, "a moderator already"},
		{[]string{"-data", data, "mod", "nobody"}, exitUsage, `no user "nobody"`},
		{[]string{"-data", data, "mod", "engine"}, exitUsage, "the engine"},
		{[]string{"-data", data, "mod", "guest-1a2b"}, exitUsage, "a guest"},
		{[]string{"-data", data, "mod"}, exitUsage, "one user name"},
		{[]string{"-data", data, "promote", "ann"}, exitUsage, "unknown verb"},
		{[]string{"-data", data}, exitUsage, "a verb is needed"},
		{[]string{"-data", data, "mods"}, exitOK, "Ann\n"},
		{[]string{"-data", data, "unmod", "ann"}, exitOK, "Ann is no moderator now"},
		{[]string{"-data", data, "unmod", "ann"}, exitUsage, "is no moderator"},
	} {
		code, out := admin(c.args...)
		if code != c.code || !strings.Contains(out, c.want) {
			t.Errorf("morris admin %s: exit %d, %q; want %d and %q", strings.Join(c.args, " "), code, out, c.code, c.want)
		}
	}
	st, err = store.Open(ctx, filepath.Join(data, "morris.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	log, err := st.ModActions(ctx, store.ActionQuery{Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(log) != 2 || log[1].Action != "moderator" || log[1].Moderator != 0 || log[1].Note != "club secretary" || log[0].Action != "unmoderator" {
		t.Errorf("the moderators' log: %+v", log)
	}
}
