package pbmserv

import (
	"context"
	"strings"
	"testing"
)

// FuzzExec feeds arbitrary lines to Exec against a real service, with a
// game under way and a connection's session that may follow boards: it
// never panics, and always answers with whole lines.
func FuzzExec(f *testing.F) {
	g := newGateway(f)
	ctx := context.Background()
	setup := NewSession("192.0.2.9:1", nil)
	for _, line := range []string{"signup ann secret-ann", "signup bob secret-bob", "nmm accept bob secret-bob", "nmm challenge ann secret-ann bob", "nmm move 101 ann secret-ann D2#1"} {
		if got := g.Exec(ctx, setup, line); !strings.HasPrefix(got, "ok: ") {
			f.Fatalf("%q: %q", line, got)
		}
	}
	setup.Close()
	sess := NewSession("192.0.2.9:2", func(string) error { return nil })
	f.Cleanup(sess.Close)
	for _, seed := range []string{
		"", "help", "help nmm move", "nmm help", "signup cy secret-cy cy@example.com",
		"nmm challenge ann secret-ann bob --nagtime=3 -flying=never", "nmm challenge ann secret-ann bob --totaltime=3",
		"nmm challenge ann bob", "nmm challenge ann wrong bob", "nmm challenge bob secret-bob ann",
		"nmm move 101 bob secret-bob D6#2", "nmm move 101 bob secret-bob D6#2", "nmm move 101 ann wrong D6",
		"nmm move 101 ann secret-ann propose", "nmm move 101 bob secret-bob accept", "nmm move 101 bob secret-bob undo#3",
		"nmm move 101 ann secret-ann reject", "nmm move 101 ann secret-ann resign", "nmm queue 101 bob secret-bob F4#4",
		"nmm show 101", "nmm show 101#1", "nmm show 101#99", "nmm show ann active", "nmm preview 101 D6 F4 D3,F4",
		"nmm history", "nmm games ann", "nmm standings", "tmm ratings", "nmm subscribe 101", "nmm notify 101",
		"nmm unsubscribe 101", "nmm subscribe 101 ann secret-ann", "nmm limit ann secret-ann 3",
		"nmm accept ann secret-ann bob", "nmm reject ann secret-ann", "nmm seek ann secret-ann 1",
		"nmm chat 101 ann secret-ann hello there", "tmm move 101 ann secret-ann D2", "shah show 101",
		"mora preview 101 X,D2", "nmm show 0101#0", "nmm move 4294967397 ann secret-ann D2",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, line string) {
		got := g.Exec(ctx, sess, line)
		if got == "" || !strings.HasSuffix(got, "\n") {
			t.Fatalf("Exec(%q) = %q: want an answer ending with a line break", line, got)
		}
		for l := range strings.Lines(got) {
			if strings.HasPrefix(l, "* ") {
				t.Errorf("Exec(%q): the answer line %q looks like a push", line, l)
			}
		}
	})
}
