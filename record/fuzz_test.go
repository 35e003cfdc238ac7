package record

import (
	"github.com/morrisgame/morris/mill"
	"os"
	"path/filepath"
	"testing"
)

// FuzzScanner reads anything: it must never panic, and a record it reads
// must write and read back to the same record (the same tags, but for the
// roster tags the Writer adds; the same moves, in the standard notation
// with their captures in the order the record gives them;
// the same comments and result), whose text is stable and which replays the
// same way.
func FuzzScanner(f *testing.F) {
	for _, pattern := range []string{"*.input", "*.golden"} {
		files, _ := filepath.Glob(filepath.Join("testdata", pattern))
		for _, name := range files {
			b, err := os.ReadFile(name)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(string(b))
		}
	}
	for _, s := range []string{
		"", "*", "1. d6 d5 *", "1.d6 1...d5 2.A4-A7,D2 0-1", "{c} ; d\n[A \"\\\"\"] 1/2-1/2",
		"[Variant \"shah\"]\n[Seed \"7\"]\n\n1. d6 {x} 1... d5 pass xd2 *\n",
		"[Position \"nine-mens-morris WWW1BWWW/1WB1B1WB/1W2B2B b 0,0 - 2 25\"]\n13... f2-f4 *",
		"[Event \"x\n", "{", "1. (", "[Result \"1-0\"] 0-1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data string) {
		recs, _ := readAll([]byte(data))
		for _, r1 := range recs {
			checkRoundTrip(t, r1)
		}
	})
}

func checkRoundTrip(t *testing.T, r1 *Record) {
	t.Helper()
	text1, err := writeAll([]*Record{r1})
	if err != nil {
		t.Fatalf("writing a record that was read: %v", err)
	}
	recs, err := readAll(text1)
	if err != nil || len(recs) != 1 {
		t.Fatalf("reading back gives %d records and error %v:\n%s", len(recs), err, text1)
	}
	r2 := recs[0]
	for _, tag := range r1.Tags {
		if v, ok := r2.lookup(tag.Name); !ok || v != tag.Value {
			t.Errorf("tag %s: got %q (%v), want %q:\n%s", tag.Name, v, ok, tag.Value, text1)
		}
	}
	for _, tag := range r2.Tags {
		if _, ok := r1.lookup(tag.Name); !ok && !isRoster(tag.Name) {
			t.Errorf("tag %s %q was added:\n%s", tag.Name, tag.Value, text1)
		}
	}
	if r2.Comment != r1.Comment || r2.Result != r1.Result || len(r2.Moves) != len(r1.Moves) {
		t.Fatalf("got comment %q, result %s, %d moves; want %q, %s, %d:\n%s",
			r2.Comment, r2.Result, len(r2.Moves), r1.Comment, r1.Result, len(r1.Moves), text1)
	}
	rules, _, rerr := r1.rules()
	for i := range r1.Moves {
		m1, m2 := r1.Moves[i], r2.Moves[i]
		if m1.Comment != m2.Comment {
			t.Errorf("move %d: comment %q, want %q", i, m2.Comment, m1.Comment)
		}
		want := m1.Text
		if rerr == nil {
			if std, err := rules.Board().Rewrite(m1.Text, mill.Standard); err == nil {
				want = std // the standard notation, the captures in the order given
			}
		}
		if m2.Text != want {
			t.Errorf("move %d: %q, want %q", i, m2.Text, want)
		}
	}
	text2, err := writeAll(recs)
	if err != nil || string(text2) != string(text1) {
		t.Errorf("writing again (error %v) gives\n%s\nnot\n%s", err, text2, text1)
	}
	g1, err1 := r1.Game()
	g2, err2 := r2.Game()
	if (err1 == nil) != (err2 == nil) {
		t.Fatalf("replaying: error %v, then %v", err1, err2)
	}
	if err1 == nil && (!equalMoves(g1.Moves(), g2.Moves()) || g1.Outcome() != g2.Outcome() || g1.Method() != g2.Method()) {
		t.Errorf("replaying: %s, then %s", Summary(g1), Summary(g2))
	}
}

func isRoster(name string) bool {
	for _, r := range roster {
		if r == name {
			return true
		}
	}
	return false
}
