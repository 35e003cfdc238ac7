package pbmserv

import (
	"context"
	"testing"

	"github.com/morrisgame/morris/internal/server/servertest"
)

// TestChangePassword: pbmserv's "change password USERID PASSWORD
// NEWPASSWORD" takes the new password for every later command, refuses
// the old one, and signs out the account's API tokens; a wrong password or
// a short new one changes nothing.
func TestChangePassword(t *testing.T) {
	svc := newService(t, servertest.Rates)
	g := New(svc, nil)
	sess := NewSession("192.0.2.1:1", nil)
	defer sess.Close()
	runScript(t, g, sess, []step{
		{"signup ann secret-ann", []string{"ok: "}, nil},
		{"signup bob secret-bob", []string{"ok: "}, nil},
		{"nmm accept bob secret-bob", []string{"ok: "}, nil},
		{"nmm challenge ann secret-ann bob", []string{"ok: board 101"}, nil},
	})
	tok, _, _, err := svc.NewToken(context.Background(), "test", "ann", "secret-ann")
	if err != nil {
		t.Fatal(err)
	}
	runScript(t, g, sess, []step{
		{"change password ann wrong-one new-secret", []string{"error: ", "wrong user id or password"}, nil},
		{"change password ann secret-ann short", []string{"error: ", "8 to 128 bytes"}, nil},
		{"change address ann secret-ann ann@example.com", []string{"error: ", "only passwords"}, nil},
		{"nmm move 101 ann secret-ann D2", []string{"ok: "}, nil}, // nothing changed
		{"change password ANN secret-ann new-secret", []string{"ok: the password of ann is changed"}, nil},
		{"nmm move 101 ann secret-ann D2", []string{"error: ", "wrong user id or password"}, nil},
		{"nmm move 101 bob secret-bob F4", []string{"ok: "}, nil},
		{"nmm move 101 ann new-secret D6", []string{"ok: "}, nil},
		{"help change", []string{"change password USERID PASSWORD NEWPASSWORD", "signed out"}, nil},
	})
	if _, err := svc.Authenticate(context.Background(), "test", tok); err == nil {
		t.Error("an API token of ann's is taken after a change of password over pbmserv")
	}
}
